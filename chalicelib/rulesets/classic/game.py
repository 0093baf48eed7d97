"""A classic village's whole stored game: the prologue, then the engine's ``Village``, and the
moments its deadlines run from (RULES-CLASSIC §2, §7). Pure: times are passed in.

The engine (``chalicelib.rules.classic``) knows rounds and nights, not clocks; this module keeps
the times a deadline is computed from — the morning (or the start) of the day, the opening of
the vote round, the beginning of the night, the ending — so that ``timeline`` can say which
event is due next, and the platform needs to store only its time (``next_update``).
"""

import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from msgspec import Struct, field

from ...rules.classic import Options, Phase, Village
from ...rules.classic.errors import PrologueError
from ...rules.classic.prologue import Prologue


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


class Kick(Struct):
    """A member kicked out of the prologue by the votes of others (§2.1)."""

    name: str
    account_id: str
    voters: tuple[str, ...]  # the voters' names
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "account_id": self.account_id,
            "voters": list(self.voters),
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Kick":
        return cls(
            data["name"],
            data["account_id"],
            tuple(data["voters"]),
            datetime.fromisoformat(data["at"]),
        )


class ClassicGame(Struct):
    """One classic village from its creation to its past log."""

    options: Options
    template: str = ""  # the GM's rules and notes: the first public post
    prologue: Prologue = field(default_factory=Prologue)
    village: Village | None = None  # None in the prologue
    seats: dict[str, str] = field(default_factory=dict)  # character p1… → member, at the start
    started_at: datetime | None = None
    day_began: datetime | None = None  # the morning (or the start) of the current day
    round_opened: datetime | None = None  # the open vote round's opening
    night_began: datetime | None = None
    ended_at: datetime | None = None  # the ending: the epilogue began
    closed: bool = False  # the epilogue is over: a past log
    abandoned: bool = False  # 廃村: not started in time
    # Every kick of the prologue, for the full record (the seat may be taken again): who was
    # kicked (name and player ID as they were) and who voted for it, in the order they happened.
    kicks: list[Kick] = field(default_factory=list)
    # A GM moved the pending event: (its time as the rules set it, the time it is now due).
    # It holds only while that event is still the one pending at that time, so a step, a
    # start or a reopened round leaves it behind by itself (docs/decisions-classic.md 67).
    moved: tuple[datetime, datetime] | None = None

    @property
    def in_prologue(self) -> bool:
        return self.village is None and not self.abandoned

    def character_of(self, member: str) -> str | None:
        """The character ``member`` plays (None before the start, or not a player)."""
        return next((c for c, m in self.seats.items() if m == member), None)

    def start(self, at: datetime, rng: random.Random) -> None:
        """§2.2: deals the roles to the members in join order; day 1 with the opening, else
        night 1. Refused unless the prologue is ready (every member start-voted, enough)."""
        if not self.in_prologue:
            raise PrologueError("この村はもう始まっています")
        if not self.prologue.ready(self.options.min_members):
            raise PrologueError("全員の開始投票がそろっていません")
        self.seats = self.prologue.seats()
        self.village = Village.create(len(self.seats), rng, self.options)
        self.started_at = at
        if self.village.phase is Phase.DAY:
            self.day_began = at
        else:
            self.night_began = at

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "template": self.template,
            "prologue": self.prologue.to_json(),
            "village": self.village.to_json() if self.village else None,
            "seats": dict(self.seats),
            "started_at": _iso(self.started_at),
            "day_began": _iso(self.day_began),
            "round_opened": _iso(self.round_opened),
            "night_began": _iso(self.night_began),
            "ended_at": _iso(self.ended_at),
            "closed": self.closed,
            "abandoned": self.abandoned,
            "kicks": [kick.to_json() for kick in self.kicks],
            "moved": [_iso(at) for at in self.moved] if self.moved else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ClassicGame":
        village = data["village"]
        return cls(
            options=Options.from_json(data["options"]),
            template=data["template"],
            prologue=Prologue.from_json(data["prologue"]),
            village=Village.from_json(village) if village else None,
            seats=dict(data["seats"]),
            started_at=_time(data["started_at"]),
            day_began=_time(data["day_began"]),
            round_opened=_time(data["round_opened"]),
            night_began=_time(data["night_began"]),
            ended_at=_time(data["ended_at"]),
            closed=data["closed"],
            abandoned=data["abandoned"],
            kicks=[Kick.from_json(k) for k in data.get("kicks", [])],  # absent before issue 23
            moved=_moved(data.get("moved")),  # absent before issue 26
        )


def _moved(value: Any) -> tuple[datetime, datetime] | None:
    if not value:
        return None
    was, to = (_time(at) for at in value)
    assert was is not None and to is not None
    return was, to
