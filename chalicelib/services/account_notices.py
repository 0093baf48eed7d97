"""What account mail says, made by the mail worker from an owed item (decision 84): a login
link for the account an ID or address names, a verification link, or a word to the owner of
an address someone else tried to register. Whether there is anyone to mail is found here,
never in the request that owed it, so that request answers alike for every address."""

import secrets
from datetime import datetime

from msgspec import Struct

from .. import runtime, signing
from ..labels import SITE_NAME
from ..render import render
from ..storage.outbox import OutboxRecord
from . import accounts

# As long as a window of the mail limits: while more links are refused, the last one works.
LOGIN_LINK_FOR = accounts.MAIL_WINDOW
SUBJECTS = {
    "verify": f"【{SITE_NAME}】メールアドレスの確認",
    "already": f"【{SITE_NAME}】このメールアドレスは登録済みです",
    "login": f"【{SITE_NAME}】ログイン用のリンク",
}
KINDS = ("login", "verify")  # what is owed; "already" is what a verification may become


class AccountMail(Struct, frozen=True):
    to: str
    subject: str
    text: str
    html: str


def _mail(kind: str, to: str, **context: object) -> AccountMail:
    return AccountMail(
        to,
        SUBJECTS[kind],
        render(f"mail/{kind}.txt", **context),
        render(f"mail/{kind}.html", **context),
    )


def compose(item: OutboxRecord, now: datetime) -> AccountMail | None:
    """The mail an owed account item is, or None when there is nobody to send it to (an
    unknown ID or address, an address verified meanwhile, the hourly limits reached)."""
    if item.mail_kind == "login":
        return _login(item.account_id, now, first_try=item.attempts <= 1)
    if item.mail_kind == "verify":
        return _verification(item.account_id, now)
    return None


def _login(identifier: str, now: datetime, first_try: bool) -> AccountMail | None:
    """A one-time login link to the verified address ``identifier`` names (an ID or the
    address): counted against the address's and account's hourly limits on its first try."""
    account = accounts.find_for_login_link(identifier)
    if account is None or (first_try and not accounts.allow_login_mail(account, now)):
        return None
    token = signing.sign(
        "login",
        {"a": account.account_id, "e": account.email, "n": secrets.token_urlsafe(12)},
        now + LOGIN_LINK_FOR,
    )
    return _mail(
        "login",
        account.email,
        account_id=account.account_id,
        link=f"{runtime.base_url()}/login/link?token={token}",
        expires=now + LOGIN_LINK_FOR,
    )


def _verification(account_id: str, now: datetime) -> AccountMail | None:
    """The address the account waits to verify gets its link; when another account owns it
    by now, the owner is told instead (the one who typed it is told the same either way)."""
    pending = accounts.pending_verification(account_id, now, missing_ok=True)
    if pending is None:
        return None
    address, token = pending
    owner = accounts.address_owner(address)
    if owner not in (None, account_id):
        return _mail("already", address, owner=owner, login=f"{runtime.base_url()}/login")
    return _mail(
        "verify",
        address,
        account_id=account_id,
        link=f"{runtime.base_url()}/verify?token={token}",
        expires=now + accounts.VERIFY_FOR,
    )
