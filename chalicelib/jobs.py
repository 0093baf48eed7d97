"""The non-HTTP entrypoints' bodies: the minute tick, its SQS workers, SES notices, the GM."""

import json
import logging
import os
import random
import secrets
from functools import cache

from . import fanout, gm, runtime
from .notify import pacing, ses
from .services import bounces, outbox, scheduler
from .services.errors import ServiceError

log = logging.getLogger("mobius.jobs")

QUEUE_NAME = "mobius-advance"
MAIL_QUEUE_NAME = "mobius-mail"
SES_TOPIC_NAME = "mobius-ses-notifications"
# The mail queue's event source runs at most this many mail workers at once (app.py), and they
# share the account's SES rate with the tick: the tick TICK_SHARE of it, each worker an equal
# part of the rest (decision 58). One worker sends one mail at a time (~10/s at SES's latency),
# so an account with a rate above ~10 × MAIL_WORKERS needs more workers (README).
MAIL_WORKERS = 4
TICK_SHARE = 0.1
TICK_MAIL_SECONDS = 20  # how long the tick may spend on owed mail (its Lambda has 60 s)


@cache
def _sqs(region: str | None, endpoint: str | None):
    import boto3  # here, not at the top: most requests never need it (cold start)

    return boto3.client("sqs", region_name=region, endpoint_url=endpoint)


def _send_to(queue_url: str, bodies: list[str]) -> None:
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    fanout.send_all(_sqs(region, os.environ.get("SQS_ENDPOINT") or None), queue_url, bodies)


def dispatch(village_ids: list[str]) -> None:
    """Fans the due villages out to the SQS workers; without a queue, processes them here."""
    queue_url = os.environ.get("MOBIUS_QUEUE_URL")
    if not queue_url:
        process(village_ids)
        return
    _send_to(queue_url, village_ids)


_senders: dict[float, pacing.PacedSender] = {}


def mail_sender(share: float) -> pacing.PacedSender | None:
    """This container's sender at ``share`` of the account's SES rate; None (SES unpaced, as
    the outbox's default) locally, where moto and the runner have no rate to keep."""
    if runtime.is_local():
        return None
    rate = ses.max_send_rate() * share
    sender = _senders.get(share)
    if sender is None:
        # A bucket of one token: the senders' bursts cannot add up over the account's rate.
        sender = _senders[share] = pacing.PacedSender(
            # ses.send looked up at each send, not bound once into a sender that lives long
            lambda *args, **kwargs: ses.send(*args, **kwargs),
            pacing.TokenBucket(rate),
        )
    sender.bucket.rate = rate  # the quota is read again every ses.QUOTA_FOR
    return sender


def tick() -> scheduler.TickReport:
    send = mail_sender(TICK_SHARE)
    limit = outbox.PENDING_LIMIT
    if send is not None:
        limit = max(1, int(send.bucket.rate * TICK_MAIL_SECONDS))
    report = scheduler.tick(
        runtime.now(), dispatch, random.Random(secrets.randbits(64)), send=send, mail_limit=limit
    )
    log.info(
        "tick: %d due, created %s, %d retried mails",
        report.due,
        report.created,
        report.retried_mail,
    )
    return report


def process(village_ids: list[str]) -> None:
    """Processes each village; one failure does not stop the others, but is raised at the end
    so that SQS delivers the batch again (every step is idempotent).

    With a mail queue (deployed), the villages that owe mail go to the mail workers once all
    are processed: the updates do not wait for SES's rate (decision 57)."""
    mail_queue = os.environ.get("MOBIUS_MAIL_QUEUE_URL")
    owing: list[str] = []
    failed = []
    for village_id in village_ids:
        try:
            scheduler.process_village(
                village_id, runtime.now(), mail_later=owing.append if mail_queue else None
            )
        except Exception:
            log.exception("village %s failed", village_id)
            failed.append(village_id)
    if mail_queue and owing:
        # Refused here, the mail stays owed in the outbox, where the tick finds it.
        _send_to(mail_queue, owing)
    if failed:
        raise RuntimeError(f"villages failed: {', '.join(failed)}")


def send_mail(village_ids: list[str]) -> None:
    """The mail worker: each village's owed mail, at this worker's share of the SES rate.

    A send that fails (throttled past the backoff, refused) leaves its mail owed for the
    tick's retry; only a failure of the outbox itself is raised, for SQS to deliver again."""
    send = mail_sender((1 - TICK_SHARE) / MAIL_WORKERS)
    failed = []
    for village_id in village_ids:
        try:
            scheduler.send_village_mail(village_id, runtime.now(), send=send)
        except Exception:
            log.exception("mail of village %s failed", village_id)
            failed.append(village_id)
    if failed:
        raise RuntimeError(f"mail failed: {', '.join(failed)}")


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
