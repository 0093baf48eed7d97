"""What a use case owed once its write was committed, sent by the entrypoint that ran it: the
web's request (``web/pages.py``) and the jobs (``jobs.py``) alike, after the use case returns
(decisions 225, 245). The use cases only record it (``services/owed.py``); the one
dispatcher is here, beside the queues it hands work to, so that web reaches them without
importing jobs. Locally there are no queues: what they would carry is done here instead."""

import logging
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from . import observability, queues, runtime

if TYPE_CHECKING:  # every function imports this module: each path imports its services
    from .services.owed import MailHandOver, Owed
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


def hand_over_mail(handed: "Sequence[MailHandOver]", unit: "Unit | None" = None) -> None:
    """Mail use cases just owed goes to the mail workers (deployed: one SQS message a
    partition, ten a request), or is sent here (locally, where there are none; ``unit``: as
    ``dispatch``'s). A hand-over that fails leaves the mail owed, where the next tick finds
    it."""
    from .services import scheduler

    mail_queue = queues.mail_queue()
    if mail_queue is None:
        for owner in dict.fromkeys(handing.owner for handing in handed):
            try:
                scheduler.send_owed_mail(owner, runtime.now(), unit=unit)
            except Exception:
                log.exception("mail of %s left owed to the next tick", owner)
        return
    try:
        queues.send_to(mail_queue, scheduler.owing_mail(handed))
    except Exception:
        owners = ", ".join(dict.fromkeys(handing.owner for handing in handed))
        log.exception("mail of %s left owed to the next tick", owners)


def advance_village(
    village_id: str, now: datetime, later: "list[MailHandOver] | None" = None
) -> None:
    """A due village's look (the advance worker's; locally, the tick's), then what it owes
    sent (``dispatch``, ``later`` as there); a failure is logged with the village and
    raised."""
    from .services import scheduler
    from .services.unit import Unit

    with observability.about(village_id=village_id):
        unit = Unit()
        try:
            scheduler.process_village(village_id, now, unit)
        except Exception:
            log.exception("village %s failed", village_id)
            raise
        finally:
            # The look leaves its village read as it wrote it: mail sent here (locally)
            # composes from that read, not another.
            dispatch(unit.collect_owed(), later, unit)


def advance_villages(village_ids: list[str]) -> None:
    """Due villages go to the advance workers (deployed: SQS, ten a request), or are advanced
    here (locally, where there are none): one failure does not stop the others, but is
    raised at the end."""
    queue_url = os.environ.get("MOBIUS_QUEUE_URL")
    if queue_url:
        queues.send_to(queue_url, village_ids)
        return
    failed = []
    for village_id in village_ids:
        try:
            advance_village(village_id, runtime.now())
        except Exception:
            failed.append(village_id)
    if failed:
        raise RuntimeError(f"villages failed: {', '.join(failed)}")


def dispatch(
    owed: "Iterable[Owed]",
    later: "list[MailHandOver] | None" = None,
    unit: "Unit | None" = None,
) -> None:
    """Sends each effect as its kind is sent: clock watches one by one, due villages and mail
    hand-overs each kind together (one SQS batch, not one request each). A watch or a due
    village that fails is raised (a worker's message is then delivered again; a page says
    the table was busy, the move written; the tick fails loudly and the next finds the
    villages due again); the mail is handed over all the same, and a hand-over that fails is
    logged, the mail left owed to the tick.

    ``later``: where a worker keeps its batch's hand-overs to send them together once the
    batch is done (deployed: one SQS batch for up to ten villages); ``unit``: one whose reads
    are as its use case left them (a village's look), for the mail sent here locally."""
    from .services.owed import ClockWatch, MailHandOver, VillageDue

    owing = list(owed)
    handed = [effect for effect in owing if isinstance(effect, MailHandOver)]
    try:
        for effect in owing:
            if isinstance(effect, ClockWatch):
                watch_clock(effect.match_id, effect.moves, effect.at)
        due = [effect.village_id for effect in owing if isinstance(effect, VillageDue)]
        if due:
            advance_villages(due)
    finally:
        if later is not None and queues.mail_queue():
            later.extend(handed)
        elif handed:
            hand_over_mail(handed, unit)


@contextmanager
def sent_after(unit: "Unit", later: "list[MailHandOver] | None" = None) -> "Iterator[Unit]":
    """Runs a use case on ``unit``, then sends what its committed writes owe — also when it
    then refused or failed: what was committed is owed all the same. ``later``: as
    ``dispatch``'s."""
    try:
        yield unit
    finally:
        dispatch(unit.collect_owed(), later)
