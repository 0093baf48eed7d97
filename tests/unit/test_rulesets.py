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
from chalicelib.rulesets.match import RESIGN
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


def test_every_game_has_its_runner_and_simulator_in_the_registry():
    """The command lines name no game (decision 240): each registered game's tools load."""
    assert list(rulesets.TOOLS) == [*rulesets.PLACES, *rulesets.MATCH_PLACES]
    for name in rulesets.TOOLS:
        assert rulesets.scenario_runner(name)({"id": "x"})["id"] == "x"
        assert callable(rulesets.simulator(name))


def test_resigning_is_the_platforms_verb_played_through_the_rule_sets_forfeit():
    """投了 is no move of the rule set's: the platform plays it, the rule set's ``forfeit``
    ending the game and its ``verbs`` wording it (decision 243)."""
    from chalicelib.services.matches import move_of_form, play_move

    rules = rulesets.match_rules("duel")
    setup = rules.check_setup({"preset": "std9", "side": "A", "strength": "normal"})
    game = rules.create(setup, random.Random(1))
    with pytest.raises(ValueError):
        rules.play(game, "A", {"do": RESIGN}, random.Random(2))
    assert move_of_form(rules, game, "B", {"do": RESIGN}) == {"do": RESIGN}
    played = play_move(rules, game, "B", {"do": RESIGN}, random.Random(2))
    assert played.move == {"do": RESIGN} and played.side == "B"
    assert rules.outcome(played.game, "B") == "loss" and rules.to_move(played.game) is None
    assert played.game.ending["at"] == RESIGN and rules.to_move(game) == "A"  # a copy ended
    with pytest.raises(ValueError, match="投了にほかの指定はいりません"):
        play_move(rules, game, "A", {"do": RESIGN, "card": "3"}, random.Random(2))
    with pytest.raises(ValueError, match="対局はもう終わっています"):
        play_move(rules, played.game, "A", {"do": RESIGN}, random.Random(2))
