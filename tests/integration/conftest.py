"""Integration fixtures: a fresh moto DynamoDB table per test, a fake clock, a seeded RNG."""

import copy
import random
from datetime import UTC, datetime

import moto.dynamodb.models as moto_dynamodb
import pytest
from argon2 import PasswordHasher
from moto import mock_aws

from chalicelib.services import accounts, villages
from chalicelib.storage import db
from devserver.moto_local import like_dynamodb
from tests.fakes import FakeClock

# The production hasher, for the tests that check how passwords are stored.
PRODUCTION_HASHER = accounts._hasher


class _NoTableCopies:
    """moto's ``copy`` inside its DynamoDB backend, minus the copies of whole tables."""

    @staticmethod
    def deepcopy(value):
        return value if isinstance(value, moto_dynamodb.Table) else copy.deepcopy(value)


def _one_backup_per_transaction(monkeypatch) -> None:
    """moto backs a table up once per *item* of a transaction (a deep copy of the whole table
    each time), which makes a 30-item update cost 30 table copies. Same rollback, one copy."""
    original = moto_dynamodb.DynamoDBBackend.transact_write_items

    def transact_write_items(self, transact_items):
        names = {next(iter(item.values())).get("TableName") for item in transact_items}
        backup = {n: copy.deepcopy(self.tables[n]) for n in names if n in self.tables}
        try:
            return original(self, transact_items)
        except Exception:
            self.tables.update(backup)
            raise

    monkeypatch.setattr(moto_dynamodb, "copy", _NoTableCopies)
    monkeypatch.setattr(moto_dynamodb.DynamoDBBackend, "transact_write_items", transact_write_items)


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
    _one_backup_per_transaction(monkeypatch)
    with mock_aws(), like_dynamodb():
        # Configured once for the session: botocore clients are costly to build and are
        # intercepted by every mock_aws() all the same (each test still gets a fresh table).
        config = db.config_from_env()
        if db.ensure_configured() != config:
            db.configure(config)
        db.create_table()
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
