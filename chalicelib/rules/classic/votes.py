"""Execution vote rounds (§2.3): counting, the tie rules and what the next round is."""

from collections import Counter
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from msgspec import Struct

from .options import TieRule

# bbs: at most 5 re-votes, so a tie in the 6th counted round is a draw (004).
BBS_LAST_ROUND = 6
# runoff: rounds 2 and 3 are full re-votes, round 4 the run-off; a tie in round 4 is a draw.
RUNOFF_ROUND = 4


class Outcome(StrEnum):
    SUDDEN = "sudden"  # someone who had to vote did not: they die, the round reopens
    EXECUTED = "executed"
    TIE = "tie"  # a re-vote opens
    DRAW = "draw"  # the tie rule ends the game with nobody winning


class Next(StrEnum):
    """What a tie leads to under the tie rule."""

    FULL = "full"  # a full re-vote
    RUNOFF = "runoff"  # a run-off among those tied
    DRAW = "draw"


class RoundResult(Struct, frozen=True):
    """One closed vote round. Its votes are published unless the outcome is ``sudden`` (§2.3.4)."""

    day: int
    round: int  # the counted round; a round reopened after sudden death keeps its number
    votes: dict[str, str]  # voter → target, voters in seat order
    sudden: list[str]  # seat order
    outcome: Outcome
    executed: str | None = None
    candidates: list[str] | None = None  # the run-off's living candidates, when it was one

    @property
    def published(self) -> bool:
        """§2.3.4: the full list becomes public whatever the outcome; sudden death clears it."""
        return self.outcome is not Outcome.SUDDEN

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "round": self.round,
            "votes": dict(self.votes),
            "sudden": list(self.sudden),
            "outcome": str(self.outcome),
            "executed": self.executed,
            "candidates": list(self.candidates) if self.candidates is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "RoundResult":
        candidates = data["candidates"]
        return cls(
            day=data["day"],
            round=data["round"],
            votes=dict(data["votes"]),
            sudden=list(data["sudden"]),
            outcome=Outcome(data["outcome"]),
            executed=data["executed"],
            candidates=list(candidates) if candidates is not None else None,
        )


def most_voted(votes: Mapping[str, str], seat: Iterable[str]) -> list[str]:
    """Those with the most votes, in seat order (one name: a unique top)."""
    tally = Counter(votes.values())
    top = max(tally.values(), default=0)
    return [c for c in seat if top and tally[c] == top]


def after_tie(tie: TieRule, round_number: int) -> Next:
    """What follows a tie in counted round ``round_number`` (``random`` never ties)."""
    if tie is TieRule.BBS:
        return Next.DRAW if round_number >= BBS_LAST_ROUND else Next.FULL
    if tie is TieRule.RUNOFF:
        if round_number >= RUNOFF_ROUND:
            return Next.DRAW
        return Next.RUNOFF if round_number == RUNOFF_ROUND - 1 else Next.FULL
    raise ValueError("random の同数は抽選で決まります")
