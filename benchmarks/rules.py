"""Speed of the rules engine, the scenario runner and the simulator."""

import io
import json
import random
import sys
import time
from contextlib import redirect_stdout

from chalicelib import scenario, simulate
from chalicelib.rules import SLOTS, Village


def night_resolution(nights: int = 20000, seed: int = 7) -> float:
    """Microseconds per ``resolve_night`` of a full village with random legal choices."""
    rng = random.Random(seed)
    spent = 0.0
    done = 0
    while done < nights:
        village = Village.create(rng)
        village.start()
        while village.ending is None and done < nights:
            choices = {slot: simulate.random_choices(village, slot, rng) for slot in SLOTS}
            started = time.perf_counter()
            village.resolve_night(choices, rng)
            spent += time.perf_counter() - started
            done += 1
    return spent / done * 1e6


def scenario_lines(lines: int = 2000) -> float:
    """Scenario lines per second through the runner's ``main``."""
    text = "".join(
        json.dumps({"id": n, "seed": n, "days": [{} for _ in range(13)]}) + "\n"
        for n in range(lines)
    )
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        started = time.perf_counter()
        with redirect_stdout(io.StringIO()):
            scenario.main([])
        return lines / (time.perf_counter() - started)
    finally:
        sys.stdin = stdin


def figures() -> dict[str, float]:
    return {
        "microseconds_per_night": round(night_resolution(), 1),
        "scenario_lines_per_second": round(scenario_lines(), 1),
        "simulated_games_per_second": simulate.simulate(1000, 1)["games_per_second"],
    }
