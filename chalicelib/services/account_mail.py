"""Mail about an account: address verification, "already registered", login links.

Every such mail counts against the hourly limits of accounts.allow_account_mail, so nobody
can flood an address through us. A request only owes the mail, in the outbox, and hands it
to the mail workers (decision 84): it never talks to SES, and a login link's request does the
same whatever the ID or address names, so neither its answer nor its time tells whether the
address is registered (the mail worker finds whom to mail: account_notices).
"""

from datetime import datetime

from .. import signing
from ..storage import accounts as store
from ..storage import outbox as outbox_store
from . import accounts, outbox
from .account_notices import LOGIN_LINK_FOR
from .errors import InvalidInput, RateLimited


def _owe_verification(account_id: str, now: datetime) -> None:
    """The verification of the address the account waits for (or, when another account owns
    it, a word to that owner: the worker decides, at sending)."""
    outbox_store.owe_account_mail("verify", account_id, now)
    outbox.hand_over_account_mail(now)


def sign_up(
    account_id: str, password: str, email: str, source: str, now: datetime
) -> accounts.Registration:
    """Registers and owes the address its mail; a registration over the mail limits is undone."""
    # The source (the sender's own) first, so that a flood is refused before any hashing;
    # the address and the ID once the registration stands (a free ID, a good password): a
    # refused one spends nobody's mail, so naming someone's ID or address cannot use theirs.
    accounts.allow_mail_source(source, now)
    registration = accounts.register(account_id, password, email, now)
    try:
        accounts.allow_account_mail(registration.email, account_id, None, now)
    except RateLimited:
        accounts.cancel_registration(registration)
        raise
    _owe_verification(account_id, now)
    return registration


def change_email(
    account_id: str, password: str, email: str, source: str, now: datetime
) -> accounts.Registration:
    """Asks for a new address and owes it its mail (or its owner, when it is another's)."""
    # Counted after the password check: a wrong one spends nobody's mail.
    registration = accounts.change_email(account_id, password, email, now)
    accounts.allow_account_mail(registration.email, account_id, source, now)
    _owe_verification(account_id, now)
    return registration


def resend_verification(account_id: str, source: str, now: datetime) -> str | None:
    """Owes the verification mail again; returns the address, or None if nothing waits."""
    pending = accounts.pending_verification(account_id, now)
    if pending is None:
        return None
    address, _ = pending
    accounts.allow_account_mail(address, account_id, source, now)
    _owe_verification(account_id, now)
    return address


def send_login_link(identifier: str, source: str, now: datetime) -> None:
    """Owes a one-time login link to the verified address an ID or address names.

    Says nothing about whether there is one: the request counts its source, writes what it
    was asked and hands it over, the same for every identifier; past the hourly limits it
    owes nothing (a link mailed this hour still works: it lasts as long as a window).
    """
    if not accounts.allow_login_request(source, now):
        return
    outbox_store.owe_account_mail("login", identifier.strip()[:300], now)
    outbox.hand_over_account_mail(now)


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
