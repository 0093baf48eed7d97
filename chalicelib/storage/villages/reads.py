"""The lounge's reads: villages by state, merged from the index's shards."""

import heapq
import itertools
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from msgspec import Struct

from ..db import ensure_configured
from ..keys import (
    SHARDS,
    state_keys,
)
from ..models import VillageItem, record_of
from ..shards import each_shard

STORED_BEFORE_SEATS = 13  # villages stored before ``seats`` was: Mobius, 13 characters


class Page(Struct, frozen=True):
    items: list[Any]
    last_key: dict[str, Any] | None


class VillageSummary(Struct, frozen=True):
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
    return record_of(VillageSummary, meta)


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


def seat_count(village: VillageSummary) -> int:
    return int(village.seats or STORED_BEFORE_SEATS)


def opening_villages() -> list[VillageSummary]:
    ensure_configured()
    found = each_shard(state_keys("opening"), lambda key: list(VillageItem.by_state.query(key)))
    return [_summary(village) for shard in found for village in shard]
