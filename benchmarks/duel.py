"""Duel CPUs (issue #15): win rates against random legal play and the time per CPU move.

Targets: against the same opponent the CPU wins ≥ 25 percentage points more often than a
random legal player, on each side, in std9 and 12B; a CPU move ≤ 200 ms at the 95th
percentile. A modest number of games keeps ``make bench`` short (well under a minute).
"""

from typing import Any

from chalicelib.rules.duel.simulate import simulate

PRESETS = ("std9", "12B")
GAMES = 250  # per matchup and preset
SEED = 1000


def figures() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in PRESETS:
        report = simulate(name, GAMES, SEED)
        out[name] = {
            "games_per_matchup": GAMES,
            "cpu_vs_cpu": report["cpu_vs_cpu"],
            "cpu_vs_random": report["cpu_vs_random"],
            "random_vs_cpu": report["random_vs_cpu"],
            "random_vs_random": report["random_vs_random"],
            "a_margin_pp": report["a_margin_pp"],
            "b_margin_pp": report["b_margin_pp"],
            "a_margin_vs_random_pp": report["a_margin_vs_random_pp"],
            "b_margin_vs_random_pp": report["b_margin_vs_random_pp"],
            "cpu_move_ms_mean": report["cpu_move_ms"]["mean"],
            "cpu_move_ms_p95": report["cpu_move_ms"]["p95"],
            "meets_targets": report["a_margin_pp"] >= 25
            and report["b_margin_pp"] >= 25
            and report["cpu_move_ms"]["p95"] <= 200,
        }
    return out
