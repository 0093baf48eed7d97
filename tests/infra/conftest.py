"""One ``make package`` build per test run, shared by the package and deploy tests (and by
the xdist workers: ``tests/support/once.py``)."""

from pathlib import Path

import pytest

from infra.build import build
from tests.support.once import once_per_run


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dev-stage template.json beside its deployment.zip, as ``make package`` writes them."""
    out = once_per_run(tmp_path_factory, "package", lambda folder: build("dev", out=folder))
    return out / "template.json"
