"""Mail fixtures: the integration fixtures plus a verified SES sender, the app on the test
clock and its test client; and the villages several of the mail tests start from."""

from datetime import timedelta

import pytest

from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from tests.support.accounts import make_account
from tests.support.classic_villages import create, join_all, start
from tests.support.clients import client  # noqa: F401
from tests.support.mail import app_clock, ses  # noqa: F401
from tests.support.mailbox import MailBox, account_of, seat, tick, touch_all
from tests.support.services import aws, clock, players, rng, village  # noqa: F401


@pytest.fixture
def running(players, clock, rng, village):  # noqa: F811
    """Day 1 has just started; returns (village, slot -> account, account -> start mail)."""
    seated = seat(village, players, clock)
    box = MailBox()
    clock.advance(TIMINGS[Pace.SHORT].first_update)
    tick(clock, rng)
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    return village, seated, {account_of(m): m for m in box.new()}


@pytest.fixture
def classic(clock, rng):  # noqa: F811
    """A short classic village of five just started; (village, mails of the start)."""
    accounts = [make_account(f"m{n:02d}", clock()) for n in range(5)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    box = MailBox()
    start(vid, accounts, clock)
    tick(clock, rng)
    return vid, box
