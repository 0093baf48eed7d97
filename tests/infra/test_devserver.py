"""``make run``'s local village: serves the lounge, seeds a village, keeps data across restarts."""

import gzip
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(workdir: Path) -> tuple[subprocess.Popen, int]:
    """The local village, up; on any failure to come up it is stopped before the error goes on."""
    port, moto_port = free_port(), free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("DYNAMODB_ENDPOINT", "SES_ENDPOINT", "MOBIUS_QUEUE_URL", "MOBIUS_STAGE"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "devserver", "--port", str(port), "--moto-port", str(moto_port)],
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Room for a loaded two-core machine: the first import of moto and the app is slow there.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stdout.read()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                return process, port
            except OSError:  # refused, reset or timed out (URLError and TimeoutError alike)
                time.sleep(0.3)
        raise AssertionError("the local village did not come up")
    except BaseException:
        kill(process)
        raise


def kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=30)


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def get_gzip(port: int, path: str) -> tuple[str | None, bytes]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", headers={"Accept-Encoding": "gzip"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers.get("Content-Encoding"), response.read()


def stop(process: subprocess.Popen) -> str:
    """Stops the village as Ctrl-C does; one that does not stop in time is killed all the same.

    Ctrl-C lets a running job finish before the last snapshot: the first tick after a start
    makes the day's and tomorrow's puzzles (seconds of CPU alone, over a minute once on a loaded
    two-core machine), so the stop has the same room as the start."""
    process.send_signal(signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        kill(process)
        raise
    return output


def gm(workdir: Path, *args: str) -> str:
    """``python -m chalicelib.gm …`` run from ``workdir`` as a GM would, without endpoints set."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("DYNAMODB_ENDPOINT", "MOBIUS_TABLE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "chalicelib.gm", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_serves_seeds_and_keeps_its_data_across_a_restart(tmp_path):
    process, port = start(tmp_path)
    try:
        status, lounge = get(port, "/")
        assert status == 200
        assert "はじめての短期村" in lounge
        assert "はじめての人狼BBS村" in lounge and "人狼BBS式・短期" in lounge
        assert get(port, "/dev/outbox")[0] == 200
        assert get(port, "/dev/clock")[0] == 200
        status, missing = get(port, "/no/such/page")
        assert status == 404
        assert "ページが見つかりません" in missing
        # A form's address opened as a page (a reload of 人狼の配置) is the Japanese 405 page.
        status, form_address = get(port, "/matches")
        assert status == 405 and "フォームの送り先" in form_address
        assert get(port, "/favicon.ico")[0] == 200
        # Gzip as API Gateway in AWS: pages of 1 KB or more, when the browser accepts it.
        encoding, body = get_gzip(port, "/")
        assert encoding == "gzip"
        assert "はじめての短期村" in gzip.decompress(body).decode("utf-8")
        # The GM command line as docs/gm.md writes it finds this server by itself (issue 26).
        assert gm(tmp_path, "list").splitlines()[0].startswith("番号\tルール")
        assert "はじめての人狼BBS村" in gm(tmp_path, "list")
    finally:
        output = stop(process)
    assert "http://127.0.0.1:" in output
    assert (tmp_path / ".local" / "state.json").exists()
    assert not (tmp_path / ".local" / "server.json").exists()  # stopped: nothing to find

    process, port = start(tmp_path)
    try:
        status, lounge = get(port, "/")
        assert status == 200
        # The same one village: restored, not seeded again.
        assert lounge.count("はじめての短期村") == 1
        assert lounge.count("はじめての人狼BBS村") == 1
        assert 'href="/villages/1"' in lounge
    finally:
        stop(process)


class EmptyTable:
    """A DynamoDB client whose table holds nothing: what a snapshot scans."""

    def get_paginator(self, operation: str):
        assert operation == "scan"
        return self

    def paginate(self, TableName: str):  # boto3's own argument name
        return [{"Items": []}]


def test_ctrl_c_saves_and_stops_without_waiting_for_a_running_tick(tmp_path, monkeypatch):
    """Ctrl-C's last snapshot while a tick is busy (the day's puzzles, a practice village's
    CPUs: a minute on a loaded machine) is written at once; the tick is not waited for."""
    from devserver.__main__ import LocalVillage
    from devserver.schedule import Scheduled

    monkeypatch.chdir(tmp_path)
    busy, release = threading.Event(), threading.Event()

    def long_job() -> None:
        busy.set()
        release.wait(120)

    village = LocalVillage({}, "secret", [Scheduled("tick", long_job, None)])
    ticker = threading.Thread(target=village.tick, daemon=True)
    ticker.start()
    try:
        assert busy.wait(60)
        stopping = threading.Thread(target=village.snapshot, args=(EmptyTable(),), daemon=True)
        stopping.start()
        stopping.join(60)  # a deadlock guard, not a measure: without the fix it never ends
        assert not stopping.is_alive(), "the last snapshot waited for the tick"
        assert ticker.is_alive()  # the tick is still running: it was not waited for
        assert (tmp_path / ".local" / "state.json").exists()
    finally:
        release.set()
