"""moto, made to behave like DynamoDB where tests and the local village depend on it.

- ``atomic_requests``: moto checks a condition and then writes in plain Python, so two
  threads can both pass one condition. DynamoDB never lets that happen; with one lock
  around each request, thread races exercise our conditions, not moto's.
- ``fast_item_results``: moto 5 runs each DynamoDB answer through a model-driven
  serializer that costs most of a request's time; for item operations its result is
  already the wire-format JSON, so it is sent as it is (as moto 4 did). Same answers.
- ``key_limits``: moto checks the size of key values only when an item is put; DynamoDB
  refuses any request naming a partition key over 2,048 bytes, a sort key over 1,024 bytes
  or an empty key (a get, an update, a query, a transaction, a page's start key). So does
  this, so that user input reaching a key unchecked fails in tests as it would in AWS.

``one_backup_per_transaction`` (tests and benches, not the runner): moto backs a table up once
per *item* of a transaction, a deep copy of the whole table each time; one copy per
transaction rolls back the same.
"""

import copy
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
    with atomic_requests(), fast_item_results(), key_limits():
        yield


class _NoTableCopies:
    """moto's ``copy`` inside its DynamoDB backend, minus the copies of whole tables."""

    @staticmethod
    def deepcopy(value: Any) -> Any:
        return value if isinstance(value, moto_dynamodb.Table) else copy.deepcopy(value)


@contextmanager
def one_backup_per_transaction() -> Iterator[None]:
    """A transaction of 30 items costs moto 30 copies of the table; this, one."""
    original = moto_dynamodb.DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict]) -> Any:
        names = {next(iter(item.values())).get("TableName") for item in transact_items}
        backup = {n: copy.deepcopy(self.tables[n]) for n in names if n in self.tables}
        try:
            return original(self, transact_items)
        except Exception:
            self.tables.update(backup)
            raise

    with (
        mock.patch.object(moto_dynamodb, "copy", _NoTableCopies),
        mock.patch.object(
            moto_dynamodb.DynamoDBBackend, "transact_write_items", transact_write_items
        ),
    ):
        yield
