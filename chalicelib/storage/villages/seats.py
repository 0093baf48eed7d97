"""A seat taken (a join, a computer member) and left (a departure), a member's will and visits."""

from datetime import datetime
from typing import Any

from msgspec import Struct
from pynamodb.exceptions import UpdateError
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite

from ...rulesets.base import SystemPost
from ..accounts import Account, account_item
from ..db import transaction
from ..errors import conditioned, is_refusal
from ..keys import (
    presence_sk,
    slot_sk,
    village_pk,
)
from ..models import (
    AccountItem,
    DayItem,
    MemberItem,
    PresenceItem,
    VillageItem,
)
from ..repository import VillageRecord
from .looks import look_no_later
from .posts import system_post_item


class SeatChange(Struct, frozen=True):
    """What a join writes on the member item besides who plays it."""

    persona: str | None = None  # set it (None: keep)
    speech_ban_until: datetime | None = None  # set (None: remove)
    public_ban_until: datetime | None = None  # set (None: remove)


def claim_slot(
    record: VillageRecord,
    account: Account,
    slot: str,
    now: datetime,
    change: SeatChange,
    open_seats: int | None,
    look_by: datetime | None,
    game: Any = None,
) -> None:
    """A join: the slot is taken once (vacant member), once per account (presence), one
    village per pace per account (the hold), only while the village takes members.

    ``open_seats``: the running village's vacant living seats afterwards; ``look_by``: the
    scheduler must look in by then (the newcomer's first moment to be idle), unless it
    already does sooner. The LOOK item is written either way, conditioned on its moves as
    read: a look moved since (by a scheduler that did not know of this join) refuses the
    join, which is retried.
    """
    meta = record._meta
    member = record._members[slot]
    pace = meta.pace

    def write() -> None:
        with transaction() as t:
            t.update(
                meta,
                # The rule set keeps the join in its game (classic: join order).
                actions=_members_counted(1, game, open_seats),
                condition=VillageItem.state.is_in("opening", "running"),
            )
            if look_by is not None:
                look_no_later(t, record, look_by)
            t.update(
                member,
                actions=_seat_taken(account.account_id, now, change),
                condition=MemberItem.account_id.does_not_exist(),
            )
            t.save(
                PresenceItem(
                    village_pk(record.village_id),
                    presence_sk(account.account_id),
                    account_id=account.account_id,
                    slot=slot,
                ),
                condition=PresenceItem.pk.does_not_exist(),
            )
            t.update(
                account_item(account),
                actions=[AccountItem.holds[pace].set(record.village_id)],
                condition=AccountItem.holds[pace].does_not_exist(),
            )

    conditioned("claim_slot", write)


def _members_counted(by: int, game: Any, open_seats: int | None = None) -> list[Action]:
    """META's actions when a member comes (``by`` 1) or goes (-1): the count, the game
    (``game``: as the rule set keeps it now; None: unchanged) and the lounge's open seats.

    Made anew for each attempt: PynamoDB appends the version's increment to the list an
    update of a versioned item is given (META, the account), so a list kept across a retry
    would set the version twice."""
    actions: list[Action] = [VillageItem.occupied.add(by)]
    if game is not None:
        actions.append(VillageItem.game.set(game))
    if open_seats is not None:
        actions.append(VillageItem.open_seats.set(open_seats))
    return actions


def _seat_taken(account_id: str, now: datetime, change: SeatChange) -> list[Action]:
    """The member item's actions of a join: the newcomer's, nothing of whoever sat there."""
    actions: list[Action] = [
        MemberItem.account_id.set(account_id),
        MemberItem.joined_at.set(now),
        MemberItem.last_access.set(now),
        MemberItem.last_post_at.remove(),  # the pace and the acts are the new player's own
        MemberItem.speech_ban_until.set(change.speech_ban_until)
        if change.speech_ban_until
        else MemberItem.speech_ban_until.remove(),
        MemberItem.public_ban_until.set(change.public_ban_until)
        if change.public_ban_until
        else MemberItem.public_ban_until.remove(),
    ]
    if change.persona is not None:
        actions.append(MemberItem.persona.set(change.persona))
    return actions


def seat_computer(
    record: VillageRecord, slot: str, account_id: str, persona: str, now: datetime, game: Any
) -> None:
    """A computer member takes a vacant seat: the member item and the count, conditioned as a
    join is, with no presence, no hold and no access times (it has no account and never idles).
    ``game``: the game with the join (classic: join order), or None."""

    def write() -> None:
        with transaction() as t:
            t.update(
                record._meta,
                actions=_members_counted(1, game),
                condition=VillageItem.state.is_in("opening", "running"),
            )
            t.update(
                record._members[slot],
                actions=[
                    MemberItem.account_id.set(account_id),
                    MemberItem.persona.set(persona),
                    MemberItem.joined_at.set(now),
                ],
                condition=MemberItem.account_id.does_not_exist(),
            )

    conditioned("seat_computer", write)


class Lock(Struct, frozen=True):
    """An ID lock a departure sets (RULES §9): the departures it counts and its end."""

    departures: list[str]
    until: datetime


class Departure(Struct, frozen=True):
    """A member leaving ``slot``, as ``vacate_slot`` writes it."""

    slot: str
    post: SystemPost  # the public board's word of it
    release_hold: bool  # the account's hold on the pace is this village's: it ends
    lock: Lock | None  # the ID lock it sets (RULES §9)
    open_seats: int | None  # a running village's vacant living seats afterwards
    # An auto-departure, called off (``Refused``) by any access since the read: a visit
    # moved ``last_access``, a post moved ``last_post_at``, a save moved the day's ``saves``.
    idle: bool = False
    game: Any = None  # the game after it (classic: start votes cleared); None: unchanged


def vacate_slot(record: VillageRecord, account: Account, departure: Departure) -> None:
    """A departure: the slot vacant, the presence ``left`` (never rejoin), the hold released,
    the lock set, the day's choices of the slot undecided, and a post saying so. Nothing of
    the leaver stays on the seat for whoever takes it next: its will, its choices and when
    they were saved go (decision 78)."""
    slot = departure.slot
    member = record._members[slot]
    member_condition = MemberItem.account_id == account.account_id
    if departure.idle:
        for attribute, read in (
            (MemberItem.last_access, member.last_access),
            (MemberItem.last_post_at, member.last_post_at),
        ):
            member_condition &= attribute == read if read else attribute.does_not_exist()

    def write() -> None:
        account_actions = _account_freed(record._meta.pace, departure)
        with transaction() as t:
            t.update(
                record._meta, actions=_members_counted(-1, departure.game, departure.open_seats)
            )
            t.update(
                member,
                actions=_seat_left(opening=record.state.value == "opening"),
                condition=member_condition,
            )
            t.update(
                PresenceItem(village_pk(record.village_id), presence_sk(account.account_id)),
                actions=[PresenceItem.left.set(True)],
                condition=PresenceItem.left == False,  # noqa: E712 (a DynamoDB condition)
            )
            if account_actions:
                t.update(account_item(account), actions=account_actions)
            _choices_undecided(t, record, slot, departure.idle)
            t.save(system_post_item(record.village_id, departure.post))

    conditioned("vacate_slot", write)


def _account_freed(pace: str, departure: Departure) -> list[Action]:
    """The account's actions of a departure: the hold released, the lock set (made anew for
    each attempt, as ``_members_counted``'s)."""
    actions: list[Action] = []
    if departure.release_hold:
        actions.append(AccountItem.holds[pace].remove())
    if departure.lock is not None:
        actions += [
            AccountItem.departures.set(departure.lock.departures),
            AccountItem.lock_until.set(departure.lock.until),
        ]
    return actions


def _seat_left(opening: bool) -> list[Action]:
    """The member item's actions of a departure: nobody's, and nothing of the leaver (in the
    opening not even its persona, which the next to join chooses anew)."""
    actions: list[Action] = [
        MemberItem.account_id.remove(),
        MemberItem.speech_ban_until.remove(),
        MemberItem.public_ban_until.remove(),
        MemberItem.will.remove(),
    ]
    if opening:
        actions.append(MemberItem.persona.remove())
    return actions


def _choices_undecided(t: TransactWrite, record: VillageRecord, slot: str, idle: bool) -> None:
    """A vacant slot's choices of the open day are undecided, and the seat's departures
    counted (``vacated``: a save read before it is refused after it)."""
    day = record._open_days.get(record.day)
    if day is None:
        return
    # Still open (an update that sealed it since is retried after, not recreated).
    open_day = DayItem.sealed == False  # noqa: E712 (a DynamoDB condition)
    t.update(
        day,
        actions=[
            DayItem.choices[slot].remove(),
            DayItem.saved_at[slot].remove(),
            DayItem.vacated[slot].set((DayItem.vacated[slot] | 0) + 1),
        ],
        condition=open_day & (DayItem.saves == day.saves) if idle else open_day,
    )


def save_will(record: VillageRecord, slot: str, account_id: str, text: str) -> None:
    """A member's will (classic), rewritten whole; refused once the member left."""
    conditioned(
        "save_will: not a member",
        lambda: record._members[slot].update(
            actions=[MemberItem.will.set(text) if text else MemberItem.will.remove()],
            condition=MemberItem.account_id == account_id,
        ),
    )


def record_access(record: VillageRecord, slot: str, account_id: str, now: datetime) -> bool:
    """Access tracking (RULES §9); nothing when the member left meanwhile. False when AWS
    failed (after the SDK's retries): the visit was not recorded, and the caller must know."""
    try:
        MemberItem(village_pk(record.village_id), slot_sk(slot)).update(
            actions=[MemberItem.last_access.set(now)],
            condition=MemberItem.account_id == account_id,
        )
    except UpdateError as error:
        return is_refusal(error)  # left meanwhile: nothing to do
    return True
