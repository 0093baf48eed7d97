"""Night choices (§2.4) as a declarative table: who may set each, from which night, on whom."""

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from msgspec import Struct

from .cast import NPC, Role
from .errors import ChoiceError, UnknownCharacterError, UnknownChoiceError


class Ability(StrEnum):
    ATTACK = "attack"
    DIVINE = "divine"
    GUARD = "guard"


class NightChoices(Struct, frozen=True):
    """One actor's choices for tonight as they stand; ``None`` is unset."""

    attack: str | None = None
    divine: str | None = None
    guard: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "NightChoices":
        """Reads ``{"divine": "p3"}``; unknown keys or non-string targets are refused."""
        for key, value in data.items():
            if key not in ABILITY_IDS:
                raise UnknownChoiceError(key)
            if value is not None and not isinstance(value, str):
                raise UnknownCharacterError(value)
        return cls(**dict(data))

    def get(self, ability: Ability) -> str | None:
        target: str | None = getattr(self, ability.value)
        return target

    def to_dict(self) -> dict[str, str]:
        """The set choices only."""
        return {a.value: t for a in Ability if (t := self.get(a)) is not None}


ABILITY_IDS: frozenset[str] = frozenset(a.value for a in Ability)

UNSET = NightChoices()


class _Rule(Struct, frozen=True):
    """Who may set a choice, from which night, and what it may name (one row of §2.4)."""

    role: Role
    first_night: int
    not_allowed: str
    too_early: str
    dead_actor: str
    self_target: str
    dead_target: str
    werewolf_target: str = ""  # non-empty: a werewolf may not be the target


RULES: dict[Ability, _Rule] = {
    Ability.ATTACK: _Rule(
        role=Role.WEREWOLF,
        first_night=2,  # night 1's victim is always the scapegoat and the wolves are not asked
        not_allowed="襲撃は人狼だけが行えます",
        too_early="1日目の夜は身代わり君が襲われます。襲撃先は2日目の夜から選べます",
        dead_actor="死んだ人狼は襲撃できません",
        self_target="自分自身は襲撃できません",
        dead_target="死んだキャラクターは襲撃できません",
        werewolf_target="人狼は襲撃できません",
    ),
    Ability.DIVINE: _Rule(
        role=Role.SEER,
        first_night=1,
        not_allowed="占いは占い師だけが行えます",
        too_early="",
        dead_actor="死んだ占い師は占えません",
        self_target="自分自身は占えません",
        dead_target="死んだキャラクターは占えません",
    ),
    Ability.GUARD: _Rule(
        role=Role.HUNTER,
        first_night=2,
        not_allowed="護衛は狩人だけが行えます",
        too_early="護衛は2日目の夜からです",
        dead_actor="死んだ狩人は護衛できません",
        self_target="自分自身は護衛できません",
        dead_target="死んだキャラクターは護衛できません",
    ),
}


def refusal(
    actor: str,
    ability: Ability,
    target: str,
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
) -> ChoiceError | None:
    """Why ``actor`` may not set ``ability`` on ``target`` for night ``night``, or ``None``."""
    if actor not in roles:
        return ChoiceError(f"「{actor}」というキャラクターはいません")
    if actor == NPC:
        return ChoiceError("身代わり君は行動しません")
    if target not in roles:
        return ChoiceError(f"「{target}」というキャラクターはいません")
    rule = RULES[ability]
    if roles[actor] is not rule.role:
        return ChoiceError(rule.not_allowed)
    if night < rule.first_night:
        return ChoiceError(rule.too_early)
    if actor not in alive:
        return ChoiceError(rule.dead_actor)
    if target == actor:
        return ChoiceError(rule.self_target)
    if target not in alive:
        return ChoiceError(rule.dead_target)
    if rule.werewolf_target and roles[target] is Role.WEREWOLF:
        return ChoiceError(rule.werewolf_target)
    return None


def abilities_of(role: Role, night: int) -> list[Ability]:
    """The choices a living holder of ``role`` may set for night ``night``."""
    return [a for a, rule in RULES.items() if rule.role is role and night >= rule.first_night]
