"""Refusals of the classic rules. Each message can be shown to a player as it is."""


class RuleError(ValueError):
    """Base of every classic refusal; ``str(error)`` is a Japanese sentence for the player."""


class SetupError(RuleError):
    """A village that cannot be set up this way: player count, deck, options (§1, §7)."""


class UnknownCharacterError(RuleError):
    def __init__(self, character: object) -> None:
        super().__init__(f"「{character}」というキャラクターはいません")


class PhaseError(RuleError):
    """The village is not in a phase where this can happen."""


class VoteError(RuleError):
    """An execution vote (§2.3) that may not be cast."""


class ChoiceError(RuleError):
    """A night choice (§2.4) that may not be set."""


class UnknownChoiceError(ChoiceError):
    def __init__(self, key: object) -> None:
        super().__init__(f"「{key}」という行動はありません")


class PrologueError(RuleError):
    """A prologue action (§2.1) that may not be taken."""
