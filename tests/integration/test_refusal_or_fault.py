"""Refusal or fault (issue 28): storage says ``Refused`` only when a condition did not hold
(alone, or as what cancelled a transaction); a throttle or an outage of DynamoDB goes up as
the fault it is, and a write that met another transaction is tried again.

The faults are injected at the botocore client (``tests/dynamo_faults.py``)."""

import pytest

from chalicelib.rulesets.base import VISITOR
from chalicelib.services import accounts, actions, posts, update
from chalicelib.services.errors import Conflict
from chalicelib.storage import villages as store
from chalicelib.storage.errors import FAULTS, WRITE_TRIES, Refused
from chalicelib.storage.repository import load_account, load_village
from tests.support import classic_villages as classic
from tests.support.accounts import make_account
from tests.support.dynamo_faults import UNAVAILABLE
from tests.support.villages import fill

PASSWORD = "correct horse battery"


def test_a_throttled_create_account_is_a_fault_not_the_id_is_taken(clock, dynamo_faults):
    dynamo_faults.fail("PutItem", times=99)
    with pytest.raises(FAULTS):
        accounts.register("fresh_id", PASSWORD, "fresh@example.jp", clock())
    assert load_account("fresh_id") is None
    dynamo_faults.faults.clear()
    assert accounts.register("fresh_id", PASSWORD, "fresh@example.jp", clock()).token


def test_an_id_taken_is_still_refused_with_its_sentence(clock):
    accounts.register("taken_id", PASSWORD, "one@example.jp", clock())
    with pytest.raises(Conflict, match="このIDはすでに使われています"):
        accounts.register("taken_id", "another long phrase", "two@example.jp", clock())


def test_a_registration_sent_again_with_the_same_id_address_and_password_stands(clock):
    """The first request wrote the account and then failed: the same registration again is
    answered as the first would have been."""
    first = accounts.register("again_id", PASSWORD, "Again@Example.jp", clock())
    second = accounts.register("again_id", PASSWORD, "again@example.jp", clock())
    assert second.account_id == first.account_id and second.email == first.email
    accounts.verify_email(first.token, clock())
    # Once verified it is somebody's account: the same words no longer register it.
    with pytest.raises(Conflict, match="このIDはすでに使われています"):
        accounts.register("again_id", PASSWORD, "again@example.jp", clock())


def test_a_throttled_will_is_a_fault_not_you_are_no_member(clock, rng, dynamo_faults):
    vid = classic.create(clock, rng)
    member = make_account("willer", clock())
    seat = classic.join_all(vid, [member], clock)[member]
    dynamo_faults.fail("UpdateItem", UNAVAILABLE, times=99)
    with pytest.raises(FAULTS):
        actions.save_will(vid, member, "遺書です", clock())
    dynamo_faults.faults.clear()
    with pytest.raises(Refused):  # the condition alone is a refusal: not this account's seat
        store.save_will(load_village(vid), seat, "somebody_else", "遺書です")


def test_a_step_whose_transaction_is_throttled_is_a_fault_not_a_lost_race(
    clock, village, players, dynamo_faults
):
    fill(village, players, clock)
    record = load_village(village)
    assert record.next_update is not None
    dynamo_faults.fail("TransactWriteItems", times=99)
    with pytest.raises(FAULTS):
        update.advance(village, record.next_update)
    assert load_village(village).state.value == "opening"  # nothing written, left for a retry


def test_a_step_that_meets_a_transaction_conflict_is_tried_again_at_once(
    clock, village, players, dynamo_faults
):
    fill(village, players, clock)
    record = load_village(village)
    assert record.next_update is not None
    dynamo_faults.cancel(["TransactionConflict"], times=WRITE_TRIES - 1)
    kinds = [h.kind for h in update.advance(village, record.next_update)]
    assert kinds == ["started"]
    assert dynamo_faults.faults[0].hits == WRITE_TRIES - 1


def test_classic_s7_a_vote_whose_early_close_meets_a_fault_stands_and_the_deadline_closes(
    clock, rng, dynamo_faults
):
    """Decision 65 (classic): the last vote of a round is saved; the early close it sets off
    meets a throttle; the vote is not lost nor answered as a fault, the round's deadline
    closes the round with every vote counted."""
    voters = [make_account(f"cl{n:02d}", clock()) for n in range(5)]
    vid = classic.create(clock, rng)
    classic.join_all(vid, voters, clock)
    classic.start(vid, voters, clock)
    classic.to_due(vid, clock)  # night 1 closes: day 2's first round
    living = classic.living_seats(vid)
    target, other = living[0], living[1]
    for seat in living[:-1]:
        vote = target if seat != target else other
        actions.save_actions(vid, classic.account_of(vid, seat), {"vote": vote}, clock())
    dynamo_faults.fail("TransactWriteItems", times=99)
    last = living[-1]
    assert (
        actions.save_actions(vid, classic.account_of(vid, last), {"vote": target}, clock()) is None
    )
    dynamo_faults.faults.clear()
    assert load_village(vid).saved(2)[last]["vote@0"] == target
    assert next(h.kind for h in classic.to_due(vid, clock)) == "round"
    record = load_village(vid)
    texts = [p.text for p in posts.read(record, VISITOR, "public", 2, clock()).posts]
    assert any("処刑されました" in t for t in texts)
    assert target not in classic.living_seats(vid)  # every vote counted: the target died
