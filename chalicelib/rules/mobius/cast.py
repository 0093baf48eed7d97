"""The cast of a Mobius village (RULES §1): slots, jobs, sides and verdicts."""

from enum import StrEnum
from functools import cache


class Job(StrEnum):
    SEER = "seer"
    MEDIUM = "medium"
    GUARD = "guard"
    EMPATH = "empath"
    COMMONER = "commoner"
    ASSASSIN = "assassin"


class Side(StrEnum):
    HUMAN = "human"
    MADMAN = "madman"
    ONI = "oni"


class Verdict(StrEnum):
    HUMAN = "human"
    ONI = "oni"
    UNKNOWN = "unknown"


# Canonical order: every draw and every listing walks the slots in this order,
# so that a seed always gives the same game.
SLOTS: tuple[str, ...] = (
    "seer_a",
    "seer_b",
    "medium_a",
    "medium_b",
    "guard_a",
    "guard_b",
    "empath_a",
    "empath_b",
    "commoner_a",
    "commoner_b",
    "commoner_c",
    "commoner_d",
    "assassin",
)

JOBS: dict[str, Job] = {slot: Job(slot.split("_")[0]) for slot in SLOTS}

# Empaths a↔b; commoners a↔b and c↔d.
PARTNERS: dict[str, str] = {
    "empath_a": "empath_b",
    "empath_b": "empath_a",
    "commoner_a": "commoner_b",
    "commoner_b": "commoner_a",
    "commoner_c": "commoner_d",
    "commoner_d": "commoner_c",
}

ONI_COUNT = 3
MADMAN_COUNT = 1


def is_oni_side(side: Side) -> bool:
    return side is not Side.HUMAN


def verdict_of(side: Side) -> Verdict:
    """What every judging ability sees: the madman looks human."""
    return Verdict.ONI if side is Side.ONI else Verdict.HUMAN


@cache  # asked on every night: the slots of a job never change
def slots_of(job: Job) -> tuple[str, ...]:
    return tuple(slot for slot in SLOTS if JOBS[slot] is job)
