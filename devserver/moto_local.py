"""moto, made to behave like DynamoDB where tests and the local village depend on it.

- ``atomic_requests``: moto checks a condition and then writes in plain Python, so two
  threads can both pass one condition. DynamoDB never lets that happen; with one lock
  around each request, thread races exercise our conditions, not moto's.
- ``fast_item_results``: moto 5 runs each DynamoDB answer through a model-driven
  serializer that costs most of a request's time; for item operations its result is
  already the wire-format JSON, so it is sent as it is (as moto 4 did). Same answers.
"""

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from moto.core.responses import BaseResponse
from moto.dynamodb import responses as dynamodb_responses

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


@contextmanager
def like_dynamodb() -> Iterator[None]:
    with atomic_requests(), fast_item_results():
        yield
