"""Nightly choices (行動予定, RULES §3) and their validation."""

from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from .cast import JOBS, SLOTS, Job, Side, is_oni_side
from .errors import (
    AssassinationUsedError,
    ChoiceError,
    ConflictingCommandsError,
    DeadActorError,
    DeadTargetError,
    InvalidTargetError,
    NotAllowedError,
    SelfTargetError,
    UnknownChoiceError,
    UnknownSlotError,
)


class Choices(Struct, frozen=True):
    """Everything one member has chosen for tonight; ``None`` is undecided (【未定】)."""

    pray: str | None = None
    divine: str | None = None
    guard: str | None = None
    assassinate: str | None = None
    attack: str | None = None
    attacker: str | None = None
    dm: str | None = None
    victory: str | None = None
    resign: str | None = None
    force: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Choices":
        """Reads ``{"pray": "seer_a", "divine": None, ...}``; unknown keys or slots are refused."""
        known = CHOICE_KEYS
        for key, value in data.items():
            if key not in known:
                raise UnknownChoiceError(key)
            if value is not None and value not in SLOTS:
                raise UnknownSlotError(value)
        return cls(**dict(data))

    def to_dict(self) -> dict[str, str]:
        """The decided choices only."""
        # getattr, not msgspec.structs.asdict: this runs for every slot of every night.
        values = ((key, getattr(self, key)) for key in CHOICE_KEYS)
        return {key: value for key, value in values if value is not None}


CHOICE_KEYS: tuple[str, ...] = Choices.__struct_fields__

UNDECIDED = Choices()


class _Rule(Struct, frozen=True):
    """Who may make a choice and what it may name (one row of the RULES §3 table)."""

    job: Job | None  # None: any job
    oni_side: bool  # only oni-side members (alive or dead unless ``living_actor``)
    living_actor: bool
    not_allowed: str
    dead_actor: str = ""
    self_target: str = ""  # empty: self is a valid target
    dead_target: str = ""  # empty: dead targets are valid
    living_oni_target: str = ""  # non-empty: target must be a living oni
    living_human_target: str = ""  # non-empty: target must be a living human


RULES: dict[str, _Rule] = {
    "pray": _Rule(
        job=None,
        oni_side=False,
        living_actor=True,
        not_allowed="",
        dead_actor="死んだキャラクターは祈れません",
        self_target="自分自身には祈れません",
        dead_target="死んだキャラクターには祈れません",
    ),
    "divine": _Rule(
        job=Job.SEER,
        oni_side=False,
        living_actor=True,
        not_allowed="占いは占い師だけが行えます",
        dead_actor="死んだ占い師は占えません",
        self_target="自分自身は占えません",
        dead_target="死んだキャラクターは占えません",
    ),
    "guard": _Rule(
        job=Job.GUARD,
        oni_side=False,
        living_actor=True,
        not_allowed="警備は守護者だけが行えます",
        dead_actor="死んだ守護者は警備できません",
        self_target="自分自身は警備できません",
        dead_target="死んだキャラクターは警備できません",
    ),
    "assassinate": _Rule(
        job=Job.ASSASSIN,
        oni_side=False,
        living_actor=True,
        not_allowed="暗殺は暗殺者だけが行えます",
        dead_actor="死んだ暗殺者は暗殺できません",
        self_target="自分自身は暗殺できません",
        dead_target="死んだキャラクターは暗殺できません",
    ),
    "attack": _Rule(
        job=None,
        oni_side=True,
        living_actor=False,
        not_allowed="襲撃先を選べるのは鬼サイドだけです",
        dead_target="死んだキャラクターは襲撃できません",
    ),
    "attacker": _Rule(
        job=None,
        oni_side=True,
        living_actor=False,
        not_allowed="実行犯を選べるのは鬼サイドだけです",
        living_oni_target="実行犯には生きている鬼を選んでください",
    ),
    "dm": _Rule(
        job=Job.COMMONER,
        oni_side=True,
        living_actor=False,
        not_allowed="偽のダイイングメッセージを書けるのは鬼サイドの庶民だけです",
        self_target="ダイイングメッセージに自分の名前は書けません",
    ),
    "victory": _Rule(
        job=None,
        oni_side=True,
        living_actor=False,
        not_allowed="勝利宣言は鬼サイドだけが行えます",
    ),
    "resign": _Rule(
        job=None,
        oni_side=True,
        living_actor=False,
        not_allowed="投了は鬼サイドだけが行えます",
    ),
    "force": _Rule(
        job=None,
        oni_side=True,
        living_actor=False,
        not_allowed="強制裁きは鬼サイドだけが行えます",
        living_human_target="強制裁きの対象は生きている人間だけです",
    ),
}


def refusal(
    actor: str,
    key: str,
    target: str,
    *,
    sides: Mapping[str, Side],
    alive: frozenset[str],
    assassination_used: bool,
) -> ChoiceError | None:
    """Why ``actor`` may not choose ``target`` for ``key`` now, or ``None`` when it may."""
    if target not in SLOTS:
        return UnknownSlotError(target)
    rule = RULES[key]
    if (rule.job is not None and JOBS[actor] is not rule.job) or (
        rule.oni_side and not is_oni_side(sides[actor])
    ):
        return NotAllowedError(rule.not_allowed)
    if rule.living_actor and actor not in alive:
        return DeadActorError(rule.dead_actor)
    if key == "assassinate" and assassination_used:
        return AssassinationUsedError()
    if rule.self_target and target == actor:
        return SelfTargetError(rule.self_target)
    if rule.dead_target and target not in alive:
        return DeadTargetError(rule.dead_target)
    if rule.living_oni_target and not (target in alive and sides[target] is Side.ONI):
        return InvalidTargetError(rule.living_oni_target)
    if rule.living_human_target and not (target in alive and sides[target] is Side.HUMAN):
        return InvalidTargetError(rule.living_human_target)
    return None


def validate(
    actor: str,
    choices: Choices,
    *,
    sides: Mapping[str, Side],
    alive: frozenset[str],
    assassination_used: bool,
) -> None:
    """Raises a :class:`ChoiceError` for the first choice that ``actor`` may not make now."""
    if actor not in SLOTS:
        raise UnknownSlotError(actor)
    for key in CHOICE_KEYS:
        target = getattr(choices, key)
        if target is None:
            continue
        error = refusal(
            actor,
            key,
            target,
            sides=sides,
            alive=alive,
            assassination_used=assassination_used,
        )
        if error is not None:
            raise error
    if choices.victory is not None and choices.resign is not None:
        raise ConflictingCommandsError()
