"""Clocks in seconds for games played move by move: a bank per side, then a countdown per
move (秒読み) once the bank is spent. Pure: times come in, nothing is read.

The side to move has ``bank + byoyomi`` seconds from ``since``; a move spends what it used
from the bank (never below zero), so in 秒読み every move has the whole countdown again.
A correspondence game is a bank of 0 and a countdown of days.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta

from msgspec import Struct


class TimeControl(Struct, frozen=True):
    key: str
    label: str
    bank: int  # seconds per side
    byoyomi: int  # seconds per move once the bank is spent
    # Played by mail (通信対局): each turn and a reminder before its deadline are mailed.
    correspondence: bool = False


# The choices a new game offers, in order; "none" keeps no clock at all.
CONTROLS: dict[str, TimeControl | None] = {
    "none": None,
    "10m": TimeControl("10m", "持ち時間10分・秒読み30秒", 600, 30),
    "3m": TimeControl("3m", "持ち時間3分・秒読み20秒", 180, 20),
    "day": TimeControl("day", "1手1日(通信対局)", 0, 86400, correspondence=True),
}
LABELS = {key: (c.label if c else "持ち時間なし") for key, c in CONTROLS.items()}


def flag_at(banks: Mapping[str, float], byoyomi: int, side: str, since: datetime) -> datetime:
    """When ``side``, to move since ``since``, loses on time."""
    return since + timedelta(seconds=float(banks[side]) + byoyomi)


def spend(
    banks: Mapping[str, float], side: str, since: datetime, now: datetime
) -> dict[str, float]:
    """The banks after ``side`` moved at ``now`` (to move since ``since``)."""
    used = max(0.0, (now - since).total_seconds())
    left = dict(banks)
    left[side] = max(0.0, float(banks[side]) - used)
    return left


def remaining(
    banks: Mapping[str, float], byoyomi: int, side: str, since: datetime | None, now: datetime
) -> dict[str, float]:
    """What each side has left now: the bank, and for the side to move the countdown too
    (``{"bank", "byoyomi"}``), for pages and the live script."""
    left = {"bank": float(banks[side]), "byoyomi": float(byoyomi)}
    if since is None:
        return left
    used = max(0.0, (now - since).total_seconds())
    left["bank"] = max(0.0, float(banks[side]) - used)
    left["byoyomi"] = max(0.0, byoyomi - max(0.0, used - float(banks[side])))
    return left
