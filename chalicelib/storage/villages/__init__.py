"""Writes of a village's partition, its boards and its owed mail, each named for its intention
and carrying the conditions that keep its invariants (docs/access-patterns.md); and the
lounge's reads.

A write whose condition fails raises ``Refused``; the caller decides whether that means
reload and look again, or tell the player. One module per concern: ``creation`` (a new
village), ``seats`` (join, departure, a computer member), ``steps`` (the day's choices and
the update steps), ``posts`` (the boards), ``looks`` (the scheduler's next look and
reminders), ``reads`` (the lounge). What they share is named here, the rest stays inside.
"""

from .creation import (
    Opening,
    claim_hourly_village,
    create_village,
    next_village_id,
    release_hourly_village,
)
from .looks import due_village_ids, owe_reminders, set_next_look
from .posts import POST_INTERVAL, Post, add_post, new_post, read_board, read_whole_board
from .reads import Page, VillageSummary, opening_villages, seat_count, villages_in_state
from .seats import (
    Departure,
    Lock,
    SeatChange,
    claim_slot,
    record_access,
    save_will,
    seat_computer,
    vacate_slot,
)
from .steps import StepWrite, commit_step, save_choices

__all__ = [
    "POST_INTERVAL",
    "Departure",
    "Lock",
    "Opening",
    "Page",
    "Post",
    "SeatChange",
    "StepWrite",
    "VillageSummary",
    "add_post",
    "claim_hourly_village",
    "claim_slot",
    "commit_step",
    "create_village",
    "due_village_ids",
    "new_post",
    "next_village_id",
    "opening_villages",
    "owe_reminders",
    "read_board",
    "read_whole_board",
    "record_access",
    "release_hourly_village",
    "save_choices",
    "save_will",
    "seat_computer",
    "seat_count",
    "set_next_look",
    "vacate_slot",
    "villages_in_state",
]
