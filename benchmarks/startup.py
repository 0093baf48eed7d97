"""Cold-start import time of app.py, the median of fresh interpreters."""

import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5


def import_milliseconds() -> float:
    """``python -X importtime``'s cumulative time for ``app`` (what a Lambda cold start pays)."""
    times = []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import app"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        last = [line for line in done.stderr.splitlines() if line.rstrip().endswith("| app")][-1]
        times.append(int(last.split("|")[1]) / 1000)
    return statistics.median(times)


def figures() -> dict[str, float]:
    return {"app_import_ms": round(import_milliseconds(), 1)}
