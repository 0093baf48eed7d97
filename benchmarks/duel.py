"""Duel CPUs (issue #15): win rates against random legal play and the time per CPU move.

Targets: against the same opponent the CPU wins ≥ 25 percentage points more often than a
random legal player, on each side, in std9 and 12B; a CPU move ≤ 200 ms at the 95th
percentile. 400 games per matchup keep each margin within about ±3 pp of noise and
``make bench`` under a minute (random vs random, needed only for the other reading of
"the same opponent", is left out).
"""

from typing import Any

from chalicelib.rules.duel.simulate import simulate

PRESETS = ("std9", "12B")
GAMES = 400  # per matchup and preset
SEED = 1000


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
            "cpu_move_ms_mean": report["cpu_move_ms"]["mean"],
            "cpu_move_ms_p95": report["cpu_move_ms"]["p95"],
            "meets_targets": report["a_margin_pp"] >= 25
            and report["b_margin_pp"] >= 25
            and report["cpu_move_ms"]["p95"] <= 200,
        }
    return out
