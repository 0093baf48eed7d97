"""The page machinery every handler shares: the request, its context (session, CSRF, the
unit of work that loads each village once), refusals as pages.

The handlers themselves: ``accounts`` (registration, login, the account page),
``villages`` (the lounge and a village's pages), ``mail_links`` (signed links from mail)."""

import logging
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError
from chalice import Response
from msgspec import Struct, field
from msgspec.structs import replace
from pynamodb.exceptions import PynamoDBException

from .. import effects, runtime
from ..links import match_scope
from ..render import render
from ..services import sessions
from ..services.errors import ServiceError
from ..services.unit import Unit
from ..storage.errors import FAULTS
from . import static
from .http import (
    PUBLIC,
    BadRequest,
    Session,
    check_csrf,
    check_origin,
    fresh_session,
    html,
    json_response,
    parse_form,
    read_session,
)

if TYPE_CHECKING:  # a village's page never loads the games' service (decision 241)
    from ..services.matches import Match

log = logging.getLogger("mobius.web")

# AWS failed (after the SDK's retries): nothing the player did, and nothing they sent is lost.
BUSY = "混み合っています。少し待ってからもう一度お試しください"
RETRY_AFTER = "10"  # seconds: a throttle or a conflict has cleared by then
SECRET_FIELDS = ("password", "old", "new")  # never sent back, even to their owner
# The 405 page: a form's address opened as a page (a reload or Back after sending it).
WRONG_METHOD = (
    "このアドレスはフォームの送り先なので、ページとしては開けません"
    "（送ったあとの再読み込みや「戻る」でも、ここに来ます）。下のリンクから続けてください"
)


class Request(Struct, frozen=True):
    """The parts of a Chalice request the pages use."""

    method: str
    path: str
    headers: dict[str, str]
    query: dict[str, str]
    raw_body: bytes | None
    context: dict[str, Any]


class Ctx(Struct):
    request: Request
    now: datetime
    session: Session  # the cookie: what it claims is checked against the session item
    set_cookie: str | None = None
    form: dict[str, str] = field(default_factory=dict)
    unit: Unit = field(default_factory=Unit)  # this request's villages, each loaded once
    _grant: sessions.Grant | None = None
    _settled: bool = False

    @property
    def grant(self) -> sessions.Grant | None:
        """The live session item the cookie names, read at first need (one GetItem)."""
        self.check_session(writes=self.request.method not in ("GET", "HEAD"))
        return self._grant

    def check_session(self, writes: bool) -> None:
        """Reads the session item the cookie names, once a request: consistently when the
        request will write (decision 69). A dead one leaves only the CSRF token."""
        if self._settled:
            return
        claim = self.session
        grant = None
        if claim.account_id and claim.session_id:
            grant = sessions.check(claim.account_id, claim.session_id, self.now, writes)
        self._settle(grant)

    def _settle(self, grant: sessions.Grant | None) -> None:
        claim = self.session
        self._settled, self._grant = True, grant
        if grant is None and claim.account_id:  # logged out elsewhere, a new password
            self.session = Session(account_id=None, csrf=claim.csrf, guest=claim.guest)
            self.set_cookie = self.session.cookie(self.now)

    def match(self, match_id: str) -> "Match":
        """A game this request acts in, read together with the session item the cookie names
        when that is not read yet: one request for both (decision duel 102)."""
        claim = self.session
        if self._settled or not (claim.account_id and claim.session_id):
            return self.unit.match(match_id)
        match, grant = self.unit.match_and_session(
            match_id, claim.account_id, claim.session_id, self.now
        )
        self._settle(grant)
        return match

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

    def page(
        self,
        template: str,
        status: int = 200,
        public: bool = False,
        own_style: str | None = None,
        **context: Any,
    ) -> Response:
        """The page; ``public``: a kind with nothing private on it, which a visitor (nobody
        logged in, no mail link's session) may get back from the back/forward cache;
        ``own_style``: a second static stylesheet only this kind of page carries, inline too."""
        stylesheet = static.files()["app.css"]
        extra = static.files()[own_style] if own_style else None
        body = render(
            template,
            csrf=self.session.csrf,
            account_id=self.account_id,
            pass_village=self.grant.village_id if self.grant else None,
            now=self.now,
            dev_tools=runtime.dev_tools() is not None,
            stylesheet=stylesheet.body,
            own_style=extra.body if extra else None,
            static_url=static.url,  # content-hashed: /static/live.<hash>.js
            **context,
        )
        cache = PUBLIC if public and status == 200 and self.grant is None else "no-store"
        styles = f" {stylesheet.inline_source}" + (f" {extra.inline_source}" if extra else "")
        return html(body, status, self.set_cookie, styles, cache)

    def busy(self) -> Response:
        """The 503 page; for a POST, what the player sent (but its passwords) ready to send
        again to the same path (a mail link's is all in its path). Drawn without asking
        storage who is logged in: storage is what failed."""
        self._settled = True
        secret = [name for name in SECRET_FIELDS if name in self.form]
        kept = {k: v for k, v in self.form.items() if k != "csrf" and k not in secret}
        resend = self.request.path if self.request.method == "POST" else None
        response = self.page(
            "busy.html", 503, message=BUSY, kept=kept, secrets=secret, resend=resend
        )
        response.headers["Retry-After"] = RETRY_AFTER
        return response

    def login_as(
        self, account_id: str | None, until: datetime | None = None, reset: bool = False
    ) -> None:
        """A new session (and CSRF token) on every change of who is logged in; a login takes
        over this browser's guest games (decision 192)."""
        self._replace(
            sessions.open_session(account_id, self.now, until=until, reset=reset)
            if account_id
            else None
        )
        if account_id and self.session.guest:
            from ..services import matches

            matches.adopt(self.session.guest, account_id, self.now)

    def village_pass(
        self, account_id: str, village_id: str, until: datetime, renew: bool = False
    ) -> None:
        """A mail link's narrow session, unless this browser already acts for that member
        (``renew``: a narrow one of that place is opened again, for its new end)."""
        grant = self.grant
        if (
            grant is not None
            and grant.account_id == account_id
            and grant.acts_in(village_id)
            and (grant.village_id is None or not renew)
        ):
            return
        self._replace(sessions.open_session(account_id, self.now, village_id, until))

    def _replace(self, grant: sessions.Grant | None) -> None:
        if self.grant is not None:
            sessions.close(self.grant)
        self._grant, self._settled = grant, True
        self.session = replace(fresh_session(grant), guest=self.session.guest)
        self.set_cookie = self.session.cookie(self.now)

    def players(self, match_id: str | None = None) -> list[str]:
        """Who this browser plays games of two sides as: its account (or, in ``match_id``,
        the account a mail link of that game let in), its guest id."""
        grant = self.grant
        account = self.account_id
        if account is None and grant is not None and match_id is not None:
            account = grant.account_id if grant.village_id == match_scope(match_id) else None
        found = [f"a:{account}"] if account else []
        return found + ([f"g:{self.session.guest}"] if self.session.guest else [])

    def player(self) -> str:
        """The identity a new game is started as: the account, else a guest id (made now:
        a guest plays at once, without registering)."""
        if self.account_id:
            return f"a:{self.account_id}"
        if not self.session.guest:
            self.session = replace(self.session, guest=secrets.token_urlsafe(16))
            self.set_cookie = self.session.cookie(self.now)
        return f"g:{self.session.guest}"


Handler = Callable[..., Response]  # (ctx, *path parameters)
Page = Callable[..., Response]  # (request, *path parameters)


def page(handler: Handler, *, csrf: bool = True, answers_json: bool = False) -> Page:
    """Session, CSRF for POSTs, every refusal as a page with its message and 4xx status, and
    every fault of AWS as the 503 page (``busy``; JSON for ``answers_json``), never a 500.

    ``csrf=False`` only where a signed token in the URL is the authority (one-click
    unsubscribe, RFC 8058, is posted by mail clients without our cookie). What the
    handler's writes owe is sent once it has answered (``effects.sent_after``).
    """

    def run(request: Request, *params: str) -> Response:
        now = runtime.now()
        session = read_session(request.headers, now)
        ctx = Ctx(request, now, session or fresh_session())
        if session is None:
            ctx.set_cookie = ctx.session.cookie(now)
        try:
            with effects.sent_after(ctx.unit):
                return _answer(ctx, session, handler, params, csrf)
        except FAULTS as error:  # a refusal's page too may need storage (who is logged in)
            log_fault(handler.__name__, error)
            return busy_json() if answers_json else ctx.busy()

    run.__name__ = handler.__name__
    return run


def _answer(
    ctx: Ctx, session: Session | None, handler: Handler, params: tuple[str, ...], csrf: bool
) -> Response:
    """The handler's page, or the refusal's (its message and 4xx status)."""
    request = ctx.request
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
        return handler(ctx, *params)
    except (ServiceError, BadRequest) as error:
        return ctx.page("error.html", status=error.status, message=str(error))


def json_api(handler: Page) -> Page:
    """A JSON answer without a session (the live page's poll): a fault is the 503 JSON."""

    def run(request: Request, *params: str) -> Response:
        try:
            return handler(request, *params)
        except FAULTS as error:
            log_fault(handler.__name__, error)
            return busy_json()

    run.__name__ = handler.__name__
    return run


def busy_json() -> Response:
    response = json_response({"error": "busy", "message": BUSY}, 503)
    response.headers["Retry-After"] = RETRY_AFTER
    return response


def log_fault(where: str, error: Exception) -> None:
    """One line for the operator: the handler, the call that failed and AWS's code; nothing
    of the request (its path may hold a mail link's token, its form a password)."""
    cause = error.cause if isinstance(error, PynamoDBException) else error
    operation = getattr(cause, "operation_name", "-")
    code = cause.response["Error"].get("Code", "-") if isinstance(cause, ClientError) else "-"
    log.warning("storage fault in %s: %s %s %s", where, type(error).__name__, operation, code)


def not_found(request: Request) -> Response:
    """The 404 page, under the visitor's session (a favicon or a mistyped address must not
    log anyone out nor lose a guest's games)."""

    def answer(ctx: Ctx) -> Response:
        return ctx.page("error.html", 404, message="ページが見つかりません")

    answer.__name__ = "not_found"
    return page(answer, csrf=False)(request)


def wrong_method(request: Request, allowed: list[str], above: str) -> Response:
    """The 405 page: a form's address opened as a page (a reload or Back after sending it),
    with a link to the page above it."""

    def answer(ctx: Ctx) -> Response:
        response = ctx.page("error.html", 405, message=WRONG_METHOD, above=above)
        response.headers["Allow"] = ", ".join(allowed)
        return response

    answer.__name__ = "wrong_method"
    return page(answer, csrf=False)(request)


def require_login(ctx: Ctx) -> str:
    if ctx.account_id is None:
        raise BadRequest("ログインしてください", 401)
    return ctx.account_id
