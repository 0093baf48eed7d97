"""The table as ``db.create_table`` makes it, copied into moto for each test.

Made through the API once per process and table name (its five calls cost about 70 ms, most
of a small test), then a copy of that empty table goes into moto wherever a test needs a
fresh one (moto scans the whole table on every query: keep it small).
"""

import copy
import os

from moto.core import DEFAULT_ACCOUNT_ID
from moto.dynamodb.models import dynamodb_backends
from moto.dynamodb.models.table import Table

from chalicelib.storage import db

_EMPTY: dict[str, Table] = {}


def tables() -> dict[str, Table]:
    """moto's tables in the configured region."""
    return dynamodb_backends[DEFAULT_ACCOUNT_ID][os.environ["AWS_DEFAULT_REGION"]].tables


def fresh_table() -> None:
    """An empty ``MOBIUS_TABLE`` in the moto now running."""
    name = os.environ["MOBIUS_TABLE"]
    if name in _EMPTY:
        tables()[name] = copy.deepcopy(_EMPTY[name])
    else:
        db.create_table()
        _EMPTY[name] = copy.deepcopy(tables()[name])
