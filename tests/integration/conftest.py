"""Integration fixtures: a fresh moto DynamoDB table per test, a fake clock, a seeded RNG."""

import random
from datetime import UTC, datetime

import pytest
from argon2 import PasswordHasher
from moto import mock_aws

from chalicelib.services import accounts, villages
from chalicelib.storage import db
from devserver.moto_local import like_dynamodb, one_backup_per_transaction
from tests.fakes import FakeClock
from tests.moto_tables import fresh_table

# The production hasher, for the tests that check how passwords are stored.
PRODUCTION_HASHER = accounts._hasher


@pytest.fixture(autouse=True)
def aws(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("DYNAMODB_ENDPOINT", raising=False)
    monkeypatch.setenv("MOBIUS_TABLE", "mobius-test")
    monkeypatch.setenv("MOBIUS_SECRET", "test-secret-not-for-production")
    # Cheap argon2id hashes: the suite registers hundreds of accounts.
    monkeypatch.setattr(
        accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    )
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
    return FakeClock(datetime(2026, 12, 1, 3, 0, tzinfo=UTC))  # 12:00 JST


@pytest.fixture
def rng():
    return random.Random(20261201)


def make_account(name: str, now, email: str | None = None) -> str:
    """A registered account with a verified email."""
    address = email or f"{name}@example.jp"
    token = accounts.register(name, "correct horse battery", address, now).token
    accounts.verify_email(token, now)
    return name


@pytest.fixture
def players(clock):
    return [make_account(f"player{n:02d}", clock()) for n in range(13)]


@pytest.fixture
def village(clock, rng):
    return villages.create_village(pace="short", name="テスト村", now=clock(), rng=rng)
