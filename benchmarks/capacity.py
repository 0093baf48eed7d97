"""DynamoDB's capacity rules, applied to items in the wire format (``{"S": ...}``).

moto reports a constant consumed capacity, so ``make bench`` works it out itself from the
real items: their size by DynamoDB's size rule, reads rounded up to 4 KB (a query sums the
items it read, then rounds), writes rounded up to 1 KB per item and doubled in a
transaction, and one index write per global secondary index an item enters, leaves, moves in
or changes in, of the projected size. ``reading()`` sizes the reads of a block from the items
they return (``benchmarks/reads.py``); ``metering.py`` meters a whole game's reads and writes.
"""

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pynamodb.connection.base import Connection

READ_UNIT = 4096  # bytes a read request unit reads (strongly consistent)
WRITE_UNIT = 1024  # bytes a write request unit writes

WireItem = Mapping[str, Mapping[str, Any]]  # attribute name -> {"S": "..."} and the like


def value_size(value: Mapping[str, Any]) -> int:
    """The bytes one attribute value counts (DynamoDB developer guide, "Item sizes")."""
    (kind, data), *_ = value.items()
    if kind == "S":
        return len(str(data).encode("utf-8"))
    if kind == "N":
        return number_size(str(data))
    if kind == "B":
        return len(data) * 3 // 4 if isinstance(data, str) else len(data)  # base64 on the wire
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(s.encode("utf-8")) for s in data)
    if kind == "NS":
        return sum(number_size(n) for n in data)
    if kind == "BS":
        return sum(value_size({"B": b}) for b in data)
    if kind == "M":  # 3 bytes, and per entry its name, its value and 1 byte
        return 3 + sum(len(k.encode("utf-8")) + value_size(v) + 1 for k, v in data.items())
    if kind == "L":
        return 3 + sum(value_size(v) + 1 for v in data)
    raise ValueError(f"unknown attribute type {kind}")


def number_size(text: str) -> int:
    """About one byte per two significant digits, plus one."""
    digits = Decimal(text).normalize().as_tuple().digits
    return (len(digits) + 1) // 2 + 1


def item_size(item: WireItem | None) -> int:
    """Attribute names (UTF-8) plus their values; no item is 0 bytes."""
    if not item:
        return 0
    return sum(len(name.encode("utf-8")) + value_size(v) for name, v in item.items())


def read_units(size: int, consistent: bool, transactional: bool = False) -> float:
    """Read request units for ``size`` bytes read in one go (at least one 4 KB unit)."""
    units = max(1, math.ceil(size / READ_UNIT))
    if transactional:
        return 2.0 * units
    return float(units) if consistent else units / 2


def write_units(size: int, transactional: bool = False) -> int:
    """Write request units for one item of ``size`` bytes (at least one 1 KB unit)."""
    units = max(1, math.ceil(size / WRITE_UNIT))
    return 2 * units if transactional else units


@dataclass(frozen=True)
class Index:
    """A global secondary index as the table describes it: its keys and its projection."""

    name: str
    keys: tuple[str, ...]
    projection: str  # ALL | KEYS_ONLY | INCLUDE
    included: tuple[str, ...] = ()

    @classmethod
    def from_description(cls, description: Mapping[str, Any]) -> "Index":
        projection = description.get("Projection") or {}
        return cls(
            name=description["IndexName"],
            keys=tuple(k["AttributeName"] for k in description["KeySchema"]),
            projection=projection.get("ProjectionType", "ALL"),
            included=tuple(projection.get("NonKeyAttributes") or ()),
        )

    def entry(self, item: WireItem | None, table_keys: Sequence[str]) -> dict | None:
        """The index's copy of ``item`` (None: the item lacks the index's keys)."""
        if not item or any(key not in item for key in self.keys):
            return None
        if self.projection == "ALL":
            return dict(item)
        kept = {*self.keys, *table_keys}
        if self.projection == "INCLUDE":
            kept.update(self.included)
        return {name: value for name, value in item.items() if name in kept}

    def write_units(
        self, before: WireItem | None, after: WireItem | None, table_keys: Sequence[str]
    ) -> int:
        """What a table write costs this index: nothing when its entry is unchanged; a put or
        a delete when the item enters or leaves it; both when the index keys change."""
        old, new = self.entry(before, table_keys), self.entry(after, table_keys)
        if old == new:
            return 0
        if old is None or new is None:
            return write_units(item_size(old or new))
        if any(old[key] != new[key] for key in self.keys):
            return write_units(item_size(old)) + write_units(item_size(new))
        return write_units(max(item_size(old), item_size(new)))


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
        units = read_units(sum(item_size(i) for i in items), consistent)
    elif operation == "GetItem":
        items = [answer["Item"]] if "Item" in answer else []
        units = read_units(item_size(items[0]) if items else 0, consistent)
    elif operation == "BatchGetItem":
        items = [i for found in answer.get("Responses", {}).values() for i in found]
        asked = sum(len(t["Keys"]) for t in kwargs["RequestItems"].values())
        consistent = all(t.get("ConsistentRead") for t in kwargs["RequestItems"].values())
        units = sum(read_units(item_size(i), consistent) for i in items)
        units += read_units(0, consistent) * (asked - len(items))
    elif operation == "TransactGetItems":
        items = [r["Item"] for r in answer.get("Responses", []) if "Item" in r]
        units = sum(read_units(item_size(i), True, True) for i in items)
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
