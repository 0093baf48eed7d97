"""DynamoDB failing as AWS does once the SDK has given up, injected at the botocore client.

Every botocore client's ``_make_api_call`` (PynamoDB's models and transactions, in any
thread) passes through ``DynamoFaults``: a test names the operation that fails, how (an error
code, or a transaction cancelled for given reasons), how many times, and optionally which
calls (a predicate over the call's parameters). The rest go to moto as usual.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from botocore.client import BaseClient
from botocore.exceptions import ClientError

THROTTLED = "ThrottlingException"
UNAVAILABLE = "InternalServerError"


@dataclass
class Fault:
    operation: str
    code: str
    times: int
    when: Callable[[dict[str, Any]], bool] | None
    reasons: list[str] | None  # a cancelled transaction's codes, one per item
    hits: int = 0


class DynamoFaults:
    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.calls: list[str] = []  # every DynamoDB operation called, failed or not

    def fail(
        self,
        operation: str,
        code: str = THROTTLED,
        times: int = 1,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> Fault:
        fault = Fault(operation, code, times, when, None)
        self.faults.append(fault)
        return fault

    def cancel(self, reasons: list[str], times: int = 1) -> Fault:
        """A TransactWriteItems cancelled for ``reasons`` (``TransactionConflict``, …);
        items not named are ``None``."""
        fault = Fault("TransactWriteItems", "TransactionCanceledException", times, None, reasons)
        self.faults.append(fault)
        return fault

    def error(self, operation: str, params: dict[str, Any]) -> ClientError | None:
        for fault in self.faults:
            if fault.operation != operation or fault.hits >= fault.times:
                continue
            if fault.when is not None and not fault.when(params):
                continue
            fault.hits += 1
            response: dict[str, Any] = {"Error": {"Code": fault.code, "Message": "injected"}}
            if fault.reasons is not None:
                items = len(params.get("TransactItems", []))
                codes = fault.reasons + ["None"] * (items - len(fault.reasons))
                response["CancellationReasons"] = [{"Code": code} for code in codes]
            return ClientError(response, operation)  # type: ignore[arg-type]
        return None


@pytest.fixture
def dynamo_faults(monkeypatch) -> DynamoFaults:
    faults = DynamoFaults()
    original = BaseClient._make_api_call

    def make_api_call(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if client.meta.service_model.service_name == "dynamodb":
            faults.calls.append(operation)
            error = faults.error(operation, params)
            if error is not None:
                raise error
        return original(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", make_api_call)
    return faults
