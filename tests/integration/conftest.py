"""Integration fixtures: a fresh moto DynamoDB table per test, a fake clock, a seeded RNG."""

import random
from datetime import UTC, datetime

import pytest
from moto import mock_aws

from chalicelib.services import accounts, villages
from chalicelib.storage import db
from tests.fakes import FakeClock
from tests.moto_atomic import atomic_requests


@pytest.fixture(autouse=True)
def aws(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("DYNAMODB_ENDPOINT", raising=False)
    monkeypatch.setenv("MOBIUS_TABLE", "mobius-test")
    monkeypatch.setenv("MOBIUS_SECRET", "test-secret-not-for-production")
    with mock_aws(), atomic_requests():
        db.configure()
        db.create_table()
        yield


@pytest.fixture
def clock():
    return FakeClock(datetime(2026, 12, 1, 3, 0, tzinfo=UTC))  # 12:00 JST


@pytest.fixture
def rng():
    return random.Random(20261201)


def make_account(name: str, now) -> str:
    """A registered account with a verified email."""
    token = accounts.register(name, "correct horse battery", f"{name}@example.jp", now)
    accounts.verify_email(token, now)
    return name


@pytest.fixture
def players(clock):
    return [make_account(f"player{n:02d}", clock()) for n in range(13)]


@pytest.fixture
def village(clock, rng):
    return villages.create_village(pace="short", name="テスト村", now=clock(), rng=rng)
