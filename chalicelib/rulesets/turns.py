"""A computer member's turn (CPU): what the platform hands it of the day's posts (``Heard``) and
what it does (``ComputerTurn``), the data of the village seam's computer part
(``base.VillageComputers``). Apart from ``base``: only a computer's turn needs them, never a page.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from msgspec import Struct, field


class Heard(Struct, frozen=True):
    """A member's post as the platform hands it to a computer member's turn: today's posts
    of the boards some computer of the village may read, of which each rule set keeps only
    what the seat may read (its visibility module)."""

    board: str
    slot: str  # the writer's seat
    text: str
    at: datetime
    n: int | None = None  # its number on its board and day, as pages show it (``>>n``)


class ComputerTurn(Struct, frozen=True):
    """What a computer member does now: the choices it saves and the posts it writes.

    ``choices``: the same keys and values a person's action form saves through the action
    service (``None``: undecided); ``posts``: ``(board, text)`` pairs, boards as the post
    service takes them. The platform saves and posts them through the same services as a
    person's, so a computer member is refused exactly what a person would be.
    """

    choices: Mapping[str, str | None] = field(default_factory=dict)
    posts: Sequence[tuple[str, str]] = ()
    # Before the game (classic's prologue): ``(action, target)`` pairs as a person's prologue
    # form sends them through the action service (a start vote: ``("start", None)``).
    prologue: Sequence[tuple[str, str | None]] = ()
    # When the computer wants to be asked again (its next paced moment: a later post, a vote
    # after the talk), None: at the village's next event. The scheduler looks in by then.
    again: datetime | None = None


class SeatClock(Struct, frozen=True):
    """A computer member's clock as its seat's view holds it: now, the day's start and length,
    and its own last post (what paces its posts)."""

    now: datetime
    day_started_at: datetime | None
    day_length: timedelta
    last_post_at: datetime | None
