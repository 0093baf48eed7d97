"""Duel CPUs (issues #15, #21): the strongest CPUs' margins over random legal play, and the
time per CPU move on every preset.

Targets: against the same opponent each 「強い」 CPU wins ≥ 25 percentage points more often
than a random legal player, on each side, in std9 and 12B (judged on three seeds, docs/duel.md);
a CPU move ≤ 200 ms at the 95th percentile and ≤ 1 s at most, on every preset. 400 games per
matchup keep each margin within about ±3 pp of noise (random vs random, needed only for the
other reading of "the same opponent", is left out); the other presets are played CPU vs CPU
for their move times only.
"""

from typing import Any

from chalicelib.rules.duel.simulate import STRONG, move_ms, play_game, simulate

PRESETS = ("std9", "12B")
GAMES = 400  # per matchup and preset
TIMED = ("10A", "12A", "17A")  # move times only
TIMED_GAMES = 20
SEED = 1000


def _fast(ms: dict[str, Any]) -> bool:
    return bool(ms["p95"] <= 200 and ms["max"] <= 1000)


def figures() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in PRESETS:
        report = simulate(name, GAMES, SEED, baseline=False)
        out[name] = {
            "games_per_matchup": GAMES,
            "cpu_vs_cpu": report["cpu_vs_cpu"],
            "cpu_vs_random": report["cpu_vs_random"],
            "random_vs_cpu": report["random_vs_cpu"],
            "a_margin_pp": report["a_margin_pp"],
            "b_margin_pp": report["b_margin_pp"],
            "cpu_move_ms": report["cpu_move_ms"],
            "meets_targets": report["a_margin_pp"] >= 25
            and report["b_margin_pp"] >= 25
            and _fast(report["cpu_move_ms"]),
        }
    for name in TIMED:
        timings: list[float] = []
        for n in range(TIMED_GAMES):
            play_game(name, STRONG, STRONG, SEED + n, timings)
        ms = move_ms(timings)
        out[name] = {"games": TIMED_GAMES, "cpu_move_ms": ms, "meets_targets": _fast(ms)}
    return out
