"""Games played move by move, driven as their entrypoints drive them."""

from datetime import datetime

from chalicelib import effects
from chalicelib.services import matches
from chalicelib.services.unit import Unit


def worker_look(match_id: str, moves: int, now: datetime) -> bool:
    """The advance worker's look at a game it was asked to watch (``jobs.advance``'s): what
    the look owes is sent after it, as there."""
    with effects.sent_after(Unit()) as unit:
        return matches.look(match_id, moves, now, unit)
