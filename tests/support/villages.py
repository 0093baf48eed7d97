"""Mobius villages built, filled, started and played through the services, for every suite."""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import VISITOR
from chalicelib.services import actions, posts, update, villages
from chalicelib.services.errors import ServiceError
from chalicelib.storage.keys import board_pk
from chalicelib.storage.models import PostItem
from chalicelib.storage.repository import load_village

from .accounts import make_account


def new_village(clock, seed: int = 20261201, pace: str = "short", name: str = "テスト村") -> str:
    return villages.create_village(
        villages.AskedVillage(pace=pace, name=name), now=clock(), rng=random.Random(seed)
    )


def persona_of(slot: str) -> str:
    """Each slot's persona in these tests: never two the same in one village."""
    return YAMAZATO[SLOTS.index(slot)].key


def fill(village_id: str, accounts: list[str], clock, slots=SLOTS) -> dict[str, str]:
    """Seats each account in the next slot; returns slot -> account."""
    seated = {}
    for account, slot in zip(accounts, slots, strict=False):
        villages.join(village_id, account, slot, persona_of(slot), clock())
        seated[slot] = account
    return seated


def to_update(village_id: str, clock) -> list:
    """Moves the clock to the village's next update and runs it."""
    clock.now = load_village(village_id)._meta.next_update
    return update.advance(village_id, clock())


def start(village_id: str, accounts: list[str], clock, count: int = 13) -> dict[str, str]:
    """Fills ``count`` slots and starts day 1 at the first update; returns slot -> account."""
    seated = fill(village_id, accounts[:count], clock)
    assert [h.kind for h in to_update(village_id, clock)] == ["started"]
    return seated


def at(village_id: str, clock, minutes: float) -> datetime:
    """Sets the clock to ``minutes`` after the current day started."""
    clock.now = load_village(village_id)._meta.day_started_at + timedelta(minutes=minutes)
    return clock.now


@dataclass(frozen=True)
class Cast:
    """Who is what in a village (read from the stored game)."""

    oni: list[str]
    madman: str
    humans: list[str]

    @property
    def oni_side(self) -> list[str]:
        return [*self.oni, self.madman]


def cast_of(village_id: str) -> Cast:
    sides = load_village(village_id).game.sides
    return Cast(
        oni=[s for s in SLOTS if sides[s] == "oni"],
        madman=next(s for s in SLOTS if sides[s] == "madman"),
        humans=[s for s in SLOTS if sides[s] == "human"],
    )


def kill(village_id: str, seated: dict[str, str], clock, *, judged: str, attacked: str) -> None:
    """Plays one night in which ``judged`` becomes ash and ``attacked`` a corpse, nobody else dies.

    Two living humans pray for ``judged``; one oni votes ``attacked`` with itself as the attacker
    (one decided vote is drawn for sure); nobody guards or assassinates.
    """
    cast = cast_of(village_id)
    game = load_village(village_id).game
    voter = next(s for s in cast.oni if s in game.alive and s not in (judged, attacked))
    prayers = [
        s for s in cast.humans if s in game.alive and s not in (judged, attacked) and s in seated
    ][:2]
    at(village_id, clock, 1)
    for slot in prayers:
        actions.save_actions(village_id, seated[slot], {"pray": judged}, clock())
    actions.save_actions(
        village_id, seated[voter], {"attack": attacked, "attacker": voter}, clock()
    )
    [morning] = [h for h in to_update(village_id, clock) if h.kind == "morning"]
    assert dict(morning.morning.deaths) == {judged: "ash", attacked: "corpse"}


def refused(error_type: type[ServiceError], call, *args, **kwargs) -> ServiceError:
    """Runs a use case that must be refused; returns the refusal for its message."""
    with pytest.raises(error_type) as caught:
        call(*args, **kwargs)
    assert str(caught.value)  # a sentence for the player
    assert caught.value.status == error_type.status
    return caught.value


def texts(village_id: str, board: str, day: int, now, viewer=VISITOR, **kwargs) -> list[str]:
    record = load_village(village_id)
    return [p.text for p in posts.read(record, viewer, board, day, now, **kwargs).posts]


def all_posts(village_id: str, board: str, account_id: str | None = None) -> list[PostItem]:
    """Every post of a board partition, straight from the table (to count what was written)."""
    return list(PostItem.query(board_pk(village_id, board, account_id)))


def seat_players(village_id: str, slots: list[str], now: datetime, prefix: str) -> dict[str, str]:
    """New players join ``slots`` with the first free personas; returns slot -> account."""
    record = load_village(village_id)
    assert record is not None
    taken = {m.persona for m in record._members.values() if m.persona}
    free = [p.key for p in YAMAZATO if p.key not in taken]
    seated = {}
    for n, slot in enumerate(slots):
        account = make_account(f"{prefix}{n:02d}", now)
        villages.join(village_id, account, slot, free[n], now)
        seated[slot] = account
    return seated
