"""When the scheduler looks at a village next (its LOOK item), and the reminders it owes."""

from collections.abc import Iterable
from contextlib import suppress
from datetime import datetime
from typing import Any

from pynamodb.exceptions import UpdateError
from pynamodb.transactions import TransactWrite

from ..db import ensure_configured
from ..errors import Refused, conditioned
from ..keys import (
    LOOK_SK,
    look_key,
    look_keys,
    time_key,
    village_pk,
)
from ..models import (
    LookItem,
    VillageItem,
)
from ..outbox import Mail, owe_once
from ..repository import VillageRecord
from ..shards import Answered, every_shard_answering


def look_item(village_id: str, when: datetime) -> LookItem:
    return LookItem(
        village_pk(village_id),
        LOOK_SK,
        village_id=village_id,
        gsi1pk=look_key(village_id),
        gsi1sk=time_key(when),
    )


def look_no_later(t: TransactWrite, record: VillageRecord, when: datetime) -> None:
    """The scheduler looks by ``when`` (moved earlier if need be); counted as a move even when
    it stays, so that a scheduler that read the village before this join cannot set a later
    look over it (``set_next_look``)."""
    look = record._look
    wanted = time_key(when)
    if look is None:  # stored before LOOK items (decisions 54): start one
        t.save(look_item(record.village_id, when), condition=LookItem.pk.does_not_exist())
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
        owe_once(Mail(record.village_id, day, "reminder", account_id, now))
    with suppress(UpdateError):  # the village moved on meanwhile; the next look sets it
        record._meta.update(actions=[VillageItem.reminded_day.set(day)])


def set_next_look(record: VillageRecord, when: datetime) -> None:
    """When the scheduler must look at the village again: the LOOK item alone (a hundred
    bytes; META and its game are not written), unless it moved since the read."""
    look = record._look
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
