"""The outbox: every mail owed, keyed by (village, day, kind, account), sent once; account
mail (login links, verification) too, in a partition of its own (decision 84).

Owed mails are written in the same transaction as the step that owes them, so
nothing is lost. Delivery claims each item before sending, marks it sent after,
and leaves it in the index on failure, so the next tick retries it (deployed: hands
its village to the mail workers); a repeated tick finds nothing new. The sender is
handed in (SES by default; the mail workers' is paced at the SES rate).
"""

import logging
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError
from msgspec import Struct

from .. import queues, rulesets
from ..clock import JST
from ..storage import outbox as store
from ..storage import puzzles as puzzle_store
from ..storage.accounts import Account
from ..storage.keys import time_key
from ..storage.outbox import Mail, OutboxRecord
from ..storage.repository import VillageRecord
from ..storage.shards import Answered
from . import villages
from .errors import NotFound
from .matches import Match
from .unit import Unit

if TYPE_CHECKING:
    from ..notify.notices import Notice

log = logging.getLogger("mobius.outbox")

CLAIM_FOR = timedelta(minutes=5)  # a claimed mail whose sender died is retried after this
# A mail worker claims no more mail once its Lambda has less time left than this: one paced
# send can wait for the rate (4 s at SES's smallest) and back off on throttling (~4 s), and
# a worker killed between SES accepting a mail and marking it sent would send it again.
SEND_MARGIN_SECONDS = 15.0
MAX_ATTEMPTS = 20
# A mark after the send that AWS failed is tried this often in all, a little later each time.
MARK_TRIES = 3
MARK_PAUSE = 0.05  # seconds, times the tries so far

Sender = Callable[..., Any]


class Delivery(Struct):
    sent: int = 0
    failed: int = 0
    skipped: int = 0
    left: int = 0  # not tried for want of time: still owed, due at the next tick
    unmarked: int = 0  # sent, but AWS kept failing the mark: sent again after its claim


def pending(now: datetime, limit: int = 500) -> Answered[OutboxRecord]:
    """Owed mails whose (next) attempt is due; the index sorts them by that time. An index
    shard that failed is named: its mail is the next tick's."""
    return store.due_mail(now, limit)


def retry_delay(attempts: int) -> timedelta:
    """1, 2, 4 … minutes after each failure, at most an hour: MAX_ATTEMPTS spans ~15 hours."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), timedelta(hours=1))


def deliver(
    now: datetime,
    items: list[OutboxRecord] | None = None,
    unit: Unit | None = None,
    send: Sender | None = None,
    seconds_left: Callable[[], float] | None = None,
) -> Delivery:
    """Sends owed mails (by default every one due); failures wait and are tried again.

    ``unit``: the job's unit of work (its villages are not loaded again); ``send``: the
    sender (SES by default); ``seconds_left``: the time the caller has (a Lambda's), below
    ``SEND_MARGIN_SECONDS`` of which the rest is left owed, unclaimed.
    """
    # Composing and sending are the mail worker's (deployed): the tick and the advance
    # worker, which import this module for what is owed, never load them.
    from ..notify import ses

    unit = unit or Unit()
    send = send or ses.send
    result = Delivery()
    due = [item for item in (pending(now).found if items is None else items) if _due(item, now)]
    # Who each village mail goes to, as they are now: one batch read for all of them.
    accounts = store.recipients(item.account_id for item in due if not store.is_account_mail(item))
    for n, owed in enumerate(due):
        if seconds_left is not None and seconds_left() < SEND_MARGIN_SECONDS:
            result.left = len(due) - n
            break
        item = store.claim_mail(owed, now, CLAIM_FOR)
        if item is None:
            continue
        mail = _mail(unit, accounts, item, now)
        if mail is None:
            _finish(item, now, "skipped")
            result.skipped += 1
            continue
        try:
            if mail.headers is None:  # account mail: nothing to unsubscribe from
                send(mail.to, mail.subject, mail.text, mail.html)
            else:
                send(mail.to, mail.subject, mail.text, mail.html, headers=mail.headers)
        except (ClientError, BotoCoreError):
            # Throttled or refused, or its answer lost (SES may have sent it: SES has no
            # idempotency key, so at-least-once sends it again, decision 40): back in the
            # queue, a little later each time. Not requeued (AWS failed), it stays claimed
            # and is tried again once the claim expires.
            store.retry_mail(item, now, now + retry_delay(item.attempts))
            result.failed += 1
            continue
        if not _finish(item, now, "sent"):
            result.unmarked += 1
        result.sent += 1
    return result


def _finish(item: OutboxRecord, now: datetime, status: str) -> bool:
    """Marks the claimed item finished, trying again while AWS fails: a sent mail left
    unmarked is sent again once its claim expires (the commonest duplicate under faults)."""
    for attempt in range(MARK_TRIES):
        if store.finish_mail(item, now, now, status):
            return True
        log.warning("mail %s not marked %s (try %d)", item.sk, status, attempt + 1)
        if attempt + 1 < MARK_TRIES:
            time.sleep(MARK_PAUSE * (attempt + 1))
    return False


class Outgoing(Struct, frozen=True):
    to: str
    subject: str
    text: str
    html: str
    headers: dict[str, str] | None = None


def _mail(
    unit: Unit, accounts: dict[str, Account], item: OutboxRecord, now: datetime
) -> Outgoing | None:
    """What to send for ``item``, or None: nothing to send."""
    from . import account_notices, receipts

    if store.is_account_mail(item):
        composed = account_notices.compose(item, now) if item.attempts <= MAX_ATTEMPTS else None
        if composed is None:
            return None
        return Outgoing(composed.to, composed.subject, composed.text, composed.html)
    match_id = store.match_of(item)
    account = accounts.get(item.account_id)
    puzzle_day = puzzle_store.puzzle_of_mail(item)
    if item.mail_kind == store.REPLY:  # a reply mail's receipt: an answer, sent whatever the level
        if match_id is not None:
            receipt = receipts.compose_for_game(_game(unit, match_id), account, item, now)
        else:
            receipt = receipts.compose(unit.village(item.village_id), account, item, now)
        if receipt is None or item.attempts > MAX_ATTEMPTS:
            return None
        return Outgoing(receipt.to, receipt.subject, receipt.text, receipt.html, receipt.headers)
    if puzzle_day is not None:
        notice = _puzzle_notice(account, item, puzzle_day, now)
    elif match_id is not None:
        notice = _match_notice(unit, account, item, match_id, now)
    else:
        notice = _notice(unit.village(item.village_id), account, item, now)
    if notice is None:
        return None
    headers = {
        "List-Unsubscribe": f"<{notice.unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    if notice.reply_to is not None:
        headers["Reply-To"] = notice.reply_to
    return Outgoing(notice.to, notice.subject, notice.text, notice.html, headers)


def hand_over_account_mail(now: datetime) -> None:
    """Account mail just owed goes to the mail workers (deployed: one SQS message), or is
    sent here (locally, where there are none). A hand-over that fails leaves the mail owed,
    where the next tick finds it."""
    queue = queues.mail_queue()
    try:
        if queue is not None:
            queues.send_to(queue, [store.ACCOUNT_MAIL])
        else:
            deliver(now, store.unsent_mail_of(store.ACCOUNT_MAIL))
    except Exception:
        log.exception("account mail left owed to the next tick")


def hand_over_puzzle_mail(day: str, now: datetime) -> None:
    """A day's puzzle mail just owed goes to the mail workers (deployed: one SQS message
    naming the day's outbox partition), or is sent here (locally). A hand-over that fails
    leaves it owed, where the next tick finds it."""
    owner = puzzle_store.puzzle_mail_owner(day)
    queue = queues.mail_queue()
    try:
        if queue is not None:
            queues.send_to(queue, [owner])
        else:
            deliver(now, store.unsent_mail_of(owner))
    except Exception:
        log.exception("puzzle mail of %s left owed to the next tick", day)


def hand_over_village_mail(village_id: str, mail: Mail, now: datetime) -> None:
    """A mail a request just owed in a village (a reply's receipt) goes to the mail workers
    (deployed: one SQS message naming the village), or is sent here (locally). A hand-over
    that fails leaves it owed, where the next tick finds it."""
    queue = queues.mail_queue()
    try:
        if queue is not None:
            queues.send_to(queue, [village_id])
        else:
            deliver(now, [store.as_written(mail)])
    except Exception:
        log.exception("mail of village %s left owed to the next tick", village_id)


def _due(item: OutboxRecord, now: datetime) -> bool:
    """Not sent, not waiting for a retry, not held by a sender still within its claim."""
    if item.status == "sent" or (item.retry_at and item.retry_at > now):
        return False
    return not (item.status == "sending" and item.claimed_at and now - item.claimed_at < CLAIM_FOR)


def village_mail(village_id: str) -> list[OutboxRecord]:
    """What the step just owed (the end of the village's step)."""
    return store.pending_mail_of(village_id)


def unsent_mail(village_id: str) -> list[OutboxRecord]:
    """Every mail of the village still owed, however it came to wait (the mail worker)."""
    return store.unsent_mail_of(village_id)


def villages_owed_mail(items: list[OutboxRecord]) -> list[str]:
    return list(dict.fromkeys(item.village_id for item in items))


def _notice(
    record: VillageRecord | None, account: Account | None, item: OutboxRecord, now: datetime
) -> "Notice | None":
    from ..notify import notices

    if record is None or account is None or not _wanted(account, item):
        return None
    if item.mail_kind == store.IDLE_WARNING:
        return _idle_warning(record, account, item, now)
    notice = notices.compose(record, account, item.mail_kind, item.day, now)
    if notice is not None and account.mail_level == "mine" and not notice.concerns:
        return None
    return notice


def _idle_warning(
    record: VillageRecord, account: Account, item: OutboxRecord, now: datetime
) -> "Notice | None":
    """The warning, while it still holds: not once the member accessed the village again
    (their window moved), died, left or the game ended (no window)."""
    from ..notify import notices

    slot = record.slot_of(account.account_id)
    window = villages.idle_windows(record).get(slot) if slot is not None else None
    if slot is None or window is None or time_key(window.since) != item.detail:
        return None
    return notices.idle_warning(record, account, slot, window.due, now)


def _wanted(account: Account, item: OutboxRecord) -> bool:
    """Whether the account still takes this mail: a deliverable, verified address, the kind
    not switched off (reminders apart from the rest), some game mail wanted at all; an idle
    warning whatever was switched off."""
    if item.attempts > MAX_ATTEMPTS or account.undeliverable or not account.email_verified:
        return False
    if item.mail_kind == store.IDLE_WARNING:
        return True  # about losing the seat and an ID lock: whatever the level (decision 140)
    wanted = "reminder_mail" if item.mail_kind == "reminder" else "morning_mail"
    if not account.preferences.get(wanted, True):
        return False
    return (account.mail_level or "all") != "none"


def _puzzle_notice(
    account: Account | None, item: OutboxRecord, day: str, now: datetime
) -> "Notice | None":
    """The day's puzzle to an account still on the list, or None: not wanted any more (the
    switch off, unsubscribed, bounced), or its day over by now (a stale puzzle is no news)."""
    if account is None or item.attempts > MAX_ATTEMPTS:
        return None
    if account.undeliverable or not account.email_verified or not account.puzzle_mail:
        return None
    if now.astimezone(JST).date().isoformat() != day:
        return None
    stored = puzzle_store.load_puzzle(day)
    if not stored:  # none made, or the day's games held none
        return None
    from ..notify import puzzle_notices

    rules = rulesets.daily_puzzle()
    puzzle = rules.parse(stored)
    return puzzle_notices.compose(rules, puzzle, date.fromisoformat(day), account, now)


def _game(unit: Unit, match_id: str) -> Match | None:
    """The game a mail is about, or None once it is gone."""
    try:
        return unit.match(match_id)
    except NotFound:
        return None


def _match_notice(
    unit: Unit, account: Account | None, item: OutboxRecord, match_id: str, now: datetime
) -> "Notice | None":
    """A game's mail to one of its players (every kind concerns them), or None: not wanted,
    the game gone, or a turn already played (the player came back before the mail left)."""
    from ..notify import match_notices

    if account is None or not _wanted(account, item):
        return None
    try:
        match = unit.match(match_id)
    except NotFound:
        return None
    side = match.side_of([f"a:{account.account_id}"])
    if side is None:
        return None
    if item.mail_kind != "end" and (match.ended or match.moves != int(item.day)):
        return None
    return match_notices.compose(
        match.rules,
        match.game,
        match_id,
        side,
        account,
        item.mail_kind,
        match.record.flag_at,
        now,
        match.moves,
        aborted=match.aborted,
    )
