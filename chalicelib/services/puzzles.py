"""The daily puzzle (今日の盤面パズル): the day's puzzle, answers, an account's record
(solved days and streaks) and the daily mail.

The day is the JST date: everyone gets the same puzzle from 00:00 to 24:00 JST, generated
by the puzzle's rule set from an RNG seeded with the date, and stored once (the first
request or the daily job: a conditioned put). An account's first answer of the day counts,
written with its record in one conditioned transaction; past days may be solved too, but
only the day's own answer counts (decision 78).
"""

import logging
import random
from datetime import date, datetime, timedelta
from typing import Any

from msgspec import Struct

from .. import rulesets
from ..clock import JST
from ..storage import puzzles as store
from ..storage.errors import Refused
from ..storage.repository import load_account
from . import outbox
from .errors import Conflict, InvalidInput, NotFound

log = logging.getLogger("mobius.puzzles")

FIRST_DAY = date(2026, 12, 1)  # the first day with a puzzle: /puzzle/<date> before it is a 404


def today(now: datetime) -> date:
    """The JST day ``now`` falls on."""
    return now.astimezone(JST).date()


def parse_day(text: str, now: datetime) -> date:
    """A ``YYYY-MM-DD`` from a URL: a day with a puzzle (from :data:`FIRST_DAY` to today)."""
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise InvalidInput("日付は 2026-12-01 の形で指定してください")
    if not FIRST_DAY <= day <= today(now):
        raise NotFound("その日のパズルはありません")
    return day


def seed_of(day: date) -> random.Random:
    """The day's RNG: the same for every request and every process (a str seed is hashed
    with SHA-512 by ``random``, never with the per-process ``hash``)."""
    return random.Random(f"puzzle:{day.isoformat()}")


def puzzle_of(day: date, now: datetime) -> Any:
    """The day's puzzle (the rule set's object), generated and stored on first use."""
    rules = rulesets.daily_puzzle()
    stored = store.load_puzzle(day.isoformat())
    if stored is None:
        # A day whose games held no puzzle is stored empty: it is not tried again.
        made = rules.generate(seed_of(day)) or {}
        stored = store.save_puzzle(day.isoformat(), made, now)
    if not stored:
        raise NotFound("この日のパズルは用意できませんでした。ほかの日の問題をどうぞ")
    return rules.parse(stored)


def shown(day: date, now: datetime) -> Any:
    """The day's puzzle as its page asks for it: today's is made on first use, a past day's
    only if it was made then (``NotFound``: a past day is never made late)."""
    if day != today(now) and store.load_puzzle(day.isoformat()) is None:
        raise NotFound("その日のパズルはありません")
    return puzzle_of(day, now)


class Record(Struct, frozen=True):
    """An account's puzzle record, as the puzzle page and the records page (戦績) show it."""

    solved: int  # days solved (the day's own answer right)
    answered: int  # days answered
    streak: int  # consecutive JST days solved up to today (or yesterday, today still open)
    best_streak: int


def record_of(account_id: str, now: datetime) -> Record:
    """The account's solved days and streaks (what the 戦績 page shows)."""
    item = store.load_record(account_id)
    if item is None:
        return Record(0, 0, 0, 0)
    day = today(now)
    last = date.fromisoformat(str(item.last_solved)) if item.last_solved else None
    # Alive while today is solved, or yesterday was and today is still open (not missed).
    missed_today = item.last_answered == day.isoformat() and last != day
    alive = last is not None and (last == day or (last == day - timedelta(days=1)))
    alive = alive and not missed_today
    return Record(
        int(item.solved),
        int(item.answered),
        int(item.streak) if alive else 0,
        int(item.best_streak),
    )


class Answered(Struct, frozen=True):
    day: date
    card: int
    correct: bool
    counted: bool  # the account's first answer of the day (False: a guest, a past day, again)


def answer(account_id: str | None, day: date, value: str, now: datetime) -> Answered:
    """Checks an answer; an account's first one of the day's own puzzle counts."""
    rules = rulesets.daily_puzzle()
    puzzle = puzzle_of(day, now)
    try:
        card = rules.chosen(puzzle, value)
    except ValueError as error:
        raise InvalidInput(str(error)) from error
    correct = rules.correct(puzzle, card)
    if account_id is None or day != today(now):
        return Answered(day, card, correct, counted=False)
    if store.load_answer(account_id, day.isoformat()) is not None:
        return Answered(day, card, correct, counted=False)
    record = store.load_record(account_id) or store.new_record(account_id)
    _count(record, day, correct)
    try:
        store.record_answer(account_id, day.isoformat(), card, correct, record, now)
    except Refused as error:
        if store.load_answer(account_id, day.isoformat()) is not None:
            return Answered(day, card, correct, counted=False)  # another tab was first
        raise Conflict("記録できませんでした。もう一度お試しください") from error
    return Answered(day, card, correct, counted=True)


def _count(record: Any, day: date, correct: bool) -> None:
    record.answered = int(record.answered or 0) + 1
    record.last_answered = day.isoformat()
    if not correct:
        return
    yesterday = (day - timedelta(days=1)).isoformat()
    streak = int(record.streak or 0) + 1 if record.last_solved == yesterday else 1
    record.streak = streak
    record.best_streak = max(int(record.best_streak or 0), streak)
    record.solved = int(record.solved or 0) + 1
    record.last_solved = day.isoformat()


def answer_of(account_id: str, day: date) -> int | None:
    """The card the account answered that day (its counted answer), if any."""
    item = store.load_answer(account_id, day.isoformat())
    return None if item is None else int(item.card)


# ----- mail -----


def set_mail(account_id: str, on: bool) -> None:
    """Asks for the daily puzzle by mail, or stops it."""
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    if bool(account.puzzle_mail) == on:
        return
    try:
        store.set_mail(account, on)
    except Refused as error:
        raise Conflict("設定を保存できませんでした。もう一度お試しください") from error


def prepare_tomorrow(now: datetime) -> None:
    """Makes tomorrow's puzzle now, so that no request after midnight waits for its
    generation (a Lambda's share of a CPU makes it a matter of tens of seconds; decision 77).
    Nothing shows a day before it comes: the pages stop at today."""
    try:
        puzzle_of(today(now) + timedelta(days=1), now)
    except NotFound:
        log.warning("no puzzle for tomorrow")


def owe_daily_mail(now: datetime) -> int:
    """The day's puzzle (generated now if it is not yet) and one mail owed to each account
    on the list, keyed by the day and the account: a duplicate run owes nothing more.
    Returns how many were owed now."""
    day = today(now)
    puzzle_of(day, now)  # a day without a puzzle owes no mail (NotFound)
    owed = sum(store.owe_mail(day.isoformat(), a, now) for a in store.subscribers())
    if owed:
        outbox.hand_over_puzzle_mail(day.isoformat(), now)
    return owed
