"""Mail about an account: address verification, "already registered", login links.

Every such mail counts against the hourly limits of accounts.allow_account_mail, so
nobody can flood an address through us. Registration is all or nothing: when the mail
cannot be sent, the new account is removed again and the player may simply retry.
"""

import secrets
from datetime import datetime

from .. import runtime, signing
from ..labels import SITE_NAME
from ..notify import ses as mail
from ..render import render
from ..storage import accounts as store
from . import accounts
from .errors import InvalidInput, MailUnavailable, RateLimited

# As long as a window of the mail limits: while more links are refused, the last one works.
LOGIN_LINK_FOR = accounts.MAIL_WINDOW
SUBJECTS = {
    "verify": f"【{SITE_NAME}】メールアドレスの確認",
    "already": f"【{SITE_NAME}】このメールアドレスは登録済みです",
    "login": f"【{SITE_NAME}】ログイン用のリンク",
}


def _send(kind: str, to: str, **context: object) -> None:
    try:
        mail.send(
            to,
            SUBJECTS[kind],
            render(f"mail/{kind}.txt", **context),
            render(f"mail/{kind}.html", **context),
        )
    except Exception as error:  # any failure to hand the mail over: SES, network, throttling
        raise MailUnavailable(
            "メールを送れませんでした。しばらくしてから、もう一度お試しください"
        ) from error


def _send_registration(registration: accounts.Registration, now: datetime) -> None:
    if registration.token is None:
        # The address is another account's: tell its owner, not the one who typed it.
        _send(
            "already",
            registration.email,
            owner=registration.owner,
            login=f"{runtime.base_url()}/login",
        )
        return
    _send(
        "verify",
        registration.email,
        account_id=registration.account_id,
        link=f"{runtime.base_url()}/verify?token={registration.token}",
        expires=now + accounts.VERIFY_FOR,
    )


def sign_up(
    account_id: str, password: str, email: str, source: str, now: datetime
) -> accounts.Registration:
    """Registers and mails the address; either both happen or neither does."""
    # The source (the sender's own) first, so that a flood is refused before any hashing;
    # the address and the ID once the registration stands (a free ID, a good password): a
    # refused one spends nobody's mail, so naming someone's ID or address cannot use theirs.
    accounts.allow_mail_source(source, now)
    registration = accounts.register(account_id, password, email, now)
    try:
        accounts.allow_account_mail(registration.email, account_id, None, now)
        _send_registration(registration, now)
    except (MailUnavailable, RateLimited):
        accounts.cancel_registration(registration)
        raise
    return registration


def change_email(
    account_id: str, password: str, email: str, source: str, now: datetime
) -> accounts.Registration:
    """Asks for a new address and mails it (or its owner, when it is another account's)."""
    # Counted after the password check: a wrong one spends nobody's mail.
    registration = accounts.change_email(account_id, password, email, now)
    accounts.allow_account_mail(registration.email, account_id, source, now)
    _send_registration(registration, now)
    return registration


def resend_verification(account_id: str, source: str, now: datetime) -> str | None:
    """Mails the verification link again; returns the address, or None if nothing waits."""
    pending = accounts.pending_verification(account_id, now)
    if pending is None:
        return None
    address, _ = pending
    accounts.allow_account_mail(address, account_id, source, now)
    owner = accounts.address_owner(address)
    token = None if owner not in (None, account_id) else pending[1]
    _send_registration(accounts.Registration(account_id, address, token, owner), now)
    return address


def send_login_link(identifier: str, source: str, now: datetime) -> None:
    """Mails a one-time login link to the verified address an ID or address names.

    Says nothing about whether it did: the page answers alike for unknown IDs, and past
    the hourly limits (a link mailed this hour still works: it lasts as long as a window).
    """
    account = accounts.find_for_login_link(identifier)
    if not accounts.allow_login_link(account, source, now):
        return
    assert account is not None
    token = signing.sign(
        "login",
        {"a": account.account_id, "e": account.email, "n": secrets.token_urlsafe(12)},
        now + LOGIN_LINK_FOR,
    )
    _send(
        "login",
        account.email,
        account_id=account.account_id,
        link=f"{runtime.base_url()}/login/link?token={token}",
        expires=now + LOGIN_LINK_FOR,
    )


def use_login_link(token: str, now: datetime) -> str:
    """The account a login link logs in, once: a second use is refused."""
    payload = signing.unsign("login", token, now)
    invalid = "このリンクは正しくないか、期限が切れているか、すでに使われています"
    if not isinstance(payload, dict) or not isinstance(payload.get("n"), str):
        raise InvalidInput(invalid)
    if not store.use_once(payload["n"], now + 2 * LOGIN_LINK_FOR):
        raise InvalidInput(invalid)
    account = accounts.find_for_login_link(str(payload.get("a")))
    # Only while the account's address is the one it was mailed to: a mailbox left behind
    # (perhaps because someone else reads it) opens nothing.
    if account is None or account.email != payload.get("e"):
        raise InvalidInput(invalid)
    return account.account_id
