"""The Mobius clock (RULES §2): phases and the times of a day for each pace. Pure."""

from datetime import datetime, timedelta
from enum import StrEnum

from msgspec import Struct

from ..base import Pace, State


class Phase(StrEnum):
    """Where a village is at a given moment (finer than its state)."""

    OPENING = "opening"
    DAY = "day"
    LOSS_TIME = "loss_time"
    NIGHT = "night"
    ENDING = "ending"
    ENDED = "ended"
    ABANDONED = "abandoned"


class Timing(Struct, frozen=True):
    day: timedelta
    loss_time: timedelta
    turn: timedelta
    first_update: timedelta  # default, after creation ([decided] RULES §2)
    abandon_age: timedelta
    public_ban_on_takeover: timedelta  # RULES §8
    idle_limit: timedelta  # RULES §9


TIMINGS: dict[Pace, Timing] = {
    Pace.LONG: Timing(
        day=timedelta(hours=18),
        loss_time=timedelta(minutes=30),
        turn=timedelta(hours=24),
        first_update=timedelta(hours=30),
        abandon_age=timedelta(hours=54),
        public_ban_on_takeover=timedelta(minutes=30),
        idle_limit=timedelta(hours=24),
    ),
    Pace.SHORT: Timing(
        day=timedelta(minutes=45),
        loss_time=timedelta(minutes=10),
        turn=timedelta(minutes=60),
        first_update=timedelta(hours=6),
        abandon_age=timedelta(hours=30),
        public_ban_on_takeover=timedelta(minutes=10),
        idle_limit=timedelta(minutes=60),
    ),
}

OPENING_SPEECH_BAN = timedelta(minutes=10)  # 離脱考慮期間 (RULES §8)
OPENING_IDLE_LIMIT = timedelta(hours=24)  # RULES §9, both paces
SHORT_FIRST_ACCESS_LIMIT = timedelta(minutes=10)  # short village, from day 1's start
MIN_PLAYERS = 12
EXTENSION = timedelta(hours=24)


def phase_at(state: State, pace: Pace, day_started_at: datetime | None, now: datetime) -> Phase:
    if state is not State.RUNNING:
        return Phase(state.value)
    assert day_started_at is not None
    timing = TIMINGS[pace]
    deadline = day_started_at + timing.day
    if now < deadline:
        return Phase.DAY
    if now < deadline + timing.loss_time:
        return Phase.LOSS_TIME
    return Phase.NIGHT


def deadline_of(pace: Pace, day_started_at: datetime) -> datetime:
    """〆切: the end of the day period."""
    return day_started_at + TIMINGS[pace].day
