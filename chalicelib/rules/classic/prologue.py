"""The prologue (募集, day 0, RULES-CLASSIC §2.1): joining, start votes, kicks, leaving, idling.

Members are places (any strings: the platform's seats) in the order they were taken. A place
left is free again for a newcomer: who left, and so may never come back, is a person, which
the platform remembers by account (docs/decisions.md 78). Pure: times are passed in.
"""

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct, field

from .cast import MAX_PLAYERS, players
from .errors import PrologueError

KICK_VOTES = 3  # kick votes from this many other members make a member leave at once
IDLE_AFTER = timedelta(hours=24)  # [decided] a member not seen for this long is removed
ABANDON_AFTER = timedelta(hours=72)  # [decided] a village not started by then is abandoned


class Prologue(Struct):
    members: list[str] = field(default_factory=list)  # join order
    start_votes: set[str] = field(default_factory=set)
    kicks: dict[str, set[str]] = field(default_factory=dict)  # target → members voting to kick

    def join(self, member: str) -> None:
        if member in self.members:
            raise PrologueError("すでにこの村に参加しています")
        if len(self.members) >= MAX_PLAYERS:
            raise PrologueError(f"この村は満員です（{MAX_PLAYERS}人まで）")
        self.members.append(member)

    def _member(self, member: str) -> None:
        if member not in self.members:
            raise PrologueError("この村の住民ではありません")

    def vote_start(self, member: str, on: bool = True) -> None:
        """Sets (or withdraws) ``member``'s start vote."""
        self._member(member)
        if on:
            self.start_votes.add(member)
        else:
            self.start_votes.discard(member)

    def ready(self, min_members: int) -> bool:
        """§2.1: the game starts the moment every member has a start vote and there are enough."""
        return len(self.members) >= min_members and all(m in self.start_votes for m in self.members)

    def kick(self, voter: str, target: str, on: bool = True) -> bool:
        """Sets (or withdraws) a kick vote; True when the target leaves (kicked by 3 others)."""
        self._member(voter)
        self._member(target)
        if voter == target:
            raise PrologueError(
                "自分をキックすることはできません。村を出るには「村を出る」を使ってください"
            )
        voters = self.kicks.setdefault(target, set())
        if on:
            voters.add(voter)
        else:
            voters.discard(voter)
        if not voters:
            del self.kicks[target]
        if len(voters) >= KICK_VOTES:
            self.depart(target)
            return True
        return False

    def leave(self, member: str) -> None:
        """Leaving (自殺, a self-kick) is free."""
        self._member(member)
        self.depart(member)

    def depart(self, member: str) -> None:
        """A departure of any kind: the place is free again; every start vote is cleared
        [decided: and the kick votes it cast or received are dropped]."""
        self._member(member)
        self.members.remove(member)
        self.start_votes.clear()
        self.kicks.pop(member, None)
        for target in list(self.kicks):
            self.kicks[target].discard(member)
            if not self.kicks[target]:
                del self.kicks[target]

    def idle(self, last_access: Mapping[str, datetime], now: datetime) -> list[str]:
        """Members (join order) not seen for 24 h [decided]; the platform departs each."""
        return [m for m in self.members if m in last_access and now - last_access[m] >= IDLE_AFTER]

    def seats(self) -> dict[str, str]:
        """§1 seat order at the start: ``p1``… in join order of those still members."""
        return dict(zip(players(len(self.members)), self.members, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {
            "members": list(self.members),
            "start_votes": sorted(self.start_votes),
            "kicks": {t: sorted(v) for t, v in self.kicks.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Prologue":
        """Games stored before decision 78 also list the places left (``departed``): the
        platform keeps who left, by account, so the list is dropped."""
        return cls(
            members=list(data["members"]),
            start_votes=set(data["start_votes"]),
            kicks={t: set(v) for t, v in data["kicks"].items()},
        )


def abandoned(created_at: datetime, now: datetime) -> bool:
    """§2.1 [decided]: a village not started 72 h after its creation is abandoned (廃村)."""
    return now - created_at >= ABANDON_AFTER
