"""The outbox's items: one owed mail each, claimed before sending and finished after.

A village's mail lives in its village's partition; account mail (login links, address
verification) in one partition of its own, ``ACCOUNT_MAIL``, which the mail workers serve as
they serve a village: the request that owes it only writes it (decision 84).
"""

import hashlib
import math
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct
from pynamodb.exceptions import DeleteError, UpdateError

from .accounts import Account, account_record
from .db import ensure_configured
from .errors import AlreadyOwed, Refused, conditioned, is_refusal
from .keys import (
    account_pk,
    outbox_index_key,
    outbox_index_keys,
    outbox_index_sk,
    outbox_pk,
    outbox_sk,
    time_key,
)
from .models import AccountItem, OutboxItem, record_of
from .shards import Answered, every_shard_answering

ACCOUNT_MAIL = "accounts"  # the outbox partition of account mail (no village id is a word)
ACCOUNT_MAIL_KEPT = timedelta(days=2)  # an account mail never sent is dropped after this
MATCH_MAIL = "M:"  # a game's outbox partition is "M:<match id>" (a village's is its number)


class Mail(Struct, frozen=True):
    """One mail a use case owes (an intention): the outbox partition it is owed in (a
    village's, a game's), its day (a game's: its move count), kind and account, keyed by
    those unless ``sort_key`` says otherwise. Storage writes it, conditioned on its not
    existing, so a retried write owes it once."""

    owner: str
    day: int
    kind: str
    account_id: str
    at: datetime
    sort_key: str | None = None
    detail: str | None = None


class OutboxRecord(Struct, frozen=True):
    """One owed mail as read, or as just written: ``village_id`` is the partition it is
    owed in (a village, ``M:<game>``, the account mail's, a puzzle day's)."""

    village_id: str
    sk: str
    day: int
    mail_kind: str
    account_id: str
    status: str
    attempts: int
    created_at: datetime
    claimed_at: datetime | None = None
    retry_at: datetime | None = None
    detail: str | None = None


def _record(item: OutboxItem) -> OutboxRecord:
    return record_of(OutboxRecord, item)


def item_of(mail: Mail) -> OutboxItem:
    """The item a write saves for ``mail`` (storage's own: nothing above sees it)."""
    ensure_configured()
    return owed_item(
        mail.owner, mail.day, mail.kind, mail.account_id, mail.at, mail.sort_key, mail.detail
    )


def as_written(mail: Mail) -> OutboxRecord:
    """``mail`` as its write left it (pending, never tried): sent at once, with no read."""
    return _record(item_of(mail))


def match_mail(match_id: str) -> str:
    return f"{MATCH_MAIL}{match_id}"


def match_of(item: OutboxRecord) -> str | None:
    """The game a mail is about (None: a village's or an account mail)."""
    owner = item.village_id
    return owner.removeprefix(MATCH_MAIL) if owner.startswith(MATCH_MAIL) else None


def game_mail(match_id: str, number: int, kind: str, account_id: str, now: datetime) -> Mail:
    """One mail a game owes a player, keyed by the game, its move count and the kind: written
    with the move (or the end) that owes it, conditioned on not existing, so a retry or a
    duplicate message owes it once (decision 56)."""
    return Mail(match_mail(match_id), number, kind, account_id, now)


def owed_item(
    owner: str,
    day: int,
    kind: str,
    account_id: str,
    now: datetime,
    sort_key: str | None = None,
    detail: str | None = None,
) -> OutboxItem:
    """One mail owed in ``owner``'s outbox partition (a village, a game), listed for the tick
    until it is sent; keyed by its day, kind and account unless ``sort_key`` says otherwise."""
    return OutboxItem(
        outbox_pk(owner),
        sort_key or outbox_sk(day, kind, account_id),
        village_id=owner,
        day=day,
        mail_kind=kind,
        account_id=account_id,
        status="pending",
        attempts=0,
        created_at=now,
        detail=detail,
        gsi1pk=outbox_index_key(owner),
        gsi1sk=outbox_index_sk(now, owner),
    )


def owe_once(mail: Mail) -> bool:
    """Writes a mail unless it is owed already (a reminder a duplicate look owes again); a
    fault is not "owed already" and propagates (the next look owes it)."""
    item = item_of(mail)
    try:
        conditioned("owe_once", lambda: item.save(condition=OutboxItem.pk.does_not_exist()))
    except Refused:
        return False
    return True


def is_account_mail(item: OutboxRecord) -> bool:
    return item.village_id == ACCOUNT_MAIL


def owe_account_mail(kind: str, named: str, now: datetime) -> None:
    """One account mail owed: ``named`` is what the request named (an account ID, or for a
    login link the ID or address as typed); the mail worker finds whom it goes to."""
    ensure_configured()
    OutboxItem(
        outbox_pk(ACCOUNT_MAIL),
        outbox_sk(0, kind, secrets.token_hex(8)),
        village_id=ACCOUNT_MAIL,
        day=0,
        mail_kind=kind,
        account_id=named,
        status="pending",
        attempts=0,
        created_at=now,
        expires_at=now + ACCOUNT_MAIL_KEPT,
        gsi1pk=outbox_index_key(ACCOUNT_MAIL),
        gsi1sk=outbox_index_sk(now, ACCOUNT_MAIL),
    ).save()


REPLY = "reply"  # the kind of a reply's receipt


def reply_receipt(
    village_id: str, day: int, account_id: str, message_id: str, detail: str, now: datetime
) -> Mail:
    """The receipt owed for one reply mail: keyed by the mail's Message-ID (never by the day,
    which may change between two deliveries of it), so that it is owed once."""
    digest = hashlib.sha256(message_id.encode()).hexdigest()[:32]
    key = outbox_sk(0, REPLY, digest)
    return Mail(village_id, day, REPLY, account_id, now, sort_key=key, detail=detail)


IDLE_WARNING = "idle_warning"  # the kind of an idle warning (decision 140)


def idle_warning_key(account_id: str, since: datetime) -> str:
    """A member's idle warning is keyed by the access it counts from (``since``): owed once
    per access, a later access makes a new one."""
    return outbox_sk(0, IDLE_WARNING, f"{account_id}#{time_key(since)}")


def idle_warnings_owed(village_id: str) -> set[str]:
    """The keys of the idle warnings the village owes or has sent: one query, read by a look
    that has warnings due, so that a duplicate look writes nothing (``make bench``)."""
    ensure_configured()
    prefix = outbox_sk(0, IDLE_WARNING, "")
    found = OutboxItem.query(
        outbox_pk(village_id), OutboxItem.sk.startswith(prefix), consistent_read=True
    )
    return {str(item.sk) for item in found}


def owe_idle_warning(
    village_id: str, day: int, account_id: str, since: datetime, now: datetime
) -> bool:
    """A member's idle warning, unless it is owed already (a duplicate look)."""
    key = idle_warning_key(account_id, since)
    mail = Mail(
        village_id, day, IDLE_WARNING, account_id, now, sort_key=key, detail=time_key(since)
    )
    return owe_once(mail)


def owe_receipt(mail: Mail) -> None:
    """A receipt alone (a reply that saved nothing); ``AlreadyOwed`` when it is owed already."""
    if not owe_once(mail):
        raise AlreadyOwed("owe_receipt: owed already")


def due_mail(now: datetime, limit: int) -> Answered[OutboxRecord]:
    """Owed mails whose (next) attempt is due, oldest first, at most ``limit``: the sparse
    index sorts each shard by that time; the shards are queried at once and merged (a shard
    that fails is named; the others' mail stands)."""
    ensure_configured()

    # Each shard is read for twice its share (as the lounge does): a backlog costs the tick a
    # page, not 16; what a crowded shard leaves is the next tick's.
    per_shard = 2 * math.ceil(limit / len(outbox_index_keys()))

    def shard(key: str) -> list[OutboxItem]:
        due = OutboxItem.gsi1sk <= f"{time_key(now)}#~"
        return list(OutboxItem.by_state.query(key, due, limit=per_shard))

    due = every_shard_answering(outbox_index_keys(), shard)
    earliest = sorted(due.found, key=lambda item: str(item.gsi1sk))[:limit]
    return Answered([_record(item) for item in earliest], due.failed)


def pending_mail_of(village_id: str) -> list[OutboxRecord]:
    """A village's mail not yet claimed (the worker sends it right after the village's step)."""
    ensure_configured()
    return [
        _record(item)
        for item in OutboxItem.query(
            outbox_pk(village_id),
            filter_condition=OutboxItem.status == "pending",
            consistent_read=True,  # read right after the step that owed it
        )
    ]


def unsent_mail_of(village_id: str) -> list[OutboxRecord]:
    """A village's mail not yet sent or skipped: pending, or claimed by a sender (which may
    have died: its claim expires). The mail worker's whole job for the village."""
    ensure_configured()
    unsent = OutboxItem.status.is_in("pending", "sending")
    return [
        _record(item)
        for item in OutboxItem.query(
            outbox_pk(village_id), filter_condition=unsent, consistent_read=True
        )
    ]


def _key(mail: OutboxRecord) -> OutboxItem:
    ensure_configured()
    return OutboxItem(outbox_pk(mail.village_id), mail.sk)


def claim_mail(mail: OutboxRecord, now: datetime, claim_for: timedelta) -> OutboxRecord | None:
    """Takes the mail for this sender (its claim is ``now``): the mail as claimed (its
    attempts counted); None when another sender has it or it is sent, or when AWS failed
    (the mail stays owed: pending, or claimed and then taken again once the claim expires)."""
    item = _key(mail)
    try:
        item.update(
            actions=[
                OutboxItem.status.set("sending"),
                OutboxItem.claimed_at.set(now),
                OutboxItem.attempts.add(1),
            ],
            condition=(OutboxItem.status == "pending")
            | ((OutboxItem.status == "sending") & (OutboxItem.claimed_at < now - claim_for)),
        )
    except UpdateError:
        return None
    return _record(item)


def _claimed(claimed_at: datetime) -> Any:
    """The condition that the item is still this sender's claim: not taken over since (its
    claim expired) and not finished by another sender."""
    return (OutboxItem.status == "sending") & (OutboxItem.claimed_at == claimed_at)


def retry_mail(mail: OutboxRecord, claimed_at: datetime, retry_at: datetime) -> bool:
    """Back in the queue after a failed send, to be tried at ``retry_at``; only while it is
    still this sender's claim (``claimed_at``). False when AWS failed: it stays claimed, and
    is tried again once the claim expires."""
    try:
        _key(mail).update(
            actions=[
                OutboxItem.status.set("pending"),
                OutboxItem.retry_at.set(retry_at),
                OutboxItem.gsi1sk.set(outbox_index_sk(retry_at, mail.village_id)),
            ],
            condition=_claimed(claimed_at),
        )
    except UpdateError as error:
        return is_refusal(error)  # another sender has it
    return True


def finish_mail(mail: OutboxRecord, claimed_at: datetime, now: datetime, status: str) -> bool:
    """Out of the index: a finished mail (sent or skipped) is never looked at again. An
    account mail goes altogether: its partition is read whole by each mail worker's call.

    Conditioned on this sender's claim (``claimed_at``): a sender whose claim was taken over
    never marks the other's. False when AWS failed: the mail is not marked, and would be
    sent again once its claim expires (the caller tries the mark again first)."""
    item = _key(mail)
    try:
        if is_account_mail(mail):
            item.delete(condition=_claimed(claimed_at))
        else:
            item.update(
                actions=[
                    OutboxItem.status.set(status),
                    OutboxItem.sent_at.set(now),
                    OutboxItem.gsi1pk.remove(),
                    OutboxItem.gsi1sk.remove(),
                ],
                condition=_claimed(claimed_at),
            )
    except (UpdateError, DeleteError) as error:
        return is_refusal(error)  # finished or taken over
    return True


def recipients(account_ids: Iterable[str]) -> dict[str, Account]:
    """The accounts mail is owed to, as they are now, in one batch (eventually consistent)."""
    keys = [(account_pk(a), "ACCOUNT") for a in dict.fromkeys(account_ids)]
    if not keys:
        return {}
    return {str(item.account_id): account_record(item) for item in AccountItem.batch_get(keys)}
