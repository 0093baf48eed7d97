"""The non-HTTP entrypoints' bodies: the minute tick, its SQS workers, SES notices, the GM."""

import json
import logging
import os
import random
import secrets
from functools import cache

from . import gm, runtime
from .services import bounces, scheduler
from .services.errors import ServiceError

log = logging.getLogger("mobius.jobs")

QUEUE_NAME = "mobius-advance"
SES_TOPIC_NAME = "mobius-ses-notifications"
SQS_BATCH = 10


@cache
def _sqs(region: str, endpoint: str | None):
    import boto3  # here, not at the top: most requests never need it (cold start)

    return boto3.client("sqs", region_name=region, endpoint_url=endpoint)


def dispatch(village_ids: list[str]) -> None:
    """Fans the due villages out to the SQS workers; without a queue, processes them here."""
    queue_url = os.environ.get("MOBIUS_QUEUE_URL")
    if not queue_url:
        process(village_ids)
        return
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    sqs = _sqs(region, os.environ.get("SQS_ENDPOINT") or None)
    for start in range(0, len(village_ids), SQS_BATCH):
        chunk = village_ids[start : start + SQS_BATCH]
        sqs.send_message_batch(
            QueueUrl=queue_url,
            Entries=[{"Id": str(n), "MessageBody": vid} for n, vid in enumerate(chunk)],
        )


def tick() -> scheduler.TickReport:
    report = scheduler.tick(runtime.now(), dispatch, random.Random(secrets.randbits(64)))
    log.info(
        "tick: %d due, created %s, %d retried mails",
        report.due,
        report.created,
        report.retried_mail,
    )
    return report


def process(village_ids: list[str]) -> None:
    """Processes each village; one failure does not stop the others, but is raised at the end
    so that SQS delivers the batch again (every step is idempotent)."""
    failed = []
    for village_id in village_ids:
        try:
            scheduler.process_village(village_id, runtime.now())
        except Exception:
            log.exception("village %s failed", village_id)
            failed.append(village_id)
    if failed:
        raise RuntimeError(f"villages failed: {', '.join(failed)}")


def ses_notification(message: str) -> list[str]:
    try:
        notification = json.loads(message)
    except ValueError:
        log.warning("an SES notification that is not JSON was ignored")
        return []
    if not isinstance(notification, dict):
        log.warning("an SES notification that is not a JSON object was ignored")
        return []
    marked = bounces.mark_undeliverable(notification)
    if marked:
        log.info("marked %d accounts undeliverable", len(marked))
    return marked


def gm_create_village(event: dict) -> dict:
    try:
        return gm.create(event if isinstance(event, dict) else {})
    except ServiceError as error:
        return {"error": str(error)}
