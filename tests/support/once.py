"""What several test files build alike (the package, every kind of mail), built once per run.

Under pytest-xdist each worker has its own session, so the first worker that needs a build
makes it in the run's shared temporary folder under a file lock (pytest-xdist's documented
pattern); the others wait for it and read the same files.
"""

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest


def once_per_run(
    factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """The folder ``name`` after ``build(folder)`` has run in it once in this run."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's base is a child of the run's
        base = base.parent
    folder = base / name
    folder.mkdir(exist_ok=True)
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "done").exists():
            build(folder)
            (folder / "done").touch()
    return folder
