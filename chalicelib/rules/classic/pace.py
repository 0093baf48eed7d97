"""Deadlines of each phase from the pace (RULES-CLASSIC §7). Pure functions of datetimes: no clock.

Every argument must be timezone-aware; results are in JST (Asia/Tokyo has no daylight saving, so a
fixed +09:00 offset is exact). A short village's times run from its events; a long village keeps a
daily rhythm around its sunset time.
"""

from datetime import datetime, time, timedelta, timezone

from msgspec import Struct

from .errors import RuleError
from .options import Options, Pace

JST = timezone(timedelta(hours=9), "JST")


class Lengths(Struct, frozen=True):
    day: timedelta  # short: morning → sunset; long: the least time before the sunset time
    overtime: timedelta  # each vote round after sunset (超過時間)
    night: timedelta
    epilogue: timedelta


LENGTHS: dict[Pace, Lengths] = {
    Pace.SHORT: Lengths(
        day=timedelta(minutes=40),
        overtime=timedelta(minutes=5),
        night=timedelta(minutes=15),
        epilogue=timedelta(minutes=60),
    ),
    Pace.LONG: Lengths(
        day=timedelta(hours=12),
        overtime=timedelta(minutes=60),
        night=timedelta(hours=3),
        epilogue=timedelta(hours=24),
    ),
}


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise RuleError("時刻にはタイムゾーンが必要です")
    return moment.astimezone(JST)


def sunset(options: Options, morning: datetime) -> datetime:
    """The sunset of a day that began at ``morning`` (the morning report, or the start for day 1).

    Short: 40 minutes after. Long: the first ``options.sunset`` time (JST) at least 12 h after.
    """
    start = _aware(morning)
    lengths = LENGTHS[options.pace]
    if options.pace is Pace.SHORT:
        return start + lengths.day
    earliest = start + lengths.day
    hours, minutes = (int(part) for part in options.sunset.split(":"))
    at = datetime.combine(earliest.date(), time(hours, minutes), tzinfo=JST)
    return at if at >= earliest else at + timedelta(days=1)


def round_deadline(options: Options, sunset_at: datetime, opened_at: datetime) -> datetime:
    """§2.3.4: the overtime length after the round's opening or after sunset, whichever is later.

    The first round opens with the morning, so its deadline is sunset + the overtime length.
    """
    return max(_aware(sunset_at), _aware(opened_at)) + LENGTHS[options.pace].overtime


def night_deadline(options: Options, began: datetime) -> datetime:
    """§2.4: a night closes its length after it began (15 min short, 3 h long)."""
    return _aware(began) + LENGTHS[options.pace].night


def epilogue_deadline(options: Options, began: datetime) -> datetime:
    """§2.5: the village closes the epilogue's length after the ending (60 min short, 24 h long)."""
    return _aware(began) + LENGTHS[options.pace].epilogue
