"""Simulator for Mobius villages: ``python -m chalicelib.simulate [--cpu] ...``.

Plays N whole games in which every member makes random legal choices (``--cpu``: every
member is a computer member playing from its seat's view), then
prints the win rate per side, the distribution of game lengths and the speed.
The last line is one JSON object of those figures.
"""

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ...rules.mobius import CHOICE_KEYS, SLOTS, Choices, Village
from ..base import Bans
from ..turns import SeatClock
from . import computer, labels, visibility
from .timeline import Phase

# Chance that a member leaves a given choice undecided, and that the oni side
# agrees on a declaration or resignation on a given day.
UNDECIDED_RATE = 0.2
COMMAND_RATE = 0.02
# A computer-only day (``--cpu``): its length, and the shares of it at which every member
# takes a turn (the morning twice: the first posts are heard within the morning's look).
CPU_DAY = timedelta(minutes=45)
CPU_MOMENTS = (0.0, 0.0, 1 / 2, 3 / 4)


def random_choices(village: Village, actor: str, rng: random.Random) -> Choices:
    """One member's random legal choices for today."""
    made: dict[str, str] = {}
    for key in CHOICE_KEYS:
        if key in ("victory", "resign") or rng.random() < UNDECIDED_RATE:
            continue
        targets = village.legal_targets(actor, key)
        if targets:
            made[key] = rng.choice(targets)
    return Choices(**made)


def play(rng: random.Random) -> Village:
    """One whole game, to its ending."""
    village = Village.create(rng)
    village.start()
    while village.ending is None:
        choices = {slot: random_choices(village, slot, rng) for slot in SLOTS}
        if rng.random() < COMMAND_RATE:
            key = rng.choice(("victory", "resign"))
            for slot in village.oni_side[:3]:
                choices[slot] = Choices(**{**choices[slot].to_dict(), key: slot})
            command = village.command(choices)
            assert command is not None  # three oni agreed on one
            village.end_by_command(command, at_night=rng.random() < 0.5)
        else:
            village.resolve_night(choices, rng)
    return village


def cpu_play(rng: random.Random) -> Village:
    """One whole game of computer members, each with its own RNG. Each day every member takes
    a turn, in a random order, from its seat's view, at the day's start and at each of
    ``CPU_MOMENTS`` (so the oni side sees the votes its partners cast first, and everyone
    hears the posts written before its turn, as on the boards); a command set by three takes
    effect during the day (RULES §7)."""
    village = Village.create(rng)
    village.start()
    seats = {slot: random.Random(rng.getrandbits(64)) for slot in SLOTS}
    start = datetime(2026, 1, 1, tzinfo=UTC)
    while village.ending is None:
        saved: dict[str, dict[str, str]] = {}
        heard: list[dict[str, Any]] = []
        posted: dict[str, datetime] = {}
        for share in CPU_MOMENTS:
            now = start + CPU_DAY * share
            for slot in rng.sample(SLOTS, len(SLOTS)):
                view = visibility.seat_view(
                    village,
                    Phase.DAY,
                    slot,
                    names=labels.SLOT_LABELS,
                    computers=SLOTS,
                    saved=saved,
                    bans=Bans(),
                    clock=SeatClock(now, start, CPU_DAY, posted.get(slot)),
                    heard=heard,
                )
                turn = computer.turn(view, seats[slot])
                made = {**saved.get(slot, {}), **turn.choices}
                saved[slot] = {k: v for k, v in made.items() if v is not None}
                for board, text in turn.posts:
                    heard.append({"board": board, "slot": slot, "text": text, "at": now})
                    posted[slot] = now
        end_day(village, saved, rng)
        start += CPU_DAY * 2
    return village


def end_day(village: Village, saved: Mapping[str, Mapping[str, str]], rng: random.Random) -> None:
    """The day's saved choices take effect: a command three oni-side members set ends the
    game during the day (RULES §7), else the night is resolved."""
    choices = {slot: Choices(**made) for slot, made in saved.items()}
    command = village.command(choices)
    if command is not None:
        village.end_by_command(command, at_night=False)
    else:
        village.resolve_night(choices, rng)


def simulate(games: int, seed: int, cpu: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    winners: Counter[str] = Counter()
    ended_by: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    started = time.perf_counter()
    for _ in range(games):
        village = cpu_play(rng) if cpu else play(rng)
        assert village.ending is not None
        winners[village.ending.winner] += 1
        ended_by[village.ending.by] += 1
        lengths[village.ending.day] += 1
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "seed": seed,
        "players": "cpu" if cpu else "random",
        "win_rate": {side: round(winners[side] / games, 4) for side in ("human", "oni")},
        "ended_by": dict(sorted(ended_by.items())),
        "ending_day": {str(day): lengths[day] for day in sorted(lengths)},
        "games_per_second": round(games / elapsed, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="メビウス人狼のランダム対局シミュレーター")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu", action="store_true", help="コンピューターの村民だけで遊ぶ")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games は1以上にしてください")
    report = simulate(args.games, args.seed, cpu=args.cpu)
    print(f"games: {report['games']} (seed {report['seed']}, {report['players']} players)")
    for side, rate in report["win_rate"].items():
        print(f"  win rate {side}: {rate:.1%}")
    for by, count in report["ended_by"].items():
        print(f"  ended by {by}: {count}")
    print("  ending day: " + ", ".join(f"day {d}: {n}" for d, n in report["ending_day"].items()))
    print(f"  {report['games_per_second']} games/s")
    print(json.dumps(report, ensure_ascii=False))
    sys.stdout.flush()
    return 0
