"""Sending at the account's SES rate: a token bucket per sender and backoff on throttling.

Several senders run at once (the mail workers; locally, the tick), each in its own Lambda
container, so each gets an equal share of the account's maximum send rate (decision 58). SES
answers a burst over the rate with ``Throttling`` ("Maximum sending rate exceeded."): the
sender waits, exponentially longer with full jitter, and gives up after a few tries; the
caller then leaves the mail owed in the outbox for a later retry (nothing lost).

Time is injected (``clock``: monotonic seconds, ``sleep``) and so is the jitter's RNG, so tests
pace and back off without waiting.
"""

import random
import time
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError
from msgspec import Struct, field

Send = Callable[..., Any]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; ``take`` waits for one."""

    def __init__(
        self,
        rate: float,
        burst: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = burst
        self._at = clock()

    def take(self) -> None:
        self._refill()
        if self._tokens < 1:
            self._sleep((1 - self._tokens) / self.rate)
            self._refill()
        # Never below zero: a sleep that came back early only delays the next take.
        self._tokens = max(self._tokens - 1, 0.0)

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now


def is_throttling(error: Exception) -> bool:
    """SES's answer to sending too fast, which waiting cures (a spent daily quota does not)."""
    if not isinstance(error, ClientError):
        return False
    details = error.response.get("Error", {})
    if details.get("Code") != "Throttling":
        return False
    return "daily" not in str(details.get("Message", "")).lower()


class Backoff(Struct):
    """Full jitter (AWS Architecture Blog): a uniform wait in [0, min(cap, base · 2^n))."""

    base: float = 0.25
    cap: float = 4.0
    tries: int = 5  # the first send and four more
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, retry: int) -> float:
        return self.rng.uniform(0, min(self.cap, self.base * 2**retry))


class PacedSender:
    """A sender that takes a token before each send and retries throttled sends.

    Any other error, or throttling after ``backoff.tries`` sends, is raised to the caller.
    """

    def __init__(
        self,
        send: Send,
        bucket: TokenBucket,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._send = send
        self.bucket = bucket
        self.backoff = backoff or Backoff()
        self._sleep = sleep

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        retry = 0
        while True:
            self.bucket.take()
            try:
                return self._send(*args, **kwargs)
            except ClientError as error:
                if not is_throttling(error) or retry + 1 >= self.backoff.tries:
                    raise
            self._sleep(self.backoff.delay(retry))
            retry += 1
