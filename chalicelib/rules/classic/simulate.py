"""Simulator for classic villages: ``python -m chalicelib.simulate --rules classic ...``.

Plays G whole games in which every player makes random legal choices: each who must vote votes
for a uniform legal target, except that now and then one misses a round (and dies suddenly); the
werewolves, the seer and the hunter set a random legal choice most nights and leave it to the §3
default otherwise. Prints the win rate per team, game lengths, sudden deaths and the speed; the
last line is one JSON object of those figures.
"""

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from .abilities import NightChoices
from .cast import MAX_PLAYERS, MIN_PLAYERS, Cause
from .options import Options, TieRule
from .village import Phase, Village, Winner

# Chance that a player who must vote misses a round (sudden death), and that an ability is left
# unset for its default.
MISS_RATE = 0.002
UNSET_RATE = 0.2
# A game that goes on past this many days would be a bug (at most one death a day is not enough
# to keep a 16-player village going for this long).
MAX_DAYS = 40


def random_night(village: Village, rng: random.Random) -> dict[str, NightChoices]:
    """Random legal choices of every living actor, saved in a random order."""
    actors = [p for p in village.players if village.choice_keys(p)]
    rng.shuffle(actors)
    saved: dict[str, NightChoices] = {}
    for actor in actors:
        made: dict[str, str] = {}
        for ability in village.choice_keys(actor):
            targets = village.choice_targets(actor, ability)
            if targets and rng.random() >= UNSET_RATE:
                made[ability.value] = rng.choice(targets)
        if made:
            saved[actor] = NightChoices(**made)
    return saved


def random_votes(village: Village, rng: random.Random, miss_rate: float) -> dict[str, str]:
    """Every voter's uniform legal vote, except for the rare one who misses the round."""
    votes: dict[str, str] = {}
    for voter in village.voters():
        if rng.random() < miss_rate:
            continue
        votes[voter] = rng.choice(village.vote_targets(voter))
    return votes


def play(players: int, rng: random.Random, options: Options, miss_rate: float) -> Village:
    """One whole game, to its ending."""
    village = Village.create(players, rng, options)
    if village.phase is Phase.DAY:
        village.sunset()
    while village.ending is None:
        if village.day > MAX_DAYS:
            raise RuntimeError(f"no ending after {MAX_DAYS} days")
        if village.phase is Phase.NIGHT:
            village.resolve_night(random_night(village, rng), rng)
        else:
            village.close_round(random_votes(village, rng, miss_rate), rng)
    return village


def simulate(
    players: int, games: int, seed: int, tie: TieRule = TieRule.BBS, miss_rate: float = MISS_RATE
) -> dict[str, Any]:
    rng = random.Random(seed)
    options = Options.create("short", tie=str(tie))
    winners: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    sudden = 0
    games_with_sudden = 0
    started = time.perf_counter()
    for _ in range(games):
        village = play(players, rng, options, miss_rate)
        assert village.ending is not None
        winners[village.ending.winner] += 1
        lengths[village.ending.day] += 1
        died = sum(1 for d in village.deaths.values() if d.cause is Cause.SUDDEN)
        sudden += died
        games_with_sudden += died > 0
    elapsed = time.perf_counter() - started
    return {
        "rules": "classic",
        "players": players,
        "games": games,
        "seed": seed,
        "tie": str(tie),
        "win_rate": {str(w): round(winners[w] / games, 4) for w in Winner},
        "mean_ending_day": round(sum(d * n for d, n in lengths.items()) / games, 2),
        "ending_day": {str(day): lengths[day] for day in sorted(lengths)},
        "sudden_deaths": sudden,
        "games_with_sudden_death": games_with_sudden,
        "games_per_second": round(games / elapsed, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="人狼BBS式（classic）のランダム対局シミュレーター")
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tie", choices=[str(t) for t in TieRule], default="bbs")
    parser.add_argument("--miss-rate", type=float, default=MISS_RATE)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games は1以上にしてください")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players は{MIN_PLAYERS}から{MAX_PLAYERS}までです")
    if not 0 <= args.miss_rate < 1:
        parser.error("--miss-rate は0以上1未満です")
    report = simulate(args.players, args.games, args.seed, TieRule(args.tie), args.miss_rate)
    print(f"classic, {report['players']} players, tie {report['tie']}: {report['games']} games")
    print(f"  (seed {report['seed']})")
    for team, rate in report["win_rate"].items():
        print(f"  win rate {team}: {rate:.1%}")
    print(f"  mean ending day: {report['mean_ending_day']}")
    print("  ending day: " + ", ".join(f"day {d}: {n}" for d, n in report["ending_day"].items()))
    print(
        f"  sudden deaths: {report['sudden_deaths']} (in {report['games_with_sudden_death']} games)"
    )
    print(f"  {report['games_per_second']} games/s")
    print(json.dumps(report, ensure_ascii=False))
    sys.stdout.flush()
    return 0
