"""The daily puzzle's items: the day's puzzle (written once), an account's answers and its
record (one transaction, conditioned), and who asked for it by mail."""

from collections.abc import Iterator
from datetime import datetime
from typing import Any, TypeVar

from pynamodb.exceptions import DoesNotExist

from .accounts import Account, account_item
from .db import ensure_configured, transaction
from .errors import Refused, conditioned
from .keys import (
    PUZZLE_MAIL_PK,
    PUZZLE_RECORD_SK,
    PUZZLE_SK,
    account_pk,
    puzzle_answer_sk,
    puzzle_mail_owner,
    puzzle_pk,
)
from .models import (
    AccountItem,
    PuzzleAnswerItem,
    PuzzleItem,
    PuzzleRecordItem,
    PuzzleSubscriberItem,
)
from .outbox import Mail, OutboxRecord, owe_once

T = TypeVar("T", PuzzleItem, PuzzleAnswerItem, PuzzleRecordItem)
PUZZLE_MAIL = "puzzle"  # the outbox kind of the daily puzzle's mail


def _get(model: type[T], pk: str, sk: str) -> T | None:
    ensure_configured()
    try:
        return model.get(pk, sk, consistent_read=True)
    except DoesNotExist:
        return None


def load_puzzle(date: str) -> dict[str, Any] | None:
    item = _get(PuzzleItem, puzzle_pk(date), PUZZLE_SK)
    return None if item is None else dict(item.puzzle)


def save_puzzle(date: str, puzzle: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Writes the day's puzzle unless one is there; returns the one stored (the first wins:
    two first requests generate the same puzzle anyway, and keep the same one)."""
    ensure_configured()
    item = PuzzleItem(puzzle_pk(date), PUZZLE_SK, date=date, puzzle=puzzle, created_at=now)
    try:
        conditioned("save_puzzle", lambda: item.save(condition=PuzzleItem.pk.does_not_exist()))
    except Refused:
        stored = load_puzzle(date)
        assert stored is not None  # it was there a moment ago, and puzzles are never deleted
        return stored
    return puzzle


def load_answer(account_id: str, date: str) -> PuzzleAnswerItem | None:
    return _get(PuzzleAnswerItem, account_pk(account_id), puzzle_answer_sk(date))


def load_record(account_id: str) -> PuzzleRecordItem | None:
    return _get(PuzzleRecordItem, account_pk(account_id), PUZZLE_RECORD_SK)


def new_record(account_id: str) -> PuzzleRecordItem:
    return PuzzleRecordItem(account_pk(account_id), PUZZLE_RECORD_SK)


def record_answer(
    account_id: str, date: str, card: int, correct: bool, record: PuzzleRecordItem, now: datetime
) -> None:
    """The day's answer and the record as the caller updated it, together: ``Refused`` when
    the day was answered already, or the record changed since it was read."""
    answer = PuzzleAnswerItem(
        account_pk(account_id),
        puzzle_answer_sk(date),
        date=date,
        card=card,
        correct=correct,
        answered_at=now,
    )

    def write() -> None:
        with transaction() as t:
            t.save(answer, condition=PuzzleAnswerItem.pk.does_not_exist())
            t.save(record)  # conditioned on its version (a new one: on not existing)

    conditioned("record_answer", write)


def set_mail(account: Account, on: bool) -> None:
    """The account's ``puzzle_mail`` and its entry in the mail list, together."""
    entry = PuzzleSubscriberItem(PUZZLE_MAIL_PK, account.account_id, account_id=account.account_id)

    def write() -> None:
        with transaction() as t:
            t.update(account_item(account), actions=[AccountItem.puzzle_mail.set(on)])
            if on:
                t.save(entry)
            else:
                t.delete(entry)

    conditioned("set_puzzle_mail", write)


def subscribers() -> Iterator[str]:
    """Every account on the mail list (one partition, read page by page)."""
    ensure_configured()
    for item in PuzzleSubscriberItem.query(PUZZLE_MAIL_PK, consistent_read=True):
        yield str(item.account_id)


def owe_mail(date: str, account_id: str, now: datetime) -> bool:
    """The day's puzzle mail to one account, keyed by the day and the account: a duplicate
    tick owes nothing more (False)."""
    ensure_configured()
    return owe_once(Mail(puzzle_mail_owner(date), 0, PUZZLE_MAIL, account_id, now))


def puzzle_of_mail(item: OutboxRecord) -> str | None:
    """The JST date a puzzle mail is about (None: another mail)."""
    owner = item.village_id
    prefix = puzzle_mail_owner("")
    return owner.removeprefix(prefix) if owner.startswith(prefix) else None
