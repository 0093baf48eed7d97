"""Sending at SES's rate: the bucket paces by its clock; throttling is retried with backoff."""

import random

import pytest
from botocore.exceptions import ClientError

from chalicelib.notify.pacing import Backoff, PacedSender, TokenBucket, is_throttling
from tests.support.fakes import THROTTLED, FakeTime, ses_error

DAILY_QUOTA = ses_error("Throttling", "Daily message quota exceeded.")
REFUSED = ses_error("MessageRejected", "Email address is not verified.")
START = 100.0  # the pacing clock's reading when a test begins


def test_the_bucket_lets_one_send_go_at_once_then_one_every_1_over_rate_seconds():
    time = FakeTime(START)
    bucket = TokenBucket(rate=4, clock=time.clock, sleep=time.sleep)
    taken_at = []
    for _ in range(9):
        bucket.take()
        taken_at.append(time.now - START)
    assert taken_at == pytest.approx([0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0])


def test_an_idle_bucket_saves_up_no_more_than_its_burst():
    time = FakeTime(START)
    bucket = TokenBucket(rate=2, burst=3, clock=time.clock, sleep=time.sleep)
    for _ in range(3):
        bucket.take()
    assert time.sleeps == []  # the burst
    time.now += 60  # a minute idle saves three tokens, not 120
    for _ in range(3):
        bucket.take()
    assert time.sleeps == []
    bucket.take()
    assert time.sleeps == [pytest.approx(0.5)]


def test_a_rate_change_takes_effect_at_the_next_send():
    time = FakeTime(START)
    bucket = TokenBucket(rate=1, clock=time.clock, sleep=time.sleep)
    bucket.take()
    bucket.rate = 10  # the quota was read again
    bucket.take()
    assert time.sleeps == [pytest.approx(0.1)]


def test_a_bucket_needs_a_positive_rate():
    with pytest.raises(ValueError):
        TokenBucket(rate=0)


def test_only_the_sending_rate_is_throttling_worth_waiting_for():
    assert is_throttling(THROTTLED)
    assert not is_throttling(DAILY_QUOTA)  # waiting seconds does not bring tomorrow
    assert not is_throttling(REFUSED)
    assert not is_throttling(RuntimeError("Throttling"))


def paced(send, tries: int = 5) -> tuple[PacedSender, FakeTime]:
    time = FakeTime(START)
    bucket = TokenBucket(rate=1000, burst=1000, clock=time.clock, sleep=time.sleep)
    backoff = Backoff(base=0.25, cap=4.0, tries=tries, rng=random.Random(7))
    return PacedSender(send, bucket, backoff, sleep=time.sleep), time


def test_a_throttled_send_backs_off_exponentially_with_jitter_then_succeeds():
    calls = []

    def send(to, subject, text, html, headers=None):
        calls.append(to)
        if len(calls) <= 3:
            raise THROTTLED
        return {"MessageId": "m1"}

    sender, time = paced(send)
    assert sender("a@example.jp", "件名", "本文", "<p>本文</p>") == {"MessageId": "m1"}
    assert calls == ["a@example.jp"] * 4
    # Full jitter: each wait uniform in [0, 0.25 · 2^n), drawn from the injected RNG.
    expected = random.Random(7)
    assert time.sleeps == [expected.uniform(0, 0.25 * 2**n) for n in range(3)]
    assert all(0 <= wait < 0.25 * 2**n for n, wait in enumerate(time.sleeps))


def test_the_backoff_wait_never_exceeds_its_cap():
    backoff = Backoff(base=0.25, cap=4.0, rng=random.Random(1))
    assert all(backoff.delay(n) <= 4.0 for n in range(20) for _ in range(20))


def test_throttling_past_the_last_try_is_raised_to_the_caller():
    calls = []

    def send(*args, **kwargs):
        calls.append(1)
        raise THROTTLED

    sender, time = paced(send, tries=4)
    with pytest.raises(ClientError) as raised:
        sender("a@example.jp", "件名", "本文", "<p>本文</p>")
    assert raised.value is THROTTLED
    assert len(calls) == 4
    assert len(time.sleeps) == 3  # no wait after the last try


@pytest.mark.parametrize("error", [DAILY_QUOTA, REFUSED])
def test_other_refusals_are_raised_at_once(error):
    calls = []

    def send(*args, **kwargs):
        calls.append(1)
        raise error

    sender, time = paced(send)
    with pytest.raises(ClientError):
        sender("a@example.jp", "件名", "本文", "<p>本文</p>")
    assert len(calls) == 1
    assert time.sleeps == []


def test_every_try_waits_for_the_bucket():
    time = FakeTime(START)
    calls = []

    def send(*args, **kwargs):
        calls.append(time.now)
        if len(calls) == 1:
            raise THROTTLED

    backoff = Backoff(base=0.25, rng=random.Random(3))
    bucket = TokenBucket(rate=2, clock=time.clock, sleep=time.sleep)
    PacedSender(send, bucket, backoff, sleep=time.sleep)("a@example.jp", "s", "t", "h")
    # The retry came at least 1/rate after the first try, however short the jitter.
    assert calls[1] - calls[0] >= 0.5
