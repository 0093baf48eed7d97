"""A day's choices saved, and the update steps that consume them: one transaction each."""

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from msgspec import Struct
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite

from ...rulesets.base import Step, computer_account, is_computer
from ..accounts import Account, account_item, account_record
from ..db import transaction
from ..errors import AlreadyOwed, Refused, TransactionRefused, conditioned
from ..gm_log import GmLogLine, log_item
from ..keys import (
    LOOK_SK,
    account_pk,
    archived_day_sk,
    day_sk,
    state_key,
    state_sk,
    time_key,
    village_pk,
)
from ..models import (
    AccountItem,
    DayItem,
    GmLogItem,
    LookItem,
    MemberItem,
    OutboxItem,
    VillageItem,
)
from ..outbox import Mail, item_of, owed_item
from ..repository import VillageRecord, plain
from .looks import look_item
from .posts import stepped_post_item
from .seats import Lock


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


def save_choices(
    record: VillageRecord,
    day: int,
    slot: str,
    choices: Mapping[str, str],
    now: datetime,
    receipt: Mail | None = None,
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
    item = record._open_days.get(day)
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


def _save_with_receipt(item: DayItem, actions: list[Action], condition: Any, receipt: Mail) -> None:
    def write() -> None:
        with transaction() as t:
            t.update(item, actions=actions, condition=condition)
            t.save(item_of(receipt), condition=OutboxItem.pk.does_not_exist())

    try:
        conditioned("save_choices: changed since the read", write)
    except TransactionRefused as refused:
        codes = [reason.code if reason else None for reason in refused.cancellation_reasons or []]
        if len(codes) == 2 and codes[1] == "ConditionalCheckFailed":
            raise AlreadyOwed("save_choices: the receipt exists") from refused
        raise


class StepWrite(Struct, frozen=True):
    """One update step as ``commit_step`` writes it: the rule set's ``step`` and what the
    platform adds to it."""

    step: Step
    game: Any  # the step's game as the rule set dumps it
    open_seats: int  # the lounge's seats to take over afterwards
    owed_to: tuple[str, ...]  # the accounts owed the step's mail
    # Now: when a day it opens is first shown (the idle rules count from it, not from a
    # missed schedule).
    committed_at: datetime
    lock_for: Callable[[Account], Lock] | None = None  # the ID lock of a sudden death
    log: GmLogLine | None = None  # a GM's step: its log line
    finished: frozenset[str] = frozenset()  # accounts whose game it ends (``finished_games``)


def commit_step(record: VillageRecord, write: StepWrite) -> None:
    """One update step at once (with the GM's log line, when a GM took it): META
    conditioned on the version read (a step commits once), the day it consumed sealed with
    its ``saves`` unchanged and moved to its archive key (a save after the read aborts the
    step; ``check_day``: the same condition without sealing, counted in the day's
    ``closes``), the ID locks it sets (classic sudden deaths), the next day, the village's
    posts, the holds it ends, the games it finishes and the mail it owes.
    ``step.computers``: the seats computer members take with the start (decision 125), each
    still vacant (a person who joined since holds it: the step is refused and taken again).
    """
    vid, step = record.village_id, write.step
    log_line = log_item(write.log) if write.log is not None else None

    def attempt() -> None:
        with transaction() as t:
            sealed = _consume_days(t, record, step)
            _save_meta(t, record, step, write.game, write.open_seats, write.committed_at)
            _seat_computers(t, record, step)
            if step.open_day is not None:
                t.save(_new_day(vid, step.open_day, sealed), condition=DayItem.pk.does_not_exist())
            for index, post in enumerate(step.posts):
                t.save(stepped_post_item(vid, post, step, int(record._meta.version or 0), index))
            _release_holds(t, record, step.release, step.locks, write.lock_for, write.finished)
            if step.mail is not None:
                for account_id in write.owed_to:
                    t.save(owed_item(vid, step.day, step.mail, account_id, step.at))
            if log_line is not None:
                t.save(log_line, condition=GmLogItem.pk.does_not_exist())

    conditioned("commit_step", attempt)


def _consume_days(t: TransactWrite, record: VillageRecord, step: Step) -> DayItem | None:
    """The days whose choices the step consumed, as read: the one it seals (returned), the
    one it only checks (a classic vote round)."""
    sealed = record._open_days.get(step.seal_day) if step.seal_day is not None else None
    if sealed is not None:
        # Sealed and moved at once: the open item goes (a save after the read changed
        # ``saves`` and aborts this), its copy as read goes below the range.
        t.delete(sealed, condition=DayItem.saves == sealed.saves)
        t.save(_archived(sealed), condition=DayItem.pk.does_not_exist())
    checked = record._open_days.get(step.check_day) if step.check_day is not None else None
    if checked is not None:
        # Its choices consumed as read (no save since); a save checked before this step and
        # written after it is refused by ``closes``.
        t.update(checked, actions=[DayItem.closes.add(1)], condition=DayItem.saves == checked.saves)
    return sealed


def _seat_computers(t: TransactWrite, record: VillageRecord, step: Step) -> None:
    """The computer members the step seats, each on a seat still vacant."""
    for slot, persona in step.computers.items():
        t.update(
            record._members[slot],
            actions=[
                MemberItem.account_id.set(computer_account(slot)),
                MemberItem.persona.set(persona),
                MemberItem.joined_at.set(step.at),
            ],
            condition=MemberItem.account_id.does_not_exist(),
        )


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
        if record._look is None:  # stored before LOOK items (decision 54): start one
            t.save(look_item(vid, step.at))
        else:  # a move like any other: a scheduler or a join that read it before retries
            t.update(
                record._look,
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
    if record._meta.cpu_members is not None and step.state.value != "opening":
        actions.append(VillageItem.cpu_members.remove())  # seated, or never to be
    t.update(record._meta, actions=actions)


def _release_holds(
    t: TransactWrite,
    record: VillageRecord,
    slots: frozenset[str],
    locks: frozenset[str] = frozenset(),
    lock_for: Callable[[Account], Lock] | None = None,
    finished: frozenset[str] = frozenset(),
) -> None:
    """RULES §9: the hold on a pace ends when the character dies or the game ends; a
    classic sudden death also locks the account; a game's end counts in each member's
    ``finished_games`` (one update per account, one batch read)."""
    pace = record._meta.pace
    locked = {m.account_id for m in record._members.values() if m.account_id and m.slot in locks}
    keys = [
        (account_pk(m.account_id), "ACCOUNT")
        for m in record._members.values()
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
    return any(m.account_id == account_id and m.slot in slots for m in record._members.values())
