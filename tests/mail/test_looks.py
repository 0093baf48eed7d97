"""When the scheduler looks at a village (decisions 53-56): at the first moment something can be
due (its update, its reminder, a member becoming idle), never on a fixed beat; what moving
that moment writes; and the sharded index keys, all of whose shards are read."""

from datetime import timedelta

from pynamodb.connection.base import Connection

from chalicelib import effects
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import outbox, scheduler, update, villages
from chalicelib.storage import villages as store
from chalicelib.storage.errors import Refused
from chalicelib.storage.keys import SHARDS, shard_of, time_key
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import owe_morning_mail, seat, tick

LONG = TIMINGS[Pace.LONG]
WARNING_LEAD = timedelta(hours=3)  # a long village's idle warning (decision 140)
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


def look_of(village_id: str) -> str | None:
    look = load_village(village_id)._look
    return None if look is None else look.gsi1sk


def writes_during(monkeypatch, call) -> list[tuple[str, dict]]:
    """The DynamoDB writes ``call`` makes, with what each sent."""
    made: list[tuple[str, dict]] = []
    original = Connection._make_api_call

    def recording(self, operation, kwargs):
        if operation in WRITES:
            made.append((operation, kwargs))
        return original(self, operation, kwargs)

    monkeypatch.setattr(Connection, "_make_api_call", recording)
    call()
    monkeypatch.setattr(Connection, "_make_api_call", original)
    return made


def item_bytes(raw: dict) -> int:
    """An item's size as DynamoDB bills it (names plus values; strings here)."""
    return sum(len(name) + len(next(iter(v.values()))) for name, v in raw.items())


def test_s9_idle_members_leave_at_their_exact_moment_with_no_look_in_between(players, clock, rng):
    """Two opening members of a long village: the scheduler looks when each is owed its idle
    warning (3 h before, decision 140) and when each can be idle, and not once in between
    (once it looked every hour)."""
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="静かな村"), now=created, rng=rng
    )
    seat(village, players[:1], clock)
    clock.advance(timedelta(hours=2))
    seat(village, players[1:2], clock, slots=SLOTS[1:2])
    clock.advance(timedelta(hours=1))
    villages.touch(village, players[0], clock())  # the first member back at 3 h
    first_idle = clock() + LONG.idle_limit  # 27 h; the second: 26 h; the update: 30 h
    second_idle = created + timedelta(hours=2) + LONG.idle_limit
    lead = WARNING_LEAD
    # The first join asked for a look at its warning, 21 h; nothing is due before it.
    assert look_of(village) == time_key(created + LONG.idle_limit - lead)
    for hours in range(1, 21):
        assert scheduler.due_village_ids(created + timedelta(hours=hours)).found == []
    # Then each moment in turn: the second's warning (23 h), the first's (24 h), the second's
    # departure (26 h), the first's (27 h), the update (30 h).
    clock.now = created + LONG.idle_limit - lead
    for moment in [second_idle - lead, first_idle - lead, second_idle, first_idle]:
        tick(clock, rng)
        assert look_of(village) == time_key(moment)
        assert scheduler.due_village_ids(moment - timedelta(seconds=1)).found == []
        if moment == first_idle:
            break
        clock.now = moment
    record = load_village(village)
    assert record.slot_of(players[1]) is None
    assert record.slot_of(players[0]) == SLOTS[0]
    clock.now = first_idle - timedelta(minutes=1)
    tick(clock, rng)
    assert load_village(village).slot_of(players[0]) == SLOTS[0]
    clock.now = first_idle
    tick(clock, rng)
    record = load_village(village)
    assert record.slot_of(players[0]) is None
    assert record._look.gsi1sk == time_key(created + LONG.first_update)  # only the update left


def test_a_join_brings_the_look_forward_even_past_a_scheduler_that_read_before_it(
    players, clock, rng, monkeypatch
):
    """The scheduler read the village, then a member joined, then the scheduler set its
    later look: the join's earlier look stands. And a join that read the look before a
    scheduler moved it is refused and retried, so its look is not lost either."""
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="村"), now=created, rng=rng
    )
    seat(village, players[:1], clock)
    stale = load_village(village)
    clock.advance(timedelta(hours=1))
    seat(village, players[1:2], clock, slots=SLOTS[1:2])
    wanted = time_key(created + LONG.idle_limit - WARNING_LEAD)  # the first's idle warning
    assert look_of(village) == wanted
    store.set_next_look(stale, created + timedelta(hours=29))
    assert look_of(village) == wanted

    original = store.claim_slot
    moved: list[bool] = []

    def scheduler_moves_it_first(record, *args, **kwargs):
        if not moved:
            moved.append(True)
            store.set_next_look(load_village(village), created + timedelta(hours=29))
        return original(record, *args, **kwargs)

    monkeypatch.setattr(store, "claim_slot", scheduler_moves_it_first)
    clock.advance(timedelta(hours=1))
    seat(village, players[2:3], clock, slots=SLOTS[2:3])
    assert moved
    # The newcomer's idle warning, 23 h, not 29 h.
    assert look_of(village) == time_key(clock() + LONG.idle_limit - WARNING_LEAD)


def test_a_schedule_change_writes_the_small_look_item_not_the_game(
    players, clock, rng, monkeypatch
):
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="村"), now=created, rng=rng
    )
    seat(village, players[:2], clock)
    clock.advance(timedelta(hours=20))
    for account in players[:2]:
        villages.touch(village, account, clock())
    version = load_village(village)._meta.version
    clock.now = created + LONG.idle_limit  # the look the joins asked for: nobody is idle
    made = writes_during(monkeypatch, lambda: effects.advance_village(village, clock()))
    assert [operation for operation, _ in made] == ["UpdateItem"]
    _, sent = made[0]
    assert sent["Key"]["sk"] == {"S": "LOOK"}
    assert "game" not in str(sent)
    look = load_village(village)._look
    assert look.gsi1sk == time_key(created + LONG.first_update)
    assert item_bytes(look.serialize()) < 200
    assert load_village(village)._meta.version == version  # META (and its game) untouched


def test_every_shard_is_read_by_the_due_query_the_lounge_and_the_outbox(clock, rng):
    ids: list[str] = []
    while len({shard_of(v) for v in ids}) < SHARDS:
        at = clock() + timedelta(hours=6, minutes=len(ids) * 7 % 60, seconds=len(ids))
        ids.append(
            villages.create_village(
                villages.AskedVillage(pace="short", name="村", first_update=at),
                now=clock(),
                rng=rng,
            )
        )
    by_update = sorted(ids, key=lambda v: load_village(v)._meta.next_update)
    later = clock() + timedelta(hours=8)
    assert sorted(scheduler.due_village_ids(later).found) == sorted(ids)
    # The lounge: every village once, in update order, across pages.
    listed: list[str] = []
    cursor = None
    while True:
        page = villages.lounge("opening", cursor=cursor, limit=7)
        listed += [v.village_id for v in page.villages]
        cursor = page.cursor
        if cursor is None:
            break
    assert listed == by_update
    # The outbox: a mail owed in every shard is found, oldest first.
    for n, village_id in enumerate(ids):
        owe_morning_mail(village_id, clock() + timedelta(seconds=len(ids) - n))
    pending = outbox.pending(clock() + timedelta(minutes=1)).found
    assert [item.village_id for item in pending] == list(reversed(ids))
    assert [
        item.village_id for item in outbox.pending(clock() + timedelta(minutes=1), 3).found
    ] == list(reversed(ids))[:3]


def test_a_duplicated_look_at_the_idle_moment_departs_once(players, clock, rng):
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="村"), now=created, rng=rng
    )
    seat(village, players[:1], clock)
    clock.now = created + LONG.idle_limit
    effects.advance_village(village, clock())
    version = load_village(village)._meta.version
    effects.advance_village(village, clock())  # a duplicate tick, or SQS redelivering
    record = load_village(village)
    assert record.slot_of(players[0]) is None
    assert record._meta.version == version
    assert record._meta.occupied == 0
    assert load_account(players[0]).holds == {}


def test_a_member_idle_but_not_departed_is_looked_at_again_in_5_minutes(
    players, clock, rng, monkeypatch
):
    """A departure that keeps losing its races leaves the member idle: the village is looked at
    again a little later, not on every tick."""
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="村"), now=created, rng=rng
    )
    seat(village, players[:1], clock)

    def always_lost(*args, **kwargs):
        raise Refused("raced")

    monkeypatch.setattr(villages, "_depart", always_lost)
    clock.now = created + LONG.idle_limit
    effects.advance_village(village, clock())
    assert load_village(village).slot_of(players[0]) == SLOTS[0]
    assert look_of(village) == time_key(clock() + scheduler.IDLE_RETRY)
    assert scheduler.due_village_ids(clock() + timedelta(minutes=1)).found == []


def test_a_step_has_the_scheduler_look_at_once_and_starts_a_look_where_none_was(
    players, clock, rng
):
    """A step moves the look to its own moment (a step committed by a request has no worker
    after it to owe what falls before the next update); a village stored before LOOK items
    gets one its queries see, so it is due again and joins keep working."""
    village = villages.create_village(
        villages.AskedVillage(pace="short", name="古い村"), now=clock(), rng=rng
    )
    seat(village, players[:13], clock)
    record = load_village(village)
    record._look.delete()  # as stored before LOOK items
    assert load_village(village)._look is None
    start = record.next_update
    update.advance(village, start)
    after = load_village(village)
    assert after.state.value == "running"
    assert after._look is not None and after._look.gsi1sk == time_key(start)
    assert scheduler.due_village_ids(start).found == [village]
    clock.now = start
    tick(clock, rng)  # the look works out the next moment: the reminder or the update
    moved = load_village(village)._look.gsi1sk
    assert time_key(start) < moved <= time_key(load_village(village).next_update)
