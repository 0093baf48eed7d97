"""Web fixtures: moto (DynamoDB + SES) with an empty table per test, a fake clock, Chalice's
test client and a browser (``tests/support/clients.py``), and a running village and the daily
puzzle to start from."""

import copy
import os
from datetime import timedelta

import boto3
import pytest
from chalice.test import Client
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from app import app
from chalicelib import runtime
from chalicelib.clock import system_clock
from chalicelib.rules.duel.puzzle import Puzzle
from chalicelib.services import accounts
from chalicelib.services.puzzles import today
from chalicelib.storage import db
from devserver.moto_local import like_dynamodb
from tests.support.accounts import cheap_hasher, make_account
from tests.support.clients import browser, client, new_browser  # noqa: F401
from tests.support.fakes import START, FakeClock
from tests.support.mail import REGION, SENDER
from tests.support.moto_tables import fresh_table, tables
from tests.support.puzzle_days import puzzle_json, store_puzzle
from tests.support.villages import new_village, start


@pytest.fixture(scope="package")
def moto_package():
    """One moto for the package (creating boto clients and the table costs ~0.3 s a test).

    Keeps the empty table as moto holds it; each test starts from a copy of it.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_DEFAULT_REGION", REGION)
        mp.setenv("AWS_ACCESS_KEY_ID", "testing")
        mp.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        mp.delenv("AWS_REGION", raising=False)
        mp.delenv("DYNAMODB_ENDPOINT", raising=False)
        mp.delenv("SES_ENDPOINT", raising=False)
        mp.delenv("MOBIUS_STAGE", raising=False)
        mp.delenv("MOBIUS_MAIL_FROM", raising=False)
        mp.setenv("MOBIUS_TABLE", "mobius-web-test")
        mp.setenv("MOBIUS_SECRET", "test-secret-not-for-production")
        mp.setattr(accounts, "_hasher", cheap_hasher())
        with mock_aws(), like_dynamodb():
            db.configure()
            fresh_table()
            boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=SENDER)
            yield
        db.configure(db.config_from_env())  # the next suite configures its own table


@pytest.fixture(autouse=True)
def aws(moto_package):
    """A fresh, empty table and no sent mail for every test."""
    fresh_table()
    ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages.clear()


@pytest.fixture
def clock():
    fake = FakeClock(START)
    runtime.set_clock(fake)
    yield fake
    runtime.set_clock(system_clock)


@pytest.fixture
def prod_client(clock):
    """The app with the prod stage's settings (https: Secure cookies)."""
    return Client(app, stage_name="prod")


_SNAPSHOTS: dict[str, tuple] = {}


def cached_state(name: str, clock, build):
    """Runs ``build`` once per session; later tests get a copy of the table it left.

    Building a running village (13 accounts, 13 joins, the start) costs about a second of
    moto requests; every test that needs one gets the same table and clock instead.
    """
    table = os.environ["MOBIUS_TABLE"]
    if name in _SNAPSHOTS:
        saved, now, result = _SNAPSHOTS[name]
        tables()[table] = copy.deepcopy(saved)
        clock.now = now
        return result
    result = build()
    _SNAPSHOTS[name] = (copy.deepcopy(tables()[table]), clock.now, result)
    return result


def running_game(clock) -> tuple[str, dict[str, str]]:
    """A short village whose day 1 has just begun, all 13 slots taken; (id, slot -> account)."""

    def build():
        players = [make_account(f"p{n:02d}", clock()) for n in range(13)]
        vid = new_village(clock)
        return vid, start(vid, players, clock)

    return cached_state("running_game", clock, build)


@pytest.fixture
def game(clock):
    return running_game(clock)


@pytest.fixture
def todays_puzzle(clock):
    for n in range(8):  # today's and the next week's (the daily job makes tomorrow's)
        store_puzzle(today(clock()) + timedelta(days=n), clock())
    return Puzzle.from_json(puzzle_json())
