"""Games played move by move, driven as their entrypoints drive them."""

from datetime import datetime

from chalicelib import effects
from chalicelib.services import matches
from chalicelib.services.unit import Unit
from chalicelib.storage.keys import MATCH_SK, match_pk
from chalicelib.storage.models import MatchItem, MoveItem


def worker_look(match_id: str, moves: int, now: datetime) -> bool:
    """The advance worker's look at a game it was asked to watch (``jobs.advance``'s): what
    the look owes is sent after it, as there."""
    with effects.sent_after(Unit()) as unit:
        return matches.look(match_id, moves, now, unit)


def match_item(match_id: str) -> MatchItem:
    """A game's META as stored, beneath storage's record: what a test reads or changes there."""
    return MatchItem.get(match_pk(match_id), MATCH_SK, consistent_read=True)


def move_items(match_id: str) -> list[MoveItem]:
    """A game's moves as stored, in order, beneath storage's records."""
    return list(MoveItem.query(match_pk(match_id), MoveItem.sk.startswith("MOVE#")))
