"""The GM command line picks its table on purpose (issue 26): ``make run``'s server from
``.local/server.json``, an AWS stage only with ``--stage``; otherwise it refuses before touching
anything."""

import json
from datetime import timedelta
from pathlib import Path

import pytest

from chalicelib import gm, runtime
from chalicelib.clock import system_clock
from chalicelib.storage import db

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_process(monkeypatch, tmp_path):
    """As a new ``python -m chalicelib.gm``: no table chosen yet, run from an empty directory."""
    saved = db.configured()
    monkeypatch.setattr(db, "_config", None)
    for name in ("DYNAMODB_ENDPOINT", "MOBIUS_TABLE", "AWS_REGION", "AWS_ACCESS_KEY_ID"):
        monkeypatch.delenv(name, raising=False)  # restored after: the command sets them
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "unused")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(gm, "CHALICE_CONFIG", REPO / ".chalice" / "config.json")
    yield tmp_path
    if saved is not None:
        db.configure(saved)  # the models point back where this worker's tests had them


def test_without_a_local_server_or_a_stage_it_refuses(fresh_process, capsys):
    assert gm.main(["list"]) == 2
    err = capsys.readouterr().err
    assert "ローカルのサーバーが見つかりません" in err and "--stage dev" in err
    assert db.configured() is None  # nothing was pointed anywhere


def test_an_unknown_stage_is_refused_by_name(fresh_process, capsys):
    assert gm.main(["--stage", "staging", "list"]) == 2
    assert capsys.readouterr().err.strip() == "ステージ staging はありません（dev・prod）"
    assert db.configured() is None


def test_a_stage_and_a_local_endpoint_together_are_refused(fresh_process, monkeypatch, capsys):
    monkeypatch.setenv("DYNAMODB_ENDPOINT", "http://127.0.0.1:5055")
    assert gm.main(["--stage", "prod", "list"]) == 2
    assert "DYNAMODB_ENDPOINT を外してください" in capsys.readouterr().err
    assert db.configured() is None


def test_the_stage_names_its_table(fresh_process):
    assert gm._table("prod") == "AWS の prod ステージ（テーブル mobius、ap-northeast-1）"
    assert db.configured() == db.TableConfig("mobius", "ap-northeast-1", None)


def test_make_run_s_server_is_found_from_its_state(fresh_process):
    local = fresh_process / ".local"
    local.mkdir()
    server = {
        "endpoint": "http://127.0.0.1:5099",
        "table": "mobius-local",
        "region": "ap-northeast-1",
    }
    (local / "server.json").write_text(json.dumps(server), encoding="utf-8")
    assert gm._table(None) == "ローカル（http://127.0.0.1:5099 のテーブル mobius-local）"
    assert db.configured() == db.TableConfig(
        "mobius-local", "ap-northeast-1", "http://127.0.0.1:5099"
    )


def test_on_make_run_s_server_the_gm_runs_on_its_local_clock(fresh_process, monkeypatch):
    """Issue 37: /dev/clock moved the villages 3 days ahead: the GM's log and 村建て share
    that time, not the real one."""
    monkeypatch.setattr(runtime, "_clock", runtime._clock)  # restored after: the command sets it
    local = fresh_process / ".local"
    local.mkdir()
    server = {"endpoint": "http://127.0.0.1:5099", "table": "t", "region": "ap-northeast-1"}
    (local / "server.json").write_text(json.dumps(server), encoding="utf-8")
    (local / "clock.json").write_text(json.dumps({"offset_seconds": 3 * 86400}), "utf-8")
    gm._table(None)
    real = system_clock()
    ahead = runtime.now() - real
    assert timedelta(days=3) <= ahead < timedelta(days=3, minutes=1)
