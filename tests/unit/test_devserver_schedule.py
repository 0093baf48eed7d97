"""``make run`` runs every schedule app.py declares (issue 25: the daily puzzle's too), each on
its own time on the local clock."""

from datetime import UTC, datetime, time, timedelta

from app import app
from chalicelib import jobs
from devserver.schedule import Scheduled, jobs_by_name, run_due, schedules

JST_0700 = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)  # 2026-12-02 07:00 JST


def test_every_schedule_of_the_app_has_its_job_in_make_run() -> None:
    declared = [s.name for s in app.event_sources if hasattr(s, "schedule_expression")]
    local = schedules(app)
    assert [s.name for s in local] == declared == list(jobs_by_name())
    by_name = {s.name: s for s in local}
    assert by_name["puzzle_daily"].job is jobs.puzzle_daily
    assert by_name["puzzle_daily"].daily_at == time(22, 0)  # app.py's Cron: 07:00 JST
    assert by_name["tick"].job is jobs.tick and by_name["tick"].daily_at is None


def test_the_daily_puzzle_runs_once_a_day_from_0700_jst_and_the_tick_at_every_tick() -> None:
    ran: list[str] = []
    daily = Scheduled("puzzle_daily", lambda: ran.append("puzzle"), time(22, 0))
    tick = Scheduled("tick", lambda: ran.append("tick"), None)
    started = JST_0700 - timedelta(hours=10)  # 2026-12-01 21:00 JST, after that day's 07:00
    for now, expected in [
        (started, ["tick", "puzzle"]),  # a start after 07:00 runs the day's job at once
        (started + timedelta(seconds=3), ["tick"]),
        (JST_0700 - timedelta(seconds=1), ["tick"]),
        (JST_0700, ["tick", "puzzle"]),
        (JST_0700 + timedelta(minutes=5), ["tick"]),
        (JST_0700 + timedelta(days=2, hours=1), ["tick", "puzzle"]),  # /dev/clock: days ahead
    ]:
        ran.clear()
        run_due([tick, daily], now, lambda name: None)
        assert sorted(ran) == sorted(expected), now


def test_a_failing_schedule_does_not_stop_the_others() -> None:
    failed: list[str] = []
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("down")

    entries = [
        Scheduled("tick", broken, None),
        Scheduled("puzzle_daily", lambda: ran.append("puzzle"), time(22, 0)),
    ]
    run_due(entries, JST_0700, failed.append)
    assert failed == ["tick"] and ran == ["puzzle"]
