"""The deployment package: its size and a cold import of ``app`` from it.

The zip is built as ``make package`` builds it and unpacked to a temporary directory; each
run is a fresh interpreter with the package first on ``sys.path`` that may not write
bytecode (Lambda's ``/var/task`` is read-only), so it pays what a cold start pays. boto3 and
botocore come from this environment's compiled site-packages, as the Lambda runtime's come
from its own path.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from infra.build import build

RUNS = 7
IMPORT_APP = (
    "import time; started = time.perf_counter(); import app; "
    "print((time.perf_counter() - started) * 1000)"
)


def cold_import_milliseconds(package: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    times = []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-c", IMPORT_APP],
            cwd=package.parent,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def figures() -> dict[str, float]:
    deployment = build("dev").parent / "deployment.zip"
    with tempfile.TemporaryDirectory() as work:
        package = Path(work) / "package"
        with zipfile.ZipFile(deployment) as zipped:
            zipped.extractall(package)
        import_ms = cold_import_milliseconds(package)
    return {
        "zip_bytes": deployment.stat().st_size,
        "cold_import_ms": round(import_ms, 1),
    }


if __name__ == "__main__":
    print(figures())
