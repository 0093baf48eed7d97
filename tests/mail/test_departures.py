"""Auto-departure (RULES §9) run by the scheduler: the timers, the locks, and the mail."""

from datetime import timedelta

from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import actions, villages
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import MailBox, account_of, seat, tick, tick_until

SHORT = TIMINGS[Pace.SHORT]
LONG = TIMINGS[Pace.LONG]


def gone_at_ten_minutes(village, slot, absent, start, clock, rng):
    """The member who has not come since day 1's start (``start``) is still there at 9
    minutes, whatever the ticks, and gone at 10; returns the village then."""
    tick_until(clock, rng, start + timedelta(minutes=9), step=timedelta(minutes=1))
    assert load_village(village).slot_of(absent) == slot
    clock.now = start + timedelta(minutes=10)
    tick(clock, rng)
    record = load_village(village)
    assert record.slot_of(absent) is None
    return record


def test_a_short_village_departs_who_has_not_come_within_10_minutes_of_day_one(
    players, clock, rng, village
):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start
    tick(clock, rng)
    box = MailBox()
    box.new()  # the 13 start mails
    saver, toucher, absent = seated["seer_a"], seated["guard_a"], seated["commoner_d"]
    clock.now = start + timedelta(minutes=3)
    for account in seated.values():
        if account == saver:
            actions.save_actions(village, account, {"pray": "seer_b"}, clock())
        elif account != absent:
            villages.touch(village, account, clock())
    # Gone at 10, with an ID lock (the village is running); the others stay.
    record = gone_at_ten_minutes(village, "commoner_d", absent, start, clock, rng)
    assert record._members["commoner_d"].account_id is None
    assert record.slot_of(saver) == "seer_a"
    assert record.slot_of(toucher) == "guard_a"
    assert load_account(absent).lock_until > clock()
    assert load_account(absent).holds == {}
    assert load_account(saver).lock_until is None
    # The next morning's mail goes to the members only.
    tick_until(clock, rng, start + SHORT.turn, step=timedelta(minutes=10))
    morning = [m for m in box.new() if "朝になりました" in m.subject]
    assert sorted(account_of(m) for m in morning) == sorted(set(seated.values()) - {absent})


def test_s9_the_10_minutes_of_day_one_count_from_the_start_the_scheduler_actually_ran(
    players, clock, rng, village
):
    """Issue 28: the scheduler down past a short village's scheduled start. Day 1 begins
    only when the tick runs; nobody is departed for minutes they could not see day 1 in."""
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start + timedelta(minutes=13)  # no tick for 13 minutes, then one
    tick(clock, rng)
    record = load_village(village)
    assert record.state.value == "running"
    assert record.day_started_at == start  # the game's own times keep their schedule
    assert {record.slot_of(a) for a in seated.values()} == set(seated)
    absent = seated["commoner_d"]
    for account in seated.values():
        if account != absent:
            villages.touch(village, account, clock())
    # The rule itself still holds, from when day 1 was shown.
    record = gone_at_ten_minutes(village, "commoner_d", absent, clock(), clock, rng)
    assert all(record.slot_of(a) is not None for a in seated.values() if a != absent)


def test_a_running_short_village_departs_after_60_idle_minutes(players, clock, rng, village):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start
    tick(clock, rng)
    clock.now = start + timedelta(minutes=2)
    for account in seated.values():
        villages.touch(village, account, clock())
    idle = seated["medium_b"]
    # Half an hour later everyone but one looks in again; the idle one's 60 minutes end at 62.
    tick_until(clock, rng, start + timedelta(minutes=30), step=timedelta(minutes=5))
    for account in seated.values():
        if account != idle:
            villages.touch(village, account, clock())
    tick_until(clock, rng, start + timedelta(minutes=61), step=timedelta(minutes=1))
    assert load_village(village).slot_of(idle) == "medium_b"
    tick_until(clock, rng, start + timedelta(minutes=65), step=timedelta(minutes=1))
    record = load_village(village)
    assert record.game.day == 2
    assert record.slot_of(idle) is None
    assert all(record.slot_of(a) for a in seated.values() if a != idle)
    assert load_account(idle).lock_until is not None


def test_opening_members_idle_for_24_hours_leave_freely_before_the_start_check(players, clock, rng):
    """A long village's first update comes 30 h after its creation: a member who joined at
    once and never came back has been gone for 6 h by then (RULES §9, 24 h), so the village
    does not start with that member, and the departure is free (the opening)."""
    created = clock()
    vid = villages.create_village(
        villages.AskedVillage(pace="long", name="長期村"), now=created, rng=rng
    )
    seated = seat(vid, players[:12], clock)
    idle = seated["commoner_d"]
    clock.advance(timedelta(hours=20))
    for account in seated.values():
        if account != idle:
            villages.touch(vid, account, clock())
    box = MailBox()
    tick_until(clock, rng, created + LONG.first_update, step=timedelta(hours=2))
    record = load_village(vid)
    assert record.slot_of(idle) is None
    assert load_account(idle).lock_until is None  # free: it left during the opening
    assert load_account(idle).holds == {}
    # 11 players: the opening is extended; only the idle member was mailed: its idle warning,
    # 3 h before it left (decision 140).
    assert record._meta.state == "opening"
    assert record._meta.occupied == 11
    assert record._meta.next_update == created + LONG.first_update + timedelta(hours=24)
    assert [(m.to, "まもなく自動で村から退出" in m.subject) for m in box.new()] == [
        (f"{idle}@example.jp", True)
    ]


def test_nobody_is_auto_departed_during_the_ending(players, clock, rng, village):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start
    tick(clock, rng)
    clock.now = start + timedelta(minutes=1)
    game = load_village(village).game
    oni = [s for s in game.sides if game.sides[s] == "oni"]
    # The oni side resigns during the day: the ending starts at once.
    for slot in [*oni, next(s for s in game.sides if game.sides[s] == "madman")][:3]:
        actions.save_actions(village, seated[slot], {"resign": slot}, clock())
    assert load_village(village)._meta.state == "ending"
    # Nobody looks in for the whole ending: nobody is made to leave, nobody is locked.
    tick_until(clock, rng, start + SHORT.turn - timedelta(minutes=1), step=timedelta(minutes=10))
    record = load_village(village)
    assert all(record.slot_of(a) for a in seated.values())
    assert all(load_account(a).lock_until is None for a in seated.values())


def test_an_opening_member_idle_for_24_hours_leaves_at_24_hours_not_at_the_update(
    players, clock, rng
):
    """Joining brings the scheduler's look at the village forward to the 24-hour mark."""
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="長い村"), now=created, rng=rng
    )
    seat(village, players[:1], clock)
    joined = clock()
    assert load_village(village)._meta.next_update == created + LONG.first_update  # 30 h
    clock.now = joined + timedelta(hours=24) - timedelta(minutes=1)
    tick(clock, rng)
    assert load_village(village).slot_of(players[0]) is not None
    clock.now = joined + timedelta(hours=24)
    tick(clock, rng)
    record = load_village(village)
    assert record.slot_of(players[0]) is None
    assert record._meta.state == "opening"
    assert load_account(players[0]).lock_until is None  # free in the opening
