"""When AWS fails (issue 28): faults injected at the botocore clients (``benchmarks.faults``),
as DynamoDB and SES fail after the SDK's own retries. Nobody is punished for our failure and
nothing owed is lost; at-least-once mail sends as few twice as it can."""

from datetime import timedelta

import pytest

from benchmarks.faults import Faults
from chalicelib.storage.repository import load_village
from tests.mail.helpers import MailBox, account_of, seat, tick, touch_all


def test_a_reminder_whose_owed_mail_failed_to_be_written_is_owed_at_the_next_tick(
    players, clock, rng, village
):
    """Only a failed condition means "owed already": a throttled put leaves the day not
    reminded, and the next tick owes (and sends) every reminder."""
    seated = seat(village, players, clock)
    start = load_village(village).meta.next_update
    clock.now = start
    tick(clock, rng)
    box = MailBox()
    box.new()
    clock.now = start + timedelta(minutes=5)
    touch_all(village, seated, clock)
    clock.now = start + timedelta(minutes=30)  # the reminder's time (decision 22)
    faults = Faults(fail={"PutItem": 1})
    with faults.installed(), pytest.raises(RuntimeError, match="villages failed"):
        tick(clock, rng)
    assert faults.injected["failed:PutItem"] == 1
    assert load_village(village).meta.reminded_day == 0
    clock.now += timedelta(minutes=1)
    tick(clock, rng)
    reminded = sorted(account_of(m) for m in box.new() if "〆切が近づいています" in m.subject)
    assert reminded == sorted(seated.values())
    assert load_village(village).meta.reminded_day == 1
