"""The schedules app.py declares, run on ``make run``'s clock (the real one plus /dev/clock's
offset): every schedule of the app has its job here, and a test keeps the two lists equal.

A rate (the minute tick) runs at each of the devserver's ticks, every few seconds: locally
nobody should wait a minute. A daily cron (the puzzle's 07:00 JST) runs once each UTC day from
its time, read from app.py's own ``Cron``; the first tick after a start counts as late, so a
restart after 07:00 runs it again, which its job allows (made once, mail owed once: decisions
77 and 79), and moving the clock past 07:00 at /dev/clock runs it then.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from chalice import Cron, Rate


@dataclass
class Scheduled:
    name: str
    job: Callable[[], object]
    daily_at: time | None  # in UTC; None: at every tick
    last: datetime | None = None  # the last run, on the local clock

    def due(self, now: datetime) -> bool:
        if self.daily_at is None:
            return True
        today = datetime.combine(now.astimezone(UTC).date(), self.daily_at, UTC)
        latest = today if now >= today else today - timedelta(days=1)
        return self.last is None or self.last < latest


def jobs_by_name() -> dict[str, Callable[[], object]]:
    """Each schedule's job, by the name app.py gives the schedule."""
    from chalicelib import jobs

    return {"tick": jobs.tick, "puzzle_daily": jobs.puzzle_daily}


def schedules(app) -> list[Scheduled]:
    """app.py's schedules with their jobs; a schedule without one here is an error at start."""
    jobs = jobs_by_name()
    found = []
    for source in app.event_sources:
        expression = getattr(source, "schedule_expression", None)
        if isinstance(expression, Rate):
            found.append(Scheduled(source.name, jobs[source.name], None))
        elif isinstance(expression, Cron):
            e, every_day = expression, ("*", "*", "?", "*")
            if (e.day_of_month, e.month, e.day_of_week, e.year) != every_day:
                raise ValueError(f"{source.name}: only daily crons run locally")
            at = time(int(expression.hours), int(expression.minutes))
            found.append(Scheduled(source.name, jobs[source.name], at))
    return found


def run_due(scheduled: list[Scheduled], now: datetime, on_error: Callable[[str], None]) -> None:
    """Runs each schedule that is due; one failing does not stop the others."""
    for entry in scheduled:
        if not entry.due(now):
            continue
        entry.last = now
        try:
            entry.job()
        except Exception:
            on_error(entry.name)
