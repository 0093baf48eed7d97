"""今日の盤面パズル (issue #25): the seconds a day's generation takes (CPU games played until a
mid-game position passes the uniqueness check, decisions 85–86), over DAYS consecutive JST
days.

Target: well under a Lambda's limits — the daily job has 15 minutes; the page makes the
day's puzzle only when the job has not (a request has the HTTP API's 30 s).
Measured (mid-game puzzles, decision 86; this two-core machine): 3.4 s of CPU a day on average,
5.3 s p90, 9.8 s at most; 171 games on average, 537 at most.
"""

import statistics
import time
from datetime import date, timedelta
from typing import Any

from chalicelib.rules.duel.puzzle import generate
from chalicelib.services.puzzles import seed_of

DAYS = 10  # each day is seconds of CPU games: ten days tell the spread
FIRST = date(2026, 12, 1)


def figures() -> dict[str, Any]:
    seconds: list[float] = []
    games: list[int] = []
    for n in range(DAYS):
        started = time.process_time()
        puzzle = generate(seed_of(FIRST + timedelta(days=n)))
        seconds.append(time.process_time() - started)
        games.append(puzzle.tried)
    ordered = sorted(seconds)
    return {
        "days": DAYS,
        "cpu_seconds_mean": round(statistics.fmean(seconds), 2),
        "cpu_seconds_p90": round(ordered[int(0.9 * (DAYS - 1))], 2),
        "cpu_seconds_max": round(max(seconds), 2),
        "games_mean": round(statistics.fmean(games), 1),
        "games_max": max(games),
    }
