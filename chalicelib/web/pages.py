"""Page handlers behind the routes of app.py: read the request, call a service, render."""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from chalice import Response

from .. import runtime
from ..services import account_mail, accounts, actions, posts, sessions, villages
from ..services.errors import ServiceError
from ..storage.repository import load_account, load_village
from ..visibility import VISITOR
from . import village_view
from .http import (
    BadRequest,
    Session,
    check_csrf,
    check_origin,
    client_ip,
    fresh_session,
    html,
    parse_form,
    read_session,
    redirect,
)
from .render import render

# A member's page view counts as access (RULES §9); one write a minute is plenty.
ACCESS_RESOLUTION = timedelta(minutes=1)
LOUNGE_STATES = ("opening", "running", "ending", "ended", "abandoned")
VILLAGE_ID = re.compile(r"[0-9]{1,12}")
NUMBER = re.compile(r"[0-9]+")  # ASCII digits only: isdigit() also takes "²", which int() refuses
MAX_NUMBER = 10**9  # more than any day; longer numbers read as this (int() stops at 4,300 digits)


@dataclass(frozen=True)
class Request:
    """The parts of a Chalice request the pages use."""

    method: str
    path: str
    headers: dict[str, str]
    query: dict[str, str]
    raw_body: bytes | None
    context: dict[str, Any]


@dataclass
class Ctx:
    request: Request
    now: datetime
    session: Session  # the cookie: what it claims is checked against the session item
    set_cookie: str | None = None
    form: dict[str, str] = field(default_factory=dict)
    _grant: sessions.Grant | None = None
    _settled: bool = False

    @property
    def grant(self) -> sessions.Grant | None:
        """The live session item the cookie names, read at first need (one GetItem)."""
        if not self._settled:
            claim = self.session
            grant = None
            if claim.account_id and claim.session_id:
                grant = sessions.check(claim.account_id, claim.session_id, self.now)
            self.settle(grant)
        return self._grant

    def settle(self, grant: sessions.Grant | None) -> None:
        """Records what the session item said; a dead one leaves only the CSRF token."""
        self._settled = True
        self._grant = grant
        if grant is None and self.session.account_id:  # logged out elsewhere, a new password
            self.session = Session(account_id=None, csrf=self.session.csrf)
            self.set_cookie = self.session.cookie(self.now)

    @property
    def settled(self) -> bool:
        return self._settled

    def session_claim(self) -> sessions.Grant:
        """What the cookie claims, for a write that checks it against the session item."""
        claim = self.session
        assert claim.account_id is not None and claim.session_id is not None
        return sessions.Grant(claim.account_id, claim.session_id, claim.village_id)

    def claimed_member(self, village_id: str) -> str | None:
        """Whom the (signed) cookie claims to act for here, before the session item is read."""
        claim = self.session
        if claim.account_id and claim.session_id and claim.village_id in (None, village_id):
            return claim.account_id
        return None

    @property
    def account_id(self) -> str | None:
        """The logged-in account: a whole-account session only, never a mail link's."""
        return self.grant.account_id if self.grant and self.grant.village_id is None else None

    def member_account(self, village_id: str) -> str | None:
        """Who this browser acts for in this village: a login, or that village's mail link."""
        return self.grant.account_id if self.grant and self.grant.acts_in(village_id) else None

    def page(self, template: str, status: int = 200, **context: Any) -> Response:
        body = render(
            template,
            csrf=self.session.csrf,
            account_id=self.account_id,
            pass_village=self.grant.village_id if self.grant else None,
            now=self.now,
            dev_tools=runtime.dev_tools() is not None,
            **context,
        )
        return html(body, status, self.set_cookie)

    def login_as(self, account_id: str | None, until: datetime | None = None) -> None:
        """A new session (and CSRF token) on every change of who is logged in."""
        self._replace(
            sessions.open_session(account_id, self.now, until=until) if account_id else None
        )

    def village_pass(self, account_id: str, village_id: str, until: datetime) -> None:
        """A mail link's narrow session, unless this browser already acts for that member."""
        if self.grant and self.grant.account_id == account_id and self.grant.acts_in(village_id):
            return
        self._replace(sessions.open_session(account_id, self.now, village_id, until))

    def _replace(self, grant: sessions.Grant | None) -> None:
        if self.grant is not None:
            sessions.close(self.grant)
        self._grant, self._settled = grant, True
        self.session = fresh_session(grant)
        self.set_cookie = self.session.cookie(self.now)


Handler = Callable[[Ctx], Response]


def page(handler: Handler, *, csrf: bool = True) -> Callable[[Request], Response]:
    """Session, CSRF for POSTs, and every refusal as a page with its message and 4xx status.

    ``csrf=False`` only where a signed token in the URL is the authority (one-click
    unsubscribe, RFC 8058, is posted by mail clients without our cookie).
    """

    def run(request: Request) -> Response:
        now = runtime.now()
        session = read_session(request.headers, now)
        ctx = Ctx(request, now, session or fresh_session())
        if session is None:
            ctx.set_cookie = ctx.session.cookie(now)
        try:
            if request.method == "POST" and csrf:
                # Our forms post urlencoded; anything else did not come from our page.
                content_type = request.headers.get("content-type", "")
                if not content_type.startswith("application/x-www-form-urlencoded"):
                    raise BadRequest(
                        "フォームの送り方が正しくありません。ページから送り直してください", 415
                    )
                check_origin(request.headers)
                ctx.form = parse_form(request.raw_body)
                check_csrf(session, ctx.form)
            return handler(ctx)
        except (ServiceError, BadRequest) as error:
            return ctx.page("error.html", status=error.status, message=str(error))

    run.__name__ = handler.__name__
    return run


def not_found(request: Request) -> Response:
    return page(lambda ctx: ctx.page("error.html", 404, message="ページが見つかりません"))(request)


# ----- lounge -----


@page
def lounge(ctx: Ctx) -> Response:
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
    return ctx.page("lounge.html", sections=sections, single=bool(state))


# ----- accounts -----


@page
def register(ctx: Ctx) -> Response:
    if ctx.request.method == "GET":
        return ctx.page("register.html", values={})
    form = ctx.form
    try:
        registration = account_mail.sign_up(
            form.get("account_id", ""),
            form.get("password", ""),
            form.get("email", ""),
            client_ip(ctx.request.context),
            ctx.now,
        )
    except ServiceError as error:
        values = {k: form.get(k, "")[:300] for k in ("account_id", "email")}
        return ctx.page("register.html", error.status, values=values, message=str(error))
    # The same page whether the address was new or another account's (its owner is mailed).
    return ctx.page("registered.html", email=registration.email)


@page
def verify(ctx: Ctx) -> Response:
    """GET shows a button (mail scanners open links); POST verifies."""
    token = (ctx.form if ctx.request.method == "POST" else ctx.request.query).get("token", "")
    if ctx.request.method == "GET":
        return ctx.page("verify.html", token=token)
    account_id = accounts.verify_email(token, ctx.now)
    return ctx.page("verified.html", verified_id=account_id)


@page
def login(ctx: Ctx) -> Response:
    if ctx.request.method == "GET":
        return ctx.page("login.html", next=_safe_next(ctx.request.query.get("next")))
    form = ctx.form
    target = _safe_next(form.get("next"))
    try:
        account = accounts.login(
            form.get("account_id", ""),
            form.get("password", ""),
            client_ip(ctx.request.context),
            ctx.now,
        )
    except ServiceError as error:
        return ctx.page(
            "login.html",
            error.status,
            message=str(error),
            next=target,
            account_value=form.get("account_id", ""),
        )
    # An unverified account's session ends with the account's day: its ID may be someone
    # else's after that, and a session item names only the ID.
    until = None if account.email_verified else account.expires_at
    ctx.login_as(account.account_id, until)
    return redirect(target or "/", ctx.set_cookie)


@page
def login_link_request(ctx: Ctx) -> Response:
    """「ログイン用のリンクをメールで送る」: the same answer whether or not the ID exists."""
    identifier = ctx.form.get("identifier", "")[:300]
    try:
        account_mail.send_login_link(identifier, client_ip(ctx.request.context), ctx.now)
    except ServiceError as error:
        return ctx.page("login.html", error.status, link_message=str(error))
    return ctx.page("login.html", link_sent=True)


@page
def login_link(ctx: Ctx) -> Response:
    """A login link from mail: GET shows a button (mail scanners open links); POST logs in."""
    token = (ctx.form if ctx.request.method == "POST" else ctx.request.query).get("token", "")
    if ctx.request.method == "GET":
        return ctx.page("login_link.html", token=token[:2000])
    account_id = account_mail.use_login_link(token, ctx.now)
    ctx.login_as(account_id)
    return redirect("/account", ctx.set_cookie)


def _safe_next(value: str | None) -> str | None:
    """Only our own paths: never redirect off-site after login.

    Browsers read a backslash as a slash and drop tabs and newlines, so ``/\\evil`` and
    ``/\\t/evil`` would lead off-site like ``//evil``: refuse them all.
    """
    if not value or not value.startswith("/") or value.startswith("//") or len(value) > 500:
        return None
    if "\\" in value or any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        return None
    return value


@page
def logout(ctx: Ctx) -> Response:
    ctx.login_as(None)
    return redirect("/", ctx.set_cookie)


def _require_login(ctx: Ctx) -> str:
    if ctx.account_id is None:
        raise BadRequest("ログインしてください", 401)
    return ctx.account_id


def _require_member(ctx: Ctx, village_id: str) -> str:
    """A login, or this village's mail link (which reaches nothing else)."""
    account_id = ctx.member_account(village_id)
    if account_id is None:
        raise BadRequest("ログインしてください", 401)
    return account_id


def _account_page(ctx: Ctx, status: int = 200, **context: Any) -> Response:
    account = load_account(_require_login(ctx))
    if account is None:
        ctx.login_as(None)
        raise BadRequest("ログインしてください", 401)
    return ctx.page("account.html", status, account=account, **context)


@page
def account(ctx: Ctx) -> Response:
    return _account_page(ctx)


@page
def account_update(ctx: Ctx) -> Response:
    account_id = _require_login(ctx)
    form = ctx.form
    what = form.get("what")
    source = client_ip(ctx.request.context)
    try:
        if what in ("password", "email"):  # both check the password: throttled as a login
            accounts.throttle_password_check(account_id, source, ctx.now)
        if what == "password":
            accounts.change_password(account_id, form.get("old", ""), form.get("new", ""))
            accounts.forget_failures(account_id, source, ctx.now)
            if ctx.grant is not None:  # every other browser is logged out
                sessions.close_all(account_id, keep=ctx.grant.session_id)
            done = "パスワードを変更しました。ほかの端末はログアウトしました"
        elif what == "email":
            registration = account_mail.change_email(
                account_id, form.get("password", ""), form.get("email", ""), source, ctx.now
            )
            accounts.forget_failures(account_id, source, ctx.now)
            done = (
                f"{registration.email} あてに確認メールを送りました。"
                "確認が済むと、新しいアドレスに切り替わります"
            )
        elif what == "resend":
            address = account_mail.resend_verification(account_id, source, ctx.now)
            if address is None:
                raise BadRequest("確認を待っているメールアドレスはありません")
            done = f"{address} あてに確認メールを送り直しました"
        elif what == "preferences":
            accounts.set_preferences(
                account_id, {key: form.get(key) == "on" for key in accounts.PREFERENCES}
            )
            done = "通知設定を保存しました"
        else:
            raise BadRequest("変更する項目が正しくありません")
    except ServiceError as error:
        return _account_page(ctx, error.status, message=str(error))
    return _account_page(ctx, done=done)


# ----- villages -----


def _check_village_id(village_id: str) -> None:
    """A village id from the path is digits, checked before it names anything in storage."""
    if not VILLAGE_ID.fullmatch(village_id):
        raise BadRequest("その村は見つかりません", 404)


def _record(village_id: str):
    _check_village_id(village_id)
    record = load_village(village_id)
    if record is None:
        raise BadRequest("その村は見つかりません", 404)
    return record


def _int(value: str | None, name: str) -> int | None:
    if value in (None, ""):
        return None
    if not NUMBER.fullmatch(value):
        raise BadRequest(f"{name}の指定が正しくありません")
    digits = value.lstrip("0") or "0"
    return MAX_NUMBER if len(digits) > len(str(MAX_NUMBER)) else min(int(digits), MAX_NUMBER)


def _village_page(
    ctx: Ctx, village_id: str, status: int = 200, message: str | None = None, **extra: Any
) -> Response:
    record = _record(village_id)
    # A member's view records its access (at most once a minute); when it does, that same
    # write checks the session item too, so the page never costs more than three requests.
    claimed = ctx.member_account(village_id) if ctx.settled else ctx.claimed_member(village_id)
    slot = record.slot_of(claimed)
    if claimed is not None and slot is not None:
        member = record.members[slot]
        if member.last_access is None or ctx.now - member.last_access >= ACCESS_RESOLUTION:
            if ctx.settled:
                villages.touch(village_id, claimed, ctx.now, record)
            else:
                ctx.settle(villages.touch_checking_session(record, ctx.session_claim(), ctx.now))
    account_id = ctx.member_account(village_id)
    viewer = posts.viewer_of(record, account_id)
    query = ctx.request.query
    context = village_view.build(
        record,
        viewer if viewer.slot else VISITOR,
        ctx.now,
        query.get("board"),
        _int(query.get("day"), "日付"),
        query.get("cursor"),
        query.get("of"),
        first=(_int(query.get("from"), "ページ") or 1) if query.get("cursor") else 1,
        speaker=query.get("who") or None,
    )
    return ctx.page("village.html", status, message=message, **context, **extra)


def village(village_id: str) -> Handler:
    @page
    def show(ctx: Ctx) -> Response:
        return _village_page(ctx, village_id, done=ctx.request.query.get("done"))

    return show


def village_post(village_id: str) -> Handler:
    @page
    def handle(ctx: Ctx) -> Response:
        _check_village_id(village_id)
        account_id = _require_member(ctx, village_id)
        form = ctx.form
        board = form.get("board", "public")
        try:
            posts.post(village_id, account_id, board, form.get("text", ""), ctx.now)
        except ServiceError as error:
            return _village_page(
                ctx, village_id, error.status, str(error), draft=form.get("text", "")
            )
        return redirect(f"/villages/{village_id}?board={board}#posts")

    return handle


def village_actions(village_id: str) -> Handler:
    @page
    def handle(ctx: Ctx) -> Response:
        _check_village_id(village_id)
        account_id = _require_member(ctx, village_id)
        choices = {
            key: (ctx.form.get(key) or None)
            for key in village_view.CHOICE_LABELS
            if key in ctx.form
        }
        try:
            command = actions.save_actions(village_id, account_id, choices, ctx.now)
        except ServiceError as error:
            return _village_page(ctx, village_id, error.status, str(error))
        done = "ending" if command is not None else "saved"
        return redirect(f"/villages/{village_id}?done={done}#actions")

    return handle


def village_join(village_id: str) -> Handler:
    @page
    def handle(ctx: Ctx) -> Response:
        _check_village_id(village_id)
        account_id = _require_login(ctx)
        form = ctx.form
        try:
            villages.join(
                village_id, account_id, form.get("slot", ""), form.get("persona", ""), ctx.now
            )
        except ServiceError as error:
            return _village_page(ctx, village_id, error.status, str(error))
        return redirect(f"/villages/{village_id}?done=joined")

    return handle


def village_leave(village_id: str) -> Handler:
    @page
    def handle(ctx: Ctx) -> Response:
        account_id = _require_login(ctx)
        record = _record(village_id)
        if record.slot_of(account_id) is None:
            raise BadRequest("この村に参加していません", 403)
        if ctx.request.method == "GET":
            locks = record.meta.state != "opening"
            return ctx.page("leave.html", village=record.meta, locks=locks)
        lock_until = villages.leave(village_id, account_id, ctx.now)
        return ctx.page("left.html", village=record.meta, lock_until=lock_until)

    return handle
