"""Refusals of the rules. Each message can be shown to a player as it is."""


class RuleError(ValueError):
    """Base of every refusal; ``str(error)`` is a Japanese sentence for the player."""


class ChoiceError(RuleError):
    """A nightly choice (RULES §3) that may not be made."""


class UnknownSlotError(ChoiceError):
    def __init__(self, slot: object) -> None:
        super().__init__(f"「{slot}」というキャラクターはいません")


class UnknownChoiceError(ChoiceError):
    def __init__(self, key: object) -> None:
        super().__init__(f"「{key}」という行動はありません")


class NotAllowedError(ChoiceError):
    """The actor's job or side does not have this choice."""


class DeadActorError(ChoiceError):
    """The actor is dead and this choice is for the living only."""


class DeadTargetError(ChoiceError):
    """The target must be alive."""


class SelfTargetError(ChoiceError):
    """The choice may not name the actor."""


class InvalidTargetError(ChoiceError):
    """The target is not of the kind this choice needs."""


class AssassinationUsedError(ChoiceError):
    def __init__(self) -> None:
        super().__init__("暗殺は一度きりです。すでに使っています")


class ConflictingCommandsError(ChoiceError):
    def __init__(self) -> None:
        super().__init__("勝利宣言と投了は同時に選べません。どちらか一方にしてください")


class PhaseError(RuleError):
    """The village is not in a phase where this can happen."""
