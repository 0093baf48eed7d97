"""The services on moto: a fresh table per test, a fake clock, a seeded RNG, players, a village.

The integration and mail folders import these fixtures into their ``conftest.py``; so does the
mail accessibility test, which builds every kind of mail the same way.
"""

import random

import pytest
from moto import mock_aws

from chalicelib.services import accounts, villages
from chalicelib.storage import db
from devserver.moto_local import like_dynamodb, one_backup_per_transaction

from .accounts import cheap_hasher, make_account
from .fakes import START, FakeClock
from .moto_tables import fresh_table


@pytest.fixture(autouse=True)
def aws(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("DYNAMODB_ENDPOINT", raising=False)
    monkeypatch.setenv("MOBIUS_TABLE", "mobius-test")
    monkeypatch.setenv("MOBIUS_SECRET", "test-secret-not-for-production")
    monkeypatch.setattr(accounts, "_hasher", cheap_hasher())
    with mock_aws(), like_dynamodb(), one_backup_per_transaction():
        # Configured once for the session: botocore clients are costly to build and are
        # intercepted by every mock_aws() all the same (each test still gets a fresh table).
        config = db.config_from_env()
        if db.ensure_configured() != config:
            db.configure(config)
        fresh_table()
        yield


@pytest.fixture
def clock():
    return FakeClock(START)


@pytest.fixture
def rng():
    return random.Random(20261201)


@pytest.fixture
def players(clock):
    return [make_account(f"player{n:02d}", clock()) for n in range(13)]


@pytest.fixture
def village(clock, rng):
    return villages.create_village(
        villages.AskedVillage(pace="short", name="テスト村"), now=clock(), rng=rng
    )
