"""HTTP plumbing for pages: responses with security headers, forms, cookies, sessions, CSRF."""

import hmac
import ipaddress
import json
import secrets
from datetime import datetime
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from chalice import Response
from msgspec import Struct

from .. import runtime, signing
from ..services.sessions import SESSION_FOR, Grant

SESSION_COOKIE = "mobius_session"
MAX_FORM = 64 * 1024


def content_security_policy(styles: str = "") -> str:
    """Our own files only; ``styles``: the hashes of the inline stylesheets a page carries."""
    return (
        f"default-src 'self'; script-src 'self'; style-src 'self'{styles}; img-src 'self' data:; "
        "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"
    )


SECURITY_HEADERS = {
    "Content-Security-Policy": content_security_policy(),
    "X-Content-Type-Options": "nosniff",
    # Mail links carry signed tokens: never hand them to another site. (Not no-referrer:
    # under it browsers send "Origin: null" with our own forms, and the Origin check needs it.)
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class BadRequest(ValueError):
    """A malformed request: shown as a page with this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Session(Struct, frozen=True):
    """The cookie: a CSRF token, and the session item of who is logged in (if anyone).

    The cookie only names the session; the item decides (services/sessions.py), so a
    logout or a new password ends it even in a copied cookie.
    """

    account_id: str | None
    csrf: str
    session_id: str | None = None
    village_id: str | None = None  # a mail link's narrow session
    # A guest's id (no account): the games this browser plays without registering. Signed,
    # so it cannot be forged; it lasts as long as the cookie (the game's length).
    guest: str | None = None

    def cookie(self, now: datetime) -> str:
        payload = {"a": self.account_id, "s": self.session_id, "v": self.village_id, "c": self.csrf}
        if self.guest:
            payload["g"] = self.guest
        token = signing.sign("session", payload, now + SESSION_FOR)
        attributes = f"Path=/; HttpOnly; SameSite=Lax; Max-Age={int(SESSION_FOR.total_seconds())}"
        if not runtime.is_local():
            attributes += "; Secure"
        return f"{SESSION_COOKIE}={token}; {attributes}"


def fresh_session(grant: Grant | None = None) -> Session:
    """A new cookie (and CSRF token), for nobody or for a newly opened session."""
    csrf = secrets.token_urlsafe(24)
    if grant is None:
        return Session(account_id=None, csrf=csrf)
    return Session(grant.account_id, csrf, grant.session_id, grant.village_id)


def read_session(headers: dict, now: datetime) -> Session | None:
    raw = headers.get("cookie") or ""
    cookie = SimpleCookie()
    try:
        cookie.load(raw)
    except Exception:  # a malformed Cookie header is simply no session
        return None
    morsel = cookie.get(SESSION_COOKIE)
    if morsel is None:
        return None
    payload = signing.unsign("session", morsel.value, now)
    if not isinstance(payload, dict) or not isinstance(payload.get("c"), str):
        return None
    account_id, session_id, village_id = payload.get("a"), payload.get("s"), payload.get("v")
    guest = payload.get("g") if isinstance(payload.get("g"), str) else None
    if not (isinstance(account_id, str) and isinstance(session_id, str)):
        return Session(account_id=None, csrf=payload["c"], guest=guest)
    scope = village_id if isinstance(village_id, str) else None
    return Session(account_id, payload["c"], session_id, scope, guest)


def parse_form(raw_body: bytes | None) -> dict[str, str]:
    if raw_body is None:
        return {}
    if len(raw_body) > MAX_FORM:
        raise BadRequest("送信された内容が大きすぎます", 413)
    try:
        text = raw_body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("送信された内容を読み取れませんでした") from None
    return {key: values[0] for key, values in parse_qs(text, keep_blank_values=True).items()}


def check_csrf(session: Session | None, form: dict[str, str]) -> None:
    # As bytes: compare_digest refuses str with non-ASCII characters (a forged token may have).
    sent = form.get("csrf", "").encode("utf-8", "replace")
    if session is None or not hmac.compare_digest(session.csrf.encode(), sent):
        raise BadRequest(
            "フォームの有効期限が切れました。ページを読み込み直してから、もう一度送信してください",
            403,
        )


def check_origin(headers: dict[str, str]) -> None:
    """A second CSRF defence: a browser's POST names its page's origin, which must be ours.

    Browsers that send Sec-Fetch-Site say outright whether the form was another site's.
    Without an Origin header (older clients) the CSRF token alone decides.
    """
    if headers.get("sec-fetch-site") in ("cross-site", "same-site"):
        raise BadRequest("ほかのサイトからの送信は受け付けていません", 403)
    origin = headers.get("origin")
    if origin is None:
        return
    base = urlsplit(runtime.base_url())
    ours = {(base.scheme, base.netloc)}
    if headers.get("host"):  # the name this request came by: https, except the local runner
        ours.add(("http" if runtime.is_local() else "https", headers["host"]))
    try:
        parts = urlsplit(origin)
        theirs = (parts.scheme, parts.netloc)
    except ValueError:
        theirs = ("", "")
    if theirs not in ours:  # the scheme too: a page on plain http is not ours
        raise BadRequest("ほかのサイトからの送信は受け付けていません", 403)


# A page with nothing private on it (a visitor's lounge, login or village page): the back
# button may restore it from the back/forward cache, which no-store forbids; "private" keeps
# it out of shared caches, "no-cache" has the browser ask again on every other visit.
PUBLIC = "private, no-cache"


def html(
    body: str,
    status: int = 200,
    set_cookie: str | None = None,
    styles: str = "",
    cache: str = "no-store",
) -> Response:
    headers: dict[str, str | list[str]] = {
        "Content-Type": "text/html; charset=utf-8",
        **SECURITY_HEADERS,
        "Content-Security-Policy": content_security_policy(styles),
        "Cache-Control": cache,
    }
    if set_cookie:
        headers["Set-Cookie"] = set_cookie
    return Response(body=body, status_code=status, headers=headers)


def json_response(body: dict[str, Any], status: int = 200) -> Response:
    headers: dict[str, str | list[str]] = {
        **SECURITY_HEADERS,
        "Content-Type": "application/json; charset=utf-8",
    }
    return Response(json.dumps(body, ensure_ascii=False), status_code=status, headers=headers)


def redirect(location: str, set_cookie: str | None = None) -> Response:
    headers: dict[str, str | list[str]] = {"Location": location, **SECURITY_HEADERS}
    if set_cookie:
        headers["Set-Cookie"] = set_cookie
    return Response(body="", status_code=303, headers=headers)


def client_ip(context: dict | None) -> str:
    """The source the login and mail limits count: an IPv4 address, or an IPv6 /64.

    One home or phone is given a whole /64, so its 2**64 addresses are one source;
    otherwise each would bring its own free tries against every account.
    """
    identity = (context or {}).get("identity") or {}
    raw = identity.get("sourceIp") or "unknown"
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
