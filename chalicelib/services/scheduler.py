"""The scheduler's use cases: find what is due, process one village, keep long villages open.

``tick`` runs every minute. It finds the villages due through the index (no
scan) and owes each to the advance workers, whose ``process_village`` owes the
village's mail to the mail workers (``send_owed_mail``): the entrypoint sends
what each owes once it returns (SQS in AWS, inline locally; ``chalicelib/effects.py``).
Every step is idempotent: duplicate or overlapping ticks do the work once.
"""

import random
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta

from msgspec import Struct, field

from .. import rulesets
from ..clock import JST
from ..membership import IdleWindow
from ..rulesets.base import ACTIVE_STATES, Pace
from ..storage import outbox as outbox_store
from ..storage import villages as store
from ..storage.errors import FAULTS
from ..storage.repository import VillageRecord
from ..storage.shards import Answered
from . import computers, outbox, update, villages
from .owed import MailHandOver, VillageDue
from .unit import Unit

LONG_VILLAGE_HOURS = (3, 9, 15, 21)  # JST (RULES §2)
# A member idle but not departed (the departure kept losing races) is looked at again after
# this, rather than on every tick.
IDLE_RETRY = timedelta(minutes=5)
# The computer members' turns a late look gives before the update it preceded (its moment and
# the paced moments they asked for: a computer asks for a few a day).
LATE_TURNS = 8


def due_village_ids(now: datetime) -> Answered[str]:
    return store.due_village_ids(now)


class TickReport(Struct):
    due: int = 0
    created: list[str] = field(default_factory=list)
    mail_villages: list[str] = field(default_factory=list)  # owing mail due: handed over
    # Index shards whose query failed every try: what they hold is the next tick's.
    failed_shards: list[str] = field(default_factory=list)
    long_village_failed: bool = False  # the hour's check is the next tick's


def tick(now: datetime, rng: random.Random, unit: Unit) -> TickReport:
    """Owes each village due to the advance workers, and each outbox partition with mail due
    (owed by a request's step, a failed send waiting its retry, a sender that died) to the
    mail workers, on ``unit``: the entrypoint sends them once the tick returns.

    Each part stands alone: a fault of AWS in one (the long village, an index shard) leaves
    its work to the next tick and the rest is done now; the report names what failed."""
    report = TickReport()
    try:
        created = ensure_long_village(now, rng)
    except FAULTS:
        created, report.long_village_failed = None, True
    if created:
        report.created.append(created)
    due = due_village_ids(now)
    report.due, report.failed_shards = len(due.found), list(due.failed)
    for village_id in due.found:
        unit.owe(VillageDue(village_id))
    due_mail = outbox.pending(now)
    report.failed_shards += due_mail.failed
    report.mail_villages = outbox.villages_owed_mail(due_mail.found)
    for owner in report.mail_villages:
        unit.owe(MailHandOver(owner))
    return report


def process_village(village_id: str, now: datetime, unit: Unit) -> list[update.Happening]:
    """Everything due for one village: its updates, auto-departures, reminder; its mail owed
    on ``unit`` to the mail workers (deployed, the update does not wait for SES's rate,
    decision 57).

    One unit of work: the village is loaded once, and again only after a write changed it.
    """
    record = unit.village(village_id)
    if record is None:
        return []
    update_at = record.next_update
    looked = record.look_at
    # Who was gone by the update (RULES §9) is not counted at it: an opening member idle
    # for 24 h neither starts the village nor leaves with a lock once it has started.
    if update_at is not None and update_at <= now:
        # A look that came after the update it preceded (a slow tick, the local clock moved
        # on): the computer members take the turns they were due before it first, at the
        # look's moment and at each later one they asked for, as a person who opened the
        # page then would have (decisions 108, 126).
        at = looked
        for _ in range(LATE_TURNS):
            if at is None or at >= update_at:
                break
            asked = computers.play(village_id, at, unit=unit)
            at = asked if asked is not None and asked > at else None
        villages.depart_idle(village_id, update_at, unit=unit)
    happenings = update.advance(village_id, now, unit=unit)
    villages.depart_idle(village_id, now, unit=unit)
    # Computer members act on every look (decision 108): a day or a night just opened, or
    # the paced moment one of them asked for; a save of theirs may close a round early.
    computers_again = computers.play(village_id, now, unit=unit)
    record = unit.village(village_id)
    if record is None:
        return happenings
    _remind(record, now)
    windows = villages.idle_windows(record)
    _warn_idle(record, windows, now)
    _reschedule(record, windows, now, computers_again)
    if happenings or villages.occupied(record):
        # Whether the look owed mail is the outbox's to say: its hand-over reads it once,
        # where the mail is sent or handed over (decision 245).
        unit.owe(MailHandOver(village_id, if_any=True))
    return happenings


def send_owed_mail(
    village_id: str,
    now: datetime,
    send: outbox.Sender | None = None,
    seconds_left: Callable[[], float] | None = None,
    unit: Unit | None = None,
) -> outbox.Delivery:
    """The mail worker: every mail the village still owes that is due (deliver decides), as
    far as its time goes. ``unit``: the one whose use case owed it (locally, where there are
    no mail workers), whose villages are not read again."""
    items = outbox.unsent_mail(village_id)
    if not items:
        return outbox.Delivery()
    return outbox.deliver(now, items, unit=unit, send=send, seconds_left=seconds_left)


def owing_mail(handed: Iterable[MailHandOver]) -> list[str]:
    """The outbox partitions to hand to the mail workers, each once: every one a use case
    knew it owed mail in, and every village whose look may have (``if_any``) that holds some
    not yet claimed (one query each, the one its look made itself before)."""
    owners: dict[str, None] = {}  # in order, each once (a tick hands over thousands)
    for handing in handed:
        if handing.owner not in owners and (
            not handing.if_any or outbox.village_mail(handing.owner)
        ):
            owners[handing.owner] = None
    return list(owners)


def _remind(record: VillageRecord, now: datetime) -> bool:
    """Once a day, to the members the rule set names (Mobius: the living with nothing saved).

    Returns whether the village was written."""
    at, slots = record.rules.reminder(record, now)
    key = record.rules.reminder_key(record)  # Mobius: the day; classic: the round or night
    if at is None or slots is None or record.village.reminded_day >= key:
        return False
    seats = record.seats()
    accounts = [seats[slot].account_id for slot in slots if not seats[slot].computer]
    store.owe_reminders(record, key, [a for a in accounts if a is not None], now)
    return True


def _warn_idle(record: VillageRecord, windows: Mapping[str, IdleWindow], now: datetime) -> None:
    """The idle warning (decision 140) to each member whose auto-departure is near: owed once
    per access it counts from (a duplicate look finds it owed and writes nothing), whatever
    the member's mail level; never to the dead, computer members or once the game is over
    (no window)."""
    seats = record.seats()
    due = {
        outbox_store.idle_warning_key(account, window.since): (account, window.since)
        for slot, window in windows.items()
        if (account := seats[slot].account_id) is not None and window.warn <= now < window.due
    }
    if not due:
        return
    owed = outbox_store.idle_warnings_owed(record.village_id)
    for key, (account, since) in due.items():
        if key not in owed:
            outbox_store.owe_idle_warning(record.village_id, record.day, account, since, now)


def _reschedule(
    record: VillageRecord,
    windows: Mapping[str, IdleWindow],
    now: datetime,
    computers_again: datetime | None,
) -> None:
    """Sets when the scheduler must look again: the update, the reminder, an idle warning,
    the first moment a member can be idle or the moment a computer member asked for,
    whichever comes first.
    Nothing in between can make an earlier look needed but a join, which moves the look
    itself (``store.claim_slot``'s ``look_by``): logins and saves only make members idle
    later."""
    if record.state not in ACTIVE_STATES or record.next_update is None:
        return
    times = [record.next_update]
    at, _ = record.rules.reminder(record, now)
    if (
        at is not None
        and at > now
        and record.village.reminded_day < record.rules.reminder_key(record)
    ):
        times.append(at)
    if computers_again is not None and computers_again > now:
        times.append(computers_again)
    idle_at = min((w.due for w in windows.values()), default=None)
    if idle_at is not None:
        times.append(idle_at if idle_at > now else now + IDLE_RETRY)
    # Each idle warning not yet owed is a moment to look (decision 140).
    times += [w.warn for w in windows.values() if w.warn > now]
    store.set_next_look(record, min(times))


def ensure_long_village(now: datetime, rng: random.Random) -> str | None:
    """At 03:00, 09:00, 15:00 and 21:00 JST, a new long village unless one has a free slot."""
    local = now.astimezone(JST)
    if local.hour not in LONG_VILLAGE_HOURS:
        return None
    hour = f"{local:%Y-%m-%dT%H}"
    if not store.claim_hourly_village(hour, now):
        return None  # this hour's check is done (a duplicate tick)
    try:
        for village in store.opening_villages():
            if village.pace == Pace.LONG and village.occupied < store.seat_count(village):
                return None
        name = f"{local.month}月{local.day}日{local.hour}時の長期村"
        return villages.create_village(
            villages.AskedVillage(pace=Pace.LONG.value, name=name, rules=rulesets.DEFAULT),
            now=now,
            rng=rng,
        )
    except Exception:
        store.release_hourly_village(hour)  # let the next tick of this hour try again
        raise
