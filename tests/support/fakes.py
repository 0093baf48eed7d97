"""Test doubles shared by the suites."""

from datetime import UTC, datetime, timedelta

from botocore.exceptions import ClientError

START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)  # 12:00 JST: where every suite's clock starts


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now


class FakeTime:
    """A monotonic clock that only a sleep (or the test) moves: a sender's pacing clock."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def ses_error(code: str, message: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, "SendRawEmail")


THROTTLED = ses_error("Throttling", "Maximum sending rate exceeded.")


def between_read_and_write(monkeypatch, meanwhile) -> None:
    """The next save of choices runs ``meanwhile`` after its read and its check, just before
    its write: a concurrent request interleaved at the worst moment, without threads."""
    from chalicelib.storage import villages as store

    real = store.save_choices

    def save_choices(*args, **kwargs):
        monkeypatch.setattr(store, "save_choices", real)
        meanwhile()
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "save_choices", save_choices)
