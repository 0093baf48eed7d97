"""When AWS fails (issue 28): faults injected at the botocore clients (``benchmarks.faults``),
as DynamoDB and SES fail after the SDK's own retries. Nobody is punished for our failure and
nothing owed is lost; at-least-once mail sends as few twice as it can."""

from datetime import timedelta

import pytest

from benchmarks.faults import Faults
from chalicelib.services import outbox, update
from chalicelib.storage.repository import load_village
from tests.support.fakes import THROTTLED
from tests.support.mailbox import MailBox, account_of, seat, tick, touch_all


def test_a_reminder_whose_owed_mail_failed_to_be_written_is_owed_at_the_next_tick(
    players, clock, rng, village
):
    """Only a failed condition means "owed already": a throttled put leaves the day not
    reminded, and the next tick owes (and sends) every reminder."""
    seated = seat(village, players, clock)
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)  # day 1 begins
    clock.advance(timedelta(minutes=5))
    touch_all(village, seated, clock)
    clock.advance(timedelta(minutes=25))  # the reminder's time (decision 22)
    box = MailBox()
    faults = Faults(fail={"PutItem": 1})
    with faults.installed(), pytest.raises(RuntimeError, match="villages failed"):
        tick(clock, rng)
    assert faults.injected["failed:PutItem"] == 1
    assert load_village(village)._meta.reminded_day == 0
    clock.now += timedelta(minutes=1)
    tick(clock, rng)
    reminded = sorted(account_of(m) for m in box.new() if "〆切が近づいています" in m.subject)
    assert reminded == sorted(seated.values())
    assert load_village(village)._meta.reminded_day == 1


def _marked_sent(operation: str, body: str) -> bool:
    return '"sent"' in body  # the outbox's mark after a send


def test_a_mail_whose_mark_after_the_send_fails_is_marked_on_a_second_try_and_sent_once(
    players, clock, rng, village
):
    seat(village, players, clock)
    clock.now = load_village(village)._meta.next_update
    box = MailBox()
    faults = Faults(fail={"UpdateItem": 1}, fail_when=_marked_sent)
    with faults.installed():
        tick(clock, rng)
    assert faults.injected["failed:UpdateItem"] == 1
    assert len(box.new()) == 13
    # Long after every claim would have expired: nothing is sent again.
    clock.now += timedelta(minutes=10)
    tick(clock, rng)
    assert box.new() == []


def test_a_sender_whose_claim_was_taken_over_does_not_put_the_mail_back_in_the_queue(
    players, clock, rng, village
):
    """A sender slow past its claim: another sends the mail; the first one's failure then
    must not make it owed again (the requeue is conditioned on the claim)."""
    seat(village, players, clock)
    clock.now = load_village(village)._meta.next_update
    update.advance(village, clock())
    first = clock()
    box = MailBox()
    mail = outbox.village_mail(village)[0]

    def unsent() -> list:
        return [i for i in outbox.unsent_mail(village) if i.sk == mail.sk]

    def slow(*args, **kwargs):
        # Meanwhile, past the claim, another worker takes the same mail and sends it.
        outbox.deliver(first + outbox.CLAIM_FOR + timedelta(seconds=1), unsent())
        raise THROTTLED  # and then the slow sender's own send fails

    outbox.deliver(first, [mail], send=slow)
    assert [account_of(m) for m in box.new()] == [mail.account_id]  # the other worker's
    assert unsent() == []
    clock.now = first + timedelta(minutes=30)
    outbox.deliver(clock(), outbox.unsent_mail(village))  # every mail still owed
    assert mail.account_id not in [account_of(m) for m in box.new()]
