"""Computer members (issue 24): their strength in CPU-only classic villages against the balance
simulator, their decision time per member per update, and the DynamoDB requests one adds.

- ``strength``: win rates by side of CPU-only villages at four sizes
  (``rulesets.classic.practice``: the same seat views and strategy as a CPU member) next to
  ``rules.classic.simulate``'s random play.
- ``decision``: ``RuleSet.computer_turn`` on the loaded village (the seat's view built through
  the visibility module, and the strategy), timed for every CPU at every look of a whole short
  classic village of one person and four CPUs on moto; p95 and max in ms.
- ``requests``: the DynamoDB requests of ``computers.play`` at each look of that village, per
  look and per CPU member (its reads, saves and posts; a person's own save or post costs the
  same requests through the same services).
"""

import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from moto import mock_aws

from chalicelib import effects
from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import simulate
from chalicelib.rulesets.classic import practice
from chalicelib.rulesets.classic.ruleset import Classic
from chalicelib.services import actions, computers, villages
from chalicelib.storage import db
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb

from .requests import counting, fake_aws, verified_accounts

# A size at each step of RULES-CLASSIC §1's deck (one wolf; a medium, a madman and two wolves;
# masons and a fox; three wolves): every size took most of `make bench`'s time for figures
# docs/classic.md's larger runs give (decision 184).
SIZES = (5, 9, 13, 16)
GAMES = 300
SIMULATED = 3000
START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)


def strength(games: int = GAMES) -> dict[str, Any]:
    rows = {}
    for n in SIZES:
        cpu = practice.win_rates(n, games, seed=24)
        sim = simulate.simulate(n, SIMULATED, seed=24)
        rows[str(n)] = {
            "cpu": cpu["win_rate"],
            "simulator": sim["win_rate"],
            "largest_gap_points": round(
                100 * max(abs(cpu["win_rate"][k] - sim["win_rate"][k]) for k in cpu["win_rate"]),
                1,
            ),
            "pure_decision_ms_p95": cpu["decision_ms_p95"],
        }
    return rows


def platform(villages_played: int = 5) -> dict[str, Any]:
    """Short classic villages of one person and four CPUs, from the start to the ending."""
    return measured(Classic, 4, play_one, villages_played)


def measured(
    rules: Any, cpus: int, play: Callable[[str, datetime], None], villages_played: int
) -> dict[str, Any]:
    """Decision time and requests of the CPUs of ``rules`` (a rule set's class), ``cpus`` in
    each village, over ``villages_played`` villages that ``play`` plays for one person each."""
    fake_aws()
    timings: list[float] = []
    per_look: list[int] = []
    original = rules.computer_turn

    def timed(self, village, slot, now, rng, heard=()):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return original(self, village, slot, now, rng, heard)
        finally:
            timings.append(time.perf_counter() - started)

    real_play = computers.play

    def counted_play(village_id, now, unit=None):  # type: ignore[no-untyped-def]
        with counting() as calls:
            again = real_play(village_id, now, unit)
        per_look.append(sum(calls.values()))
        return again

    rules.computer_turn = timed
    computers.play = counted_play
    try:
        with mock_aws(), like_dynamodb():
            db.configure()
            db.create_table()
            people = verified_accounts("cpubench", villages_played, START)
            for n, verified in enumerate(people):
                play(verified, START + timedelta(days=n))
    finally:
        rules.computer_turn = original
        computers.play = real_play
    timings.sort()
    acting = [n for n in per_look if n]
    return {
        "villages": villages_played,
        "decision_ms_p95": round(timings[int(len(timings) * 0.95)] * 1000, 2),
        "decision_ms_max": round(timings[-1] * 1000, 2),
        "turns": len(timings),
        "looks": len(per_look),
        "requests_per_look_mean": round(sum(per_look) / len(per_look), 1),
        "requests_per_look_max": max(per_look),
        "requests_per_cpu_per_look_mean": round(sum(per_look) / len(per_look) / cpus, 1),
        "requests_per_cpu_per_acting_look_mean": round(sum(acting) / max(len(acting), 1) / cpus, 1),
    }


def play_one(person: str, now: datetime) -> None:
    """One village: the person takes the free seat, votes for the first it may, and moves the
    clock to each next event once the CPUs have had their look."""
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short", name="計測練習村", rules="classic", cpu_members=4, practice=True
        ),
        now=now,
        rng=random.Random(24),
    )
    seats = load_village(vid).seats()
    free = next(s for s, m in seats.items() if m.account_id is None)
    held = {m.persona for m in seats.values()}
    villages.join(vid, person, free, next(p.key for p in YAMAZATO if p.key not in held), now)
    effects.advance_village(vid, now)
    actions.prologue(vid, person, "start", None, now)
    for _ in range(80):
        record = load_village(vid)
        if record.state.value != "running":
            break
        now += timedelta(seconds=10)
        effects.advance_village(vid, now)
        record = load_village(vid)
        vote = next((q for q in record.rules.quick_choices(record, free) if q.key == "vote"), None)
        if vote is not None and vote.was is None:
            actions.save_actions(vid, person, {"vote": vote.targets[0]}, now)
            continue
        if record.next_update is not None:
            now = max(now, record.next_update)
            effects.advance_village(vid, now)


def figures() -> dict[str, Any]:
    return {"platform": platform(), "strength": strength()}


if __name__ == "__main__":
    import json

    print(json.dumps(figures(), ensure_ascii=False))
