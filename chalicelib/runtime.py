"""Process-wide seams the entrypoints share: the clock and the stage.

Read lazily so that importing app.py stays cheap and Chalice's test client can
set the stage's environment variables for each call.
"""

import os
import time
from datetime import datetime
from typing import Protocol

from .clock import Clock, system_clock

_clock: Clock = system_clock


def now() -> datetime:
    return _clock()


def set_clock(clock: Clock) -> None:
    """Tests and the local runner replace the clock (the local runner's /dev/clock moves it)."""
    global _clock
    _clock = clock


def is_local() -> bool:
    """The local runner and tests: no Secure cookies (plain http), /dev pages on."""
    return os.environ.get("MOBIUS_STAGE", "local") == "local"


# How long a container trusts the keys it read: a rotation reaches every container within
# this, so both keys are accepted everywhere before any container signs only with the new.
KEYS_FOR = 300.0
_keys: tuple[float, str, list[str]] | None = None  # (read at, parameter, keys)


def _parameter(name: str) -> str:
    import boto3  # only deployed stages read the key from SSM

    ssm = boto3.client("ssm")
    return str(ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]["Value"])


def secrets() -> list[str]:
    """The link- and cookie-signing keys, newest first: MOBIUS_SECRET locally, the SSM
    parameter in AWS. The value holds one key, or during a rotation the new key then the
    old, separated by whitespace: sign with the first, accept any (decision 206)."""
    global _keys
    value = os.environ.get("MOBIUS_SECRET")
    if not value:
        name = os.environ.get("MOBIUS_SECRET_PARAMETER")
        if not name:
            return []
        if _keys is None or _keys[1] != name or time.monotonic() - _keys[0] >= KEYS_FOR:
            _keys = (time.monotonic(), name, _parameter(name).split())
        return list(_keys[2])
    return value.split()


def player_villages() -> tuple[int, int] | None:
    """The operator's choice (``MOBIUS_PLAYER_VILLAGES="30,3"``): verified accounts at least
    that many days old with that many games played to the end may build villages (one open
    village each). Unset or empty: only GMs build villages."""
    value = os.environ.get("MOBIUS_PLAYER_VILLAGES", "").strip()
    if not value:
        return None
    days, games = (int(part) for part in value.split(","))
    return days, games


def base_url() -> str:
    """Where links in mail point."""
    return os.environ.get("MOBIUS_BASE_URL", "http://127.0.0.1:8000").rstrip("/")


class DevTools(Protocol):
    """What the local runner lends the /dev pages: sent mail and a movable clock."""

    def mails(self) -> list[dict]: ...

    def advance_clock(self, minutes: int) -> None: ...

    def advance_to(self, at: datetime) -> None: ...


_dev_tools: DevTools | None = None


def dev_tools() -> DevTools | None:
    """Only the local runner sets these; in AWS the /dev pages do not exist."""
    return _dev_tools if is_local() else None


def set_dev_tools(tools: DevTools | None) -> None:
    global _dev_tools
    _dev_tools = tools
