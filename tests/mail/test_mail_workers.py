"""Mail at the SES rate (issue 14): the update does not wait for mail, the mail workers pace
their sends and back off when throttled, and mail they give up on is sent later, once."""

import random
from datetime import timedelta

import boto3
import pytest
from botocore.exceptions import ClientError

from chalicelib import effects, fanout, jobs
from chalicelib import queues as sqs
from chalicelib.notify import pacing
from chalicelib.notify import ses as mail
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import outbox, scheduler, update
from chalicelib.services.owed import MailHandOver
from chalicelib.storage.repository import load_village
from tests.support.fakes import THROTTLED, FakeTime
from tests.support.mailbox import MailBox, account_of, seat, touch_all
from tests.support.queues import sqs_event

SHORT = TIMINGS[Pace.SHORT]


def paced(send, time: FakeTime, rate: float = 5.0) -> pacing.PacedSender:
    bucket = pacing.TokenBucket(rate, clock=time.clock, sleep=time.sleep)
    backoff = pacing.Backoff(tries=3, rng=random.Random(4))
    return pacing.PacedSender(send, bucket, backoff, sleep=time.sleep)


def started(village: str, players: list[str], clock) -> None:
    """The village seated and started: its start mail (13) owed, none sent."""
    seat(village, players, clock)
    clock.advance(SHORT.first_update)
    update.advance(village, clock())


def receive_all(queue_url: str) -> list[str]:
    sqs = boto3.client("sqs", region_name="ap-northeast-1")
    bodies = []
    while True:
        answer = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)
        if not answer.get("Messages"):
            return bodies
        bodies += [m["Body"] for m in answer["Messages"]]


@pytest.fixture
def queues(monkeypatch) -> tuple[str, str]:
    """The deployed app's two queues (on moto): the advance queue and the mail queue."""
    sqs = boto3.client("sqs", region_name="ap-northeast-1")
    advance = sqs.create_queue(QueueName=jobs.QUEUE_NAME)["QueueUrl"]
    mail_queue = sqs.create_queue(QueueName=jobs.MAIL_QUEUE_NAME)["QueueUrl"]
    monkeypatch.setenv("MOBIUS_QUEUE_URL", advance)
    monkeypatch.setenv("MOBIUS_MAIL_QUEUE_URL", mail_queue)
    return advance, mail_queue


def test_deployed_the_worker_advances_the_village_and_the_mail_worker_sends_its_mail(
    players, clock, village, queues
):
    advance, mail_queue = queues
    seat(village, players, clock)
    box = MailBox()
    clock.advance(SHORT.first_update)
    assert jobs.tick().due == 1
    assert receive_all(advance) == [village]  # the tick only fans out
    jobs.advance_batch(sqs_event(village))
    assert load_village(village).game.day == 1  # advanced, its mail not yet sent
    assert box.new() == []
    assert receive_all(mail_queue) == [village]
    jobs.mail_batch(sqs_event(village))
    assert sorted(account_of(m) for m in box.new()) == sorted(players)
    jobs.mail_batch(sqs_event(village))  # SQS delivered the message twice: nothing more is sent
    assert box.new() == []
    assert jobs.tick().mail_villages == []  # and no tick finds mail owed
    # A later look at the village that owes nothing sends the mail workers nothing.
    clock.advance(timedelta(minutes=5))
    touch_all(village, dict(enumerate(players)), clock)
    jobs.advance_batch(sqs_event(village))
    assert receive_all(mail_queue) == []


def test_a_batch_hands_its_mail_over_together_one_message_a_partition(queues, monkeypatch):
    _, mail_queue = queues
    sent = []
    monkeypatch.setattr(sqs, "send_to", lambda url, bodies: sent.append((url, bodies)))
    later: list[MailHandOver] = []
    effects.dispatch([MailHandOver("v1")], later)
    effects.dispatch([MailHandOver("v2"), MailHandOver("v1")], later)
    assert sent == []  # kept for the end of the batch
    effects.hand_over_mail(later)
    assert sent == [(mail_queue, ["v1", "v2"])]


def test_a_hand_over_that_fails_leaves_the_mail_owed_to_the_next_tick(
    players, clock, village, queues, monkeypatch
):
    _, mail_queue = queues
    seat(village, players, clock)
    clock.advance(SHORT.first_update)
    send_to = sqs.send_to

    def mail_queue_down(url, bodies):
        if url == mail_queue:
            raise fanout.NotSent(bodies)
        send_to(url, bodies)

    monkeypatch.setattr(sqs, "send_to", mail_queue_down)
    jobs.advance_batch(sqs_event(village))  # the village's look stands: nothing to deliver again
    assert load_village(village).game.day == 1
    assert receive_all(mail_queue) == []
    monkeypatch.setattr(sqs, "send_to", send_to)
    assert jobs.tick().mail_villages == [village]
    assert receive_all(mail_queue) == [village]


def test_a_throttled_mail_is_sent_after_the_backoff(players, clock, village):
    started(village, players, clock)  # the start owes 13 mails
    box = MailBox()
    calls = []

    def throttled_twice(*args, **kwargs):
        calls.append(args[0])
        if len(calls) in (3, 4):  # the third mail is throttled twice
            raise THROTTLED
        return mail.send(*args, **kwargs)

    time = FakeTime()
    delivery = scheduler.send_owed_mail(village, clock(), send=paced(throttled_twice, time))
    assert (delivery.sent, delivery.failed) == (13, 0)
    assert sorted(account_of(m) for m in box.new()) == sorted(players)
    assert calls[2] == calls[3] == calls[4]  # one mail, tried three times
    assert len(calls) == 15
    assert time.now >= 12 / 5  # 13 sends at 5 a second, on the sender's clock


def test_a_mail_given_up_on_stays_owed_and_is_sent_later_exactly_once(
    players, clock, village, queues
):
    _, mail_queue = queues
    started(village, players, clock)  # the start owes 13 mails
    box = MailBox()
    given_up = set()

    def throttle_three(to, *args, **kwargs):
        if len(given_up) < 3 or to in given_up:
            given_up.add(to)
            raise THROTTLED
        return mail.send(to, *args, **kwargs)

    delivery = scheduler.send_owed_mail(village, clock(), send=paced(throttle_three, FakeTime()))
    assert (delivery.sent, delivery.failed) == (10, 3)
    assert len(box.new()) == 10
    assert len(outbox.pending(clock() + outbox.retry_delay(1)).found) == 3  # owed, not lost
    jobs.mail_batch(sqs_event(village))  # a duplicate message: the three wait their retry
    assert box.new() == []
    assert jobs.tick().mail_villages == []  # not due yet
    clock.advance(outbox.retry_delay(1))
    assert jobs.tick().mail_villages == [village]  # due: handed to the mail workers
    assert receive_all(mail_queue) == [village]
    jobs.mail_batch(sqs_event(village))
    assert sorted(m.to for m in box.new()) == sorted(given_up)
    for _ in range(3):
        clock.advance(outbox.retry_delay(2))
        assert jobs.tick().mail_villages == []
        jobs.mail_batch(sqs_event(village))
    assert box.new() == []


def test_a_mail_whose_sender_died_is_sent_by_a_mail_worker_once_its_claim_expires(
    players, clock, village, queues
):
    started(village, players, clock)  # the start owes 13 mails
    box = MailBox()

    class TimedOut(BaseException):
        """The Lambda ends mid-send: nothing after the send runs, the claim stays."""

    def dies(*args, **kwargs):
        raise TimedOut

    with pytest.raises(TimedOut):
        scheduler.send_owed_mail(village, clock(), send=dies)
    jobs.mail_batch(sqs_event(village))  # the other twelve; the claimed one waits
    assert len(box.new()) == 12
    clock.advance(outbox.CLAIM_FOR + timedelta(seconds=1))
    assert jobs.tick().mail_villages == [village]
    jobs.mail_batch(sqs_event(village))
    assert len(box.new()) == 1
    assert outbox.unsent_mail(village) == []


def test_a_mail_worker_short_of_time_leaves_the_rest_owed_for_the_next_tick(
    players, clock, village, queues
):
    """A worker claims no mail it may not finish before its Lambda ends: killed between SES
    accepting a mail and marking it sent, it would send that mail again."""
    _, mail_queue = queues
    started(village, players, clock)  # the start owes 13 mails
    box = MailBox()
    sends = []

    def send(*args, **kwargs):
        sends.append(args[0])
        return mail.send(*args, **kwargs)

    def seconds_left() -> float:  # each send takes 10 s of a 60 s Lambda
        return 60.0 - 10.0 * len(sends)

    delivery = scheduler.send_owed_mail(village, clock(), send=send, seconds_left=seconds_left)
    assert (delivery.sent, delivery.left) == (5, 8)  # 5 sent, the 6th would end under 15 s
    first = [account_of(m) for m in box.new()]
    assert len(first) == 5
    assert all(item.status == "pending" for item in outbox.unsent_mail(village))  # unclaimed
    assert jobs.tick().mail_villages == [village]  # the next tick hands the rest over
    assert receive_all(mail_queue) == [village]
    jobs.mail_batch(sqs_event(village))
    assert sorted(first + [account_of(m) for m in box.new()]) == sorted(players)  # each once


def test_the_mail_worker_lambda_keeps_to_its_own_time(players, clock, village):
    """The handler hands its Lambda's remaining time down: with 10 s left it sends nothing."""
    import app

    started(village, players, clock)  # the start owes 13 mails
    box = MailBox()

    class Context:
        def __init__(self, millis: int) -> None:
            self.millis = millis

        def get_remaining_time_in_millis(self) -> int:
            return self.millis

    record = {"body": village, "eventSource": "aws:sqs", "messageId": "1", "receiptHandle": "r"}
    event = {"Records": [record]}
    app.mail_worker(event, Context(10_000))
    assert box.new() == []
    app.mail_worker(event, Context(60_000))
    assert sorted(account_of(m) for m in box.new()) == sorted(players)


def test_deployed_the_mail_workers_share_the_account_rate_read_once_per_period(monkeypatch):
    reads = []

    class Quota:
        def get_send_quota(self):
            reads.append(1)
            return {"MaxSendRate": 14.0, "Max24HourSend": 50000.0, "SentLast24Hours": 0.0}

    monkeypatch.setenv("MOBIUS_STAGE", "prod")
    monkeypatch.setattr(mail, "ses", lambda: Quota())
    monkeypatch.setattr(mail, "_quota", None)
    monkeypatch.setattr(jobs, "_sender", None)
    worker = jobs.mail_sender()
    assert worker is not None
    # Every worker at once stays within the account's rate.
    assert jobs.MAIL_WORKERS * worker.bucket.rate == pytest.approx(14.0)
    assert jobs.mail_sender() is worker  # one bucket per container
    assert len(reads) == 1
    monkeypatch.setattr(mail, "_quota", None)
    reads.clear()
    for at in (0.0, mail.QUOTA_FOR - 1, mail.QUOTA_FOR + 1):
        assert mail.max_send_rate(lambda at=at: at) == 14.0
    assert len(reads) == 2  # at 0 and once the quota read is QUOTA_FOR old


def test_an_unreadable_quota_falls_back_to_the_smallest_rate(monkeypatch):
    class Denied:
        def get_send_quota(self):
            raise ClientError({"Error": {"Code": "AccessDenied", "Message": "no"}}, "GetSendQuota")

    monkeypatch.setattr(mail, "ses", lambda: Denied())
    monkeypatch.setattr(mail, "_quota", None)
    assert mail.max_send_rate() == mail.SANDBOX_RATE


def test_locally_mail_is_not_paced(monkeypatch):
    monkeypatch.delenv("MOBIUS_STAGE", raising=False)
    assert jobs.mail_sender() is None
