"""Where the table lives, set once at first use from the environment (never at import time)."""

import os

from msgspec import Struct
from pynamodb.connection import Connection
from pynamodb.transactions import TransactWrite

from .models import MODELS, CounterItem, Item


class TableConfig(Struct, frozen=True):
    table_name: str
    region: str
    host: str | None  # None: the real AWS endpoint


_config: TableConfig | None = None
_connection: Connection | None = None  # shared by transactions: one botocore client, not one each


def config_from_env() -> TableConfig:
    return TableConfig(
        table_name=os.environ.get("MOBIUS_TABLE", "mobius"),
        region=os.environ.get("AWS_REGION")
        or os.environ.get("AWS_DEFAULT_REGION", "ap-northeast-1"),
        host=os.environ.get("DYNAMODB_ENDPOINT") or None,
    )


def configure(config: TableConfig | None = None) -> TableConfig:
    """Points every model at the table; with no argument, reads the environment."""
    global _config, _connection
    _config = config or config_from_env()
    _connection = None
    Item.Meta.table_name = _config.table_name
    Item.Meta.region = _config.region
    Item.Meta.host = _config.host
    for model in (Item, CounterItem, *MODELS):
        model._connection = None
    return _config


def configured() -> TableConfig | None:
    """The table this process was pointed at, if it was (the GM command line never guesses)."""
    return _config


def ensure_configured() -> TableConfig:
    return _config or configure()


def transaction() -> TransactWrite:
    """One DynamoDB transaction: every write of a use case commits together or not at all."""
    global _connection
    config = ensure_configured()
    if _connection is None:
        _connection = Connection(region=config.region, host=config.host)
    return TransactWrite(connection=_connection)


def create_table() -> None:
    """Creates the table with its index and TTL (tests and the local runner; infra/ for AWS)."""
    ensure_configured()
    if not Item.exists():
        Item.create_table(billing_mode="PAY_PER_REQUEST", wait=True)
