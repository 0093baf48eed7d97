"""Read capacity (RRU) of DynamoDB requests, sized from the items each read returns.

moto's consumed capacity is a constant, so the figures are computed here from the items as
they come back on the wire, with DynamoDB's rules
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):

- an item's size is the UTF-8 length of each attribute name plus its value: a string its
  UTF-8 length, a number about one byte per two significant digits plus one, a boolean or
  null one byte, a list or map 3 bytes plus its elements plus one byte each (and a map
  key's length);
- a Query reads the sum of the sizes of its items, rounded up to 4 KB once per page;
  GetItem and BatchGetItem round each item up on its own; a read of nothing still costs
  one unit; an eventually consistent read costs half; TransactGetItems twice.

Writes are not counted here: only what a read returns.
"""

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pynamodb.connection.base import Connection

UNIT = 4096


def value_size(value: dict[str, Any]) -> int:
    """One attribute value in DynamoDB's JSON shape (``{"S": "…"}``, ``{"M": {…}}``)."""
    [(kind, data)] = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        digits = data.lstrip("-").replace(".", "").strip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(value_size(v) + 1 for v in data)
    if kind == "M":
        return 3 + sum(len(k.encode()) + value_size(v) + 1 for k, v in data.items())
    if kind in ("SS", "NS", "BS"):
        inner = kind[0]
        return sum(value_size({inner: v}) for v in data)
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_size(item: dict[str, dict[str, Any]]) -> int:
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def _units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / UNIT))
    return units if consistent else units / 2


@dataclass(frozen=True)
class Read:
    """One read request: its operation, the partition it read (the first one of a batch),
    its units and the sort keys of the items it returned."""

    operation: str
    pk: str
    units: float
    keys: tuple[str, ...]


@dataclass
class Reads:
    """Every read request of a block."""

    requests: list[Read] = field(default_factory=list)

    @property
    def units(self) -> float:
        return sum(r.units for r in self.requests)

    def keys(self, pk_prefix: str = "") -> list[str]:
        """The sort keys of the items read from partitions starting with ``pk_prefix``."""
        return [k for r in self.requests if r.pk.startswith(pk_prefix) for k in r.keys]


def _partition(operation: str, kwargs: dict[str, Any]) -> str:
    if operation == "Query":
        # The hash key's condition comes first in PynamoDB's key condition, so its value does.
        values = kwargs.get("ExpressionAttributeValues", {})
        return next((v["S"] for v in values.values() if "S" in v), "")
    if operation == "GetItem":
        return str(kwargs["Key"]["pk"]["S"])
    if operation == "BatchGetItem":
        return str(next(iter(kwargs["RequestItems"].values()))["Keys"][0]["pk"]["S"])
    return ""


def _sized(operation: str, kwargs: dict[str, Any], answer: dict[str, Any]) -> Read | None:
    consistent = bool(kwargs.get("ConsistentRead"))
    if operation in ("Query", "Scan"):
        items = answer.get("Items", [])
        units = _units(sum(item_size(i) for i in items), consistent)
    elif operation == "GetItem":
        items = [answer["Item"]] if "Item" in answer else []
        units = _units(item_size(items[0]) if items else 0, consistent)
    elif operation == "BatchGetItem":
        items = [i for found in answer.get("Responses", {}).values() for i in found]
        asked = sum(len(t["Keys"]) for t in kwargs["RequestItems"].values())
        consistent = all(t.get("ConsistentRead") for t in kwargs["RequestItems"].values())
        units = sum(_units(item_size(i), consistent) for i in items)
        units += _units(0, consistent) * (asked - len(items))
    elif operation == "TransactGetItems":
        items = [r["Item"] for r in answer.get("Responses", []) if "Item" in r]
        units = sum(2 * _units(item_size(i), True) for i in items)
    else:
        return None
    keys = tuple(i.get("sk", {}).get("S", "") for i in items)
    return Read(operation, _partition(operation, kwargs), units, keys)


@contextmanager
def reading() -> Iterator[Reads]:
    """Sizes every read made through PynamoDB inside the block."""
    reads = Reads()
    original = Connection._make_api_call

    def sized(self: Connection, operation_name: str, operation_kwargs: dict) -> dict:
        answer = original(self, operation_name, operation_kwargs)
        read = _sized(operation_name, operation_kwargs, answer)
        if read is not None:
            reads.requests.append(read)
        return answer

    Connection._make_api_call = sized  # type: ignore[method-assign]
    try:
        yield reads
    finally:
        Connection._make_api_call = original  # type: ignore[method-assign]
