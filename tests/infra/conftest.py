"""One ``make package`` build per test run, shared by the package and deploy tests.

Under xdist each worker has its own session, so the build is made once in the run's shared
temporary folder under a file lock (pytest-xdist's documented pattern): the first worker
that needs it builds, the others wait and reuse it.
"""

import fcntl
import os
from pathlib import Path

import pytest

from infra.build import build


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dev-stage template.json beside its deployment.zip, as ``make package`` writes them."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # one process: its own build
        return build("dev", out=tmp_path_factory.mktemp("out"))
    shared = tmp_path_factory.getbasetemp().parent / "package"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = shared / "out" / "template.json"
        if not (shared / "done").exists():
            build("dev", out=shared / "out")
            (shared / "done").touch()
        return built
