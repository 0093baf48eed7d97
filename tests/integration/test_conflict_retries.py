"""A conditioned write that meets another transaction is tried again and succeeds (issue 38).

PynamoDB appends the version's increment to the action list an update of a versioned item
(a village's META, an account) is given; a write that kept its lists across attempts sent
``version`` twice on the retry, which DynamoDB refuses ("Two document paths overlap"). Each
test forces one transaction conflict on one write (``tests/dynamo_faults.py``) and finds it
written once, the version counted once."""

from datetime import timedelta

from chalicelib.services import accounts, computer_seats, posts, villages
from chalicelib.storage.repository import load_account, load_village, plain
from tests.support.accounts import make_account
from tests.support.villages import all_posts, fill, persona_of


def conflict_once(dynamo_faults) -> None:
    dynamo_faults.cancel(["TransactionConflict"])


def test_a_join_that_meets_a_conflict_is_tried_again_and_seats_the_player(
    clock, village, players, dynamo_faults
):
    version = load_village(village)._meta.version
    conflict_once(dynamo_faults)
    villages.join(village, players[0], "seer_a", persona_of("seer_a"), clock())
    record = load_village(village)
    assert record._members["seer_a"].account_id == players[0]
    assert record._meta.version == version + 1 and record._meta.occupied == 1
    assert plain(load_account(players[0]).holds) == {"short": village}
    assert dynamo_faults.faults[0].hits == 1


def test_a_computer_seat_that_meets_a_conflict_is_tried_again_and_taken(
    clock, village, dynamo_faults
):
    version = load_village(village)._meta.version
    conflict_once(dynamo_faults)
    [slot] = computer_seats.seat(village, 1, clock())
    record = load_village(village)
    assert record._members[slot].account_id is not None
    assert record._meta.version == version + 1 and record._meta.occupied == 1
    assert dynamo_faults.faults[0].hits == 1


def test_leaving_that_meets_a_conflict_is_tried_again_and_frees_the_seat(
    clock, village, players, dynamo_faults
):
    fill(village, players[:2], clock)
    version = load_village(village)._meta.version
    conflict_once(dynamo_faults)
    villages.leave(village, players[0], clock())
    record = load_village(village)
    assert record._members["seer_a"].account_id is None
    assert record._meta.version == version + 1 and record._meta.occupied == 1
    assert "short" not in plain(load_account(players[0]).holds)
    assert dynamo_faults.faults[0].hits == 1


def test_an_idle_departure_that_meets_a_conflict_is_tried_again_and_made(
    clock, village, players, dynamo_faults
):
    fill(village, players[:2], clock)
    clock.advance(timedelta(hours=24))
    conflict_once(dynamo_faults)
    assert sorted(villages.depart_idle(village, clock())) == sorted(players[:2])
    assert load_village(village)._meta.occupied == 0
    assert dynamo_faults.faults[0].hits == 1


def test_a_post_that_meets_a_conflict_is_tried_again_and_written_once(
    clock, village, players, dynamo_faults
):
    fill(village, players[:1], clock)
    clock.advance(timedelta(minutes=10))  # past the opening's speech ban
    dynamo_faults.fail("UpdateItem", "TransactionConflictException")
    posts.post(village, players[0], "public", "ひとこと", clock())
    assert [p.text for p in all_posts(village, "public")].count("ひとこと") == 1
    assert dynamo_faults.faults[0].hits == 1


def test_mail_switches_that_meet_a_conflict_are_tried_again_and_saved(clock, dynamo_faults):
    account = make_account("switcher", clock())
    version = load_account(account).version
    dynamo_faults.fail("UpdateItem", "TransactionConflictException")
    accounts.set_preferences(account, dict.fromkeys(accounts.PREFERENCES, False))
    assert load_account(account).version == version + 1
    assert not any(plain(load_account(account).preferences).values())
    assert dynamo_faults.faults[0].hits == 1
