"""Logs and metrics of the deployed functions, through Powertools for AWS Lambda (Python).

Deployed (``MOBIUS_STAGE`` set), every ``mobius.*`` logger writes one JSON object a line at
INFO (Lambda's root logger would drop INFO: its level is WARNING), each line with the Lambda
request id and the id of what it is about (a village, a match, a reply mail, a notice):
``invocation`` and ``about``. Locally (tests, ``make run``) logging stays as Python's.
Decision 205.
"""

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import partial
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

from . import runtime

SERVICE = "mobius"  # the logger's name ("mobius.*" are its children) and the metrics' dimension
METRICS_NAMESPACE = "Mobius"
# One a successful tick; infra/operations.py alarms when five minutes have none.
TICK_METRIC = "TickCompleted"

_logger: Logger | None = None


def logger() -> Logger | None:
    """The JSON logger, made on a deployed stage's first call; None locally."""
    global _logger
    if _logger is None and not runtime.is_local():
        _logger = Logger(
            service=SERVICE,
            level=logging.INFO,
            utc=True,
            # Japanese as it is (a reply's reason, a village's name), not \u escapes.
            json_serializer=partial(
                json.dumps, ensure_ascii=False, separators=(",", ":"), default=str
            ),
        )
    return _logger


@contextmanager
def invocation(context: Any, **keys: str) -> Iterator[None]:
    """Every line logged inside carries the Lambda request id (and ``keys``)."""
    json_logger = logger()
    if json_logger is None:
        yield
        return
    request_id = getattr(context, "aws_request_id", None)
    keys = {"request_id": request_id, **keys} if request_id else keys
    with json_logger.append_context_keys(**keys):
        yield


def about(**keys: str) -> Any:
    """Inside an invocation: the lines logged inside carry ``keys`` too (a village's id)."""
    json_logger = logger()
    return json_logger.append_context_keys(**keys) if json_logger else nullcontext()


def tick_completed() -> None:
    """The tick's metric, as an EMF line CloudWatch turns into a metric (deployed only)."""
    if runtime.is_local():
        return
    metrics = Metrics(namespace=METRICS_NAMESPACE, service=SERVICE)
    metrics.add_metric(name=TICK_METRIC, unit=MetricUnit.Count, value=1)
    metrics.flush_metrics()
