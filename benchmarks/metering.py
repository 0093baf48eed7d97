"""Counts what AWS would bill for the calls made inside a block, on moto.

Every AWS call goes through botocore's ``BaseClient._make_api_call`` (PynamoDB's too), so one
hook sees DynamoDB, SES and SQS alike. DynamoDB's capacity is worked out from the items as
moto holds them, before and after each write (``capacity.py``); the table's indexes are read
from the table's own description, so the figure follows whatever storage defines.

Lambda time is the handler's CPU time here, without the time spent inside AWS calls (moto),
stretched to the function's share of a CPU, plus an assumed latency for each AWS call.
"""

import math
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from botocore.client import BaseClient
from botocore.exceptions import ClientError
from moto.core import DEFAULT_ACCOUNT_ID
from moto.dynamodb.models import dynamodb_backends

from . import capacity
from .prices import Usage

# Lambda gives a function a whole vCPU at 1,769 MB and a share in proportion below that
# (docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html).
FULL_CPU_MB = 1769
# Assumed round trips inside the Tokyo region (not measured: moto answers in-process).
LATENCY_SECONDS = {"dynamodb": 0.005, "ses": 0.030, "sqs": 0.010}
WRITES = ("PutItem", "UpdateItem", "DeleteItem")
TRANSACT_KINDS = ("Put", "Update", "Delete", "ConditionCheck")
READ_SHAPING = ("FilterExpression", "ProjectionExpression", "AttributesToGet", "Select")

PLACEHOLDER = re.compile(r"[#:][A-Za-z0-9_]+")

Call = Callable[[BaseClient, str, dict], dict]


def _kind(key: Mapping[str, Any]) -> str:
    """An item's kind from its key: the partition's and the sort key's first words."""
    pk, sk = (str(next(iter(key.get(name, {"S": ""}).values()))) for name in ("pk", "sk"))
    return f"{pk.split('#')[0]}#/{sk.split('#')[0] if not sk[:1].isdigit() else '<day>'}"


def _index_word(index: capacity.Index, old: dict | None, new: dict | None) -> str:
    """The first word of the index partition key an entry left or entered."""
    entry = new if new and index.keys[0] in new else old
    value = str(next(iter(entry[index.keys[0]].values()))) if entry else ""
    return value.split("#")[0]


class Meter:
    """Usage and request counts of the calls made while ``active``."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        self.usage = Usage()
        self.requests: Counter[str] = Counter()  # "dynamodb:GetItem" -> calls
        self.active = False
        # Index entries written, by the first word of the index key ("LOOK", "OUTBOX", …):
        # what a due query finds can only change with its own partitions' entries.
        self.index_changes: Counter[str] = Counter()
        self.wru_by_item: Counter[str] = Counter()  # "V#/SLOT" -> write units (what dominates)
        self._tables: dict[str, tuple[tuple[str, ...], list[capacity.Index]]] = {}
        self._aws_cpu = 0.0  # CPU seconds spent inside AWS calls (moto, and our look-ups)
        self._thread = threading.get_ident()  # the thread the invocations run on
        self._latency = 0.0  # assumed seconds waiting on AWS

    @contextmanager
    def invocation(
        self, memory_mb: int | None = None, sends_per_second: float | None = None
    ) -> Iterator[None]:
        """One Lambda invocation: its request and its billed GB-seconds (1 ms granularity).

        ``memory_mb``: the function's own, when it is not the default; ``sends_per_second``:
        the pace its mail is sent at (the mail workers' token bucket), so that n mails take
        at least (n - 1) / pace seconds, waited and billed, plus the last one's share."""
        memory = memory_mb or self.memory_mb
        cpu, aws_cpu, latency = time.thread_time(), self._aws_cpu, self._latency
        mails = self.usage.mails
        self._thread = threading.get_ident()
        self.active = True
        try:
            yield
        finally:
            self.active = False
            own_cpu = time.thread_time() - cpu - (self._aws_cpu - aws_cpu)
            seconds = own_cpu * max(1.0, FULL_CPU_MB / memory)
            seconds += self._latency - latency
            sent = self.usage.mails - mails
            if sends_per_second and sent > 1:
                seconds = max(seconds, (sent - 1) / sends_per_second + seconds / sent)
            self.usage.lambda_invocations += 1
            self.usage.lambda_gb_seconds += math.ceil(seconds * 1000) / 1000 * memory / 1024

    @contextmanager
    def counted(self) -> Iterator[None]:
        """AWS calls made outside a Lambda of ours (the SQS poller's receive and delete)."""
        self.active = True
        try:
            yield
        finally:
            self.active = False

    def call(self, original: Call, client: BaseClient, operation: str, params: dict) -> dict:
        service = client.meta.service_model.service_name
        if not self.active:
            return original(client, operation, params)
        started = time.thread_time()
        try:
            self.requests[f"{service}:{operation}"] += 1
            self._latency += LATENCY_SECONDS.get(service, 0.0)
            if service == "dynamodb":
                return self._dynamodb(original, client, operation, params)
            if service == "ses" and operation in ("SendRawEmail", "SendEmail"):
                destinations = params.get("Destinations") or params.get("Destination") or [None]
                self.usage.mails += len(destinations)
            if service == "sqs":
                self.usage.sqs_requests += 1
            return original(client, operation, params)
        finally:
            # Only the invocation's own thread: its CPU is what ``invocation`` measures (the
            # index shards' threads are not in it, so their moto time must not come off it).
            if threading.get_ident() == self._thread:
                self._aws_cpu += time.thread_time() - started

    # ----- DynamoDB -----

    def _dynamodb(self, original: Call, client: BaseClient, operation: str, params: dict) -> dict:
        if operation == "GetItem":
            response = original(client, operation, params)
            item = response.get("Item")
            if any(p in params for p in READ_SHAPING):
                item = self._item(original, client, params["TableName"], params["Key"])
            self.usage.rru += capacity.read_units(
                capacity.item_size(item), bool(params.get("ConsistentRead"))
            )
            return response
        if operation == "BatchGetItem":
            for table, spec in params["RequestItems"].items():
                for key in spec["Keys"]:
                    item = self._item(original, client, table, key)
                    self.usage.rru += capacity.read_units(
                        capacity.item_size(item), bool(spec.get("ConsistentRead"))
                    )
            return original(client, operation, params)
        if operation == "TransactGetItems":
            for action in params["TransactItems"]:
                get = action["Get"]
                item = self._item(original, client, get["TableName"], get["Key"])
                self.usage.rru += capacity.read_units(capacity.item_size(item), True, True)
            return original(client, operation, params)
        if operation in ("Query", "Scan"):
            response = original(client, operation, params)
            items = response.get("Items", [])
            self._table(original, client, params["TableName"])  # its indexes, for _entry
            if any(p in params for p in READ_SHAPING):
                items = original(client, operation, _unshaped(params)).get("Items", [])
            size = sum(capacity.item_size(self._entry(params, item)) for item in items)
            self.usage.rru += capacity.read_units(size, bool(params.get("ConsistentRead")))
            return response
        if operation in WRITES:
            return self._writes(original, client, operation, params, [(params, "")])
        if operation == "TransactWriteItems":
            actions = [
                (action[kind], kind)
                for action in params["TransactItems"]
                for kind in TRANSACT_KINDS
                if kind in action
            ]
            return self._writes(original, client, operation, params, actions)
        if operation == "BatchWriteItem":
            actions = [
                (
                    {"TableName": table, **request.get("PutRequest", request.get("DeleteRequest"))},
                    "",
                )
                for table, requests in params["RequestItems"].items()
                for request in requests
            ]
            return self._writes(original, client, operation, params, actions)
        return original(client, operation, params)

    def _writes(
        self,
        original: Call,
        client: BaseClient,
        operation: str,
        params: dict,
        actions: list[tuple[dict, str]],
    ) -> dict:
        """Each item's units at the larger of its sizes before and after; doubled in a
        transaction; plus its index writes. A refused write still costs its item's units
        (a cancelled transaction: its prepare phase, one write each, no index writes)."""
        transactional = operation == "TransactWriteItems"
        keyed = [(a["TableName"], self._key(original, client, a), a) for a, _ in actions]
        before = [self._item(original, client, table, key) for table, key, _ in keyed]
        try:
            response = original(client, operation, params)
        except ClientError:
            for item in before:
                self.usage.wru += capacity.write_units(capacity.item_size(item))
            raise
        for (table, key, _), old in zip(keyed, before, strict=True):
            new = self._item(original, client, table, key)
            size = max(capacity.item_size(old), capacity.item_size(new))
            units = capacity.write_units(size, transactional)
            table_keys, indexes = self._table(original, client, table)
            for index in indexes:
                index_units = index.write_units(old, new, table_keys)
                units += index_units
                if index_units:
                    self.index_changes[_index_word(index, old, new)] += 1
            self.usage.wru += units
            self.wru_by_item[_kind(key)] += units
        return response

    def _table(
        self, original: Call, client: BaseClient, name: str
    ) -> tuple[tuple[str, ...], list[capacity.Index]]:
        if name not in self._tables:
            table = original(client, "DescribeTable", {"TableName": name})["Table"]
            self._tables[name] = (
                tuple(k["AttributeName"] for k in table["KeySchema"]),
                [
                    capacity.Index.from_description(i)
                    for i in table.get("GlobalSecondaryIndexes", [])
                ],
            )
        return self._tables[name]

    def _key(self, original: Call, client: BaseClient, action: Mapping[str, Any]) -> dict:
        if "Key" in action:
            return dict(action["Key"])
        table_keys, _ = self._table(original, client, action["TableName"])
        return {name: action["Item"][name] for name in table_keys}

    def _item(self, original: Call, client: BaseClient, table: str, key: dict) -> dict | None:
        """The whole item as moto stores it now (a look-up the bill does not see)."""
        backend = dynamodb_backends[DEFAULT_ACCOUNT_ID][client.meta.region_name]
        item = backend.get_item(table, key)
        return item.to_json()["Attributes"] if item is not None else None

    def _entry(self, params: Mapping[str, Any], item: dict) -> dict | None:
        """What a query read of an item: the item, or its index entry."""
        index_name = params.get("IndexName")
        if index_name is None:
            return item
        table_keys, indexes = self._tables.get(params["TableName"]) or ((), [])
        index = next((i for i in indexes if i.name == index_name), None)
        return index.entry(item, table_keys) if index else item


def _unshaped(params: dict) -> dict:
    """The same query without what shapes its answer (a filter, a projection): the items it
    read, which is what it is billed for."""
    kept = {k: v for k, v in params.items() if k not in READ_SHAPING}
    used = set(PLACEHOLDER.findall(str(kept.get("KeyConditionExpression", ""))))
    for field in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
        if field in kept:
            placeholders = {k: v for k, v in kept[field].items() if k in used}
            if placeholders:
                kept[field] = placeholders
            else:
                del kept[field]
    return kept


@contextmanager
def metering(memory_mb: int) -> Iterator[Meter]:
    """Hooks every AWS call made inside the block into a new ``Meter``."""
    meter = Meter(memory_mb)
    original = BaseClient._make_api_call

    def metered(client: BaseClient, operation: str, params: dict) -> dict:
        return meter.call(original, client, operation, params)

    BaseClient._make_api_call = metered  # type: ignore[method-assign]
    try:
        yield meter
    finally:
        BaseClient._make_api_call = original  # type: ignore[method-assign]
