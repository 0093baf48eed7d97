"""The daily puzzle's pages (今日の盤面パズル): today's or a past day's position as A sees
it with the cards to execute as a form, the answer and its explanation once answered, an
account's record, and its switch for the daily mail. Everyone may solve it; a logged-in
account's first answer of the day counts."""

from datetime import date, timedelta
from typing import Any

from chalice import Response

from .. import rulesets
from ..services import accounts, puzzles
from .http import BadRequest, redirect
from .pages import Ctx, page, require_login


def _show(ctx: Ctx, day: date, chosen: int | None, status: int = 200, **extra: Any) -> Response:
    rules = rulesets.daily_puzzle()
    puzzle = puzzles.shown(day, ctx.now)
    account_id = ctx.account_id
    counted = puzzles.answer_of(account_id, day) if account_id else None
    if chosen is None and counted is not None:
        chosen = counted  # an account that answered today sees its answer, not the form
    record = puzzles.record_of(account_id, ctx.now) if account_id else None
    account = accounts.find(account_id) if account_id else None
    return ctx.page(
        "puzzle.html",
        status,
        title=rules.title,
        question=rules.question,
        day_text=f"{day.year}年{day.month}月{day.day}日",
        date=day.isoformat(),
        is_today=day == puzzles.today(ctx.now),
        previous=(day - timedelta(days=1)).isoformat() if day > puzzles.FIRST_DAY else None,
        chosen=chosen,
        correct=None if chosen is None else rules.correct(puzzle, chosen),
        explanation=rules.explanation(puzzle) if chosen is not None else None,
        record=record,
        subscribed=bool(account and account.puzzle_mail),
        **rules.page(puzzle),
        **extra,
    )


@page
def today_page(ctx: Ctx) -> Response:
    return _show(ctx, puzzles.today(ctx.now), None)


@page
def day_page(ctx: Ctx, day: str) -> Response:
    return _show(ctx, puzzles.parse_day(day, ctx.now), None)


@page
def answer(ctx: Ctx, day: str) -> Response:
    when = puzzles.parse_day(day, ctx.now)
    puzzles.shown(when, ctx.now)
    done = puzzles.answer(ctx.account_id, when, ctx.form.get("card", ""), ctx.now)
    return _show(ctx, when, done.card, counted=done.counted)


@page
def mail(ctx: Ctx) -> Response:
    account_id = require_login(ctx)
    value = ctx.form.get("mail", "")
    if value not in ("on", "off"):
        raise BadRequest("メールを受け取るか止めるかを選んでください")
    puzzles.set_mail(account_id, value == "on")
    back = ctx.form.get("back", "")
    return redirect("/account#puzzle" if back == "account" else "/puzzle#mail", ctx.set_cookie)
