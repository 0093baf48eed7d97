"""Makes each moto request atomic, as each DynamoDB request is in AWS.

moto checks a condition and then writes in plain Python, so two threads can
both pass one condition. DynamoDB never lets that happen; with one lock around
each request, thread races in tests exercise our conditions, not moto's.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from moto.core.responses import BaseResponse

_lock = threading.RLock()


@contextmanager
def atomic_requests() -> Iterator[None]:
    original = BaseResponse.call_action

    def call_action(self):
        with _lock:
            return original(self)

    BaseResponse.call_action = call_action
    try:
        yield
    finally:
        BaseResponse.call_action = original
