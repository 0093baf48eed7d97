"""Refusals of the duel rules. Each message is a Japanese sentence a player can read."""


class DuelError(ValueError):
    """Base of every refusal; ``str(error)`` is shown to the player as it is."""


class SetupError(DuelError):
    """A deck, switch, placement or deal that the rules do not allow (§2, §3)."""


class TurnError(DuelError):
    """It is not this side's move, or the game has ended."""


class MoveError(DuelError):
    """A move that is not legal now: a wrong card, role, entry or report."""


class DrawError(DuelError):
    """A pinned draw outside the draw's possible outcomes (§9)."""
