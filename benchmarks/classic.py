"""Speed of the classic rules: the scenario runner and the simulator."""

import io
import json
import sys
import time
from contextlib import redirect_stdout

from chalicelib import scenario
from chalicelib.rules.classic import simulate


def scenario_lines(lines: int = 2000) -> float:
    """Classic scenario lines per second through the runner's ``main`` (night 1, a day's vote)."""
    votes = {f"p{i}": "p1" for i in range(2, 10)} | {"p1": "p2"}
    text = "".join(
        json.dumps({"id": n, "seed": n, "players": 9, "turns": [{}, {"rounds": [votes]}]}) + "\n"
        for n in range(lines)
    )
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        started = time.perf_counter()
        with redirect_stdout(io.StringIO()):
            scenario.main(["--rules", "classic"])
        return lines / (time.perf_counter() - started)
    finally:
        sys.stdin = stdin


def figures() -> dict[str, float]:
    return {
        "scenario_lines_per_second": round(scenario_lines(), 1),
        "simulated_games_per_second_9_players": simulate.simulate(9, 1000, 1)["games_per_second"],
        "simulated_games_per_second_16_players": simulate.simulate(16, 500, 1)["games_per_second"],
    }


if __name__ == "__main__":
    print(json.dumps(figures()))
