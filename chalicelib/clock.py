"""The one clock seam and Japan Standard Time helpers. Nothing else reads the time."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

JST = timezone(timedelta(hours=9), "JST")

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def jst(moment: datetime) -> str:
    """How every time is shown to players: ``2026年11月29日 21:00``."""
    local = moment.astimezone(JST)
    return f"{local.year}年{local.month}月{local.day}日 {local:%H:%M}"
