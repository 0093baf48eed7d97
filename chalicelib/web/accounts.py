"""Account pages: register, verify an address, log in (password or mail link), log out, the
account page (password, address, mail preferences)."""

from typing import Any

from chalice import Response

from ..services import account_mail, accounts, hosting, sessions
from ..services.errors import ServiceError
from .http import BadRequest, client_ip, redirect
from .pages import Ctx, page, require_login


@page
def register(ctx: Ctx) -> Response:
    if ctx.request.method == "GET":
        return ctx.page("register.html", public=True, values={})
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
    try:
        verified = accounts.verify_email(token, ctx.now)
    except ServiceError as error:  # expired or tampered with: offer the login (decision 82)
        return ctx.page("error.html", error.status, message=str(error), offer_login=True)
    # The link proved the address, whose password was just set: the player is signed in
    # (decision 81). Once only: a verification link opened again is no login link.
    if verified.just_now and ctx.account_id != verified.account_id:
        ctx.login_as(verified.account_id)
    return ctx.page("verified.html", verified_id=verified.account_id)


@page
def login(ctx: Ctx) -> Response:
    if ctx.request.method == "GET":
        return ctx.page("login.html", public=True, next=_safe_next(ctx.request.query.get("next")))
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
    try:
        account_id = account_mail.use_login_link(token, ctx.now)
    except ServiceError as error:  # expired, used or tampered with: offer the login again
        return ctx.page("error.html", error.status, message=str(error), offer_login=True)
    ctx.login_as(account_id, reset=True)  # a member who forgot the password may set one now
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


def _account_page(ctx: Ctx, status: int = 200, **context: Any) -> Response:
    account = accounts.find(require_login(ctx))
    if account is None:
        ctx.login_as(None)
        raise BadRequest("ログインしてください", 401)
    may_reset = ctx.grant is not None and ctx.grant.may_reset
    may_host = hosting.host_refusal(account, ctx.now) is None
    return ctx.page(
        "account.html", status, account=account, may_reset=may_reset, may_host=may_host, **context
    )


@page
def account(ctx: Ctx) -> Response:
    return _account_page(ctx)


@page
def account_update(ctx: Ctx) -> Response:
    account_id = require_login(ctx)
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
        elif what == "reset":
            if ctx.grant is None or not ctx.grant.may_reset:
                raise BadRequest(
                    "パスワードの再設定は、メールのリンクでログインしてから1時間以内にできます", 403
                )
            accounts.reset_password(account_id, form.get("new", ""))
            sessions.close_all(account_id)
            ctx.login_as(account_id)  # a plain session: the reset is used up
            done = "新しいパスワードを設定しました。ほかの端末はログアウトしました"
        elif what == "resend":
            address = account_mail.resend_verification(account_id, source, ctx.now)
            if address is None:
                raise BadRequest("確認を待っているメールアドレスはありません")
            done = f"{address} あてに確認メールを送り直しました"
        elif what == "preferences":
            if "mail" in form:  # the amount of mail (absent from older forms: kept)
                accounts.set_mail_level(account_id, form.get("mail", ""))
            accounts.set_preferences(
                account_id, {key: form.get(key) == "on" for key in accounts.PREFERENCES}
            )
            done = "通知設定を保存しました"
        else:
            raise BadRequest("変更する項目が正しくありません")
    except ServiceError as error:
        return _account_page(ctx, error.status, message=str(error))
    return _account_page(ctx, done=done)
