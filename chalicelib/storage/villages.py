"""Writes of a village's partition, its boards and its owed mail, each named for its intention
and carrying the conditions that keep its invariants (docs/access-patterns.md).

A write whose condition fails raises ``Refused``; the caller decides whether that means
reload and look again, or tell the player.
"""

import heapq
import itertools
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from pynamodb.exceptions import UpdateError
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite

from ..rulesets.base import Step, SystemPost, computer_account, is_computer
from .accounts import Account, account_item, account_record
from .db import ensure_configured, transaction
from .errors import AlreadyOwed, Refused, TransactionRefused, conditioned, is_refusal, retried
from .gm_log import GmLogLine, log_item
from .keys import (
    LOOK_SK,
    SHARDS,
    VILLAGE_SEQUENCE,
    account_pk,
    archived_day_sk,
    auto_village_pk,
    board_pk,
    day_sk,
    look_key,
    look_keys,
    post_sk_prefix,
    presence_sk,
    slot_sk,
    state_key,
    state_keys,
    state_sk,
    time_key,
    village_pk,
)
from .models import (
    AccountItem,
    CounterItem,
    DayItem,
    GmLogItem,
    LookItem,
    MemberItem,
    OutboxItem,
    PostItem,
    PresenceItem,
    VillageItem,
)
from .outbox import owe_once, owed_item
from .repository import VillageRecord, plain
from .shards import Answered, each_shard, every_shard_answering

POST_INTERVAL = timedelta(seconds=5)  # one post per member per 5 s
STORED_BEFORE_SEATS = 13  # villages stored before ``seats`` was: Mobius, 13 characters


def next_village_id() -> str:
    """Village numbers count up from 1 (an atomic counter)."""
    ensure_configured()
    counter = CounterItem(*VILLAGE_SEQUENCE)
    counter.update(actions=[CounterItem.count.add(1)])
    return str(counter.count)


@dataclass(frozen=True)
class Post:
    """One board post, as read or to be written (``PostItem``'s fields)."""

    partition: str  # the board's (a personal board's: its owner's)
    key: str  # its place on the board: the day, the moment, then a tie-break
    village_id: str
    board: str
    day: int
    slot: str | None  # None: a system post
    author: str | None  # persona name at the time of writing
    text: str
    created_at: datetime


def new_post(
    village_id: str,
    board: str,
    day: int,
    text: str,
    now: datetime,
    *,
    slot: str | None = None,
    author: str | None = None,
    owner: str | None = None,
    order: str | None = None,
) -> Post:
    """``owner``: the account of a personal board (each member's own partition); ``order``:
    a step's post's place (``_system``), else a random suffix keeps two posts of the same
    microsecond apart, after any step's posts of that microsecond (what was said then answers
    the update: a computer member's turn is taken at the moment of the step it follows)."""
    suffix = order if order is not None else f"r{secrets.token_hex(4)}"
    return Post(
        partition=board_pk(village_id, board, owner),
        key=f"{post_sk_prefix(day)}{time_key(now)}#{suffix}",
        village_id=village_id,
        board=board,
        day=day,
        slot=slot,
        author=author,
        text=text,
        created_at=now,
    )


def _post_item(post: Post) -> PostItem:
    return PostItem(
        post.partition,
        post.key,
        village_id=post.village_id,
        board=post.board,
        day=post.day,
        slot=post.slot,
        author=post.author,
        text=post.text,
        created_at=post.created_at,
    )


def _post(item: PostItem) -> Post:
    return Post(
        partition=str(item.pk),
        key=str(item.sk),
        village_id=str(item.village_id),
        board=str(item.board),
        day=int(item.day),
        slot=item.slot,
        author=item.author,
        text=str(item.text),
        created_at=item.created_at,
    )


def _system(village_id: str, post: SystemPost) -> PostItem:
    return _post_item(new_post(village_id, post.board, post.day, post.text, post.at))


def _stepped(village_id: str, post: SystemPost, step: Step, version: int, index: int) -> PostItem:
    """A step's post, sorted by the step's moment, the village's version and its place in
    the step: steps taken at one moment (a late look: a round closed at its deadline, then
    the re-vote the computers closed at once) read in the order they were taken (issue 37).
    It shows its own time."""
    placed = new_post(
        village_id, post.board, post.day, post.text, step.at, order=f"0{version:010d}{index:04d}"
    )
    return _post_item(replace(placed, created_at=post.at))


def _look(village_id: str, when: datetime) -> LookItem:
    return LookItem(
        village_pk(village_id),
        LOOK_SK,
        village_id=village_id,
        gsi1pk=look_key(village_id),
        gsi1sk=time_key(when),
    )


def _new_day(village_id: str, day: int, previous: DayItem | None) -> DayItem:
    return DayItem(
        village_pk(village_id),
        day_sk(day),
        village_id=village_id,
        day=day,
        choices={},
        saved_at={},
        previous_saved_at=plain(previous.saved_at) if previous is not None else {},
        saves=0,
        sealed=False,
    )


def _archived(day: DayItem) -> DayItem:
    """A sealed day's copy below the hot read's range (docs/decisions.md 60)."""
    return DayItem(
        day.pk,
        archived_day_sk(int(day.day)),
        village_id=day.village_id,
        day=day.day,
        choices=plain(day.choices),
        saved_at=plain(day.saved_at),
        previous_saved_at=plain(day.previous_saved_at),
        saves=day.saves,
        closes=day.closes,
        sealed=True,
    )


def create_village(
    *,
    village_id: str,
    name: str,
    pace: str,
    rules: str,
    character_set: str,
    now: datetime,
    first_update: datetime,
    seed: int,
    game: Any,
    seats: Sequence[str],
    posts: Iterable[SystemPost],
    log: GmLogLine | None = None,
    host: Account | None = None,
    cpu_members: int = 0,
) -> None:
    """The village in the opening, its vacant seats and its first posts, all at once (and the
    GM's log line of it). ``host``: a player who builds it, whose last built village must be
    the one read (two villages built at once: one is refused). ``cpu_members``: computer
    members waiting to take the seats still open at the start (decision 125)."""
    meta = VillageItem(
        village_pk(village_id),
        "META",
        village_id=village_id,
        name=name,
        pace=pace,
        rules=rules,
        state="opening",
        character_set=character_set,
        created_at=now,
        next_update=first_update,
        seats=len(seats),
        occupied=0,
        seed=seed,
        game=game,
        gsi1pk=state_key("opening", village_id),
        gsi1sk=state_sk(first_update, village_id),
        cpu_members=cpu_members or None,
    )

    log_line = log_item(log) if log is not None else None

    def write() -> None:
        with transaction() as t:
            t.save(meta, condition=VillageItem.pk.does_not_exist())
            t.save(_look(village_id, first_update))
            for slot in seats:
                t.save(
                    MemberItem(
                        village_pk(village_id), slot_sk(slot), village_id=village_id, slot=slot
                    )
                )
            for post in posts:
                t.save(_system(village_id, post))
            if log_line is not None:
                t.save(log_line, condition=GmLogItem.pk.does_not_exist())
            if host is not None:
                t.update(
                    account_item(host),
                    actions=[AccountItem.hosted_village.set(village_id)],
                    condition=AccountItem.hosted_village == host.hosted_village
                    if host.hosted_village
                    else AccountItem.hosted_village.does_not_exist(),
                    add_version_condition=False,  # only this field is read and written here
                )

    conditioned("create_village", write)


@dataclass(frozen=True)
class SeatChange:
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
    meta = record.meta
    member = record.members[slot]
    pace = meta.pace

    def write() -> None:
        # Every action list is made anew for each attempt: PynamoDB appends the version's
        # increment to the list an update of a versioned item is given (META, the account),
        # so a list kept across a retry would set the version twice.
        meta_actions: list[Action] = [VillageItem.occupied.add(1)]
        if game is not None:  # the rule set keeps the join in its game (classic: join order)
            meta_actions.append(VillageItem.game.set(game))
        if open_seats is not None:
            meta_actions.append(VillageItem.open_seats.set(open_seats))
        member_actions: list[Action] = [
            MemberItem.account_id.set(account.account_id),
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
            member_actions.append(MemberItem.persona.set(change.persona))
        with transaction() as t:
            t.update(
                meta,
                actions=meta_actions,
                condition=VillageItem.state.is_in("opening", "running"),
            )
            if look_by is not None:
                _look_by(t, record, look_by)
            t.update(
                member, actions=member_actions, condition=MemberItem.account_id.does_not_exist()
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


def seat_computer(
    record: VillageRecord, slot: str, account_id: str, persona: str, now: datetime, game: Any
) -> None:
    """A computer member takes a vacant seat: the member item and the count, conditioned as a
    join is, with no presence, no hold and no access times (it has no account and never idles).
    ``game``: the game with the join (classic: join order), or None."""

    def write() -> None:
        meta_actions: list[Action] = [VillageItem.occupied.add(1)]  # anew each attempt (META's
        if game is not None:  # version is appended to it, as in ``claim_slot``)
            meta_actions.append(VillageItem.game.set(game))
        with transaction() as t:
            t.update(
                record.meta,
                actions=meta_actions,
                condition=VillageItem.state.is_in("opening", "running"),
            )
            t.update(
                record.members[slot],
                actions=[
                    MemberItem.account_id.set(account_id),
                    MemberItem.persona.set(persona),
                    MemberItem.joined_at.set(now),
                ],
                condition=MemberItem.account_id.does_not_exist(),
            )

    conditioned("seat_computer", write)


def _look_by(t: TransactWrite, record: VillageRecord, when: datetime) -> None:
    """The scheduler looks by ``when`` (moved earlier if need be); counted as a move even when
    it stays, so that a scheduler that read the village before this join cannot set a later
    look over it (``set_next_look``)."""
    look = record.look
    wanted = time_key(when)
    if look is None:  # stored before LOOK items (decisions 54): start one
        t.save(_look(record.village_id, when), condition=LookItem.pk.does_not_exist())
        return
    t.update(
        look,
        actions=[
            LookItem.gsi1sk.set(min(wanted, str(look.gsi1sk or wanted))),
            LookItem.moves.add(1),
        ],
        condition=_unmoved(look),
    )


def _unmoved(look: LookItem) -> Any:
    """The LOOK item as read: no move since (``moves`` counts them)."""
    return LookItem.moves == look.moves


@dataclass(frozen=True)
class Lock:
    """An ID lock a departure sets (RULES §9): the departures it counts and its end."""

    departures: list[str]
    until: datetime


def vacate_slot(
    record: VillageRecord,
    account: Account,
    slot: str,
    now: datetime,
    *,
    release_hold: bool,
    lock: Lock | None,
    open_seats: int | None,
    post: SystemPost,
    idle: bool = False,
    game: Any = None,
) -> None:
    """A departure: the slot vacant, the presence ``left`` (never rejoin), the hold released,
    the lock set, the day's choices of the slot undecided, and a post saying so. Nothing of
    the leaver stays on the seat for whoever takes it next: its will, its choices and when
    they were saved go (decision 78).

    ``idle``: an auto-departure, called off (``Refused``) by any access since the read: a
    visit moved ``last_access``, a post moved ``last_post_at``, a save moved the day's
    ``saves``.
    """
    meta = record.meta
    member = record.members[slot]
    opening = record.state.value == "opening"
    member_condition = MemberItem.account_id == account.account_id
    if idle:
        for attribute, read in (
            (MemberItem.last_access, member.last_access),
            (MemberItem.last_post_at, member.last_post_at),
        ):
            member_condition &= attribute == read if read else attribute.does_not_exist()

    def actions() -> tuple[list[Action], list[Action], list[Action]]:
        """META's, the member's and the account's actions, made anew for each attempt (the
        versioned items' lists get their version's increment appended, as in ``claim_slot``)."""
        account_actions: list[Action] = []
        if release_hold:
            account_actions.append(AccountItem.holds[meta.pace].remove())
        if lock is not None:
            account_actions += [
                AccountItem.departures.set(lock.departures),
                AccountItem.lock_until.set(lock.until),
            ]
        member_actions: list[Action] = [
            MemberItem.account_id.remove(),
            MemberItem.speech_ban_until.remove(),
            MemberItem.public_ban_until.remove(),
            MemberItem.will.remove(),
        ]
        if opening:
            member_actions.append(MemberItem.persona.remove())
        meta_actions: list[Action] = [VillageItem.occupied.add(-1)]
        if game is not None:  # the game after the departure (classic: start votes cleared)
            meta_actions.append(VillageItem.game.set(game))
        if open_seats is not None:
            meta_actions.append(VillageItem.open_seats.set(open_seats))
        return meta_actions, member_actions, account_actions

    def write() -> None:
        meta_actions, member_actions, account_actions = actions()
        with transaction() as t:
            t.update(meta, actions=meta_actions)
            t.update(member, actions=member_actions, condition=member_condition)
            t.update(
                PresenceItem(village_pk(record.village_id), presence_sk(account.account_id)),
                actions=[PresenceItem.left.set(True)],
                condition=PresenceItem.left == False,  # noqa: E712 (a DynamoDB condition)
            )
            if account_actions:
                t.update(account_item(account), actions=account_actions)
            day = record.open_days.get(record.day)  # a vacant slot's choices are undecided
            if day is not None:
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
            t.save(_system(record.village_id, post))

    conditioned("vacate_slot", write)


def save_choices(
    record: VillageRecord,
    day: int,
    slot: str,
    choices: Mapping[str, str],
    now: datetime,
    receipt: OutboxItem | None = None,
) -> dict[str, dict[str, str]]:
    """One member's choices of ``day``, checked against the day as ``record`` read it.

    Only the choices that differ from the member's as read are written, each conditioned on
    its value as read: two saves of one member never undo each other's other choices, and
    of two saves of one choice (a short classic vote, final once cast) the second is refused.
    Refused too once the update sealed the day (and moved it: the condition fails on the
    missing item too), or once a step consumed the day's choices since the read (``closes``:
    a classic round closed), or once the seat's holder left since the read (a departure bumps
    ``vacated``: the save never lands on a newcomer's seat). Saves of different members never
    touch each other's entry.
    Returns every member's choices of that day as they are after this save.

    ``receipt``: an owed mail written in the same transaction, once: a save whose receipt
    exists already (the same reply mail delivered again) is ``AlreadyOwed`` and changes
    nothing. The choices it returns are then the member's as saved and the others' as read."""
    item = record.open_days.get(day)
    if item is None:
        raise Refused("save_choices: no such day")
    before = plain(item.choices).get(slot)
    mine = DayItem.choices[slot]
    actions: list[Action] = [
        DayItem.saved_at[slot].set(now.isoformat()),
        DayItem.saves.add(1),
    ]
    condition = (DayItem.sealed == False) & (  # noqa: E712 (a DynamoDB condition)
        DayItem.closes.does_not_exist() if item.closes is None else DayItem.closes == item.closes
    )
    left = plain(item.vacated).get(slot)  # the seat's holder as read (decision 79)
    condition &= DayItem.vacated[slot] == left if left else DayItem.vacated[slot].does_not_exist()
    if before is None:  # the member's first save of the day: the entry, if still none
        actions.append(mine.set(dict(choices)))
        condition &= mine.does_not_exist()
    else:
        condition &= mine.exists()
        for key in sorted(set(before) | set(choices)):
            read, wanted = before.get(key), choices.get(key)
            if read == wanted:
                continue
            actions.append(mine[key].remove() if wanted is None else mine[key].set(wanted))
            condition &= mine[key].does_not_exist() if read is None else mine[key] == read
    if receipt is not None:
        _save_with_receipt(item, actions, condition, receipt)
        return {**plain(item.choices), slot: dict(choices)}
    conditioned(
        "save_choices: changed since the read",
        lambda: item.update(actions=actions, condition=condition),
    )
    return plain(item.choices)


def _save_with_receipt(
    item: DayItem, actions: list[Action], condition: Any, receipt: OutboxItem
) -> None:
    def write() -> None:
        with transaction() as t:
            t.update(item, actions=actions, condition=condition)
            t.save(receipt, condition=OutboxItem.pk.does_not_exist())

    try:
        conditioned("save_choices: changed since the read", write)
    except TransactionRefused as refused:
        codes = [reason.code if reason else None for reason in refused.cancellation_reasons or []]
        if len(codes) == 2 and codes[1] == "ConditionalCheckFailed":
            raise AlreadyOwed("save_choices: the receipt exists") from refused
        raise


def commit_step(
    record: VillageRecord,
    step: Step,
    game: Any,
    open_seats: int,
    owed_to: Iterable[str],
    committed_at: datetime,
    lock_for: Callable[[Account], "Lock"] | None = None,
    log: GmLogLine | None = None,
    finished: frozenset[str] = frozenset(),
) -> None:
    """One update step at once (with the GM's log line, when a GM took it): META
    conditioned on the version read (a step commits once), the day it consumed sealed with
    its ``saves`` unchanged and moved to its archive key (a save after the read aborts the
    step; ``check_day``: the same condition without sealing, counted in the day's
    ``closes``), the ID locks it sets (classic sudden deaths), the next day, the village's
    posts, the holds it ends and the mail it owes; ``finished``: the accounts whose game
    this step ends (each counted in ``finished_games``). ``committed_at``: now, when a day
    it opens is first shown (the idle rules count from it, not from a missed schedule).
    ``step.computers``: the seats computer members take with the start (decision 125), each
    still vacant (a person who joined since holds it: the step is refused and taken again).
    """
    vid = record.village_id

    log_line = log_item(log) if log is not None else None

    def write() -> None:
        with transaction() as t:
            sealed = record.open_days.get(step.seal_day) if step.seal_day is not None else None
            if sealed is not None:
                # Sealed and moved at once: the open item goes (a save after the read
                # changed ``saves`` and aborts this), its copy as read goes below the range.
                t.delete(sealed, condition=DayItem.saves == sealed.saves)
                t.save(_archived(sealed), condition=DayItem.pk.does_not_exist())
            checked = record.open_days.get(step.check_day) if step.check_day is not None else None
            if checked is not None:
                # Its choices consumed as read (no save since); a save checked before this
                # step and written after it is refused by ``closes``.
                t.update(
                    checked,
                    actions=[DayItem.closes.add(1)],
                    condition=DayItem.saves == checked.saves,
                )
            _save_meta(t, record, step, game, open_seats, committed_at)
            for slot, persona in step.computers.items():
                t.update(
                    record.members[slot],
                    actions=[
                        MemberItem.account_id.set(computer_account(slot)),
                        MemberItem.persona.set(persona),
                        MemberItem.joined_at.set(step.at),
                    ],
                    condition=MemberItem.account_id.does_not_exist(),
                )
            if step.open_day is not None:
                t.save(_new_day(vid, step.open_day, sealed), condition=DayItem.pk.does_not_exist())
            for index, post in enumerate(step.posts):
                t.save(_stepped(vid, post, step, int(record.meta.version or 0), index))
            _release_holds(t, record, step.release, step.locks, lock_for, finished)
            if step.mail is not None:
                for account_id in owed_to:
                    t.save(owed_item(vid, step.day, step.mail, account_id, step.at))
            if log_line is not None:
                t.save(log_line, condition=GmLogItem.pk.does_not_exist())

    conditioned("commit_step", write)


def _save_meta(
    t: TransactWrite,
    record: VillageRecord,
    step: Step,
    game: Any,
    open_seats: int,
    committed_at: datetime,
) -> None:
    """The village's new state (the item's version is the condition) and the scheduler's next
    look: its next update (the worker then moves it earlier if a reminder or an idle member
    is due sooner), none once it is closed."""
    state = step.state.value
    vid = record.village_id
    actions: list[Action] = [
        VillageItem.state.set(state),
        VillageItem.game.set(game),
        VillageItem.gsi1pk.set(state_key(state, vid)),
        VillageItem.open_seats.set(open_seats),
    ]
    if step.next_update is not None:
        actions += [
            VillageItem.next_update.set(step.next_update),
            VillageItem.gsi1sk.set(state_sk(step.next_update, vid)),
        ]
        # The scheduler looks right after a step: only its look works out what the step made
        # due before the next update (a reminder, an idle member), and a step committed by a
        # request (a classic round closed early, a start vote) has no worker after it.
        if record.look is None:  # stored before LOOK items (decision 54): start one
            t.save(_look(vid, step.at))
        else:  # a move like any other: a scheduler or a join that read it before retries
            t.update(
                record.look,
                actions=[LookItem.gsi1sk.set(time_key(step.at)), LookItem.moves.add(1)],
            )
    else:
        actions += [
            VillageItem.next_update.remove(),
            VillageItem.closed_at.set(step.at),
            VillageItem.gsi1sk.set(state_sk(step.at, vid)),
        ]
        t.delete(LookItem(village_pk(vid), LOOK_SK))
    if step.day_started_at is not None:
        actions.append(VillageItem.day_started_at.set(step.day_started_at))
        actions.append(VillageItem.day_shown_at.set(max(step.day_started_at, committed_at)))
    if step.gm_reason is not None:
        actions.append(VillageItem.gm_reason.set(step.gm_reason))
    if step.computers:
        actions.append(VillageItem.occupied.add(len(step.computers)))
    if record.meta.cpu_members is not None and step.state.value != "opening":
        actions.append(VillageItem.cpu_members.remove())  # seated, or never to be
    t.update(record.meta, actions=actions)


def _release_holds(
    t: TransactWrite,
    record: VillageRecord,
    slots: frozenset[str],
    locks: frozenset[str] = frozenset(),
    lock_for: Callable[[Account], "Lock"] | None = None,
    finished: frozenset[str] = frozenset(),
) -> None:
    """RULES §9: the hold on a pace ends when the character dies or the game ends; a
    classic sudden death also locks the account; a game's end counts in each member's
    ``finished_games`` (one update per account, one batch read)."""
    pace = record.meta.pace
    locked = {m.account_id for m in record.members.values() if m.account_id and m.slot in locks}
    keys = [
        (account_pk(m.account_id), "ACCOUNT")
        for m in record.members.values()
        if m.account_id is not None
        and not is_computer(m.account_id)  # no account: nothing to release, lock or count
        and (m.slot in slots or m.slot in locks or m.account_id in finished)
    ]
    if not keys:
        return
    for account in map(account_record, AccountItem.batch_get(keys)):
        actions: list[Action] = []
        if m_slot_released(record, account.account_id, slots) and (
            account.holds.get(pace) == record.village_id
        ):
            actions.append(AccountItem.holds[pace].remove())
        if account.account_id in locked and lock_for is not None:
            lock = lock_for(account)
            actions += [
                AccountItem.departures.set(lock.departures),
                AccountItem.lock_until.set(lock.until),
            ]
        if account.account_id in finished:
            actions.append(AccountItem.finished_games.add(1))
        if actions:
            t.update(account_item(account), actions=actions)


def m_slot_released(record: VillageRecord, account_id: str, slots: frozenset[str]) -> bool:
    return any(m.account_id == account_id and m.slot in slots for m in record.members.values())


def save_will(record: VillageRecord, slot: str, account_id: str, text: str) -> None:
    """A member's will (classic), rewritten whole; refused once the member left."""
    conditioned(
        "save_will: not a member",
        lambda: record.members[slot].update(
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


def add_post(
    record: VillageRecord,
    post: Post,
    slot: str,
    account_id: str,
    now: datetime,
    shadow: Post | None = None,
    seen: datetime | None = None,
) -> None:
    """A member's post; refused (``Refused``) within 5 s of its last one or once it left.
    ``shadow``: its nameless trace on another board, written with it (classic howls).

    No transaction (decision 67): the member's item takes the post's moment first, under
    the condition that keeps the pace, and only then are the posts written (in one batch).
    A failure between the two leaves a moment with no post, which costs the member only
    the 5 s wait; a post is never written without its moment.

    ``seen``: when the page the post was written on was shown (decision 66), recorded as the
    member's last visit: the page after the post marks as unread what came since."""
    actions: list[Action] = [MemberItem.last_post_at.set(now)]
    if seen is not None:
        actions.append(MemberItem.last_access.set(seen))
    paced = (MemberItem.account_id == account_id) & (
        MemberItem.last_post_at.does_not_exist() | (MemberItem.last_post_at <= now - POST_INTERVAL)
    )
    conditioned(
        "add_post: too soon or not a member",
        lambda: record.members[slot].update(actions=actions, condition=paced),
    )
    # The posts' keys were drawn once: writing them again writes the same items.
    retried(lambda: _write_posts([p for p in (post, shadow) if p is not None]))


def _write_posts(posts: list[Post]) -> None:
    with PostItem.batch_write() as batch:
        for post in posts:
            batch.save(_post_item(post))


@dataclass(frozen=True)
class Page:
    items: list[Any]
    last_key: dict[str, Any] | None


def read_board(partition: str, day: int, limit: int, start: dict[str, Any] | None) -> Page:
    """One board's posts of one day, oldest first."""
    ensure_configured()
    result = PostItem.query(
        partition,
        PostItem.sk.startswith(post_sk_prefix(day)),
        limit=limit,
        last_evaluated_key=start,
    )
    items = [_post(item) for item in result]
    return Page(items, result.last_evaluated_key)


def read_whole_board(partition: str) -> list[Post]:
    """One board's posts of every day, oldest first (a village's whole log, decision 52)."""
    ensure_configured()
    return [_post(item) for item in PostItem.query(partition)]


@dataclass(frozen=True)
class VillageSummary:
    """A village as the lounge lists it: its META item's fields, as stored (see there), its
    game unparsed (the lounge shows its day without parsing it)."""

    village_id: str
    name: str
    pace: str
    state: str
    rules: str | None  # None: Mobius, as stored before rule sets were named
    next_update: datetime | None
    closed_at: datetime | None
    occupied: int
    seats: int | None  # None: stored before it was kept (13)
    open_seats: int
    cpu_members: int | None
    game: Any


def _summary(meta: VillageItem) -> VillageSummary:
    return VillageSummary(
        village_id=str(meta.village_id),
        name=str(meta.name),
        pace=str(meta.pace),
        state=str(meta.state),
        rules=meta.rules,
        next_update=meta.next_update,
        closed_at=meta.closed_at,
        occupied=int(meta.occupied or 0),
        seats=None if meta.seats is None else int(meta.seats),
        open_seats=int(meta.open_seats or 0),
        cpu_members=None if meta.cpu_members is None else int(meta.cpu_members),
        game=meta.game,
    )


def villages_in_state(
    state: str,
    limit: int,
    start: dict[str, Any] | None,
    latest_first: bool,
    free_only: bool = False,
) -> Page:
    """The lounge: villages in one state by next update (closed: latest closed first),
    merged from the state's shards.

    ``start``: the state and the sort key (``gsi1sk``) of the last village of the page before:
    a place in the merged order (sort keys end in the village id, so they are unique).
    Each shard is read a few items at a time, the first page of every shard at once: a page
    costs one query per shard, and another only for a shard holding more than its share.
    """
    ensure_configured()
    after = start["gsi1sk"]["S"] if start else None
    page_size = 2 * -(-(limit + 1) // SHARDS)  # twice a shard's share of the page

    def shard(key: str) -> Iterator[VillageItem]:
        condition = None
        if after is not None:
            condition = VillageItem.gsi1sk < after if latest_first else VillageItem.gsi1sk > after
        return iter(
            VillageItem.by_state.query(
                key,
                condition,
                scan_index_forward=not latest_first,
                page_size=page_size,
                filter_condition=(
                    (VillageItem.occupied < VillageItem.seats)
                    | (
                        VillageItem.seats.does_not_exist()
                        & (VillageItem.occupied < STORED_BEFORE_SEATS)
                    )
                )
                if free_only
                else None,
            )
        )

    def first_page(key: str) -> list[Iterator[VillageItem]]:
        results = shard(key)
        head = next(results, None)
        return [] if head is None else [itertools.chain([head], results)]

    shards = [results for found in each_shard(state_keys(state), first_page) for results in found]
    merged = heapq.merge(*shards, key=lambda v: str(v.gsi1sk), reverse=latest_first)
    items = list(itertools.islice(merged, limit + 1))
    if len(items) <= limit:
        return Page([_summary(meta) for meta in items], None)
    items = items[:limit]
    last = {"state": {"S": state}, "gsi1sk": {"S": items[-1].gsi1sk}}
    return Page([_summary(meta) for meta in items], last)


def due_village_ids(now: datetime) -> Answered[str]:
    """Active villages whose next look (update, reminder or idle member) is due, most overdue
    first: every shard's LOOK items, queried at once; a shard that fails is named, and the
    villages the others found stand."""
    ensure_configured()

    def shard(key: str) -> list[LookItem]:
        return list(
            LookItem.by_state.query(
                key,
                LookItem.gsi1sk <= time_key(now),
                attributes_to_get=["village_id", "gsi1sk"],
            )
        )

    due = every_shard_answering(look_keys(), shard)
    ordered = sorted(due.found, key=lambda look: str(look.gsi1sk))
    return Answered([str(look.village_id) for look in ordered], due.failed)


def owe_reminders(
    record: VillageRecord, day: int, account_ids: Iterable[str], now: datetime
) -> None:
    """The day's reminders, each owed once (a duplicate tick writes nothing new), and the
    village's note that the day's reminder is done."""
    for account_id in account_ids:
        # Owed already (a duplicate tick) only when the condition failed; a fault raises
        # before the day is marked, so the next look owes it again.
        owe_once(owed_item(record.village_id, day, "reminder", account_id, now))
    with suppress(UpdateError):  # the village moved on meanwhile; the next look sets it
        record.meta.update(actions=[VillageItem.reminded_day.set(day)])


def set_next_look(record: VillageRecord, when: datetime) -> None:
    """When the scheduler must look at the village again: the LOOK item alone (a hundred
    bytes; META and its game are not written), unless it moved since the read."""
    look = record.look
    wanted = time_key(when)
    if look is None or wanted == look.gsi1sk:
        return  # closed (or stored before LOOK items: its next step starts one)
    with suppress(Refused):  # moved meanwhile (a join, a step): that move stands
        conditioned(
            "set_next_look",
            lambda: look.update(
                actions=[LookItem.gsi1sk.set(wanted), LookItem.moves.add(1)],
                condition=_unmoved(look),
            ),
        )


def claim_hourly_village(hour: str, now: datetime) -> bool:
    """This hour's check for a new long village, once across duplicate ticks."""
    ensure_configured()
    claim = CounterItem(auto_village_pk(hour), "AUTO", expires_at=now + timedelta(days=2))
    try:
        conditioned(
            "claim_hourly_village", lambda: claim.save(condition=CounterItem.pk.does_not_exist())
        )
    except Refused:
        return False
    return True


def release_hourly_village(hour: str) -> None:
    CounterItem(auto_village_pk(hour), "AUTO").delete()


def seat_count(meta: VillageItem) -> int:
    return int(meta.seats or STORED_BEFORE_SEATS)


def opening_villages() -> list[VillageItem]:
    ensure_configured()
    found = each_shard(state_keys("opening"), lambda key: list(VillageItem.by_state.query(key)))
    return [village for shard in found for village in shard]
