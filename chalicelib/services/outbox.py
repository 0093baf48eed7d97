"""The outbox: every mail owed, keyed by (village, day, kind, account), sent once.

Owed mails are written in the same transaction as the step that owes them, so
nothing is lost. Delivery claims each item before sending, marks it sent after,
and leaves it in the index on failure, so the next tick retries it (deployed: hands
its village to the mail workers); a repeated tick finds nothing new. The sender is
handed in (SES by default; the mail workers' is paced at the SES rate).
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ..notify import notices, ses
from ..storage import outbox as store
from ..storage.models import AccountItem, OutboxItem
from ..storage.repository import VillageRecord, plain
from ..storage.villages import owed_items
from .unit import Unit

CLAIM_FOR = timedelta(minutes=5)  # a claimed mail whose sender died is retried after this
# A mail worker claims no more mail once its Lambda has less time left than this: one paced
# send can wait for the rate (4 s at SES's smallest) and back off on throttling (~4 s), and
# a worker killed between SES accepting a mail and marking it sent would send it again.
SEND_MARGIN_SECONDS = 15.0
MAX_ATTEMPTS = 20

Sender = Callable[..., Any]


def owed_to_members(record: VillageRecord, day: int, kind: str, now: datetime) -> list[OutboxItem]:
    """The mail of ``kind`` owed to every member (written inside a step's transaction)."""
    return owed_items(record, day, kind, now)


@dataclass
class Delivery:
    sent: int = 0
    failed: int = 0
    skipped: int = 0
    left: int = 0  # not tried for want of time: still owed, due at the next tick


def pending(now: datetime, limit: int = 500) -> list[OutboxItem]:
    """Owed mails whose (next) attempt is due; the index sorts them by that time."""
    return store.due_mail(now, limit)


def retry_delay(attempts: int) -> timedelta:
    """1, 2, 4 … minutes after each failure, at most an hour: MAX_ATTEMPTS spans ~15 hours."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), timedelta(hours=1))


def deliver(
    now: datetime,
    items: list[OutboxItem] | None = None,
    unit: Unit | None = None,
    send: Sender | None = None,
    seconds_left: Callable[[], float] | None = None,
) -> Delivery:
    """Sends owed mails (by default every one due); failures wait and are tried again.

    ``unit``: the job's unit of work (its villages are not loaded again); ``send``: the
    sender (SES by default); ``seconds_left``: the time the caller has (a Lambda's), below
    ``SEND_MARGIN_SECONDS`` of which the rest is left owed, unclaimed.
    """
    unit = unit or Unit()
    send = send or ses.send
    result = Delivery()
    due = [item for item in (pending(now) if items is None else items) if _due(item, now)]
    # Who each mail goes to, as they are now: one batch read for all of them.
    accounts = store.recipients(item.account_id for item in due)
    for n, item in enumerate(due):
        if seconds_left is not None and seconds_left() < SEND_MARGIN_SECONDS:
            result.left = len(due) - n
            break
        if not store.claim_mail(item, now, CLAIM_FOR):
            continue
        notice = _notice(unit.village(item.village_id), accounts.get(item.account_id), item, now)
        if notice is None:
            store.finish_mail(item, now, "skipped")
            result.skipped += 1
            continue
        try:
            send(
                notice.to,
                notice.subject,
                notice.text,
                notice.html,
                headers={
                    "List-Unsubscribe": f"<{notice.unsubscribe}>",
                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                },
            )
        except (ClientError, BotoCoreError):
            # Throttled or refused: back in the queue, a little later each time.
            store.retry_mail(item, now + retry_delay(int(item.attempts)))
            result.failed += 1
            continue
        store.finish_mail(item, now, "sent")
        result.sent += 1
    return result


def _due(item: OutboxItem, now: datetime) -> bool:
    """Not sent, not waiting for a retry, not held by a sender still within its claim."""
    if item.status == "sent" or (item.retry_at and item.retry_at > now):
        return False
    return not (item.status == "sending" and item.claimed_at and now - item.claimed_at < CLAIM_FOR)


def village_mail(village_id: str) -> list[OutboxItem]:
    """What the step just owed (the end of the village's step)."""
    return store.pending_mail_of(village_id)


def unsent_mail(village_id: str) -> list[OutboxItem]:
    """Every mail of the village still owed, however it came to wait (the mail worker)."""
    return store.unsent_mail_of(village_id)


def villages_owed_mail(items: list[OutboxItem]) -> list[str]:
    return list(dict.fromkeys(item.village_id for item in items))


def _notice(
    record: VillageRecord | None, account: AccountItem | None, item: OutboxItem, now: datetime
) -> notices.Notice | None:
    if record is None or item.attempts > MAX_ATTEMPTS:
        return None
    if account is None or account.undeliverable or not account.email_verified:
        return None
    preferences = plain(account.preferences)
    wanted = "reminder_mail" if item.mail_kind == "reminder" else "morning_mail"
    if not preferences.get(wanted, True):
        return None
    level = account.mail_level or "all"
    if level == "none":
        return None
    notice = notices.compose(record, account, item.mail_kind, int(item.day), now)
    if notice is not None and level == "mine" and not notice.concerns:
        return None
    return notice
