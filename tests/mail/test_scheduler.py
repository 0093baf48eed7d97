"""The minute scheduler: due villages through the index, fan-out (inline or SQS), idempotent
ticks, the clock rules of RULES §2 and the automatic long villages."""

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError
from chalice.test import Client
from pynamodb.connection.base import Connection

from app import app
from chalicelib import jobs
from chalicelib.clock import JST
from chalicelib.rulesets.base import VISITOR
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import posts, scheduler, villages
from chalicelib.storage.keys import state_keys
from chalicelib.storage.models import OutboxItem, VillageItem
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.mail import REGION
from tests.support.mailbox import MailBox, account_of, seat, tick, tick_until
from tests.support.queues import failed_bodies, sqs_event

SHORT = TIMINGS[Pace.SHORT]
LONG = TIMINGS[Pace.LONG]


def public_texts(village_id: str, day: int, now) -> list[str]:
    record = load_village(village_id)
    return [p.text for p in posts.read(record, VISITOR, "public", day, now).posts]


def long_villages(state: str = "opening") -> list[VillageItem]:
    villages_in = (v for key in state_keys(state) for v in VillageItem.by_state.query(key))
    return [v for v in villages_in if v.pace == "long"]


# ----- finding what is due -----


def test_due_villages_come_from_the_index_by_time_without_a_scan(clock, rng, monkeypatch):
    soon = villages.create_village(
        villages.AskedVillage(pace="short", name="早い村"), now=clock(), rng=rng
    )
    later = villages.create_village(
        villages.AskedVillage(
            pace="short", name="遅い村", first_update=clock() + timedelta(hours=8)
        ),
        now=clock(),
        rng=rng,
    )

    def no_scan(*args, **kwargs):
        raise AssertionError("the scheduler scanned the table")

    monkeypatch.setattr(Connection, "scan", no_scan)
    assert (
        scheduler.due_village_ids(clock() + SHORT.first_update - timedelta(seconds=1)).found == []
    )
    assert scheduler.due_village_ids(clock() + SHORT.first_update).found == [soon]
    assert sorted(scheduler.due_village_ids(clock() + timedelta(hours=8)).found) == sorted(
        [soon, later]
    )
    # A tick processes only what is due: the early village is extended, the later one untouched.
    clock.advance(SHORT.first_update)
    report = tick(clock, rng)
    assert report.due == 1
    assert load_village(soon)._meta.next_update == clock() + timedelta(hours=24)
    assert load_village(later)._meta.version == 1
    assert "人数が足りないため、開始を24時間延長します。" in public_texts(soon, 0, clock())


def test_the_tick_fans_out_through_sqs_and_the_worker_advances(
    players, clock, rng, monkeypatch, tmp_path
):
    sqs = boto3.client("sqs", region_name=REGION)
    queue = sqs.create_queue(QueueName=jobs.QUEUE_NAME)["QueueUrl"]
    monkeypatch.setenv("MOBIUS_QUEUE_URL", queue)
    full = villages.create_village(
        villages.AskedVillage(pace="short", name="満員村"), now=clock(), rng=rng
    )
    seat(full, players, clock)
    empty = [
        villages.create_village(
            villages.AskedVillage(pace="short", name=f"空き村{n}"), now=clock(), rng=rng
        )
        for n in range(10)
    ]
    box = MailBox()
    clock.advance(SHORT.first_update)
    assert tick(clock, rng).due == 11
    # The tick only hands the ids over: nothing advanced, nothing mailed yet.
    assert load_village(full)._meta.state == "opening"
    assert load_village(full).game.day == 0
    assert box.new() == []
    bodies = []
    while True:
        got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages", [])
        if not got:
            break
        bodies += [m["Body"] for m in got]
        for m in got:
            sqs.delete_message(QueueUrl=queue, ReceiptHandle=m["ReceiptHandle"])
    assert sorted(bodies) == sorted([full, *empty])  # 11 ids in batches of at most 10

    # The SQS worker (the deployed lambda) processes the batch.
    client = Client(app, project_dir=str(tmp_path))
    event = client.events.generate_sqs_event(message_bodies=bodies, queue_name=jobs.QUEUE_NAME)
    client.lambda_.invoke("advance_worker", event)
    assert load_village(full)._meta.state == "running"
    assert all(load_village(v)._meta.next_update == clock() + timedelta(hours=24) for v in empty)
    assert sorted(account_of(m) for m in box.new()) == sorted(players)
    # SQS delivers a message again: the redelivery does nothing more.
    client.lambda_.invoke("advance_worker", event)
    assert load_village(full).game.day == 1
    assert box.new() == []


def test_the_scheduled_lambda_ticks(players, clock, village, tmp_path):
    seat(village, players, clock)
    clock.advance(SHORT.first_update)
    client = Client(app, project_dir=str(tmp_path))
    client.lambda_.invoke("tick", client.events.generate_cw_event("aws.events", "tick", {}, []))
    assert load_village(village)._meta.state == "running"
    assert len(MailBox().new()) == 13


def failing_village(clock, rng, monkeypatch) -> str:
    """A new village whose processing always raises (the others are processed as ever)."""
    broken = villages.create_village(
        villages.AskedVillage(pace="short", name="壊れた村"), now=clock(), rng=rng
    )
    original = scheduler.process_village

    def process(village_id, now, unit):
        if village_id == broken:
            raise RuntimeError("boom")
        return original(village_id, now, unit)

    monkeypatch.setattr(scheduler, "process_village", process)
    return broken


def test_the_deployed_worker_reports_only_the_failing_message_for_redelivery(
    players, clock, rng, village, monkeypatch
):
    """Decision 201: one failing village does not stop the others; SQS delivers again only
    what failed (ReportBatchItemFailures), not the whole batch of 10; the batch's other
    villages are done once."""
    seat(village, players, clock)
    broken = failing_village(clock, rng, monkeypatch)
    event = sqs_event(broken, village)
    assert failed_bodies(event, jobs.advance_batch(event)) == [broken]  # the other not yet due
    clock.advance(SHORT.first_update)
    client = Client(app)
    assert client.lambda_.invoke("advance_worker", event).payload == {
        "batchItemFailures": [{"itemIdentifier": "m0"}]
    }
    assert load_village(village)._meta.state == "running"
    # Every message failing: the batch itself fails, for SQS to deliver it all again.
    with pytest.raises(BatchProcessingError):
        client.lambda_.invoke("advance_worker", sqs_event(broken))


# ----- ticks that repeat or overlap -----


def test_a_duplicated_tick_advances_once_and_mails_once(players, clock, rng, village):
    seat(village, players, clock)
    box = MailBox()
    clock.advance(SHORT.first_update)
    first = tick(clock, rng)
    again = tick(clock, rng)
    assert (first.due, again.due) == (1, 0)  # the village left the index until its next look
    assert load_village(village).game.day == 1
    assert sorted(account_of(m) for m in box.new()) == sorted(players)
    # Even a worker that is handed the village again does nothing.
    version = load_village(village)._meta.version
    jobs.advance_batch(sqs_event(village, village))
    assert load_village(village)._meta.version == version
    assert box.new() == []
    items = list(OutboxItem.query(f"O#{village}"))
    assert len(items) == 13
    assert {i.status for i in items} == {"sent"}


def test_overlapping_ticks_do_the_work_once(players, clock, rng, village):
    seat(village, players, clock)
    box = MailBox()
    clock.advance(SHORT.first_update)
    barrier = threading.Barrier(3)

    def run(n):
        barrier.wait()
        return tick(clock, random.Random(n))

    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(run, range(3)))
    record = load_village(village)
    assert record.game.day == 1
    assert len([p for p in public_texts(village, 1, clock()) if "1日目が始まりました" in p]) == 1
    assert sorted(account_of(m) for m in box.new()) == sorted(players)


# ----- the clock rules of RULES §2 -----


def test_the_opening_is_extended_then_the_village_abandoned_with_a_mail(players, clock, rng):
    created = clock()
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="過疎村"), now=created, rng=rng
    )
    seated = seat(vid, players[:11], clock)
    box = MailBox()
    tick_until(clock, rng, created + SHORT.first_update, step=timedelta(hours=1))
    meta = load_village(vid)._meta
    assert meta.state == "opening"
    assert meta.next_update == created + SHORT.first_update + timedelta(hours=24)
    assert box.new() == []  # an extension is not mailed
    # Members who look in now and then stay through the extension (RULES §9: 24 h).
    clock.advance(timedelta(hours=12))
    for account in seated.values():
        villages.touch(vid, account, clock())
    tick_until(clock, rng, created + SHORT.abandon_age, step=timedelta(hours=1))
    meta = load_village(vid)._meta
    assert meta.state == "abandoned"
    assert meta.closed_at == created + SHORT.abandon_age
    mails = box.new()
    assert sorted(account_of(m) for m in mails) == sorted(seated.values())
    assert all(m.subject.endswith("廃村になりました") for m in mails)
    assert all("人数が集まらなかったため" in m.text for m in mails)
    assert "人数が集まらなかったため、廃村になりました。" in public_texts(vid, 0, clock())
    # Abandoned: never due again.
    tick_until(clock, rng, clock() + timedelta(hours=3), step=timedelta(hours=1))
    assert load_village(vid)._meta.version == meta.version
    assert box.new() == []


def test_a_short_village_turns_every_60_minutes_with_deadline_and_loss_time(
    players, clock, rng, village
):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    tick_until(clock, rng, start, step=timedelta(hours=1))
    for day in (1, 2, 3):
        record = load_village(village)
        if record._meta.state != "running":
            break
        day_start = start + SHORT.turn * (day - 1)
        assert record.game.day == day
        assert record._meta.day_started_at == day_start
        assert record._meta.next_update == day_start + SHORT.turn
        assert record.rules.phase(record, day_start + timedelta(minutes=44)) == "day"
        assert record.rules.phase(record, day_start + timedelta(minutes=45)) == "loss_time"
        assert record.rules.phase(record, day_start + timedelta(minutes=55)) == "night"
        clock.now = day_start + timedelta(minutes=1)
        for account in seated.values():
            villages.touch(village, account, clock())
        # Nothing turns before the hour, however often the scheduler looks.
        tick_until(clock, rng, day_start + SHORT.turn - timedelta(minutes=1), timedelta(minutes=15))
        assert load_village(village).game.day == day
        clock.now = day_start + SHORT.turn
        tick(clock, rng)
        assert load_village(village).game.day == day + 1


def test_a_long_village_updates_at_its_fixed_japan_time(players, clock, rng):
    first = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # 21:00 JST
    vid = villages.create_village(
        villages.AskedVillage(pace="long", name="長期村", first_update=first), now=clock(), rng=rng
    )
    seated = seat(vid, players, clock)
    for day in (1, 2):
        # Members look in twice a day; the scheduler looks every 3 hours (and at the update).
        target = first + LONG.turn * (day - 1)
        while clock() < target:
            tick_until(clock, rng, min(target, clock() + timedelta(hours=12)), timedelta(hours=3))
            for account in seated.values():
                villages.touch(vid, account, clock())
        meta = load_village(vid)._meta
        assert meta.state == "running"
        assert meta.day_started_at == target
        assert meta.day_started_at.astimezone(JST).hour == 21
        assert meta.next_update == target + timedelta(hours=24)
        record = load_village(vid)
        deadline = target + timedelta(hours=18)  # 15:00 JST the next day
        assert record.rules.phase(record, deadline - timedelta(seconds=1)) == "day"
        assert record.rules.phase(record, deadline) == "loss_time"
        assert record.rules.phase(record, deadline + timedelta(minutes=30)) == "night"
        assert record.game.day == day
        clock.now = target + timedelta(minutes=1)


# ----- automatic long villages -----


def test_long_villages_are_created_at_the_four_japan_hours_only_when_none_is_free(clock, rng):
    created = []
    # 12:00 JST to 12:00 JST the next day, every 20 minutes.
    for _ in range(24 * 3):
        report = tick(clock, rng)
        created += [(clock().astimezone(JST).hour, vid) for vid in report.created]
        clock.advance(timedelta(minutes=20))
    # No long village at all at 15:00: one is made; it has free slots at 21:00, 03:00, 09:00.
    assert [h for h, _ in created] == [15]
    [(_, first)] = created
    meta = load_village(first)._meta
    assert (meta.pace, meta.state) == ("long", "opening")
    assert meta.created_at.astimezone(JST).hour == 15
    assert meta.next_update == meta.created_at + LONG.first_update

    # Fill it: at the next of the four hours, and only then, another one is made, once.
    accounts = [make_account(f"long{n:02d}", clock()) for n in range(13)]
    seat(first, accounts, clock)
    clock.now = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)  # 13:00 JST
    for _ in range(4):
        assert tick(clock, rng).created == []
        clock.advance(timedelta(minutes=30))
    clock.now = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)  # 15:00 JST
    second = tick(clock, rng).created
    assert len(second) == 1
    assert tick(clock, rng).created == []  # a duplicate tick of the same hour
    clock.advance(timedelta(minutes=59))
    assert tick(clock, rng).created == []
    assert sorted(v.village_id for v in long_villages()) == sorted([first, *second])


def test_racing_ticks_create_one_long_village_per_hour(clock):
    clock.now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)  # 03:00 JST
    barrier = threading.Barrier(4)

    def run(n):
        barrier.wait()
        return scheduler.ensure_long_village(clock(), random.Random(n))

    with ThreadPoolExecutor(max_workers=4) as pool:
        made = [v for v in pool.map(run, range(4)) if v]
    assert len(made) == 1
    assert [v.village_id for v in long_villages()] == made


def test_a_failed_creation_lets_the_next_tick_of_the_hour_try_again(clock, monkeypatch):
    clock.now = datetime(2026, 12, 2, 0, 0, tzinfo=UTC)  # 09:00 JST

    def fail(*args, **kwargs):
        raise RuntimeError("DynamoDB is down")

    monkeypatch.setattr(villages, "create_village", fail)
    with pytest.raises(RuntimeError):
        scheduler.ensure_long_village(clock(), random.Random(1))
    monkeypatch.undo()
    clock.advance(timedelta(minutes=1))
    assert scheduler.ensure_long_village(clock(), random.Random(1)) is not None
    assert len(long_villages()) == 1


def test_the_tick_entrypoint_reads_the_app_clock(clock):
    clock.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # 21:00 JST
    report = jobs.tick()
    assert len(report.created) == 1
    assert long_villages()[0].name == "12月1日21時の長期村"
