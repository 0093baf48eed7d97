"""Test doubles shared by the suites."""

from datetime import datetime, timedelta


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now
