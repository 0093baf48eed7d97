"""Duel simulator: ``python -m chalicelib.simulate --rules duel --preset std9 --games N``.

Plays the strongest CPU-A vs CPU-B, CPU-A vs a random legal B and a random legal A vs
CPU-B (and, as a baseline, random vs random) on each preset asked for, and prints each
side's win rate, each CPU's margin over random legal play against the same opponent, and
the time per CPU move (mean, p95 and max). With ``--levels`` it plays every strength of
CPU-A against every strength of CPU-B instead, and each pair of strengths head to head
(each plays A against the other's B and B against the other's A). The last line is one JSON
object of every figure.

The margins: CPU-A's is its village win rate against CPU-B minus a random A's against
CPU-B; CPU-B's is its wolves win rate against CPU-A minus a random B's against CPU-A.
The ``*_vs_random`` margins read "the same opponent" as a random legal player instead.
"""

import argparse
import json
import random
import statistics
import time
from collections import Counter
from typing import Any

from .cpu import STRENGTHS, Player, player, random_player
from .deck import PRESETS, preset
from .draws import Draws
from .legal import legal_moves
from .moves import play
from .state import Duel
from .views import view

STRONG = player("strong")
MATCHUPS: dict[str, tuple[Player, Player]] = {
    "cpu_vs_cpu": (STRONG, STRONG),
    "cpu_vs_random": (STRONG, random_player),
    "random_vs_cpu": (random_player, STRONG),
    "random_vs_random": (random_player, random_player),  # the baseline of the other reading
}
MAX_MOVES = 2000


def play_game(
    rules_name: str, a: Player, b: Player, seed: int, timings: list[float] | None = None
) -> dict[str, Any]:
    """One whole game; CPU move times (seconds) are appended to ``timings``."""
    engine_rng = random.Random(seed)
    players = {"A": (a, random.Random(seed * 2 + 1)), "B": (b, random.Random(seed * 2 + 2))}
    duel = Duel.setup(preset(rules_name), Draws(engine_rng))
    for _ in range(MAX_MOVES):
        if duel.phase == "end":
            break
        side = duel.phase[0]
        chooser, rng = players[side]
        seen, legal = view(duel, side), legal_moves(duel, side)
        started = time.perf_counter()
        move = chooser(seen, legal, rng)
        if timings is not None and chooser is not random_player:
            timings.append(time.perf_counter() - started)
        play(duel, side, move, engine_rng)
    assert duel.ending is not None
    return duel.ending


def p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def simulate(rules_name: str, games: int, seed: int, baseline: bool = True) -> dict[str, Any]:
    """Every matchup; without ``baseline``, random vs random (and the margins against a
    random opponent that need it) is left out."""
    report: dict[str, Any] = {"preset": rules_name, "games": games}
    timings: list[float] = []
    for name, (a, b) in MATCHUPS.items():
        if name == "random_vs_random" and not baseline:
            continue
        winners: Counter[str] = Counter()
        for n in range(games):
            winners[play_game(rules_name, a, b, seed + n, timings)["winner"]] += 1
        report[name] = {w: round(winners[w] / games, 4) for w in ("village", "wolves", "fox")}
    a_cpu, a_random = report["cpu_vs_cpu"]["village"], report["random_vs_cpu"]["village"]
    b_cpu, b_random = report["cpu_vs_cpu"]["wolves"], report["cpu_vs_random"]["wolves"]
    report["a_margin_pp"] = round(100 * (a_cpu - a_random), 1)
    report["b_margin_pp"] = round(100 * (b_cpu - b_random), 1)
    if baseline:  # the other reading of "the same opponent": against a random legal player
        base = report["random_vs_random"]
        report["a_margin_vs_random_pp"] = round(
            100 * (report["cpu_vs_random"]["village"] - base["village"]), 1
        )
        report["b_margin_vs_random_pp"] = round(
            100 * (report["random_vs_cpu"]["wolves"] - base["wolves"]), 1
        )
    report["cpu_move_ms"] = move_ms(timings)
    return report


def move_ms(timings: list[float]) -> dict[str, Any]:
    return {
        "mean": round(1000 * statistics.fmean(timings), 2) if timings else 0.0,
        "p95": round(1000 * p95(timings), 2),
        "max": round(1000 * max(timings, default=0.0), 2),
        "moves": len(timings),
    }


def levels(rules_name: str, games: int, seed: int) -> dict[str, Any]:
    """Every strength of CPU-A against every strength of CPU-B: win rates, "A level/B level"."""
    report: dict[str, Any] = {"preset": rules_name, "games": games}
    timings: list[float] = []
    for a in STRENGTHS:
        for b in STRENGTHS:
            winners: Counter[str] = Counter()
            for n in range(games):
                ending = play_game(rules_name, player(a), player(b), seed + n, timings)
                winners[ending["winner"]] += 1
            rates = {w: round(winners[w] / games, 4) for w in ("village", "wolves", "fox")}
            report[f"{a}/{b}"] = rates
    report["head_to_head"] = head_to_head(report)
    report["cpu_move_ms"] = move_ms(timings)
    return report


def head_to_head(table: dict[str, Any]) -> dict[str, Any]:
    """Each pair of strengths, stronger first, over both sides with as many games on each:
    the share of the pair's games each level won (as A its village wins, as B its wolves
    wins; a fox win is neither's) and the stronger's lead in points (decision 104)."""
    pairs: dict[str, Any] = {}
    order = list(STRENGTHS)
    for i, weak in enumerate(order):
        for strong in order[i + 1 :]:
            strong_won = table[f"{strong}/{weak}"]["village"] + table[f"{weak}/{strong}"]["wolves"]
            weak_won = table[f"{weak}/{strong}"]["village"] + table[f"{strong}/{weak}"]["wolves"]
            pairs[f"{strong}>{weak}"] = {
                strong: round(strong_won / 2, 4),
                weak: round(weak_won / 2, 4),
                "lead_pp": round(100 * (strong_won - weak_won) / 2, 1),
            }
    return pairs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="2人人狼のCPU対戦シミュレーター")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--levels", action="store_true", help="強さどうしの対戦表")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games は1以上にしてください")
    if args.levels:
        tables = [levels(name, args.games, args.seed) for name in args.preset or ["std9"]]
        for t in tables:
            print(f"{t['preset']}: {t['games']} games per pair (seed {args.seed}), A/B level")
            for a in STRENGTHS:
                for b in STRENGTHS:
                    rates = ", ".join(f"{w} {p:.1%}" for w, p in t[f"{a}/{b}"].items())
                    print(f"  A {STRENGTHS[a]} vs B {STRENGTHS[b]}: {rates}")
            for pair, won in t["head_to_head"].items():
                strong, weak = pair.split(">")
                print(
                    f"  {STRENGTHS[strong]} vs {STRENGTHS[weak]} (both sides): "
                    f"{won[strong]:.1%} vs {won[weak]:.1%}, lead {won['lead_pp']:+.1f} pp"
                )
        print(json.dumps({"duel_levels": tables}, ensure_ascii=False))
        return 0
    reports = [simulate(name, args.games, args.seed) for name in args.preset or ["std9"]]
    for r in reports:
        print(f"{r['preset']}: {r['games']} games per matchup (seed {args.seed})")
        for name in MATCHUPS:
            rates = ", ".join(f"{w} {p:.1%}" for w, p in r[name].items())
            print(f"  {name}: {rates}")
        print(f"  CPU-A margin over random A (vs CPU-B): {r['a_margin_pp']:+.1f} pp")
        print(f"  CPU-B margin over random B (vs CPU-A): {r['b_margin_pp']:+.1f} pp")
        print(
            f"  against a random opponent: CPU-A {r['a_margin_vs_random_pp']:+.1f} pp,"
            f" CPU-B {r['b_margin_vs_random_pp']:+.1f} pp"
        )
        ms = r["cpu_move_ms"]
        print(
            f"  CPU move: mean {ms['mean']} ms, p95 {ms['p95']} ms, max {ms['max']} ms"
            f" over {ms['moves']} moves"
        )
    print(json.dumps({"duel": reports}, ensure_ascii=False))
    return 0
