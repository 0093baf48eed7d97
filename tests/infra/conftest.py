"""One ``make package`` build per test process, shared by the package and deploy tests."""

from pathlib import Path

import pytest

from infra.build import build


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """infra/out's template.json and deployment.zip, built for the dev stage elsewhere."""
    return build("dev", out=tmp_path_factory.mktemp("out"))
