"""Village pages: the lounge, a village (its boards, the member's news and forms), posting,
saving choices, joining and leaving. Handlers take ``(request, village_id)``."""

import re
from datetime import UTC, datetime
from typing import Any

from chalice import Response

from .. import membership, rulesets
from ..rulesets.base import VISITOR
from ..services import actions, posts, villages
from ..services.errors import ServiceError
from ..storage.repository import VillageRecord
from . import village_view
from .http import BadRequest, redirect
from .pages import Ctx, page, require_login

LOUNGE_STATES = ("opening", "running", "ending", "ended", "abandoned")
VILLAGE_ID = re.compile(r"[0-9]{1,12}")
NUMBER = re.compile(r"[0-9]+")  # ASCII digits only: isdigit() also takes "²", which int() refuses
SHOWN = "shown_"  # the action form's field of what the page showed of a choice
MAX_NUMBER = 10**9  # more than any day; longer numbers read as this (int() stops at 4,300 digits)


# ----- lounge -----


@page
def lounge(ctx: Ctx) -> Response:
    # The lounge's own: a village's page never loads the games played move by move.
    from .. import timecontrol
    from ..services import matches

    state = ctx.request.query.get("state")
    if state:
        if state not in LOUNGE_STATES:
            raise BadRequest("村の状態の指定が正しくありません")
        sections = {
            state: villages.lounge(
                state, ctx.request.query.get("cursor"), free_only=state == "opening"
            )
        }
    else:
        sections = {
            s: villages.lounge(s, limit=10, free_only=s == "opening") for s in LOUNGE_STATES
        }
    return ctx.page(
        "lounge.html",
        public=True,
        sections=sections,
        single=bool(state),
        rules_label=rulesets.labels(),
        offers=rulesets.offers(),
        clock_labels=timecontrol.LABELS,
        my_games=matches.games_of(ctx.players()) if not state else [],
        rooms=matches.rooms(ctx.players(), ctx.now) if not state else [],
        next_words=rulesets.next_update_words(),
    )


def _require_member(ctx: Ctx, village_id: str) -> str:
    """A login, or this village's mail link (which reaches nothing else)."""
    account_id = ctx.member_account(village_id)
    if account_id is None:
        raise BadRequest("ログインしてください", 401)
    return account_id


# ----- villages -----


def _check_village_id(village_id: str) -> None:
    """A village id from the path is digits, checked before it names anything in storage."""
    if not VILLAGE_ID.fullmatch(village_id):
        raise BadRequest("その村は見つかりません", 404)


def _record(ctx: Ctx, village_id: str) -> VillageRecord:
    _check_village_id(village_id)
    record = ctx.unit.village(village_id)
    if record is None:
        raise BadRequest("その村は見つかりません", 404)
    return record


def _int(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    if not NUMBER.fullmatch(value):
        raise BadRequest(f"{name}の指定が正しくありません")
    digits = value.lstrip("0") or "0"
    return MAX_NUMBER if len(digits) > len(str(MAX_NUMBER)) else min(int(digits), MAX_NUMBER)


def _moment(value: str | None) -> datetime | None:
    """A moment the page put in its form (when it was shown); anything else is no moment."""
    try:
        moment = datetime.fromisoformat(value or "")
        return moment.astimezone(UTC) if moment.tzinfo is not None else None
    except (ValueError, OverflowError):  # not a time; a year-1 time that UTC cannot hold
        return None


def _village_page(
    ctx: Ctx, village_id: str, status: int = 200, message: str | None = None, **extra: Any
) -> Response:
    record = _record(ctx, village_id)
    # A member's view records its access, unless one lies within the minute (decision 66);
    # a view that will write reads its session as a write does (decision 69).
    claimed = ctx.claimed_member(village_id)
    slot = record.slot_of(claimed)
    due = slot is not None and membership.access_due(
        record.seats()[slot], record.recent_saves(), ctx.now
    )
    ctx.check_session(writes=due)
    account_id = ctx.member_account(village_id)
    member = account_id is not None and account_id == claimed
    if due and member and not villages.touch(village_id, str(account_id), ctx.now, record):
        message = message or villages.NOT_RECORDED
    viewer = posts.viewer_of(record, account_id)
    query = ctx.request.query
    asked = village_view.Asked(
        board=query.get("board"),
        day=_int(query.get("day"), "日付"),
        cursor=query.get("cursor"),
        inner_of=query.get("of"),
        first=(_int(query.get("from"), "ページ") or 1) if query.get("cursor") else 1,
        speaker=query.get("who") or None,
    )
    context = village_view.build(record, viewer if viewer.slot else VISITOR, ctx.now, asked)
    # Within the minute, a view that shows posts the member had not seen is their visit all
    # the same (decision 152): the next visit's marks start after what this one showed. Its
    # session was read as a page's is (a visit, not the player's act); a view with nothing
    # new still writes nothing.
    shown_new = not due and member and context["unread_count"] > 0
    if shown_new and not villages.touch(village_id, str(account_id), ctx.now, record):
        message = message or villages.NOT_RECORDED
    # A visitor's view shows what everyone may see (the rule set's visibility decides).
    public = ctx.request.method == "GET"
    return ctx.page(record.rules.page_template, status, public, message=message, **context, **extra)


@page
def village(ctx: Ctx, village_id: str) -> Response:
    # ``confirm``: a short classic village's vote, shown once more before it is cast.
    query = ctx.request.query
    extra: dict[str, Any] = {}
    reply = _int(query.get("reply"), "返信先")
    if reply is not None:
        # Without JavaScript, a post's number opens the write form with its anchor in it.
        day = _int(query.get("day"), "日付")
        record = _record(ctx, village_id)
        shown = record.day if day is None else max(0, min(day, record.day))
        extra["draft"] = f">>{reply} " if shown == record.day else f">>{shown}:{reply} "
    return _village_page(
        ctx, village_id, done=query.get("done"), confirm=query.get("confirm"), **extra
    )


@page
def village_log(ctx: Ctx, village_id: str) -> Response:
    """The combined log (decision 52): every day and every board the viewer may read, on one
    printable page."""
    record = _record(ctx, village_id)
    ctx.check_session(writes=False)
    viewer = posts.viewer_of(record, ctx.member_account(village_id))
    context = village_view.build_log(record, viewer if viewer.slot else VISITOR, ctx.now)
    return ctx.page("village_log.html", **context)


@page
def village_post(ctx: Ctx, village_id: str) -> Response:
    _check_village_id(village_id)
    account_id = _require_member(ctx, village_id)
    form = ctx.form
    board = form.get("board", "public")
    try:
        posts.post(
            village_id,
            account_id,
            board,
            form.get("text", ""),
            ctx.now,
            ctx.unit,
            seen=_moment(form.get("seen")),
        )
    except ServiceError as error:
        return _village_page(ctx, village_id, error.status, str(error), draft=form.get("text", ""))
    return redirect(f"/villages/{village_id}?board={board}#posts")


@page
def village_actions(ctx: Ctx, village_id: str) -> Response:
    _check_village_id(village_id)
    account_id = _require_member(ctx, village_id)
    labels = _record(ctx, village_id).rules.choice_labels
    form = ctx.form
    choices = {key: (form.get(key) or None) for key in labels if key in form}
    # What the page showed of each choice (its hidden ``shown_<key>``): a stale page changes
    # only what the player changed on it.
    shown = {key: (form.get(SHOWN + key) or None) for key in labels if SHOWN + key in form}
    try:
        command = actions.save_actions(
            village_id, account_id, choices, ctx.now, ctx.unit, shown=shown
        )
    except ServiceError as error:
        ctx.unit.reload(village_id)
        return _village_page(ctx, village_id, error.status, str(error))
    done = "ending" if command is not None else "saved"
    return redirect(f"/villages/{village_id}?done={done}#actions")


@page
def village_prologue(ctx: Ctx, village_id: str) -> Response:
    """A start vote or a kick vote, set or withdrawn (classic prologue)."""
    _check_village_id(village_id)
    account_id = _require_member(ctx, village_id)
    form = ctx.form
    try:
        done = actions.prologue(
            village_id,
            account_id,
            form.get("action", ""),
            form.get("target") or None,
            ctx.now,
            ctx.unit,
        )
    except ServiceError as error:
        ctx.unit.reload(village_id)
        return _village_page(ctx, village_id, error.status, str(error))
    return redirect(f"/villages/{village_id}?done={done}")


@page
def village_will(ctx: Ctx, village_id: str) -> Response:
    _check_village_id(village_id)
    account_id = _require_member(ctx, village_id)
    text = ctx.form.get("text", "")
    try:
        actions.save_will(village_id, account_id, text, ctx.now, ctx.unit)
    except ServiceError as error:
        return _village_page(ctx, village_id, error.status, str(error), will_draft=text)
    return redirect(f"/villages/{village_id}?done=will#will")


@page
def village_join(ctx: Ctx, village_id: str) -> Response:
    _check_village_id(village_id)
    account_id = require_login(ctx)
    form = ctx.form
    try:
        villages.join(
            village_id, account_id, form.get("slot", ""), form.get("persona", ""), ctx.now, ctx.unit
        )
    except ServiceError as error:
        return _village_page(ctx, village_id, error.status, str(error))
    return redirect(f"/villages/{village_id}?done=joined")


@page
def village_leave(ctx: Ctx, village_id: str) -> Response:
    account_id = require_login(ctx)
    record = _record(ctx, village_id)
    slot = record.slot_of(account_id)
    if slot is None:
        raise BadRequest("この村に参加していません", 403)
    if ctx.request.method == "GET":
        refusal = villages.leave_refusal(record, slot)
        if refusal is not None:
            raise BadRequest(refusal, 403)
        locks = record.village.state != "opening"
        return ctx.page("leave.html", village=record.village, locks=locks)
    lock_until = villages.leave(village_id, account_id, ctx.now, ctx.unit)
    return ctx.page("left.html", village=record.village, lock_until=lock_until)
