"""The rules of Mobius werewolf (メビウス人狼), RULES §1–§7, as a pure library.

Typical use::

    rng = random.Random(seed)
    village = Village.create(rng)
    village.start()
    village.validate("seer_a", Choices(pray="guard_b", divine="assassin"))
    morning = village.resolve_night({"seer_a": choices}, rng)
    village.ending  # None while the game goes on
"""

from .cast import JOBS, PARTNERS, SLOTS, Job, Side, Verdict, is_oni_side, verdict_of
from .choices import CHOICE_KEYS, UNDECIDED, Choices
from .errors import (
    AssassinationUsedError,
    ChoiceError,
    ConflictingCommandsError,
    DeadActorError,
    DeadTargetError,
    InvalidTargetError,
    NotAllowedError,
    PhaseError,
    RuleError,
    SelfTargetError,
    UnknownChoiceError,
    UnknownSlotError,
)
from .village import (
    Attack,
    Cause,
    Command,
    Death,
    DeathKind,
    DyingMessage,
    EndedBy,
    Ending,
    Morning,
    Result,
    Village,
    Winner,
)

__all__ = [
    "CHOICE_KEYS",
    "JOBS",
    "PARTNERS",
    "SLOTS",
    "UNDECIDED",
    "AssassinationUsedError",
    "Attack",
    "Cause",
    "ChoiceError",
    "Choices",
    "Command",
    "ConflictingCommandsError",
    "DeadActorError",
    "DeadTargetError",
    "Death",
    "DeathKind",
    "DyingMessage",
    "EndedBy",
    "Ending",
    "InvalidTargetError",
    "Job",
    "Morning",
    "NotAllowedError",
    "PhaseError",
    "Result",
    "RuleError",
    "SelfTargetError",
    "Side",
    "UnknownChoiceError",
    "UnknownSlotError",
    "Verdict",
    "Village",
    "Winner",
    "is_oni_side",
    "verdict_of",
]
