"""The deployment package and template: built, linted, and able to render a page."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from infra.build import build

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def template() -> Path:
    return build("dev")


def test_package_holds_app_chalicelib_and_templates(template):
    names = zipfile.ZipFile(template.parent / "deployment.zip").namelist()
    assert "app.py" in names
    assert "chalicelib/web/pages.py" in names
    assert "templates/village.html" in names
    assert "templates/mail/notice.txt" in names
    assert "templates/static/app.css" in names
    assert not any(name.startswith(("tests/", "devserver/", "moto/")) for name in names)


def test_template_has_table_queue_topic_and_passes_cfn_lint(template):
    body = json.loads(template.read_text(encoding="utf-8"))
    resources = body["Resources"]
    table = resources["MobiusTable"]["Properties"]
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["gsi1"]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert resources["AdvanceQueue"]["Type"] == "AWS::SQS::Queue"
    assert resources["SesNotificationsTopic"]["Type"] == "AWS::SNS::Topic"
    assert resources["GmCreateVillage"]["Type"] == "AWS::Serverless::Function"
    # Pages and the stylesheet of 1 KB or more go gzipped.
    assert resources["RestAPI"]["Properties"]["MinimumCompressionSize"] == 1024
    lint = subprocess.run(
        [str(Path(sys.executable).parent / "cfn-lint"), str(template)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_a_page_renders_from_the_package(template, tmp_path):
    with zipfile.ZipFile(template.parent / "deployment.zip") as package:
        package.extractall(tmp_path / "package")
    env = {
        **os.environ,
        # The package first, then this venv only for moto (the test's fake AWS).
        "PYTHONPATH": str(tmp_path / "package"),
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "infra" / "render_from_package.py")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["app_file"].startswith(str(tmp_path / "package"))
    assert result["status"] == 200
    assert "ラウンジ" in result["body"]
