"""Villages, joining and leaving (RULES §2, §8 bans on joining, §9): every refusal reason,
every ban, every auto-departure timer and the growth of the ID lock."""

from datetime import timedelta

import pytest
from pynamodb.exceptions import TransactWriteError

from chalicelib.personas import CHARACTER_SETS
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import VISITOR
from chalicelib.rulesets.mobius.timeline import OPENING_SPEECH_BAN
from chalicelib.services import actions, posts, update, villages
from chalicelib.services.errors import Conflict, Forbidden, InvalidInput, NotFound
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.villages import cast_of, fill, kill, persona_of, refused, start, to_update

# ----- creating villages and the lounge -----


def test_create_village_checks_pace_name_first_update_and_character_set(clock, rng):
    now = clock()
    for asked in (
        villages.AskedVillage(pace="medium", name="村"),
        villages.AskedVillage(pace="short", name="  "),
        villages.AskedVillage(pace="short", name="村" * 41),
        villages.AskedVillage(pace="short", name="村", character_set="nope"),
        villages.AskedVillage(pace="long", name="村", first_update=now),
    ):
        refused(InvalidInput, villages.create_village, asked, now=now, rng=rng)
    assert villages.lounge("opening").villages == []


def test_create_village_stores_pace_name_first_update_and_character_set(clock, rng):
    now = clock()
    long_id = villages.create_village(
        villages.AskedVillage(pace="long", name=" 長期村 "), now=now, rng=rng
    )
    short_id = villages.create_village(
        villages.AskedVillage(pace="short", name="短期村"), now=now, rng=rng
    )
    chosen = now + timedelta(hours=2)
    custom_id = villages.create_village(
        villages.AskedVillage(pace="short", name="好きな時刻", first_update=chosen),
        now=now,
        rng=rng,
    )
    assert [long_id, short_id, custom_id] == ["1", "2", "3"]  # village numbers count up
    long_meta = load_village(long_id)._meta
    assert (long_meta.pace, long_meta.name, long_meta.state) == ("long", "長期村", "opening")
    assert long_meta.next_update == now + timedelta(hours=30)
    assert load_village(short_id)._meta.next_update == now + timedelta(hours=6)
    assert load_village(custom_id)._meta.next_update == chosen
    assert long_meta.character_set == "yamazato"
    assert all(len(personas) >= 20 for personas in CHARACTER_SETS.values())
    record = load_village(short_id)
    assert sorted(record._members) == sorted(SLOTS)
    assert all(m.account_id is None for m in record._members.values())
    # Each village draws its own secret sides: 3 oni, 1 madman, 9 humans.
    cast = cast_of(short_id)
    assert (len(cast.oni), len(cast.humans)) == (3, 9)


def test_lounge_lists_villages_by_state_paginated(clock, rng, players):
    now = clock()
    ids = [
        villages.create_village(
            villages.AskedVillage(
                pace="short", name=f"村{n}", first_update=now + timedelta(hours=h)
            ),
            now=now,
            rng=rng,
        )
        for n, h in enumerate((3, 1, 2))
    ]
    first = villages.lounge("opening", limit=2)
    assert [v.village_id for v in first.villages] == [ids[1], ids[2]]  # soonest update first
    assert first.cursor is not None
    second = villages.lounge("opening", cursor=first.cursor, limit=2)
    assert [v.village_id for v in second.villages] == [ids[0]]
    assert second.cursor is None
    assert villages.lounge("running").villages == []
    refused(InvalidInput, villages.lounge, "sleeping")
    refused(InvalidInput, villages.lounge, "opening", cursor="!!not a cursor")

    start(ids[1], players, clock, count=12)
    assert [v.village_id for v in villages.lounge("running").villages] == [ids[1]]
    assert [v.village_id for v in villages.lounge("opening").villages] == [ids[2], ids[0]]
    # Two empty villages are abandoned at 30 h; the latest closed comes first.
    for village_id in (ids[0], ids[2]):
        clock.now = now + timedelta(hours=52)
        update.advance(village_id, clock())
    assert [v.village_id for v in villages.lounge("abandoned").villages] == [ids[0], ids[2]]


# ----- refusals of joining (RULES §9) -----


def test_s9_join_refused_for_an_unknown_account_or_village(clock, village):
    refused(NotFound, villages.join, village, "nobody", "seer_a", persona_of("seer_a"), clock())
    make_account("ann", clock())
    refused(NotFound, villages.join, "999", "ann", "seer_a", persona_of("seer_a"), clock())


def test_s9_join_refuses_unknown_slot_and_unknown_or_taken_persona(clock, village):
    make_account("ann", clock())
    make_account("ben", clock())
    refused(InvalidInput, villages.join, village, "ann", "werewolf", "kaede", clock())
    refused(InvalidInput, villages.join, village, "ann", "seer_a", "nobody", clock())
    villages.join(village, "ann", "seer_a", "kaede", clock())
    error = refused(Conflict, villages.join, village, "ben", "seer_b", "kaede", clock())
    assert "キャラクター" in str(error)
    assert load_account("ben").holds == {}
    villages.join(village, "ben", "seer_b", "genzo", clock())
    record = load_village(village)
    assert (record._members["seer_a"].persona, record._members["seer_b"].persona) == (
        "kaede",
        "genzo",
    )
    assert record._meta.occupied == 2


def test_s9_a_slot_is_taken_once(clock, village):
    make_account("ann", clock())
    make_account("ben", clock())
    villages.join(village, "ann", "guard_a", persona_of("guard_a"), clock())
    error = refused(Conflict, villages.join, village, "ben", "guard_a", "kaede", clock())
    assert "席" in str(error)
    record = load_village(village)
    assert record._members["guard_a"].account_id == "ann"
    assert record.slot_of("ben") is None
    assert load_account("ben").holds == {}


def test_s9_one_account_never_takes_two_slots_of_a_village(clock, village):
    make_account("ann", clock())
    villages.join(village, "ann", "seer_a", persona_of("seer_a"), clock())
    error = refused(
        Conflict, villages.join, village, "ann", "seer_b", persona_of("seer_b"), clock()
    )
    assert "この村" in str(error)
    record = load_village(village)
    assert record._members["seer_b"].account_id is None
    assert record._meta.occupied == 1


def test_s9_one_long_and_one_short_village_at_a_time(clock, rng, village):
    make_account("ann", clock())
    other_short = villages.create_village(
        villages.AskedVillage(pace="short", name="短期2"), now=clock(), rng=rng
    )
    long_one = villages.create_village(
        villages.AskedVillage(pace="long", name="長期1"), now=clock(), rng=rng
    )
    other_long = villages.create_village(
        villages.AskedVillage(pace="long", name="長期2"), now=clock(), rng=rng
    )
    villages.join(village, "ann", "seer_a", persona_of("seer_a"), clock())
    error = refused(
        Forbidden, villages.join, other_short, "ann", "seer_a", persona_of("seer_a"), clock()
    )
    assert "短期" in str(error)
    villages.join(long_one, "ann", "seer_a", persona_of("seer_a"), clock())
    error = refused(
        Forbidden, villages.join, other_long, "ann", "seer_a", persona_of("seer_a"), clock()
    )
    assert "長期" in str(error)
    assert load_account("ann").holds == {"short": village, "long": long_one}
    assert load_village(other_short).slot_of("ann") is None


def test_s9_rejoin_after_leaving_is_refused(clock, village):
    make_account("ann", clock())
    villages.join(village, "ann", "seer_a", persona_of("seer_a"), clock())
    villages.leave(village, "ann", clock())
    error = refused(
        Forbidden, villages.join, village, "ann", "seer_b", persona_of("seer_b"), clock()
    )
    assert "離脱" in str(error)
    refused(Forbidden, villages.join, village, "ann", "seer_a", persona_of("seer_a"), clock())
    assert load_village(village).slot_of("ann") is None


def test_s9_join_refused_once_the_village_is_over(clock, village):
    ann = make_account("ann", clock())
    # Abandoned: nobody came (short: extended at 6 h, abandoned at 30 h).
    assert [h.kind for h in to_update(village, clock)] == ["extended"]
    assert [h.kind for h in to_update(village, clock)] == ["abandoned"]
    error = refused(Forbidden, villages.join, village, ann, "seer_a", "kaede", clock())
    assert "もう参加できません" in str(error)
    assert load_account(ann).holds == {}


def test_s9_leave_refused_for_a_non_member(clock, village):
    make_account("ann", clock())
    refused(Forbidden, villages.leave, village, "ann", clock())
    refused(NotFound, villages.leave, "999", "ann", clock())


# ----- leaving and the ID lock (RULES §9) -----


def test_s9_leaving_the_opening_is_free(clock, rng, village):
    make_account("ann", clock())
    make_account("ben", clock())
    villages.join(village, "ann", "seer_a", "kaede", clock())
    assert villages.leave(village, "ann", clock()) is None
    account = load_account("ann")
    assert account.lock_until is None
    assert account.holds == {}
    assert list(account.departures) == []
    record = load_village(village)
    assert record._members["seer_a"].account_id is None
    assert record._members["seer_a"].persona is None
    assert record._meta.occupied == 0
    # The slot and the persona are free again, and the hold too: another short village at once.
    villages.join(village, "ben", "seer_a", "kaede", clock())
    other = villages.create_village(
        villages.AskedVillage(pace="short", name="次の村"), now=clock(), rng=rng
    )
    villages.join(other, "ann", "seer_a", "kaede", clock())
    assert any(
        "去りました" in p.text for p in posts.read(record, VISITOR, "public", 0, clock()).posts
    )


def test_s9_leaving_a_running_village_locks_the_id_and_vacates_the_slot(
    clock, rng, village, players
):
    seated = start(village, players, clock, count=12)
    leaver = seated["guard_a"]
    actions.save_actions(village, leaver, {"pray": "seer_a"}, clock())
    lock_until = villages.leave(village, leaver, clock())
    assert lock_until == clock() + timedelta(hours=3)
    account = load_account(leaver)
    assert account.lock_until == lock_until
    assert account.holds == {}
    record = load_village(village)
    member = record._members["guard_a"]
    assert member.account_id is None
    assert member.persona == persona_of("guard_a")  # the character stays as it is
    assert record.slot_of(leaver) is None
    assert record.choices_of(1) == {}  # a vacant slot has every choice undecided
    assert record._meta.occupied == 11
    # The lock: no new joins anywhere until it ends; the lock's end is in the reason.
    other = villages.create_village(
        villages.AskedVillage(pace="long", name="次の村"), now=clock(), rng=rng
    )
    error = refused(Forbidden, villages.join, other, leaver, "seer_a", "kaede", clock())
    assert "IDロック" in str(error) and "まで" in str(error)
    clock.now = lock_until - timedelta(seconds=1)
    refused(Forbidden, villages.join, other, leaver, "seer_a", "kaede", clock())
    clock.now = lock_until
    villages.join(other, leaver, "seer_a", "kaede", clock())


def test_s9_lock_grows_with_recent_departures_and_forgets_old_ones(clock, rng, village, players):
    subject = make_account("subject", clock())
    first = clock()
    long_village = villages.create_village(
        villages.AskedVillage(pace="long", name="長期", first_update=first + timedelta(hours=6)),
        now=first,
        rng=rng,
    )
    fill(village, players[:12], clock)
    fill(long_village, players[:12], clock)
    to_update(village, clock)
    assert [h.kind for h in to_update(long_village, clock)] == ["started"]

    # First departure in 30 days: 3 h.
    villages.join(village, subject, "assassin", persona_of("assassin"), clock())
    first_lock = villages.leave(village, subject, clock())
    assert first_lock - clock() == timedelta(hours=3)
    # Second: the lock doubles.
    clock.now = first_lock
    villages.join(long_village, subject, "assassin", persona_of("assassin"), clock())
    clock.advance(timedelta(minutes=30))
    second_lock = villages.leave(long_village, subject, clock())
    assert second_lock - clock() == timedelta(hours=6)
    assert len(load_account(subject).departures) == 2

    # A month later the old departures no longer count: back to 3 h.
    clock.now = first + timedelta(days=31)
    fillers = [make_account(f"filler{n:02d}", clock()) for n in range(12)]
    third_village = villages.create_village(
        villages.AskedVillage(pace="short", name="翌月"), now=clock(), rng=rng
    )
    start(third_village, fillers, clock, count=12)
    villages.join(third_village, subject, "assassin", persona_of("assassin"), clock())
    third_lock = villages.leave(third_village, subject, clock())
    assert third_lock - clock() == timedelta(hours=3)
    assert len(load_account(subject).departures) == 1


def test_s9_dead_character_hold_released_and_its_slot_not_taken(clock, rng, village, players):
    seated = start(village, players, clock, count=12)
    cast = cast_of(village)
    judged, attacked = cast.humans[0], cast.humans[1]
    kill(village, seated, clock, judged=judged, attacked=attacked)
    other = villages.create_village(
        villages.AskedVillage(pace="short", name="次の短期村"), now=clock(), rng=rng
    )
    # The dead hold no village any more: they may join another short village.
    for slot in (judged, attacked):
        assert load_account(seated[slot]).holds == {}
    villages.join(other, seated[judged], "seer_a", "kaede", clock())
    # A living member still holds this one.
    living = next(s for s in cast.humans[2:] if s in seated)
    refused(Forbidden, villages.join, other, seated[living], "seer_b", "genzo", clock())
    # The dead stay members of this village: no second slot (the vacant assassin).
    error = refused(Conflict, villages.join, village, seated[attacked], "assassin", "rin", clock())
    assert "この村" in str(error)
    # A dead character's slot is never taken over: its player does not leave it (decision
    # 79), and a dead character nobody plays is refused (tests/unit/test_membership.py).
    error = refused(Forbidden, villages.leave, village, seated[attacked], clock())
    assert "亡くなった" in str(error)
    outsider = make_account("outsider", clock())
    error = refused(Conflict, villages.join, village, outsider, attacked, "rin", clock())


def test_s9_takeover_of_a_vacant_slot_in_a_running_village(clock, village, players):
    seated = start(village, players, clock, count=12)
    assert "assassin" not in seated
    newcomer = make_account("newcomer", clock())
    clock.advance(timedelta(minutes=20))
    # Never played so far: the newcomer gives the character its persona (a free one).
    refused(Conflict, villages.join, village, newcomer, "assassin", "kaede", clock())
    villages.join(village, newcomer, "assassin", "gonroku", clock())
    record = load_village(village)
    member = record._members["assassin"]
    assert (member.account_id, member.persona) == (newcomer, "gonroku")
    assert member.public_ban_until == clock() + timedelta(minutes=10)
    assert member.speech_ban_until is None
    assert record._meta.occupied == 13
    assert load_account(newcomer).holds == {"short": village}
    # A character that had a player keeps its persona when taken over.
    leaver = seated["seer_b"]
    villages.leave(village, leaver, clock())
    second = make_account("second", clock())
    villages.join(village, second, "seer_b", "gonroku", clock())
    assert load_village(village)._members["seer_b"].persona == persona_of("seer_b")


# ----- auto-departure (RULES §9) -----


def test_s9_auto_departure_after_24h_without_access_in_the_opening(clock, rng):
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(
            pace="short", name="待つ村", first_update=created + timedelta(hours=29)
        ),
        now=created,
        rng=rng,
    )
    ann, ben = make_account("ann", created), make_account("ben", created)
    villages.join(village, ann, "seer_a", "kaede", created)
    villages.join(village, ben, "seer_b", "genzo", created)
    clock.advance(timedelta(hours=1))
    villages.touch(village, ben, clock())  # ben logs in to the village
    clock.now = created + timedelta(hours=24) - timedelta(seconds=1)
    assert villages.depart_idle(village, clock()) == []
    clock.now = created + timedelta(hours=24)
    assert villages.depart_idle(village, clock()) == [ann]
    clock.now = created + timedelta(hours=25)
    assert villages.depart_idle(village, clock()) == [ben]
    # Departures in the opening are free, but they are departures: no rejoining.
    for account in (ann, ben):
        state = load_account(account)
        assert state.lock_until is None and state.holds == {}
    refused(Forbidden, villages.join, village, ann, "seer_a", "kaede", clock())
    assert load_village(village)._meta.occupied == 0


def test_s9_auto_departure_short_village_10_min_from_day_1_start(clock, village, players):
    seated = start(village, players, clock, count=12)
    day_start = load_village(village)._meta.day_started_at
    toucher, saver = seated["seer_a"], seated["seer_b"]
    clock.now = day_start + timedelta(minutes=5)
    villages.touch(village, toucher, clock())
    clock.now = day_start + timedelta(minutes=6)
    actions.save_actions(village, saver, {}, clock())  # saving actions is access too
    clock.now = day_start + timedelta(minutes=10) - timedelta(seconds=1)
    assert villages.depart_idle(village, clock()) == []
    clock.now = day_start + timedelta(minutes=10)
    departed = villages.depart_idle(village, clock())
    assert sorted(departed) == sorted(a for a in seated.values() if a not in (toucher, saver))
    record = load_village(village)
    assert record._meta.occupied == 2
    for account in departed:
        state = load_account(account)
        # Counts as a departure outside the opening: an ID lock, the hold released.
        assert state.lock_until == clock() + timedelta(hours=3)
        assert state.holds == {}
        assert record.slot_of(account) is None
    assert record.slot_of(toucher) == "seer_a" and record.slot_of(saver) == "seer_b"


def test_s9_auto_departure_running_short_village_after_60_min(clock, village, players):
    seated = start(village, players, clock, count=12)
    day_start = load_village(village)._meta.day_started_at
    clock.now = day_start + timedelta(minutes=1)
    for account in seated.values():
        villages.touch(village, account, clock())
    # Two oni: never the undecided attack's target, and nobody prays for them.
    cast = cast_of(village)
    toucher_slot, saver_slot = [s for s in cast.oni if s in seated][:2]
    toucher, saver = seated[toucher_slot], seated[saver_slot]
    clock.now = day_start + timedelta(minutes=30)
    villages.touch(village, toucher, clock())
    clock.now = day_start + timedelta(minutes=40)
    actions.save_actions(village, saver, {"pray": cast.humans[0]}, clock())
    # The night is resolved meanwhile; access carries over to day 2.
    assert "morning" in [h.kind for h in to_update(village, clock)]
    alive = load_village(village).game.alive
    assert {toucher_slot, saver_slot} <= alive
    clock.now = day_start + timedelta(minutes=61) - timedelta(seconds=1)
    assert villages.depart_idle(village, clock()) == []
    clock.now = day_start + timedelta(minutes=61)
    idle = sorted(a for s, a in seated.items() if a not in (toucher, saver) and s in alive)
    assert sorted(villages.depart_idle(village, clock())) == idle
    clock.now = day_start + timedelta(minutes=90) - timedelta(seconds=1)
    assert villages.depart_idle(village, clock()) == []
    clock.now = day_start + timedelta(minutes=90)
    assert villages.depart_idle(village, clock()) == [toucher]
    clock.now = day_start + timedelta(minutes=100)
    assert villages.depart_idle(village, clock()) == [saver]
    assert load_account(saver).lock_until == clock() + timedelta(hours=3)


def test_s9_auto_departure_running_long_village_after_24h(clock, rng, players):
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(
            pace="long", name="長期村", first_update=created + timedelta(hours=1)
        ),
        now=created,
        rng=rng,
    )
    seated = start(village, players, clock, count=12)
    day_start = load_village(village)._meta.day_started_at
    keeper = seated["medium_a"]
    clock.now = day_start + timedelta(hours=1)
    villages.touch(village, keeper, clock())
    # Joined at creation: 24 h without access then.
    record = load_village(village)
    assert villages.idle_members(record, created + timedelta(hours=24, seconds=-1)) == []
    idle = villages.idle_members(record, created + timedelta(hours=24))
    assert sorted(idle) == sorted(s for s in seated if s != "medium_a")
    clock.now = created + timedelta(hours=25)
    departed = villages.depart_idle(village, clock())
    assert sorted(departed) == sorted(a for s, a in seated.items() if s != "medium_a")
    assert load_account(seated["seer_a"]).lock_until == clock() + timedelta(hours=3)
    assert load_village(village).slot_of(keeper) == "medium_a"


def test_s9_visitors_reading_is_not_access(clock, rng, village):
    ann, ben = make_account("ann", clock()), make_account("ben", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    joined = clock()
    clock.advance(timedelta(hours=12))
    # Not a member: touching records nothing; reading as a visitor neither.
    villages.touch(village, ben, clock())
    posts.read(load_village(village), VISITOR, "public", 0, clock())
    record = load_village(village)
    assert record._members["seer_a"].last_access == joined
    assert record.slot_of(ben) is None and ben not in record.presences


def test_s9_dead_members_are_not_auto_departed(clock, village, players):
    seated = start(village, players, clock, count=12)
    cast = cast_of(village)
    dead = (cast.humans[0], cast.humans[1])
    kill(village, seated, clock, judged=dead[0], attacked=dead[1])
    record = load_village(village)
    idle = villages.idle_members(record, clock() + timedelta(hours=2))
    assert set(idle) == set(seated) - set(dead)


def test_s8_opening_join_bans_speech_for_10_minutes(clock, village):
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    member = load_village(village)._members["seer_a"]
    assert member.speech_ban_until == clock() + OPENING_SPEECH_BAN
    assert member.public_ban_until is None


def test_s9_access_after_the_idle_check_calls_the_auto_departure_off(clock, village, players):
    seated = start(village, players, clock, count=12)
    day_start = load_village(village)._meta.day_started_at
    clock.now = day_start + timedelta(minutes=1)
    for account in seated.values():
        villages.touch(village, account, clock())
    clock.now = day_start + timedelta(minutes=61)
    update.advance(village, clock())  # the update due at 60 min: saves go to day 2
    record = load_village(village)
    slot = villages.idle_members(record, clock())[0]
    account = load_account(seated[slot])
    # The member logs in between the scheduler's read and its write.
    villages.touch(village, seated[slot], clock())
    with pytest.raises(TransactWriteError):
        villages._depart(record, account, slot, clock(), idle=True)
    assert load_village(village).slot_of(seated[slot]) == slot
    # Saving actions counts the same.
    record = load_village(village)
    other = next(s for s in villages.idle_members(record, clock()) if s != slot)
    other_account = load_account(seated[other])
    actions.save_actions(village, seated[other], {}, clock())
    with pytest.raises(TransactWriteError):
        villages._depart(record, other_account, other, clock(), idle=True)
    assert load_village(village).slot_of(seated[other]) == other
    # So does a post (decision 66): the page after it records no access of its own.
    record = load_village(village)
    poster = next(s for s in villages.idle_members(record, clock()) if s not in (slot, other))
    poster_account = load_account(seated[poster])
    posts.post(village, seated[poster], "inner", "まだいます", clock())  # past the day's 〆切
    with pytest.raises(TransactWriteError):
        villages._depart(record, poster_account, poster, clock(), idle=True)
    assert load_village(village).slot_of(seated[poster]) == poster


def test_lounge_opening_list_shows_only_villages_with_a_free_slot(clock, rng, village, players):
    other = villages.create_village(
        villages.AskedVillage(pace="short", name="まだ空きあり"), now=clock(), rng=rng
    )
    fill(village, players, clock)
    free = [v.village_id for v in villages.lounge("opening", free_only=True).villages]
    assert free == [other]
    every = {v.village_id for v in villages.lounge("opening").villages}
    assert every == {village, other}  # the GM still sees the full one


def test_lounge_counts_the_seats_a_newcomer_may_take_over_in_a_running_village(
    clock, village, players
):
    seated = start(village, players, clock, count=12)  # one slot vacant from the start
    [running] = villages.lounge("running").villages
    assert running.open_seats == 1
    # A living member leaves: one more seat to take over.
    cast = cast_of(village)
    leaver = next(s for s in cast.humans if s in seated)
    villages.leave(village, seated[leaver], clock())
    assert villages.lounge("running").villages[0].open_seats == 2
    # Someone takes it over: one fewer.
    newcomer = make_account("newcomer", clock())
    villages.join(village, newcomer, leaver, "", clock())
    assert villages.lounge("running").villages[0].open_seats == 1
    # A vacant character that dies is no seat any more.
    vacant = next(s for s in SLOTS if load_village(village)._members[s].account_id is None)
    for slot, account in seated.items():
        if slot != leaver:
            actions.save_actions(village, account, {"pray": vacant}, clock())
    actions.save_actions(village, newcomer, {"pray": vacant}, clock())
    morning = to_update(village, clock)[0]
    assert morning.morning.judged == vacant
    record = load_village(village)
    assert record._meta.state == "running"
    assert record._meta.open_seats == 0
