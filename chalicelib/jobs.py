"""The non-HTTP entrypoints' bodies: the minute tick, its SQS workers, SES notices, the GM.

Each body imports its own path when it first runs: every function of the stack imports this
module (``app.py`` names its queues), and the tick has no use for the reply parser nor a
reply for the scheduler (decision 216).
"""

import json
import logging
import os
import random
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import effects, observability, runtime
from .notify import pacing
from .services.errors import ServiceError

if TYPE_CHECKING:
    from .services.owed import MailHandOver
    from .services.scheduler import TickReport

log = logging.getLogger("mobius.jobs")

QUEUE_NAME = "mobius-advance"
MAIL_QUEUE_NAME = "mobius-mail"
SES_TOPIC_NAME = "mobius-ses-notifications"
# The mail queue's event source runs at most this many mail workers at once (app.py); each
# sends at an equal share of the account's SES rate, so together they keep to it (decision
# 58). One worker sends one mail at a time (~10/s at SES's latency), so an account whose rate
# is above ~10 × MAIL_WORKERS needs more workers (docs/benchmarks.md).
MAIL_WORKERS = 4
# The advance queue's event source runs at most this many advance workers at once: enough
# for a minute's due villages in batches of 10, and a bound on what a flood of messages (a
# bug, a redrive) can cost in Lambda time and table writes at once.
ADVANCE_WORKERS = 10


_sender: pacing.PacedSender | None = None  # one per container: its bucket outlives a call


def mail_sender() -> pacing.PacedSender | None:
    """This container's sender at its share of the account's SES rate; None (SES unpaced, as
    the outbox's default) locally, where moto and the runner have no rate to keep."""
    from .notify import ses

    global _sender
    if runtime.is_local():
        return None
    rate = ses.max_send_rate() / MAIL_WORKERS
    if _sender is None:
        # A bucket of one token: the workers' bursts cannot add up over the account's rate.
        _sender = pacing.PacedSender(
            # ses.send looked up at each send, not bound once into a sender that lives long
            lambda *args, **kwargs: ses.send(*args, **kwargs),
            pacing.TokenBucket(rate),
        )
    _sender.bucket.rate = rate  # the quota is read again every ses.QUOTA_FOR
    return _sender


def tick() -> "TickReport":
    from .services import scheduler
    from .services.unit import Unit

    with effects.sent_after(Unit()) as unit:
        report = scheduler.tick(runtime.now(), random.Random(secrets.randbits(64)), unit)
    log.info(
        "tick: %d due, created %s, %d villages' mail handed over",
        report.due,
        report.created,
        len(report.mail_villages),
    )
    if report.failed_shards or report.long_village_failed:
        log.warning(
            "tick: left to the next tick: shards %s%s",
            report.failed_shards,
            ", the hourly long village" if report.long_village_failed else "",
        )
    observability.tick_completed()
    return report


def puzzle_daily() -> int:
    """The daily job: the day's puzzle and its mail to each account that asked (owed once
    per day and account, so a duplicate run sends nothing twice), then tomorrow's puzzle."""
    from .services import puzzles

    now = runtime.now()
    try:
        owed = puzzles.owe_daily_mail(now)
    except ServiceError:
        log.warning("puzzle: no puzzle today, no mail")
        owed = 0
    log.info("puzzle: %d mails owed", owed)
    puzzles.prepare_tomorrow(now)
    return owed


def advance(message: str, later: "list[MailHandOver] | None" = None) -> None:
    """One advance-queue message: a village's due look, or a game's clock watch; raised on
    failure. The look's mail hand-overs go to ``later`` (``effects.dispatch``'s)."""
    from .services import matches
    from .services.unit import Unit

    if not message.startswith(effects.WATCH_PREFIX):
        effects.advance_village(message, runtime.now(), later)
        return
    match_id, _, moves = message.removeprefix(effects.WATCH_PREFIX).rpartition(":")
    with observability.about(match_id=match_id):
        try:
            with effects.sent_after(Unit(), later) as unit:
                matches.look(match_id, int(moves), runtime.now(), unit)
        except Exception:
            log.exception("match %s failed", match_id)
            raise


def _each_record(event: dict, handle: Callable[[str], None]) -> dict:
    """An SQS batch through Powertools' batch processor: only the messages whose ``handle``
    raised are reported failed (``batchItemFailures``), so SQS delivers those again, not
    the batch (decision 201); every one failed raises, for the whole batch."""
    from aws_lambda_powertools.utilities.batch import (  # only the SQS workers batch
        BatchProcessor,
        EventType,
        process_partial_response,
    )

    response = process_partial_response(
        event=event,
        record_handler=lambda record: handle(record.body),
        processor=BatchProcessor(event_type=EventType.SQS),
    )
    return dict(response)


def advance_batch(event: dict) -> dict:
    """The advance worker (deployed): each message of its batch, then the batch's mail
    handed to the mail workers together (decision 57)."""
    later: list[MailHandOver] = []
    try:
        return _each_record(event, lambda message: advance(message, later))
    finally:
        effects.hand_over_mail(later)


def deliver(
    owner: str, send: pacing.PacedSender | None, seconds_left: Callable[[], float] | None
) -> None:
    """One village's (or an account's, a game's) owed mail; a failure of the outbox raised."""
    from .services import scheduler

    with observability.about(village_id=owner):
        try:
            delivery = scheduler.send_owed_mail(
                owner, runtime.now(), send=send, seconds_left=seconds_left
            )
        except Exception:
            log.exception("mail of village %s failed", owner)
            raise
        if delivery.left:
            log.warning("village %s: %d mails left to a later tick", owner, delivery.left)


def mail_batch(event: dict, seconds_left: Callable[[], float] | None = None) -> dict:
    """The mail worker: each message's owed mail, at this worker's share of the SES rate.

    A send that fails (throttled past the backoff, refused) leaves its mail owed: a later
    tick hands the owner over again once its retry is due; so does mail left for want of
    time (``seconds_left``: the Lambda's). Only a failure of the outbox itself fails its
    message, for SQS to deliver that one again."""
    send = mail_sender()
    return _each_record(event, lambda owner: deliver(owner, send, seconds_left))


def ses_notification(message: str) -> list[str]:
    from .services import bounces

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


# Where the SES receipt rule's S3 action writes each received message (infra/): the prefix, then
# SES's message id.
INBOUND_PREFIX = "replies/"


def _raw_message(message_id: str) -> bytes:
    import boto3  # here, not at the top: only this function reads S3

    bucket = os.environ["MOBIUS_INBOUND_BUCKET"]
    s3 = boto3.client("s3", endpoint_url=os.environ.get("S3_ENDPOINT") or None)
    body: bytes = s3.get_object(Bucket=bucket, Key=INBOUND_PREFIX + message_id)["Body"].read()
    return body


def reply_mail(event: dict, read: Callable[[str], bytes] = _raw_message) -> list[str]:
    """The SES receipt rule's Lambda action, run after its S3 action stored the message: each
    received reply read from S3 and handed to the replies service. SES's own verdicts in the
    event are a first gate (a failed SPF, DKIM or DMARC check, spam or a virus: dropped here
    without reading it); the service checks the message's own again, with alignment."""
    from .services import replies
    from .services.unit import Unit

    outcomes = []
    for record in event.get("Records", []) if isinstance(event, dict) else []:
        ses_event = record.get("ses", {}) if isinstance(record, dict) else {}
        message_id = str(ses_event.get("mail", {}).get("messageId", ""))
        receipt = ses_event.get("receipt", {})
        failed = [
            name
            for name in ("spfVerdict", "dkimVerdict", "spamVerdict", "virusVerdict")
            if receipt.get(name, {}).get("status", "PASS") != "PASS"
        ]
        if receipt.get("dmarcVerdict", {}).get("status") == "FAIL":
            failed.append("dmarcVerdict")
        with observability.about(message_id=message_id):
            if not message_id or failed:
                log.warning("reply mail %s dropped by SES's verdicts: %s", message_id, failed)
                outcomes.append("dropped")
                continue
            with effects.sent_after(Unit()) as unit:
                received = replies.receive(read(message_id), runtime.now(), unit)
            log.info("reply mail %s: %s %s", message_id, received.outcome, received.reason)
            outcomes.append(received.outcome)
    return outcomes


def gm_create_village(event: dict) -> dict:
    from . import gm

    try:
        return gm.create(event if isinstance(event, dict) else {}, "lambda")
    except ServiceError as error:
        return {"error": str(error)}
