"""The deployment package: its size and a cold start's imports from it (``IMPORT_APP``).

The zip is built as ``make package`` builds it and unpacked to a temporary directory; each
run is a fresh interpreter with the package first on ``sys.path`` that may not write
bytecode (Lambda's ``/var/task`` is read-only), so it pays what a cold start pays. The figure
is the best of ``RUNS``: other work on the machine only adds to it. boto3 and botocore come
from this environment's compiled site-packages, as the Lambda runtime's come from its own
path.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from infra.build import build

from .startup import APP, FIRST_CALLS

RUNS = 7
# ``app`` and a village page's first call (its page handlers and the Mobius rule set): what the
# HTTP function's cold start pays before it serves a Mobius village.
IMPORT_APP = (
    "import time\nstarted, cpu = time.perf_counter(), time.process_time()\n"
    f"{APP}\n{FIRST_CALLS['village_page']}\n"
    "print((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)"
)


def cold_imports(package: Path) -> tuple[list[float], list[float]]:
    """Milliseconds of each run's ``IMPORT_APP``: wall clock, and CPU time of the process."""
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    wall, cpu = [], []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-c", IMPORT_APP],
            cwd=package.parent,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        seconds = done.stdout.strip().splitlines()[-1].split()
        wall.append(float(seconds[0]))
        cpu.append(float(seconds[1]))
    return wall, cpu


def figures() -> dict[str, float]:
    deployment = build("dev").parent / "deployment.zip"
    with tempfile.TemporaryDirectory() as work:
        package = Path(work) / "package"
        with zipfile.ZipFile(deployment) as zipped:
            zipped.extractall(package)
        wall, cpu = cold_imports(package)
    return {
        "zip_bytes": deployment.stat().st_size,
        "cold_import_ms": round(min(wall), 1),
        # CPU time barely depends on what else the machine runs; the median wall clock shows
        # how busy it was.
        "cold_import_cpu_ms": round(min(cpu), 1),
        "cold_import_ms_median": round(statistics.median(wall), 1),
    }


if __name__ == "__main__":
    print(figures())
