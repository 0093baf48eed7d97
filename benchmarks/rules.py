"""Speed of the rules engine, the scenario runner and the simulator."""

import io
import json
import random
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stdout

from chalicelib import scenario
from chalicelib.rules.mobius import SLOTS, Village
from chalicelib.rulesets.mobius import simulate

from . import lean_mobius


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


def scenario_input(lines: int) -> str:
    """``lines`` 13-day games with every choice undecided, one JSON scenario a line."""
    return "".join(
        json.dumps({"id": n, "seed": n, "days": [{} for _ in range(13)]}) + "\n"
        for n in range(lines)
    )


def timed_main(
    main: Callable[[], object], text: str, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, str]:
    """Seconds ``main`` takes to read ``text`` on stdin (by ``clock``), and what it wrote."""
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    out = io.StringIO()
    try:
        started = clock()
        with redirect_stdout(out):
            main()
        return clock() - started, out.getvalue()
    finally:
        sys.stdin = stdin


def scenario_lines(lines: int = 2000) -> float:
    """Scenario lines per second through the runner's ``main``."""
    return lines / timed_main(lambda: scenario.main([]), scenario_input(lines))[0]


def runner_against_lean(games: int = 3000, rounds: int = 3) -> dict[str, float]:
    """The runner's time over the lean reference resolver's on the same games (issue #14).

    CPU seconds of this process, the best of alternating rounds: on a shared machine the
    wall clock measures the neighbours. Both must write the same lines, or the comparison
    means nothing.
    """
    text = scenario_input(games)
    runner, lean = [], []
    for _ in range(rounds):
        seconds, ours = timed_main(lambda: scenario.main([]), text, time.process_time)
        runner.append(seconds)
        seconds, reference = timed_main(lean_mobius.main, text, time.process_time)
        lean.append(seconds)
        if ours != reference:
            raise AssertionError("the runner and the lean resolver disagree")
    return {
        "runner_seconds_3000_games": round(min(runner), 3),
        "lean_resolver_seconds_3000_games": round(min(lean), 3),
        "runner_over_lean": round(min(runner) / min(lean), 2),
    }


def figures() -> dict[str, float]:
    return {
        "microseconds_per_night": round(night_resolution(), 1),
        "scenario_lines_per_second": round(scenario_lines(), 1),
        "simulated_games_per_second": simulate.simulate(1000, 1)["games_per_second"],
        **runner_against_lean(),
    }
