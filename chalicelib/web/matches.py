"""Pages of games played move by move: start one against the computer from the top page, the
game's page (board, log, forms), a move, and the live page's "anything new?" question.

Only the game's players see its page (a guest by the id in the signed cookie); what each
side is shown comes from its rule set's view of that side. Handlers take ``(request,
match_id)``.
"""

import math
import re
from datetime import timedelta
from functools import partial
from typing import Any
from urllib.parse import urlencode

from chalice import Response

from .. import bounded, runtime
from ..links import match_scope, presence_token, read_match_token, read_presence_token
from ..render import render
from ..services import matches, reviews
from ..services.errors import InvalidInput, NotFound
from ..storage.errors import FAULTS
from .http import BadRequest, html, json_response, redirect
from .pages import Ctx, Request, json_api, log_fault, page

EXPIRED_LINK = "このリンクは正しくないか、期限が切れています。ログインして対局を開いてください"
# A game's mail link lets its player in for this long from the tap, that game only: they may
# move again with no new mail (an execution, then the night) days after the link's deadline.
PASS_SESSION_FOR = timedelta(days=7)
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{16}")
SHARE_TOKEN = MATCH_ID  # 12 random bytes, URL-safe
NUMBER = re.compile(r"[0-9]{1,6}")
# A structured move is a small object (the largest, B's night with its instructions, is a
# few hundred characters, three levels deep): anything much larger is no move.
MAX_MOVE_CHARS = 4000
MAX_MOVE_DEPTH = 8


def _check_id(match_id: str) -> None:
    if not MATCH_ID.fullmatch(match_id):
        raise BadRequest("その対局は見つかりません", 404)


class Invited(Exception):
    """A visitor of a game with an open seat: the link was their invitation."""


def _seat(
    ctx: Ctx, match_id: str, page: bool = False, here: bool = True
) -> tuple[matches.Match, str]:
    """The game and the side this browser plays in it; nobody else sees a game's page (a
    visitor of a game's ``page`` with an open seat is shown the invitation instead) or acts
    in it (403). ``here``: the request is recorded as the player's sign of life (a move
    records it only when it writes nothing else)."""
    _check_id(match_id)
    match = ctx.match(match_id)
    side = match.side_of(ctx.players(match_id))
    if side is None:
        if page and match.open_side is not None and not match.ended:
            raise Invited
        raise BadRequest("この対局の対局者ではありません", 403)
    if matches.settle(match, ctx.now, side):
        match = ctx.unit.reload_match(match_id)
    if here:
        matches.seen_here(match_id, match.presence, side, ctx.now)  # any request of theirs counts
    return match, side


@page
def start(ctx: Ctx) -> Response:
    rules = ctx.form.get("rules", "")
    try:
        match_id = matches.start(rules, ctx.form, ctx.player(), ctx.now, ctx.unit)
    except matches.MoreSetup as more:
        # The choices so far ride along as hidden fields (the side drawn now fixed); a
        # refusal of what this page chose comes back on it, with its sentence.
        kept = {k: v for k, v in more.given.items() if k != "csrf" and "." not in k}
        status = 400 if more.context.get("message") else 200
        return ctx.page(more.template, status, fields=kept, **more.context)
    return redirect(f"/matches/{match_id}", ctx.set_cookie)


def _page(ctx: Ctx, match: matches.Match, side: str, status: int = 200, **extra: Any) -> Response:
    rules = match.rules
    context = rules.page(match.game, side)
    hold_until = match.holding(ctx.now)
    # The mover's page in a live game between people (or waiting for the second person,
    # whose sitting may hand it the move) says it is here (decision 82).
    mover = not match.ended and rules.to_move(match.game) == side
    counted = mover and match.live_between_people
    here = presence_token(match.match_id, side, ctx.now) if counted else None
    share = match.record.share
    return ctx.page(
        rules.page_template,
        status,
        match_id=match.match_id,
        moves=match.moves,
        ended=match.ended,
        clocks=match.clocks(ctx.now),
        # 1手1日 is a date to meet, not seconds to count: its page names the deadline.
        correspondence=match.correspondence,
        deadline=None if match.ended else match.record.flag_at,
        opponent=match.opponent,
        room=match.room,
        chat_open=match.between_people,
        chats=matches.chats(match),
        chat_count=match.record.chats,
        share_url=f"{runtime.base_url()}/records/{share}" if share else None,
        invite_url=f"{runtime.base_url()}/matches/{match.match_id}",
        origin=reviews.origin(match),
        ranked=match.ranked,
        aborted=match.aborted,  # 中止: shown instead of who won (decision 150)
        abortable=match.abortable,  # 投了 now would be 中止
        # Until when the answer due now is held (ランク戦), and — to the answering side only —
        # whether it has been given: the asking side's page is the same either way.
        hold_left=math.ceil((hold_until - ctx.now).total_seconds()) if hold_until else None,
        answered=match.held is not None and match.held["side"] == side,
        here=here,
        poll=_poll_url(match, here),
        # A hint for each move against the 入門 CPU, the strength for learning (decision 175).
        hints=match.record.strength == "beginner",
        **context,
        **extra,
    )


def _poll_url(match: matches.Match, here: str | None) -> str:
    """The live script's question: since this page's move count, with this page's presence
    token (decision 82) and whether a seat waited when it was made (it reloads once taken)."""
    asks = {"seat": "open"} if match.open_side else {}
    if here:
        asks["here"] = here
    base = f"/matches/{match.match_id}/since/{match.moves}"
    return f"{base}?{urlencode(asks)}" if asks else base


@page
def match_page(ctx: Ctx, match_id: str) -> Response:
    try:
        match, side = _seat(ctx, match_id, page=True)
    except Invited:
        match = ctx.unit.match(match_id)
        return ctx.page(
            "match_join.html",
            match_id=match_id,
            label=match.rules.label,
            side=match.open_side,
            offer=match.rules.offer(),
            ranked=match.ranked,
        )
    stale = ctx.request.query.get("stale") == "1"
    return _page(ctx, match, side, message=matches.STALE if stale else None)


@page
def mail_pass(ctx: Ctx, match_id: str, token: str) -> Response:
    """A player's signed way in from a game's mail: a narrow session for this game only
    (a forwarded mail lends nothing more), for ``PASS_SESSION_FOR`` from the tap, each newer
    link renewing it, then the game's page (decision 83). A link past its end (or not this
    game's) asks to log in and comes back to the board; a browser that already plays the
    game goes to it."""
    _check_id(match_id)
    found = read_match_token(token, match_id, ctx.now)
    match = ctx.match(match_id)
    if found is None or match.side_of([f"a:{found.account_id}"]) is None:
        if match.side_of(ctx.players(match_id)) is not None:
            return redirect(f"/matches/{match_id}", ctx.set_cookie)
        board = f"/matches/{match_id}"
        return ctx.page("error.html", 400, message=EXPIRED_LINK, offer_login=True, back=board)
    until = ctx.now + PASS_SESSION_FOR
    ctx.village_pass(found.account_id, match_scope(match_id), until, renew=True)
    return redirect(f"/matches/{match_id}", ctx.set_cookie)


@page
def join(ctx: Ctx, match_id: str) -> Response:
    """The invited person sits (a guest without registering, or their account)."""
    _check_id(match_id)
    match = ctx.match(match_id)
    matches.join(match, ctx.player(), ctx.now, identities=ctx.players(match_id))
    return redirect(f"/matches/{match_id}", ctx.set_cookie)


@page
def move(ctx: Ctx, match_id: str) -> Response:
    # A move that is written hands the turn over, and with it whose minute counts (decision
    # 82): its sign of life would be a write for nothing, a 4th request (decision duel 102).
    # Anything else (a confirmation, a refusal) records it as any request of the player does.
    match, side = _seat(ctx, match_id, here=False)
    moved = False
    try:
        response, moved = _move(ctx, match, side)
        return response
    finally:
        if not moved:
            matches.seen_here(match_id, match.presence, side, ctx.now)


def _move(ctx: Ctx, match: matches.Match, side: str) -> tuple[Response, bool]:
    """The move's answer, and whether the move was written."""
    match_id = match.match_id
    form = ctx.form
    seen = form.get("moves", "")
    if not NUMBER.fullmatch(seen):
        raise BadRequest("ページが正しくありません。読み込み直してください")
    given = None
    if "move" in form:  # a structured move (JSON), as scripts and tests send it
        try:
            given = bounded.loads(form["move"], MAX_MOVE_CHARS, MAX_MOVE_DEPTH)
        except ValueError:
            raise BadRequest("手の形式が正しくありません") from None
        if not isinstance(given, dict):
            raise BadRequest("手はオブジェクトで指定してください")
    elif form.get("confirm") != "1":
        question = matches.question(match, side, form)
        if question is not None:
            fields = {k: v for k, v in form.items() if k != "csrf"}
            confirm = ctx.page(
                "match_confirm.html", match_id=match_id, question=question, fields=fields
            )
            return confirm, False
    try:
        matches.move(
            match,
            ctx.players(match_id),
            int(seen),
            given,
            None if given is not None else form,
            ctx.now,
        )
    except matches.Stale:
        return redirect(f"/matches/{match_id}?stale=1", ctx.set_cookie), False
    except InvalidInput as refusal:
        match = ctx.unit.reload_match(match_id)
        return _page(ctx, match, side, status=400, message=str(refusal), form=form), False
    return redirect(f"/matches/{match_id}", ctx.set_cookie), True


@page
def chat(ctx: Ctx, match_id: str) -> Response:
    """A chat message to the other player; the page comes back at its chat."""
    match, _ = _seat(ctx, match_id)
    matches.chat(match, ctx.players(match_id), ctx.form.get("text", ""), ctx.now)
    return redirect(f"/matches/{match_id}#chat", ctx.set_cookie)


@page
def cancel(ctx: Ctx, match_id: str) -> Response:
    """The invitation taken back (its seat still waiting): back to the top page."""
    match, _ = _seat(ctx, match_id)
    matches.cancel(match, ctx.players(match_id))
    return redirect("/", ctx.set_cookie)


@page
def share(ctx: Ctx, match_id: str) -> Response:
    """棋譜を共有: either player makes (or takes back) the ended game's public link."""
    match, _ = _seat(ctx, match_id)
    if ctx.form.get("do") == "withdraw":
        matches.withdraw_share(match, ctx.players(match_id))
    else:
        matches.share(match, ctx.players(match_id), ctx.now)
    return redirect(f"/matches/{match_id}#share", ctx.set_cookie)


@page
def record(ctx: Ctx, token: str) -> Response:
    """A shared record, read-only, for anyone (logged out too): no chat, no player."""
    if not SHARE_TOKEN.fullmatch(token):
        raise BadRequest("この棋譜は見つかりません", 404)
    match = matches.shared(token)
    context = match.rules.record(match.game)
    return ctx.page(
        match.rules.record_template,
        public=True,
        share_url=f"{runtime.base_url()}/records/{token}",
        ended_at=match.record.ended_at,
        **context,
    )


@partial(page, answers_json=True)
def seen(ctx: Ctx, match_id: str) -> Response:
    """The side's view as JSON (the same view the page shows)."""
    match, side = _seat(ctx, match_id)
    body = {"moves": match.moves, "side": side, "view": match.rules.seen(match.game, side)}
    return json_response(body)


@json_api
def progress(request: Request, match_id: str, since: str) -> Response:
    """Anything new since move ``since``? One GetItem, no session: the count of moves and
    whether the game ended are public to both sides. A flag fallen, or the mover gone a
    minute, counts as new, so the page reloads and the reload ends the game. ``?here=``: the
    mover's page's presence token (decision 82), recorded at most every 15 s; ``?seat=open``:
    the page was made while a seat waited."""
    if not MATCH_ID.fullmatch(match_id) or not NUMBER.fullmatch(since):
        return json_response({"error": "not found"}, 404)
    now = runtime.now()
    try:
        found = matches.progress(match_id)
    except NotFound:
        return json_response({"error": "not found"}, 404)
    here = read_presence_token(request.query.get("here", ""), match_id, now)
    if here is not None:
        matches.seen_here(match_id, found.presence, here, now)
    flagged = found.flag_at is not None and now >= found.flag_at
    gone = found.presence is not None and now >= matches.gone_at(found.presence)
    # A page made while a seat waited reloads once someone sat (the clocks start then).
    sat = request.query.get("seat") == "open" and not found.seat_open
    # A held answer due to be shown counts as new only once its hold has ended: before, the
    # answer is the same to the asking side whether or not it was given (decision 65).
    revealed = found.reveal_at is not None and now >= found.reveal_at
    changed = found.moves != int(since) or found.state != "running"
    new = changed or flagged or gone or sat or revealed
    body = {"new": new, "moves": found.moves, "state": found.state, "chats": found.chats}
    return json_response(body)


HEARTBEAT_EVERY = 10  # seconds: the page without JavaScript says it is here this often


def heartbeat(request: Request, match_id: str, token: str) -> Response:
    """The mover's page without JavaScript says it is here (decision 82): a small frame in it
    that refreshes itself, so the page and a move half filled in stay as they are. No
    session, as the poll; a fault keeps the frame asking."""
    now = runtime.now()
    side = read_presence_token(token, match_id, now) if MATCH_ID.fullmatch(match_id) else None
    if side is None:
        return _framed(render("match_here.html", state="unknown"), 404)
    try:
        found = matches.progress(match_id)
        matches.seen_here(match_id, found.presence, side, now)
        presence = found.presence
        mine = presence is None or presence.side == side  # None: the other seat still waits
        state = "here" if found.state == "running" and mine else "moved"
    except NotFound:
        state = "unknown"
    except FAULTS as error:
        log_fault("heartbeat", error)
        state = "here"  # not recorded this time: ask again
    body = render("match_here.html", state=state, match_id=match_id, every=HEARTBEAT_EVERY)
    return _framed(body)


def _framed(body: str, status: int = 200) -> Response:
    """A page our own game page may show in a frame (every other page refuses frames)."""
    response = html(body, status)
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
    )
    return response
