"""Village options set by the GM at creation (RULES-CLASSIC §7) and their defaults by pace."""

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar

from msgspec import Struct

from .cast import MAX_PLAYERS, MIN_PLAYERS
from .errors import SetupError


class Pace(StrEnum):
    SHORT = "short"
    LONG = "long"


class TieRule(StrEnum):
    RANDOM = "random"  # one of those tied is drawn and executed
    BBS = "bbs"  # full re-votes; a tie in the 6th counted round is a draw
    RUNOFF = "runoff"  # rounds 2–3 full re-votes, round 4 a run-off; a tie in round 4 is a draw


E = TypeVar("E", bound=StrEnum)

_SUNSET = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class Options(Struct, frozen=True):
    pace: Pace = Pace.SHORT
    opening: bool = False
    npc_villager: bool = False
    tie: TieRule = TieRule.BBS
    heaven_sees_all: bool = True
    early_close: bool = True
    min_members: int = MIN_PLAYERS
    sunset: str = "22:00"  # daily JST time, used by long villages only

    @classmethod
    def create(cls, pace: str = "short", **given: Any) -> "Options":
        """The options of a new village: §7's defaults for ``pace``, overridden by ``given``."""
        data: dict[str, Any] = {"pace": pace, **given}
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Options":
        """Reads the options; a missing one takes its §7 default for the pace."""
        known = {"pace", "opening", "npc_villager", "tie", "heaven_sees_all", "early_close"}
        known |= {"min_members", "sunset"}
        for key in data:
            if key not in known:
                raise SetupError(f"「{key}」という村の設定はありません")
        pace = _choice(Pace, data.get("pace", "short"), "pace")
        short = pace is Pace.SHORT
        tie = _choice(TieRule, data.get("tie", "bbs" if short else "random"), "tie")
        min_members = data.get("min_members", MIN_PLAYERS)
        if (
            not isinstance(min_members, int)
            or isinstance(min_members, bool)
            or not MIN_PLAYERS <= min_members <= MAX_PLAYERS
        ):
            raise SetupError(f"最少人数は{MIN_PLAYERS}人から{MAX_PLAYERS}人までです")
        sunset = data.get("sunset", "22:00")
        if not isinstance(sunset, str) or not _SUNSET.match(sunset):
            raise SetupError("日没の時刻は 22:00 のように HH:MM で指定してください")
        return cls(
            pace=pace,
            opening=_flag(data, "opening", False),
            npc_villager=_flag(data, "npc_villager", False),
            tie=tie,
            heaven_sees_all=_flag(data, "heaven_sees_all", True),
            early_close=_flag(data, "early_close", short),
            min_members=min_members,
            sunset=sunset,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "pace": str(self.pace),
            "opening": self.opening,
            "npc_villager": self.npc_villager,
            "tie": str(self.tie),
            "heaven_sees_all": self.heaven_sees_all,
            "early_close": self.early_close,
            "min_members": self.min_members,
            "sunset": self.sunset,
        }

    @property
    def votes_changeable(self) -> bool:
        """§2.3.2: a vote is final in a short village, changeable until the close in a long one."""
        return self.pace is Pace.LONG


def _choice(kind: type[E], value: object, name: str) -> E:
    for member in kind:
        if value == str(member):
            return member
    allowed = "・".join(str(m) for m in kind)
    raise SetupError(f"{name} は {allowed} のいずれかです（「{value}」は使えません）")


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise SetupError(f"{key} は true か false です")
    return value
