"""moto, made to behave like DynamoDB where tests and the local village depend on it.

- ``atomic_requests``: moto checks a condition and then writes in plain Python, so two
  threads can both pass one condition. DynamoDB never lets that happen; with one lock
  around each request, thread races exercise our conditions, not moto's.
- ``fast_item_results``: moto 5 runs each DynamoDB answer through a model-driven
  serializer that costs most of a request's time; for item operations its result is
  already the wire-format JSON, so it is sent as it is (as moto 4 did). Same answers.
- ``keyed_queries``: moto answers a query by sorting every item of the table (comparing keys
  in Python), then keeping those of the queried key. This hands its query only the items the
  key can match (a table key's own items; for an index, those whose index key attributes hold
  the queried values); moto's own checks, order, paging and filters then run as before on
  them. Same answers; a tick's 32 shard queries no longer sort the table 32 times.
- ``key_limits``: moto checks the size of key values only when an item is put; DynamoDB
  refuses any request naming a partition key over 2,048 bytes, a sort key over 1,024 bytes
  or an empty key (a get, an update, a query, a transaction, a page's start key). So does
  this, so that user input reaching a key unchecked fails in tests as it would in AWS.

``one_backup_per_transaction`` (tests and benches, not the runner): moto backs a table up once
per *item* of a transaction, a deep copy of the whole table each time; a copy of the items the
transaction names, taken once, rolls back the same.
"""

import contextvars
import copy
import inspect
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import moto.dynamodb.models as moto_dynamodb
from moto.core.responses import BaseResponse
from moto.dynamodb import responses as dynamodb_responses
from moto.dynamodb.exceptions import MockValidationException
from moto.dynamodb.limits import HASH_KEY_MAX_LENGTH, RANGE_KEY_MAX_LENGTH
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import Table

_lock = threading.RLock()

# Item operations whose moto result is already the JSON DynamoDB sends.
_ITEM_OPERATIONS = {
    "GetItem",
    "BatchGetItem",
    "Query",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "TransactWriteItems",
    "TransactGetItems",
}


@contextmanager
def atomic_requests() -> Iterator[None]:
    original = BaseResponse.call_action

    def call_action(self):
        with _lock:
            return original(self)

    BaseResponse.call_action = call_action
    try:
        yield
    finally:
        BaseResponse.call_action = original


@contextmanager
def fast_item_results() -> Iterator[None]:
    original = dynamodb_responses.DynamoResult.execute_result

    def execute_result(self, context):
        if context.operation_model.name in _ITEM_OPERATIONS:
            try:
                body = json.dumps(self.result)
            except TypeError:
                return original(self, context)
            return 200, {"Content-Type": "application/x-amz-json-1.0"}, body
        return original(self, context)

    dynamodb_responses.DynamoResult.execute_result = execute_result
    try:
        yield
    finally:
        dynamodb_responses.DynamoResult.execute_result = original


# The query being answered in this thread: its table, index, table key and index key values.
_query: contextvars.ContextVar[tuple[Table, str | None, Any, dict[str, DynamoType]] | None] = (
    contextvars.ContextVar("query", default=None)
)


def _may_equal(value: Any, wanted: DynamoType) -> bool:
    """Whether an item's attribute can equal a key value as moto's check sees it (truthy and
    ``==``). Strings and binaries are compared raw, not through moto's conversion of both
    sides at every comparison; numbers ("1" and "1.0") through it."""
    if not value or not isinstance(value, DynamoType) or value.type != wanted.type:
        return False
    return value.value == wanted.value if wanted.type != "N" else value == wanted


@contextmanager
def keyed_queries() -> Iterator[None]:
    original_query = Table.query
    original_all_items = Table.all_items
    signature = inspect.signature(original_query)

    def query(self: Table, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs).arguments
        index = bound.get("index_name")
        conditions = dict(bound.get("hash_key_conditions") or ())
        if index and not conditions:
            return original_query(self, *args, **kwargs)  # no key to narrow by: moto's way
        token = _query.set((self, index, bound.get("hash_key"), conditions))
        try:
            return original_query(self, *args, **kwargs)
        finally:
            _query.reset(token)

    def all_items(self: Table) -> list[Item]:
        """In a query of this table, the items its key can match (moto checks each again and
        sorts them itself); anywhere else, every item as moto lists them."""
        asked = _query.get()
        if asked is None or asked[0] is not self:
            return original_all_items(self)
        _, index, hash_key, conditions = asked
        if not index:  # the table's own key: its items, as moto holds them by that key
            held = self.items.get(hash_key) if hash_key is not None else None
            if held is None:
                return []
            return list(held.values()) if self.range_key_attr else [held]  # type: ignore[list-item]
        return [
            item
            for item in _every_item(self)
            if all(_may_equal(item.attrs.get(n), v) for n, v in conditions.items())
        ]

    Table.query = query  # type: ignore[method-assign]
    Table.all_items = all_items  # type: ignore[method-assign]
    try:
        yield
    finally:
        Table.query = original_query  # type: ignore[method-assign]
        Table.all_items = original_all_items  # type: ignore[method-assign]


def _every_item(table: Table) -> Iterator[Item]:
    for held in table.items.values():
        if table.range_key_attr:
            yield from held.values()
        else:
            yield held  # type: ignore[misc]


# Operations whose requests name keys, and the DynamoHandler method of each.
_KEYED_OPERATIONS = (
    "get_item",
    "put_item",
    "update_item",
    "delete_item",
    "query",
    "transact_write_items",
    "transact_get_items",
    "batch_get_item",
    "batch_write_item",
)
_KEY_CONDITION = re.compile(
    r"(#?\w+)\s*(?:=|<=|<|>=|>)\s*(:\w+)"
    r"|begins_with\s*\(\s*(#?\w+)\s*,\s*(:\w+)\s*\)"
    r"|(#?\w+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)",
    re.IGNORECASE,
)


def _key_sizes(backend, body: dict) -> None:
    """Raises DynamoDB's ValidationException for a key value it would refuse."""

    def check(table_name: str, values: dict | None) -> None:
        if not values:
            return
        table = backend.get_table(table_name)
        limits = dict.fromkeys(table.range_key_names, RANGE_KEY_MAX_LENGTH)
        limits.update(dict.fromkeys(table.hash_key_names, HASH_KEY_MAX_LENGTH))
        for name, value in values.items():
            if name not in limits or not isinstance(value, dict) or len(value) != 1:
                continue
            ((kind, raw),) = value.items()
            if kind not in ("S", "B", "N"):
                continue
            size = len(raw.encode("utf-8")) if kind == "S" else len(str(raw))
            if size == 0:
                raise MockValidationException(
                    "One or more parameter values are not valid. The AttributeValue for a key "
                    f"attribute cannot contain an empty string value. Key: {name}"
                )
            if size > limits[name]:
                which = "hashkey" if limits[name] == HASH_KEY_MAX_LENGTH else "range key"
                raise MockValidationException(
                    f"One or more parameter values were invalid: Size of {which} has exceeded "
                    f"the maximum size limit of {limits[name]} bytes"
                )

    table_name = body.get("TableName")
    if table_name:
        check(table_name, body.get("Key"))
        check(table_name, body.get("Item"))
        check(table_name, body.get("ExclusiveStartKey"))
        condition = body.get("KeyConditionExpression")
        if condition:
            names = body.get("ExpressionAttributeNames") or {}
            values = body.get("ExpressionAttributeValues") or {}
            for match in _KEY_CONDITION.finditer(condition):
                groups = [g for g in match.groups() if g]
                name = names.get(groups[0], groups[0])
                for placeholder in groups[1:]:
                    if placeholder in values:
                        check(table_name, {name: values[placeholder]})
    for entry in body.get("TransactItems") or []:
        for operation in entry.values():
            check(operation["TableName"], operation.get("Key"))
            check(operation["TableName"], operation.get("Item"))
    for name, requests in (body.get("RequestItems") or {}).items():
        if isinstance(requests, dict):  # BatchGetItem
            for key in requests.get("Keys") or []:
                check(name, key)
        else:  # BatchWriteItem
            for request in requests:
                check(name, (request.get("PutRequest") or {}).get("Item"))
                check(name, (request.get("DeleteRequest") or {}).get("Key"))


@contextmanager
def key_limits() -> Iterator[None]:
    handler = dynamodb_responses.DynamoHandler
    originals = {name: getattr(handler, name) for name in _KEYED_OPERATIONS}

    def checked(original):
        def operation(self):
            body = self.body if isinstance(self.body, dict) else json.loads(self.body or "{}")
            _key_sizes(self.dynamodb_backend, body)
            return original(self)

        return operation

    for name, original in originals.items():
        setattr(handler, name, checked(original))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(handler, name, original)


@contextmanager
def like_dynamodb() -> Iterator[None]:
    with atomic_requests(), fast_item_results(), key_limits(), keyed_queries():
        yield


class _NoTableCopies:
    """moto's ``copy`` inside its DynamoDB backend, minus the copies of whole tables."""

    @staticmethod
    def deepcopy(value: Any) -> Any:
        return value if isinstance(value, moto_dynamodb.Table) else copy.deepcopy(value)


def _named_items(backend: Any, transact_items: list[dict]) -> list[tuple[Table, Any, Any]]:
    """The table, hash key and range key of each item a transaction names."""
    named = []
    for entry in transact_items:
        operation = next(iter(entry.values()), None)
        if not isinstance(operation, dict):
            continue
        table = backend.tables.get(operation.get("TableName"))
        if table is None:
            continue
        key = operation.get("Key") or operation.get("Item") or {}
        if table.hash_key_attr not in key:
            continue  # moto refuses it before it writes anything
        hash_value = DynamoType(key[table.hash_key_attr])
        range_value = None
        if table.range_key_attr:
            if table.range_key_attr not in key:
                continue
            range_value = DynamoType(key[table.range_key_attr])
        named.append((table, hash_value, range_value))
    return named


def _restore(table: Table, hash_value: Any, range_value: Any, item: Item | None) -> None:
    """Puts an item back as it was (``None``: absent), whatever the transaction did to it."""
    if range_value is None:
        if item is None:
            table.items.pop(hash_value, None)
        else:
            table.items[hash_value] = item  # type: ignore[assignment]
        return
    held = table.items[hash_value]
    if item is None:
        held.pop(range_value, None)
    else:
        held[range_value] = item


@contextmanager
def one_backup_per_transaction() -> Iterator[None]:
    """moto backs up the whole table once per item of a transaction (30 deep copies of the
    table for a transaction of 30 items) to roll back a cancelled one. This copies, once,
    only the items the transaction names, and puts them back as they were when it fails:
    the only items a transaction can change, so the rollback is the same."""
    original = moto_dynamodb.DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict]) -> Any:
        named = _named_items(self, transact_items)
        backup = [(table, h, r, copy.deepcopy(_held(table, h, r))) for table, h, r in named]
        try:
            return original(self, transact_items)
        except Exception:
            for table, h, r, item in reversed(backup):
                _restore(table, h, r, item)
            raise

    with (
        mock.patch.object(moto_dynamodb, "copy", _NoTableCopies),
        mock.patch.object(
            moto_dynamodb.DynamoDBBackend, "transact_write_items", transact_write_items
        ),
    ):
        yield


def _held(table: Table, hash_value: Any, range_value: Any) -> Item | None:
    if range_value is None:
        return table.items.get(hash_value)  # type: ignore[return-value]
    return (table.items.get(hash_value) or {}).get(range_value)
