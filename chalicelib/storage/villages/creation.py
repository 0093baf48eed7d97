"""A village made: its number, its opening (META, seats, first posts) and the hourly claim of
the scheduler's new long village."""

from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct

from ...rulesets.base import SystemPost
from ..accounts import Account, account_item
from ..db import ensure_configured, transaction
from ..errors import Refused, conditioned
from ..gm_log import GmLogLine, log_item
from ..keys import (
    VILLAGE_SEQUENCE,
    auto_village_pk,
    slot_sk,
    state_key,
    state_sk,
    village_pk,
)
from ..models import (
    AccountItem,
    CounterItem,
    GmLogItem,
    MemberItem,
    VillageItem,
)
from .looks import look_item
from .posts import system_post_item


def next_village_id() -> str:
    """Village numbers count up from 1 (an atomic counter)."""
    ensure_configured()
    counter = CounterItem(*VILLAGE_SEQUENCE)
    counter.update(actions=[CounterItem.count.add(1)])
    return str(counter.count)


class Opening(Struct, frozen=True):
    """A new village in its opening, as its rule set dealt it: what ``create_village``
    writes."""

    village_id: str
    name: str
    pace: str
    rules: str
    character_set: str
    created_at: datetime
    first_update: datetime
    seed: int
    game: Any  # the rule set's dump
    seats: tuple[str, ...]  # each one vacant
    posts: tuple[SystemPost, ...]  # the first ones
    # Computer members waiting to take the seats still open at the start (decision 125).
    cpu_members: int = 0


def create_village(
    opening: Opening, log: GmLogLine | None = None, host: Account | None = None
) -> None:
    """The village in the opening, its vacant seats and its first posts, all at once (and the
    GM's log line of it). ``host``: a player who builds it, whose last built village must be
    the one read (two villages built at once: one is refused)."""
    village_id, first_update = opening.village_id, opening.first_update
    meta = VillageItem(
        village_pk(village_id),
        "META",
        village_id=village_id,
        name=opening.name,
        pace=opening.pace,
        rules=opening.rules,
        state="opening",
        character_set=opening.character_set,
        created_at=opening.created_at,
        next_update=first_update,
        seats=len(opening.seats),
        occupied=0,
        seed=opening.seed,
        game=opening.game,
        gsi1pk=state_key("opening", village_id),
        gsi1sk=state_sk(first_update, village_id),
        cpu_members=opening.cpu_members or None,
    )

    log_line = log_item(log) if log is not None else None

    def write() -> None:
        with transaction() as t:
            t.save(meta, condition=VillageItem.pk.does_not_exist())
            t.save(look_item(village_id, first_update))
            for slot in opening.seats:
                t.save(
                    MemberItem(
                        village_pk(village_id), slot_sk(slot), village_id=village_id, slot=slot
                    )
                )
            for post in opening.posts:
                t.save(system_post_item(village_id, post))
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
