"""Process-wide seams the entrypoints share: the clock and the stage.

Read lazily so that importing app.py stays cheap and Chalice's test client can
set the stage's environment variables for each call.
"""

import os
from datetime import datetime

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


def base_url() -> str:
    """Where links in mail point."""
    return os.environ.get("MOBIUS_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
