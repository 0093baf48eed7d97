"""A GM moves a village's next event (issue 26): the classic prologue's abandon time (its
recruiting time) and a night's close move, a sunset does not (decisions-classic 67); a Mobius
update never moves into the day or its loss time (decision 103). Each move is one write with
the GM's notice on the public board and the GM's log line."""

from datetime import timedelta

import pytest

from chalicelib.rules.classic import Phase
from chalicelib.services import hosting, update
from chalicelib.services.errors import InvalidInput
from chalicelib.storage import gm_log
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import create, game, join_all, start
from tests.support.villages import all_posts
from tests.support.villages import start as mobius_start

GM = "account:gamemaster"


@pytest.fixture
def five(clock):
    return [make_account(f"cl{n:02d}", clock()) for n in range(5)]


def public_texts(village_id: str) -> list[str]:
    board = load_village(village_id).rules.public_board
    return [p.text for p in all_posts(village_id, board)]


def test_classic_2_1_the_prologue_s_abandon_time_moves_with_the_recruiting_time(clock, rng):
    vid = create(clock, rng)
    was = load_village(vid)._meta.next_update
    later = was + timedelta(hours=24)
    hosting.reschedule(vid, later, "もう一日募集します", GM, clock())
    assert load_village(vid)._meta.next_update == later
    assert "管理人からのお知らせ: もう一日募集します" in public_texts(vid)
    clock.now = was  # the rules' 72 hours: the village waits for the GM's time
    assert update.advance(vid, clock()) == []
    assert load_village(vid)._meta.state == "opening"
    clock.now = later
    assert [h.kind for h in update.advance(vid, clock())] == ["abandoned"]
    assert "期限までに始まらなかったため、廃村になりました。" in public_texts(vid)
    [line] = gm_log.recent(clock())
    assert (line.actor, line.action, line.target) == (GM, "reschedule", vid)


def test_classic_2_4_a_night_s_close_moves_and_the_next_night_keeps_the_rules(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five, clock)
    start(vid, five, clock)  # night 1 begins at once (no opening day)
    assert game(vid).village.phase is Phase.NIGHT
    was = load_village(vid)._meta.next_update
    later = was + timedelta(minutes=30)
    hosting.reschedule(vid, later, "夜を30分延ばします", GM, clock())
    clock.now = was
    assert update.advance(vid, clock()) == []
    assert game(vid).village.phase is Phase.NIGHT
    clock.now = later
    assert [h.kind for h in update.advance(vid, clock())] == ["night"]
    moved = game(vid)
    assert moved.moved is None and moved.village.day == 2
    # Day 2 runs from the morning the GM's time made, by the rules again: its first vote
    # round closes at sunset (40 minutes) plus the overtime (5 minutes).
    assert load_village(vid)._meta.next_update == later + timedelta(minutes=45)


def test_classic_a_sunset_does_not_move(clock, rng, five):
    vid = create(clock, rng, opening=True)
    join_all(vid, five, clock)
    start(vid, five, clock)  # day 1 with talk: its sunset is pending
    before = load_village(vid)._meta
    with pytest.raises(InvalidInput, match="日没の時刻は動かせません"):
        hosting.reschedule(vid, before.next_update + timedelta(hours=1), "延長", GM, clock())
    after = load_village(vid)._meta
    assert (after.next_update, after.version) == (before.next_update, before.version)
    assert gm_log.recent(clock()) == []


def test_mobius_2_an_update_never_moves_into_the_day_or_its_loss_time(clock, village, players):
    mobius_start(village, players, clock, count=12)
    record = load_village(village)
    deadline = record.rules.deadline(record)
    for too_soon in (deadline - timedelta(minutes=1), deadline + timedelta(minutes=9)):
        with pytest.raises(InvalidInput, match="〆切とロスタイムより後"):
            hosting.reschedule(village, too_soon, "早めます", GM, clock())
    to = deadline + timedelta(minutes=10)  # the loss time kept whole (short: 10 minutes)
    hosting.reschedule(village, to, "夜を短くします", GM, clock())
    assert load_village(village)._meta.next_update == to
    clock.now = to
    assert [h.kind for h in update.advance(village, clock())] == ["morning"]


def test_a_move_to_the_past_or_to_the_same_time_is_refused(clock, village):
    now_due = load_village(village)._meta.next_update
    with pytest.raises(InvalidInput, match="未来"):
        hosting.reschedule(village, clock() - timedelta(minutes=1), "x", GM, clock())
    with pytest.raises(InvalidInput, match="同じ"):
        hosting.reschedule(village, now_due, "x", GM, clock())
    with pytest.raises(InvalidInput, match="お知らせを書いてください"):
        hosting.reschedule(village, now_due + timedelta(hours=1), "  ", GM, clock())
