"""The scheduler's use cases: find what is due, process one village, keep long villages open.

``tick`` runs every minute. It finds the villages due through the index (no
scan) and hands their ids to ``dispatch`` (SQS in AWS, inline locally), whose
worker calls ``process_village``. Every step is idempotent: duplicate or
overlapping ticks do the work once.
"""

import random
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pynamodb.exceptions import PutError, UpdateError

from ..clock import JST
from ..rules import SLOTS
from ..storage.db import ensure_configured
from ..storage.models import CounterItem, OutboxItem, VillageItem
from ..storage.repository import VillageRecord, load_village, plain, state_key, time_key
from ..timeline import Pace, Phase, State, deadline_of
from . import outbox, posts, update, villages

ACTIVE = (State.OPENING, State.RUNNING, State.ENDING)
LONG_VILLAGE_HOURS = (3, 9, 15, 21)  # JST (RULES §2)
REMINDER_LEAD = {Pace.LONG: timedelta(hours=3), Pace.SHORT: timedelta(minutes=15)}
# How often a village with members is looked at for idle members (RULES §9 timers).
IDLE_CHECK = {Pace.LONG: timedelta(hours=1), Pace.SHORT: timedelta(minutes=5)}


def due_village_ids(now: datetime) -> list[str]:
    ensure_configured()
    ids = []
    for state in ACTIVE:
        for item in VillageItem.by_state.query(
            state_key(state), VillageItem.gsi1sk <= time_key(now), attributes_to_get=["village_id"]
        ):
            ids.append(item.village_id)
    return ids


@dataclass
class TickReport:
    due: int = 0
    created: list[str] = field(default_factory=list)
    retried_mail: int = 0


def tick(now: datetime, dispatch: Callable[[list[str]], None], rng: random.Random) -> TickReport:
    report = TickReport()
    created = ensure_long_village(now, rng)
    if created:
        report.created.append(created)
    ids = due_village_ids(now)
    report.due = len(ids)
    if ids:
        dispatch(ids)
    report.retried_mail = outbox.deliver(now).sent
    return report


def process_village(village_id: str, now: datetime) -> list[update.Happening]:
    """Everything due for one village: its updates, auto-departures, reminder, then its mail."""
    record = load_village(village_id)
    if record is None:
        return []
    update_at = record.meta.next_update
    # Who was gone by the update (RULES §9) is not counted at it: an opening member idle
    # for 24 h neither starts the village nor leaves with a lock once it has started.
    if (
        update_at is not None
        and update_at <= now
        and villages.depart_idle(village_id, update_at, record)
    ):
        record = load_village(village_id)
    happenings, record = update.advance_loaded(record, now)
    if record is None:
        return happenings
    if villages.depart_idle(village_id, now, record):
        record = load_village(village_id)
    if record is None:
        return happenings
    if _remind(record, now):
        record = load_village(village_id)
    _reschedule(record, now)
    if not happenings and not villages.occupied(record):
        return happenings  # nobody to mail
    items = list(
        OutboxItem.query(
            outbox.outbox_pk(village_id), filter_condition=OutboxItem.status == "pending"
        )
    )
    if items:
        outbox.deliver(now, items)
    return happenings


def reminder_at(meta: VillageItem) -> datetime | None:
    if State(meta.state) is not State.RUNNING or meta.day_started_at is None:
        return None
    pace = Pace(meta.pace)
    return deadline_of(pace, meta.day_started_at) - REMINDER_LEAD[pace]


def _remind(record: VillageRecord, now: datetime) -> bool:
    """Once a day, to the living members who have not saved their choices yet.

    Returns whether the village was written (it must then be read again)."""
    meta = record.meta
    at = reminder_at(meta)
    game = record.game
    if at is None or now < at or meta.reminded_day >= game.day:
        return False
    if posts.phase_of(record, now) is not Phase.DAY:
        return False
    day = record.days.get(game.day)
    saved = plain(day.saved_at) if day is not None else {}
    for slot, member in record.members.items():
        if member.account_id is None or slot in game.deaths or slot in saved:
            continue
        item = outbox.owed(meta.village_id, game.day, "reminder", member.account_id, now)
        with suppress(PutError):  # owed already: a duplicate tick
            item.save(condition=OutboxItem.pk.does_not_exist())
    with suppress(UpdateError):  # the village moved on meanwhile; the next look sets it
        meta.update(actions=[VillageItem.reminded_day.set(game.day)])
    return True


def _reschedule(record: VillageRecord, now: datetime) -> None:
    """Sets when the scheduler must look again: update, reminder or idle check."""
    meta = record.meta
    state = State(meta.state)
    if state not in ACTIVE or meta.next_update is None:
        return
    times = [meta.next_update]
    at = reminder_at(meta)
    if at is not None and at > now and meta.reminded_day < record.game.day:
        times.append(at)
    if villages.occupied(record) and state is not State.ENDING:
        times.append(now + IDLE_CHECK[Pace(meta.pace)])
    wanted = time_key(min(times))
    if wanted == meta.gsi1sk:
        return
    with suppress(UpdateError):  # changed meanwhile: that change set its own time
        meta.update(actions=[VillageItem.gsi1sk.set(wanted)])


def ensure_long_village(now: datetime, rng: random.Random) -> str | None:
    """At 03:00, 09:00, 15:00 and 21:00 JST, a new long village unless one has a free slot."""
    local = now.astimezone(JST)
    if local.hour not in LONG_VILLAGE_HOURS:
        return None
    ensure_configured()
    claim = CounterItem(
        f"AUTO#long#{local:%Y-%m-%dT%H}", "AUTO", expires_at=now + timedelta(days=2)
    )
    try:
        claim.save(condition=CounterItem.pk.does_not_exist())
    except PutError:
        return None  # this hour's check is done (a duplicate tick)
    try:
        for village in VillageItem.by_state.query(state_key(State.OPENING)):
            if village.pace == Pace.LONG and village.occupied < len(SLOTS):
                return None
        name = f"{local.month}月{local.day}日{local.hour}時の長期村"
        return villages.create_village(pace=Pace.LONG.value, name=name, now=now, rng=rng)
    except Exception:
        claim.delete()  # let the next tick of this hour try again
        raise
