"""The rule-set seam: the registry, and the Mobius rule set read through a plain village view
(no storage): what an update step decides."""

import random
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from chalicelib import rulesets
from chalicelib.rules.duel import PRESETS, cpu
from chalicelib.rules.mobius import SLOTS, Village
from chalicelib.rulesets.base import Pace, Seat, State
from chalicelib.rulesets.mobius.ruleset import MOBIUS

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class View:
    """A village as a rule set reads it, without DynamoDB."""

    game: Any
    state: State = State.OPENING
    members: int = 13
    pace: Pace = Pace.SHORT
    village_id: str = "1"
    name: str = "村"
    created_at: datetime = NOW - timedelta(hours=6)
    day_started_at: datetime | None = None
    next_update: datetime | None = NOW
    seed: int = 7
    choices: dict[int, dict[str, dict[str, str]]] = field(default_factory=dict)

    def seats(self) -> dict[str, Seat]:
        return {
            slot: Seat(slot, f"p{n}" if n < self.members else None, None, slot)
            for n, slot in enumerate(SLOTS)
        }

    def saved(self, day: int) -> dict[str, dict[str, str]]:
        return self.choices.get(day, {})

    def recorded(self, day: int) -> dict[str, dict[str, str]]:
        return self.choices.get(day, {})

    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]:
        return self.choices

    def saved_at(self, day: int) -> dict[str, str]:
        return {slot: NOW.isoformat() for slot in self.choices.get(day, {})}


def test_villages_without_a_rule_set_play_mobius():
    assert rulesets.get(None) is MOBIUS
    assert rulesets.get("mobius") is MOBIUS
    with pytest.raises(ValueError):
        rulesets.get("nosuchgame")


def test_s2_the_opening_update_starts_a_village_of_12_and_owes_the_start_mail():
    step = MOBIUS.step(View(Village.create(random.Random(1)), members=12), NOW)
    assert step.state is State.RUNNING and step.happenings == ("started",)
    assert step.open_day == 1 and step.mail == "start" and step.day_started_at == NOW


def test_s2_too_few_members_extend_then_abandon_the_opening():
    game = Village.create(random.Random(1))
    extended = MOBIUS.step(View(game, members=11), NOW)
    assert extended.state is State.OPENING and extended.next_update == NOW + timedelta(hours=24)
    late = View(game, members=11, created_at=NOW - timedelta(hours=30))
    abandoned = MOBIUS.step(late, NOW)
    assert abandoned.state is State.ABANDONED and abandoned.release == frozenset(SLOTS)


def test_a_step_works_on_its_own_copy_of_the_game():
    game = Village.create(random.Random(1))
    game.start()
    view = View(game, state=State.RUNNING, day_started_at=NOW - timedelta(hours=1))
    step = MOBIUS.step(view, NOW)
    assert game.day == 1 and step.game.day == 2
    assert step.seal_day == 1 and step.happenings[0] == "morning"


def test_a_rule_set_is_imported_only_when_a_village_of_it_is_met():
    """A cold start serving Mobius villages does not import the classic engine."""
    probe = (
        "import sys, app; from chalicelib import rulesets; "
        "assert 'chalicelib.rules.classic' not in sys.modules; "
        "rulesets.get('mobius'); assert 'chalicelib.rules.classic' not in sys.modules; "
        "rulesets.get('classic'); assert 'chalicelib.rules.classic' in sys.modules"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", probe], cwd=root, check=True)


def test_the_lounge_names_each_game_as_its_rule_set_does():
    """The lounge reads each game's name, words and offer from its package (decision 217)."""
    labels, words = rulesets.labels(), rulesets.next_update_words()
    assert list(labels) == list(words) == list(rulesets.PLACES)
    for name in rulesets.PLACES:
        assert labels[name] == rulesets.get(name).label
        assert words[name] == rulesets.get(name).next_update_words
    offers = rulesets.offers()
    assert [offer.rules for offer in offers] == list(rulesets.MATCH_PLACES)
    assert offers == [rulesets.match_rules(name).offer() for name in rulesets.MATCH_PLACES]


def test_the_duel_offers_the_engines_presets_and_strengths_in_their_order():
    [offer] = rulesets.offers()
    assert [preset for preset, _ in offer.presets] == list(PRESETS)
    assert [strength for strength, _ in offer.strengths] == list(cpu.STRENGTHS)
