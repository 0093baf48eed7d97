"""The outbox: every mail owed, keyed by (village, day, kind, account), sent once.

Owed mails are written in the same transaction as the step that owes them, so
nothing is lost. Delivery claims each item before sending, marks it sent after,
and leaves it in the index on failure, so the next tick retries it; a repeated
tick finds nothing new.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from botocore.exceptions import BotoCoreError, ClientError
from pynamodb.exceptions import UpdateError

from .. import mail
from ..storage.models import AccountItem, OutboxItem
from ..storage.repository import VillageRecord, account_pk, load_village, plain, time_key
from . import notices

OUTBOX_INDEX_KEY = "OUTBOX"
CLAIM_FOR = timedelta(minutes=5)  # a claimed mail whose sender died is retried after this
MAX_ATTEMPTS = 20


def outbox_pk(village_id: str) -> str:
    return f"O#{village_id}"


def owed(village_id: str, day: int, kind: str, account_id: str, now: datetime) -> OutboxItem:
    """An outbox item to write inside a use case's transaction."""
    return OutboxItem(
        outbox_pk(village_id),
        f"{day:03d}#{kind}#{account_id}",
        village_id=village_id,
        day=day,
        mail_kind=kind,
        account_id=account_id,
        status="pending",
        attempts=0,
        created_at=now,
        gsi1pk=OUTBOX_INDEX_KEY,
        gsi1sk=f"{time_key(now)}#{village_id}",
    )


def owed_to_members(record: VillageRecord, day: int, kind: str, now: datetime) -> list[OutboxItem]:
    return [
        owed(record.village_id, day, kind, member.account_id, now)
        for member in record.members.values()
        if member.account_id is not None
    ]


@dataclass
class Delivery:
    sent: int = 0
    failed: int = 0
    skipped: int = 0


def pending(now: datetime, limit: int = 500) -> list[OutboxItem]:
    """Owed mails whose (next) attempt is due; the index sorts them by that time."""
    due = OutboxItem.gsi1sk <= f"{time_key(now)}#~"
    return list(OutboxItem.by_state.query(OUTBOX_INDEX_KEY, due, limit=limit))


def retry_delay(attempts: int) -> timedelta:
    """1, 2, 4 … minutes after each failure, at most an hour: MAX_ATTEMPTS spans ~15 hours."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), timedelta(hours=1))


def deliver(now: datetime, items: list[OutboxItem] | None = None) -> Delivery:
    """Sends owed mails (by default every one due); failures wait and are tried again."""
    result = Delivery()
    records: dict[str, VillageRecord | None] = {}
    for item in pending(now) if items is None else items:
        if item.status == "sent" or (item.retry_at and item.retry_at > now):
            continue
        if item.status == "sending" and item.claimed_at and now - item.claimed_at < CLAIM_FOR:
            continue
        if not _claim(item, now):
            continue
        if item.village_id not in records:
            records[item.village_id] = load_village(item.village_id)
        record = records[item.village_id]
        notice = _notice(record, item, now)
        if notice is None:
            _finish(item, now, "skipped")
            result.skipped += 1
            continue
        try:
            mail.send(
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
            _release(item, now)
            result.failed += 1
            continue
        _finish(item, now, "sent")
        result.sent += 1
    return result


def _notice(record: VillageRecord | None, item: OutboxItem, now: datetime):
    if record is None or item.attempts > MAX_ATTEMPTS:
        return None
    try:
        account = AccountItem.get(account_pk(item.account_id), "ACCOUNT")
    except AccountItem.DoesNotExist:
        return None
    if account.undeliverable or not account.email_verified:
        return None
    preferences = plain(account.preferences)
    wanted = "reminder_mail" if item.mail_kind == "reminder" else "morning_mail"
    if not preferences.get(wanted, True):
        return None
    return notices.compose(record, account, item.mail_kind, item.day, now)


def _claim(item: OutboxItem, now: datetime) -> bool:
    """Takes the item for this sender; False when another sender has it or it is sent."""
    try:
        item.update(
            actions=[
                OutboxItem.status.set("sending"),
                OutboxItem.claimed_at.set(now),
                OutboxItem.attempts.add(1),
            ],
            condition=(OutboxItem.status == "pending")
            | ((OutboxItem.status == "sending") & (OutboxItem.claimed_at < now - CLAIM_FOR)),
        )
    except UpdateError:
        return False
    return True


def _release(item: OutboxItem, now: datetime) -> None:
    retry_at = now + retry_delay(item.attempts)
    item.update(
        actions=[
            OutboxItem.status.set("pending"),
            OutboxItem.retry_at.set(retry_at),
            OutboxItem.gsi1sk.set(f"{time_key(retry_at)}#{item.village_id}"),
        ]
    )


def _finish(item: OutboxItem, now: datetime, status: str) -> None:
    """Out of the index: a finished mail is never looked at again."""
    item.update(
        actions=[
            OutboxItem.status.set(status),
            OutboxItem.sent_at.set(now),
            OutboxItem.gsi1pk.remove(),
            OutboxItem.gsi1sk.remove(),
        ]
    )
