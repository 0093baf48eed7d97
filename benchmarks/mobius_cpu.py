"""A Mobius computer member's decision time: ``MOBIUS.computer_turn`` (its seat's view built
by visibility, then the strategy) per member per update, over whole games of computer members
read through a plain village view (no storage: the requests are the platform's)."""

import random
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from chalicelib import simulate
from chalicelib.rules.mobius import SLOTS, Village
from chalicelib.rulesets.base import Pace, Seat, State
from chalicelib.rulesets.mobius.ruleset import MOBIUS
from chalicelib.rulesets.mobius.timeline import TIMINGS

START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


@dataclass
class _Village:
    """A running short village of computer members, as a rule set reads one."""

    game: Village
    saved_today: dict[str, dict[str, str]] = field(default_factory=dict)
    state: State = State.RUNNING
    pace: Pace = Pace.SHORT
    village_id: str = "bench"
    name: str = "村"
    seed: int = 0
    created_at: datetime = START - timedelta(hours=6)
    day_started_at: datetime | None = START
    next_update: datetime | None = START + TIMINGS[Pace.SHORT].turn

    def seats(self) -> dict[str, Seat]:
        return {slot: Seat(slot, f"cpu:{slot}", None, slot) for slot in SLOTS}

    def saved(self, day: int) -> dict[str, dict[str, str]]:
        return self.saved_today

    def recorded(self, day: int) -> dict[str, dict[str, str]]:
        return self.saved_today

    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]:
        return {self.game.day: self.saved_today}

    def saved_at(self, day: int) -> dict[str, str]:
        return {}


def turn_times(games: int = 40, seed: int = 7) -> list[float]:
    """Milliseconds of each member's turn, every member every day of ``games`` games."""
    rng = random.Random(seed)
    spent = []
    now = START + TIMINGS[Pace.SHORT].day * 0.3
    for _ in range(games):
        game = Village.create(rng)
        game.start()
        while game.ending is None:
            village = _Village(game)
            for slot in SLOTS:
                started = time.perf_counter()
                turn = MOBIUS.computer_turn(village, slot, now, random.Random(rng.getrandbits(64)))
                spent.append((time.perf_counter() - started) * 1000)
                made = {k: v for k, v in turn.choices.items() if v is not None}
                village.saved_today[slot] = made
            simulate.end_day(game, village.saved_today, rng)
    return spent


def figures() -> dict[str, float]:
    spent = turn_times()
    return {
        "turns": len(spent),
        "turn_ms_mean": round(statistics.fmean(spent), 3),
        "turn_ms_p95": round(statistics.quantiles(spent, n=20)[-1], 3),
    }
