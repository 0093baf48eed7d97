"""10,000 villages due at once (issue 14), on moto: the tick, and what each village costs after.

- **The tick**: one real running 13-member village, whose META item is copied 9,999 times
  under new ids (the due query reads only the index; copying keeps the set-up to seconds
  where creating 10,000 villages would take minutes). Then one ``scheduler.tick`` as the
  deployed app runs it: the due query, then ``effects.dispatch`` fanning the ids out to SQS
  (moto's queue). Its time, the fan-out's part of it, and its requests (DynamoDB and SQS).
  On moto every request is CPU in this process, so the fan-out's threads cannot show here
  what they save against SQS's network latency (docs/benchmarks.md).
- **A village's worker cost**: the real village through a few nights as deployed: the
  advance worker (``jobs.advance_batch``: the night, then the village handed to the mail
  queue) and the mail worker (``jobs.mail_batch``), each handed the village in an SQS batch,
  counting DynamoDB and SQS requests and mails.
- **How long the mail takes**: 10,000 times the mails of a night, drained at the mail
  workers' share of the SES rate (decision 58), for a few rates. This one is arithmetic from
  the measured mails and ``jobs``' constants, not a measurement.
"""

import math
import os
import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import boto3
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from moto.sqs.models import Queue

from chalicelib import effects, jobs, queues, runtime
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, scheduler, villages
from chalicelib.services.unit import Unit
from chalicelib.storage import db
from chalicelib.storage.keys import LOOK_SK, look_key, state_key, village_pk
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb

from .requests import counting, fake_aws, verified_accounts

VILLAGES = 10_000
NIGHTS = 3  # the sample village's nights whose worker cost is averaged
REGION = "ap-northeast-1"
TABLE = "mobius-bench"
TICK_TABLE = "mobius-bench-tick"
# SES rates (mail a second) docs/benchmarks.md's table is worked out for: the default production
# quota, and two raised ones.
RATES = (14, 50, 200)
# One mail worker sends one mail at a time; SendRawEmail answers in some tens of milliseconds,
# so a worker tops out near this many mails a second (an assumption, not measured here).
WORKER_CEILING = 10.0


@contextmanager
def counting_sqs() -> Iterator[Counter]:
    """Counts the SQS calls made through the jobs' client inside the block."""
    calls: Counter = Counter()
    client = queues._sqs(REGION, None)

    def count(event_name: str, **_: object) -> None:
        calls[event_name.rsplit(".", 1)[-1]] += 1

    client.meta.events.register("before-call.sqs", count)
    try:
        yield calls
    finally:
        client.meta.events.unregister("before-call.sqs", count)


@contextmanager
def lean_sqs() -> Iterator[None]:
    """moto's queue works out its approximate message counts, a pass over every message, on
    each send (to read one attribute): 10,000 sends into one queue would time that. Not
    counted inside the block; SQS counts nothing per send."""
    patched = (
        "approximate_number_of_messages",
        "approximate_number_of_messages_delayed",
        "approximate_number_of_messages_not_visible",
    )
    originals = {name: getattr(Queue, name) for name in patched}
    for name in patched:
        setattr(Queue, name, property(lambda self: 0))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(Queue, name, original)


def _sent() -> int:
    return len(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)


def _running_village(clock: list[datetime]) -> tuple[str, list[str]]:
    """A short 13-member village, started, its members verified for mail."""
    players = verified_accounts("scale", 13, clock[0])
    village = villages.create_village(
        villages.AskedVillage(pace="short", name="計測村"), now=clock[0], rng=random.Random(3)
    )
    for n, slot in enumerate(SLOTS):
        villages.join(village, players[n], slot, YAMAZATO[n].key, clock[0])
    record = load_village(village)
    assert record is not None and record.next_update is not None
    clock[0] = record.next_update
    effects.advance_village(village, clock[0])  # the start: its mail to the mail queue
    jobs.mail_batch(_batch(village))  # and sent, before the nights are counted
    assert load_village(village)._meta.state == "running"
    return village, players


def _batch(village: str) -> dict:
    """The village's message as SQS hands a batch of one to a worker."""
    record = {"messageId": "1", "receiptHandle": "1", "body": village, "eventSource": "aws:sqs"}
    return {"Records": [record]}


def _copy_village(meta: dict, look: dict, count: int) -> None:
    """``count`` copies of a village's META and LOOK items under new ids (their index keys
    on the new ids' shards), in a table of their own (moto copies the whole table in every
    transaction: the sample village's nights would pay for 10,000 villages)."""
    source = boto3.client("dynamodb", region_name=REGION)
    db.configure(db.TableConfig(TICK_TABLE, REGION, None))
    db.create_table()
    puts = []
    for n in range(count):
        copy_id = str(800_000 + n)
        same = {"pk": {"S": village_pk(copy_id)}, "village_id": {"S": copy_id}}
        puts.append(
            {
                **meta,
                **same,
                "gsi1pk": {"S": state_key("running", copy_id)},
                # the lounge's sort key is "<time>#<village id>"
                "gsi1sk": {"S": meta["gsi1sk"]["S"].rsplit("#", 1)[0] + f"#{copy_id}"},
            }
        )
        puts.append({**look, **same, "gsi1pk": {"S": look_key(copy_id)}})
    for start in range(0, len(puts), 25):
        batch = [{"PutRequest": {"Item": item}} for item in puts[start : start + 25]]
        source.batch_write_item(RequestItems={TICK_TABLE: batch})


def _save_all(village: str, players: list[str], at: datetime) -> None:
    record = load_village(village)
    for account in players:
        slot = record.slot_of(account)
        if slot and slot not in record.game.deaths:
            actions.save_actions(village, account, {}, at)


def figures() -> dict[str, float]:
    fake_aws()
    try:
        with mock_aws(), like_dynamodb():
            return _figures()
    finally:
        runtime.set_clock(runtime.system_clock)
        for name in ("MOBIUS_QUEUE_URL", "MOBIUS_MAIL_QUEUE_URL"):
            os.environ.pop(name, None)


def _figures() -> dict[str, float]:
    db.configure()
    db.create_table()
    boto3.client("ses", region_name=REGION).verify_email_identity(
        EmailAddress="noreply@mobius.example"
    )
    sqs = boto3.client("sqs", region_name=REGION)
    advance = sqs.create_queue(QueueName=jobs.QUEUE_NAME)["QueueUrl"]
    mail_queue = sqs.create_queue(QueueName=jobs.MAIL_QUEUE_NAME)["QueueUrl"]
    os.environ["MOBIUS_QUEUE_URL"] = advance
    os.environ["MOBIUS_MAIL_QUEUE_URL"] = mail_queue
    clock = [datetime(2026, 12, 1, 1, 0, tzinfo=UTC)]  # 10:00 JST: no new long village
    runtime.set_clock(lambda: clock[0])
    village, players = _running_village(clock)
    first_night = load_village(village).next_update
    meta, look = (
        boto3.client("dynamodb", region_name=REGION).get_item(
            TableName=TABLE, Key={"pk": {"S": village_pk(village)}, "sk": {"S": sk}}
        )["Item"]
        for sk in ("META", LOOK_SK)
    )

    # A village's worker cost, as deployed: the advance worker, then the mail worker.
    cost: dict[str, Counter] = {"advance": Counter(), "mail": Counter()}
    mails = 0
    for _ in range(NIGHTS):
        # Every member acts shortly before the night: none leaves for being idle (RULES §9).
        clock[0] = load_village(village).next_update
        _save_all(village, players, clock[0] - timedelta(minutes=1))
        before = _sent()
        for worker, run in (("advance", jobs.advance_batch), ("mail", jobs.mail_batch)):
            with counting() as dynamodb_calls, counting_sqs() as sqs_calls:
                run(_batch(village))
            cost[worker]["dynamodb"] += sum(dynamodb_calls.values())
            cost[worker]["sqs"] += sum(sqs_calls.values())
        mails += _sent() - before

    # The tick: 10,000 copies of the village as it was before its first night, all due.
    _copy_village(meta, look, VILLAGES)
    clock[0] = first_night
    with counting() as dynamodb_calls, counting_sqs() as sqs_calls, lean_sqs():
        started = time.perf_counter()
        unit = Unit()
        report = scheduler.tick(clock[0], random.Random(1), unit)
        fanned_out = time.perf_counter()
        effects.dispatch(unit.collect_owed())
        tick_seconds = time.perf_counter() - started
    fanout_seconds = tick_seconds - (fanned_out - started)
    assert report.due == VILLAGES, report.due
    queued = sqs.get_queue_attributes(
        QueueUrl=advance, AttributeNames=["ApproximateNumberOfMessages"]
    )["Attributes"]["ApproximateNumberOfMessages"]
    assert int(queued) == VILLAGES, queued  # each id once
    mails_per_night = mails / NIGHTS
    figures: dict[str, float] = {
        "due_villages": VILLAGES,
        "tick_seconds": round(tick_seconds, 1),
        "tick_fanout_seconds": round(fanout_seconds, 1),
        "tick_dynamodb_requests": sum(dynamodb_calls.values()),
        "tick_sqs_requests": sum(sqs_calls.values()),
        **{
            f"{worker}_worker_{service}_requests_per_village": round(calls / NIGHTS, 1)
            for worker, counted in cost.items()
            for service, calls in counted.items()
        },
        "mails_per_village_night": round(mails_per_night, 1),
    }
    mails_in_all = VILLAGES * mails_per_night
    for rate in RATES:
        figures[f"mail_minutes_at_{rate}_per_s"] = round(mails_in_all / mail_throughput(rate) / 60)
    enough = workers_for(max(RATES))
    figures[f"mail_minutes_at_{max(RATES)}_per_s_{enough}_workers"] = round(
        mails_in_all / mail_throughput(max(RATES), enough) / 60
    )
    return figures


def mail_throughput(rate: float, workers: int = jobs.MAIL_WORKERS) -> float:
    """Mails a second the mail workers send at an account rate of ``rate``: their share of
    it, unless one mail at a time each is the smaller."""
    return min(rate, workers * WORKER_CEILING)


def workers_for(rate: float) -> int:
    """The fewest mail workers that keep up with their share of ``rate``."""
    return math.ceil(rate / WORKER_CEILING)


if __name__ == "__main__":
    print(figures())
