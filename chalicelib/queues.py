"""The SQS queues the deployed app hands work to (the advance and mail workers). Locally there
are none: whoever hands work over does it inline instead."""

import os
from functools import cache
from typing import Any

from . import fanout


@cache
def _sqs(region: str | None, endpoint: str | None) -> Any:
    import boto3  # here, not at the top: most requests never need it (cold start)

    return boto3.client("sqs", region_name=region, endpoint_url=endpoint)


def _client() -> Any:
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    return _sqs(region, os.environ.get("SQS_ENDPOINT") or None)


def send_to(queue_url: str, bodies: list[str]) -> None:
    fanout.send_all(_client(), queue_url, bodies)


def send_later(queue_url: str, body: str, delay_seconds: int) -> None:
    """One message, delivered after ``delay_seconds`` (SQS allows up to 900)."""
    _client().send_message(QueueUrl=queue_url, MessageBody=body, DelaySeconds=delay_seconds)


def mail_queue() -> str | None:
    """The mail workers' queue (deployed), or None (locally)."""
    return os.environ.get("MOBIUS_MAIL_QUEUE_URL") or None
