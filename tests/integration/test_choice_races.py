"""Saves that meet a change between their read and their write (issues 20 and 28), and saves
made after a deadline the tick has not acted on yet. Each write is conditioned on what its
check read; a save is never stored where it does not count."""

from datetime import timedelta

import pytest

from chalicelib.rules.classic import Role
from chalicelib.rulesets.classic.seats import character
from chalicelib.services import actions, update
from chalicelib.services.errors import Forbidden
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import (
    account_of,
    create,
    join_all,
    living_seats,
    seat_of_role,
    start,
)
from tests.support.classic_villages import game as classic_game
from tests.support.fakes import between_read_and_write
from tests.support.villages import at, cast_of, to_update
from tests.support.villages import start as start_mobius


@pytest.fixture
def five(clock):
    return [make_account(f"cr{n:02d}", clock()) for n in range(5)]


def classic_started(clock, rng, five, **given) -> str:
    vid = create(clock, rng, **given)
    join_all(vid, five, clock)
    start(vid, five, clock)
    return vid


def test_s2_3_4_1_a_vote_checked_before_its_round_closed_and_written_after_is_refused(
    clock, rng, five, monkeypatch
):
    vid = classic_started(clock, rng, five)
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())  # night 1 closes: day 2, round 1
    wolf = seat_of_role(vid, Role.WEREWOLF)
    voter = next(s for s in living_seats(vid) if s != wolf)
    for seat in living_seats(vid):
        if seat != voter:
            target = wolf if seat != wolf else voter
            actions.save_actions(vid, account_of(vid, seat), {"vote": target}, clock())
    deadline = load_village(vid)._meta.next_update
    clock.now = deadline - timedelta(seconds=1)
    between_read_and_write(monkeypatch, lambda: update.advance(vid, deadline))
    with pytest.raises(Forbidden) as refused:
        actions.save_actions(vid, account_of(vid, voter), {"vote": wolf}, clock())
    assert str(refused.value) == "この投票は締め切られました"
    g = classic_game(vid)
    assert g.village is not None and character(g, voter) in g.village.rounds[0].sudden
    assert all(not k.startswith("vote") for k in load_village(vid).recorded(2).get(voter, {}))


def test_s2_4_a_night_choice_saved_after_the_night_closed_before_the_tick_is_refused(
    clock, rng, five
):
    vid = classic_started(clock, rng, five)
    seer = seat_of_role(vid, Role.SEER)
    account = account_of(vid, seer)
    target, other = [s for s in living_seats(vid) if s != seer][:2]
    actions.save_actions(vid, account, {"divine": target}, clock())
    close = load_village(vid)._meta.next_update
    clock.now = close - timedelta(seconds=1)
    actions.save_actions(vid, account, {"divine": other}, clock())  # in time
    clock.now = close + timedelta(seconds=30)  # the night is over; the tick has not run
    with pytest.raises(Forbidden) as refused:
        actions.save_actions(vid, account, {"divine": target}, clock())
    assert str(refused.value) == "今夜の行動は締め切られました"
    assert actions.own_choices(load_village(vid), account) == {"divine": other}


def test_s2_4_night_choices_set_during_the_day_stay_open_until_the_night_closes(clock, rng, five):
    vid = classic_started(clock, rng, five)
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())  # day 2
    seer = seat_of_role(vid, Role.SEER)
    target = next(s for s in living_seats(vid) if s != seer)
    # The round's deadline has passed and its close is not yet done: tonight is still ahead.
    clock.now = load_village(vid)._meta.next_update + timedelta(seconds=30)
    actions.save_actions(vid, account_of(vid, seer), {"divine": target}, clock())
    assert actions.own_choices(load_village(vid), account_of(vid, seer)) == {"divine": target}


def test_s2_3_a_choice_saved_after_the_update_time_before_the_tick_is_refused(
    clock, village, players
):
    seated = start_mobius(village, players, clock)
    cast = cast_of(village)
    prayer, first, late = seated[cast.humans[0]], cast.humans[1], cast.humans[2]
    at(village, clock, 59)
    actions.save_actions(village, prayer, {"pray": first}, clock())
    clock.now = load_village(village)._meta.next_update + timedelta(seconds=20)
    with pytest.raises(Forbidden) as refused:
        actions.save_actions(village, prayer, {"pray": late}, clock())
    assert "締め切られました" in str(refused.value)
    [morning] = [h for h in to_update(village, clock) if h.kind == "morning"]
    assert morning.morning.judged == first


def test_s3_a_save_between_the_read_and_the_write_of_the_members_other_save_is_kept(
    clock, village, players, monkeypatch
):
    seated = start_mobius(village, players, clock)
    at(village, clock, 5)
    seer = seated["seer_a"]
    prayed, divined = "guard_a", "medium_b"
    between_read_and_write(
        monkeypatch, lambda: actions.save_actions(village, seer, {"pray": prayed}, clock())
    )
    actions.save_actions(village, seer, {"divine": divined}, clock())  # read before the prayer
    assert actions.own_choices(load_village(village), seer) == {
        "pray": prayed,
        "divine": divined,
    }
