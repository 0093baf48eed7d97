"""Seats taken again and departures that make no sense (issue 20, "Seats"): who left is a
person, kept by account, never a seat; a seat taken again brings nothing of its previous
holder; the dead and the finished game are never left (RULES §9, RULES-CLASSIC §2.1, §8)."""

from datetime import timedelta

import pytest

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, posts, villages
from chalicelib.services.errors import Forbidden
from chalicelib.storage import villages as store
from chalicelib.storage.errors import Refused
from chalicelib.storage.repository import load_account, load_village
from tests.support import classic_villages as classic
from tests.support.accounts import make_account
from tests.support.villages import at, cast_of, kill, refused, start

# ----- classic: the prologue's seats -----


def _free_seats(village_id: str) -> list[str]:
    """The seats the join form offers, first the one it takes."""
    return [s for s, seat in load_village(village_id).seats().items() if seat.account_id is None]


def test_s2_1_a_seat_left_in_the_prologue_takes_the_next_newcomer(clock, rng):
    vid = classic.create(clock, rng)
    ann, bob, cat = (make_account(n, clock()) for n in ("ann", "bob", "cat"))
    classic.join_all(vid, [ann, bob], clock)
    villages.leave(vid, ann, clock())
    freed = _free_seats(vid)[0]
    assert freed == "s1"  # the freed seat is the form's first
    villages.join(vid, cat, freed, YAMAZATO[5].key, clock())
    assert load_village(vid).slot_of(cat) == "s1"
    # Who left is the person: never again, whichever seat they choose.
    error = refused(Forbidden, villages.join, vid, ann, _free_seats(vid)[0], "kaede", clock())
    assert str(error) == "一度離脱した村には参加できません"


def test_s2_1_a_member_kicked_out_never_rejoins_and_a_newcomer_takes_the_seat(clock, rng):
    vid = classic.create(clock, rng)
    names = ["ann", "bob", "cat", "dan", "eve"]
    members = [make_account(n, clock()) for n in names]
    seated = classic.join_all(vid, members, clock)
    for voter in ("bob", "cat", "dan"):
        actions.prologue(vid, voter, "kick", seated["ann"], clock())
    assert load_village(vid).slot_of("ann") is None
    fay = make_account("fay", clock())
    villages.join(vid, fay, seated["ann"], YAMAZATO[9].key, clock())
    error = refused(Forbidden, villages.join, vid, "ann", _free_seats(vid)[0], "kaede", clock())
    assert str(error) == "一度離脱した村には参加できません"
    # The game goes on with the newcomer in the kicked member's place.
    assert classic.start(vid, ["bob", "cat", "dan", "eve", "fay"], clock)[-1] == "started"


def test_s2_1_a_seat_taken_again_has_none_of_its_previous_holders_will_or_posts(clock, rng):
    vid = classic.create(clock, rng)
    ann, bob, cat = (make_account(n, clock()) for n in ("ann", "bob", "cat"))
    classic.join_all(vid, [ann, bob], clock)
    actions.save_will(vid, ann, "アンの遺書", clock())
    posts.post(vid, ann, "public", "アンです", clock())
    clock.advance(timedelta(seconds=10))
    villages.leave(vid, ann, clock())
    villages.join(vid, cat, "s1", YAMAZATO[7].key, clock())
    clock.advance(timedelta(seconds=10))
    posts.post(vid, cat, "public", "キャットです", clock())
    record = load_village(vid)
    seat = record.seats()["s1"]
    assert seat.will is None
    assert seat.last_post_at == clock()  # the newcomer's own post, not Ann's
    by_seat = {
        p.text: (p.slot, p.author)
        for p in posts.read(record, posts.viewer_of(record, cat), "public", 0, clock()).posts
    }
    assert by_seat["アンです"] == ("s1", YAMAZATO[0].name)  # still Ann's, under her name
    assert by_seat["キャットです"] == ("s1", YAMAZATO[7].name)


# ----- Mobius: takeovers (RULES §9) -----


def test_s9_a_takeover_starts_with_no_choice_save_or_visit_of_the_previous_player(
    clock, village, players
):
    seated = start(village, players, clock, count=12)
    leaver = next(s for s in SLOTS if s in seated and s.startswith("seer"))
    at(village, clock, 1)
    actions.save_actions(village, seated[leaver], {"pray": "guard_a", "divine": "guard_b"}, clock())
    clock.advance(timedelta(seconds=20))
    villages.leave(village, seated[leaver], clock())
    newcomer = make_account("newcomer", clock())
    clock.advance(timedelta(seconds=20))
    villages.join(village, newcomer, leaver, "", clock())
    record = load_village(village)
    assert actions.own_choices(record, newcomer) == {}
    assert record.saved(record.day).get(leaver) is None
    # Nothing saved by the previous player counts as the newcomer's acts: its visit is its join.
    assert all(leaver not in saves for saves in record.recent_saves())
    assert record.seats()[leaver].last_access == clock()
    assert record.seats()[leaver].last_post_at is None


# ----- where leaving makes no sense -----


def test_s9_the_dead_do_not_leave(clock, village, players):
    seated = start(village, players, clock, count=13)
    cast = cast_of(village)
    judged, attacked = cast.humans[0], cast.humans[1]
    kill(village, seated, clock, judged=judged, attacked=attacked)
    for slot in (judged, attacked):
        error = refused(Forbidden, villages.leave, village, seated[slot], clock())
        assert str(error) == "亡くなったキャラクターは離脱できません"
        assert load_village(village).slot_of(seated[slot]) == slot
        assert load_account(seated[slot]).lock_until is None  # and no lock for trying


def test_s9_nobody_leaves_once_the_game_is_over(clock, village, players):
    seated = start(village, players, clock, count=13)
    at(village, clock, 1)
    for slot in cast_of(village).oni_side[:3]:  # three resign during the day: the ending
        actions.save_actions(village, seated[slot], {"resign": slot}, clock())
    assert load_village(village).state.value == "ending"
    living = cast_of(village).humans[0]
    error = refused(Forbidden, villages.leave, village, seated[living], clock())
    assert str(error) == "ゲームが終わった村からは離脱できません"
    assert load_account(seated[living]).lock_until is None


def test_s8_a_running_classic_game_is_never_left(clock, rng):
    vid = classic.create(clock, rng)
    five = [make_account(f"player{n}", clock()) for n in range(5)]
    classic.join_all(vid, five, clock)
    classic.start(vid, five, clock)
    error = refused(Forbidden, villages.leave, vid, five[0], clock())
    assert str(error) == "ゲームが始まった後は村を出られません"


def test_s9_a_save_read_before_its_maker_left_never_lands_on_the_newcomers_seat(
    clock, village, players
):
    seated = start(village, players, clock, count=12)
    leaver = next(s for s in SLOTS if s in seated and s.startswith("seer"))
    at(village, clock, 1)
    stale = load_village(village)  # the leaver's save has read the village ...
    villages.leave(village, seated[leaver], clock())  # ... then the leaver leaves
    newcomer = make_account("newcomer", clock())
    villages.join(village, newcomer, leaver, "", clock())
    with pytest.raises(Refused):  # ... and the save's write comes last
        store.save_choices(stale, stale.day, leaver, {"pray": "guard_a"}, clock())
    assert actions.own_choices(load_village(village), newcomer) == {}
    # The newcomer's own saves are unaffected by the count.
    actions.save_actions(village, newcomer, {"pray": "guard_b"}, clock())
    assert actions.own_choices(load_village(village), newcomer)["pray"] == "guard_b"
