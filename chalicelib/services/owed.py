"""What a use case owes once its write is committed, besides the write itself (decisions 225,
245).

A use case records these on the game it wrote (``Match.owe``), or on its unit of work when
no game carries them (``Unit.owe``: the scheduler's), only after its write went through; its
unit of work collects them (``Unit.collect_owed``) and the entrypoint that ran it sends them
after it returns (``chalicelib/effects.py``), so that no use case is handed a callback from
the layer above it. A use case that refuses (raises before writing) owes nothing."""

from datetime import datetime

from msgspec import Struct


class ClockWatch(Struct, frozen=True):
    """A worker should look at the game of ``moves`` moves at ``at``: its side to move's flag,
    its page gone a minute, or a held answer shown (decision 49)."""

    match_id: str
    moves: int
    at: datetime


class MailHandOver(Struct, frozen=True):
    """Mail just owed in the outbox partition ``owner`` goes to the mail workers.

    ``if_any``: the use case does not know whether it owed mail (a village's look: its update,
    reminder and warnings each may or may not): handed over only if the outbox holds some."""

    owner: str
    if_any: bool = False


class VillageDue(Struct, frozen=True):
    """The village is due a look (its update, a departure, a reminder…): the advance
    workers'."""

    village_id: str


Owed = ClockWatch | MailHandOver | VillageDue
