"""What a use case owed once its write was committed, sent by the entrypoint that ran it: the
web's request (``web/pages.py``) and the jobs (``jobs.py``) alike, after the use case returns
(decision 225). The use cases only record it (``services/owed.py``); the one dispatcher is
here, beside the queues it hands work to, so that web reaches them without importing jobs."""

import logging
import math
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from . import queues, runtime

if TYPE_CHECKING:  # every function imports this module: each path imports its services
    from .services.owed import Owed
    from .services.unit import Unit

log = logging.getLogger("mobius.jobs")

# A message on the advance queue that is not a village id: a game to look at when its side to
# move would lose on time, "M:<match id>:<move count>" (decision 49).
WATCH_PREFIX = "M:"
MAX_DELAY = 900  # seconds: the longest an SQS message can wait


def watch_clock(match_id: str, moves: int, flag_at: datetime) -> None:
    """A delayed message that brings a worker to the game a second after its flag falls,
    whether or not anyone is on its page. Without a queue (the local runner, tests) nothing
    is sent: every read of the game ends it on time all the same."""
    queue_url = os.environ.get("MOBIUS_QUEUE_URL")
    if not queue_url:
        return
    wait = math.ceil((flag_at - runtime.now()).total_seconds()) + 1
    queues.send_later(queue_url, f"{WATCH_PREFIX}{match_id}:{moves}", min(MAX_DELAY, max(0, wait)))


def hand_over_mail(owner: str) -> None:
    """Mail a game's write just owed goes to the mail workers (deployed: one SQS message), or
    is sent here (locally, where there are none). A hand-over that fails leaves the mail
    owed, where the next tick finds it."""
    from .services import scheduler  # only without a queue: locally

    try:
        mail_queue = queues.mail_queue()
        if mail_queue:
            queues.send_to(mail_queue, [owner])
        else:
            scheduler.send_owed_mail(owner, runtime.now())
    except Exception:
        log.exception("mail of %s left owed to the next tick", owner)


def dispatch(owed: "Iterable[Owed]") -> None:
    """Sends each effect as its kind is sent. A clock watch that fails is raised (a worker's
    message is then delivered again; a page says the table was busy, the move written); a
    mail hand-over that fails is logged, the mail left owed to the tick."""
    from .services.owed import ClockWatch

    for effect in owed:
        if isinstance(effect, ClockWatch):
            watch_clock(effect.match_id, effect.moves, effect.at)
        else:
            hand_over_mail(effect.owner)


@contextmanager
def sent_after(unit: "Unit") -> "Iterator[Unit]":
    """Runs a use case on ``unit``, then sends what its committed writes owe — also when it
    then refused or failed: what was committed is owed all the same."""
    try:
        yield unit
    finally:
        dispatch(unit.collect_owed())
