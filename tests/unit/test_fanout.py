"""The tick's fan-out: every id in exactly one message, refused entries sent again, none dropped."""

import random
import threading

import pytest
from botocore.exceptions import ClientError

from chalicelib.fanout import TRIES, NotSent, send_all


class FakeSqs:
    """Records what SQS accepted; refuses what ``refuse(body, attempt)`` says, per entry."""

    def __init__(self, refuse=lambda body, attempt: False, fail_calls: int = 0) -> None:
        self.accepted: list[str] = []
        self.attempts: dict[str, int] = {}
        self.fail_calls = fail_calls
        self.batch_sizes: list[int] = []
        self._refuse = refuse
        self._lock = threading.Lock()

    def send_message_batch(self, QueueUrl, Entries):
        with self._lock:
            self.batch_sizes.append(len(Entries))
            if self.fail_calls:
                self.fail_calls -= 1
                raise ClientError(
                    {"Error": {"Code": "ServiceUnavailable", "Message": "try again"}},
                    "SendMessageBatch",
                )
            failed = []
            for entry in Entries:
                body = entry["MessageBody"]
                attempt = self.attempts[body] = self.attempts.get(body, 0) + 1
                if self._refuse(body, attempt):
                    failed.append({"Id": entry["Id"], "Code": "InternalError"})
                else:
                    self.accepted.append(body)
            return {"Successful": [], "Failed": failed}


def no_sleep(seconds: float) -> None:
    assert seconds >= 0


IDS = [f"{n:06d}" for n in range(1, 1001)]


def test_concurrent_fan_out_sends_every_id_exactly_once_in_batches_of_ten():
    sqs = FakeSqs()
    send_all(sqs, "queue", IDS, threads=8, sleep=no_sleep)
    assert sorted(sqs.accepted) == IDS
    assert len(sqs.batch_sizes) == 100 and set(sqs.batch_sizes) == {10}


def test_a_refused_batch_entry_is_sent_again_alone():
    refused_once = {"000007", "000503", "000999"}
    sqs = FakeSqs(refuse=lambda body, attempt: body in refused_once and attempt == 1)
    send_all(sqs, "queue", IDS, sleep=no_sleep, rng=random.Random(1))
    assert sorted(sqs.accepted) == IDS  # each once: the accepted entries were not resent
    assert {b for b, n in sqs.attempts.items() if n > 1} == refused_once
    assert sqs.batch_sizes.count(1) == 3


def test_a_failed_call_is_sent_again():
    sqs = FakeSqs(fail_calls=2)
    send_all(sqs, "queue", IDS[:25], threads=1, sleep=no_sleep)
    assert sorted(sqs.accepted) == IDS[:25]


def test_an_id_refused_every_time_is_raised_not_dropped():
    sqs = FakeSqs(refuse=lambda body, attempt: body == "000042")
    with pytest.raises(NotSent) as raised:
        send_all(sqs, "queue", IDS[:100], sleep=no_sleep)
    assert raised.value.bodies == ["000042"]
    assert sqs.attempts["000042"] == TRIES
    assert sorted(sqs.accepted) == [i for i in IDS[:100] if i != "000042"]


def test_nothing_to_send_sends_nothing():
    sqs = FakeSqs()
    send_all(sqs, "queue", [], sleep=no_sleep)
    assert sqs.batch_sizes == []
