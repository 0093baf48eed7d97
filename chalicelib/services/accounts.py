"""Accounts: register, verify an address, log in (throttled), password, address, preferences.

Secrecy of who is registered: login takes as long for an unknown ID as for a known one,
and registering an address that already has an account answers exactly as for a new one
(the owner is mailed instead). An address is claimed only once verified; an unverified
account expires a day after registration, so nobody can hold someone else's address.
"""

import re
import unicodedata
from datetime import datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from msgspec import Struct

from .. import signing
from ..storage import accounts as store
from ..storage.accounts import Account
from ..storage.errors import Refused
from ..storage.keys import (
    login_mail_limit_pk,
    login_pair_pk,
    login_source_pk,
    mail_limit_pk,
)
from ..storage.repository import load_account
from . import sessions
from .errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited, Unauthorized

ACCOUNT_ID = re.compile(r"[A-Za-z0-9_]{3,20}")
# An address SES can send to, after NFKC and case folding (full-width input is welcome):
# an ASCII dot-atom, and a domain of letter-digit-hyphen labels. Anything else (non-ASCII,
# quotes, commas, control characters) would only fail at SES, as a 503 to the player.
_ATEXT = r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
EMAIL = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*@(?:{_LABEL}\.)+{_LABEL}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
# zxcvbn's score: 2 resists an online attack that is not throttled; ours is, and argon2 slows
# an offline one, so 2 keeps passwords players can remember without the worst ones.
MIN_PASSWORD_SCORE = 2
UNVERIFIED_FOR = timedelta(hours=24)
VERIFY_FOR = UNVERIFIED_FOR

# Login throttle per (account, source): a few free failures, then each next try waits
# twice as long as the one before (so a stranger can slow only their own guesses), and a
# ceiling per source across accounts. The owner can always log in by a mail link.
LOGIN_FREE_FAILURES = 5
LOGIN_FIRST_DELAY = timedelta(minutes=1)
LOGIN_MAX_DELAY = timedelta(hours=1)
LOGIN_THROTTLE_KEPT = timedelta(days=1)
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_ATTEMPTS_PER_SOURCE = 20

# Account mail (verification, login links, "already registered") per hour: no address
# can be flooded through us, and no account or source can send without end.
MAIL_WINDOW = timedelta(hours=1)
MAIL_PER_ADDRESS = 3
MAIL_PER_ACCOUNT = 5
MAIL_PER_SOURCE = 10

PREFERENCES = ("morning_mail", "reminder_mail")  # both on by default
# How much game mail a member wants (docs/playing.md, "Mail a member wants"): every update (the
# default), only what concerns them and the deadlines, or none.
MAIL_LEVELS = ("all", "mine", "none")

PASSWORD_ADVICE = {
    "This is a top-10 common password.": "よく使われるパスワードの上位10位に入っています。",
    "This is a top-100 common password.": "よく使われるパスワードの上位100位に入っています。",
    "This is a very common password.": "よく使われるパスワードです。",
    'Repeats like "aaa" are easy to guess.': "「aaa」のような繰り返しは推測されやすいです。",
    "Sequences like abc or 6543 are easy to guess.": "「abc」「6543」のような並びは推測されます。",
    "Dates are often easy to guess.": "日付は推測されやすいです。",
    "Recent years are easy to guess.": "最近の年は推測されやすいです。",
    "Names and surnames by themselves are easy to guess.": "名前だけでは推測されやすいです。",
}

_hasher = PasswordHasher()


@cache
def _dummy_hash() -> str:
    """A hash to verify for unknown IDs, so that they take as long as known ones."""
    return _hasher.hash("no such account, but verified all the same")


def check_password(password: str, *related: str) -> None:
    """Refuses short, long and guessable passwords (zxcvbn), with advice in Japanese."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(f"パスワードは{MIN_PASSWORD}〜{MAX_PASSWORD}文字にしてください")
    from zxcvbn import zxcvbn  # here: loading its word lists is not for every request

    # zxcvbn's cost grows with the length; the first 100 characters are enough to judge.
    verdict = zxcvbn(password[:100], user_inputs=[r for r in related if r])
    if verdict["score"] < MIN_PASSWORD_SCORE:
        advice = PASSWORD_ADVICE.get(verdict["feedback"].get("warning", ""), "")
        raise InvalidInput(
            "このパスワードは推測されやすいため使えません。"
            + advice
            + "IDやメールアドレスを含めず、いくつかの単語や記号を組み合わせてください"
        )


def normalize_email(email: str) -> str:
    """Unicode-normalized and case-folded: one account per address whatever its case."""
    folded = unicodedata.normalize("NFKC", email.strip()[:1000]).casefold()
    if not EMAIL.fullmatch(folded) or len(folded) > 254 or len(folded.split("@")[0]) > 64:
        raise InvalidInput("メールアドレスの形式が正しくありません")
    return folded


def valid_account_id(account_id: str) -> bool:
    return ACCOUNT_ID.fullmatch(account_id) is not None


def check_account_id(account_id: str) -> None:
    """Refuses an ID of the wrong form before it names any item (or counter) in storage."""
    if not valid_account_id(account_id):
        raise InvalidInput("IDは半角英数字と _ の3〜20文字にしてください")


class Registration(Struct, frozen=True):
    """What a registration owes by mail: a verification, or, when the address is already an
    account's, a word to that owner (the one who registered is told the same either way)."""

    account_id: str
    email: str
    token: str | None  # None: the address belongs to ``owner``
    owner: str | None


def register(account_id: str, password: str, email: str, now: datetime) -> Registration:
    """Creates an unverified account, which expires unless verified within a day."""
    check_account_id(account_id)
    address = normalize_email(email)
    check_password(password, account_id, address, address.split("@")[0])
    password_hash = _hasher.hash(password)
    _drop_if_expired(account_id, now)
    try:
        store.create_account(
            account_id,
            password_hash,
            address,
            dict.fromkeys(PREFERENCES, True),
            now,
            now + UNVERIFIED_FOR,
        )
    except Refused as error:
        if not _sent_again(account_id, password, address):
            raise Conflict("このIDはすでに使われています") from error
    owner = address_owner(address)
    token = verification_token(account_id, address, now) if owner is None else None
    return Registration(account_id, address, token, owner)


def _sent_again(account_id: str, password: str, address: str) -> bool:
    """Whether the ID is taken by this very registration, sent again after a request that
    wrote the account and then failed (its mail never owed): still unverified, the same
    address and the same password (checked against the stored hash, as a login is)."""
    account = load_account(account_id)
    matches = _password_matches(account, password, rehash=False)  # as slow for every ID
    return matches is not None and not matches.email_verified and matches.email == address


def _drop_if_expired(account_id: str, now: datetime) -> None:
    """Frees an ID held by an unverified registration past its day (DynamoDB's TTL is late)."""
    account = load_account(account_id)
    if account is None or account.email_verified or account.expires_at is None:
        return
    if account.expires_at < now:
        _delete_unverified(account)


def cancel_registration(registration: Registration) -> None:
    """Undoes a registration whose mail could not be sent, so that trying again works."""
    account = load_account(registration.account_id)
    if account is not None and account.email == registration.email:
        _delete_unverified(account)


def _delete_unverified(account: Account) -> None:
    # The item's version is a condition too: a verification in between keeps the account.
    if not store.delete_unverified(account):
        return
    # Its sessions too: they name only the ID, which the next to register it would inherit.
    sessions.close_all(account.account_id)


def address_owner(address: str) -> str | None:
    """The account that verified this address, if any."""
    return store.address_owner(address)


def verification_token(account_id: str, email: str, now: datetime) -> str:
    return signing.sign("verify", {"a": account_id, "e": email}, now + VERIFY_FOR)


class Verified(Struct, frozen=True):
    account_id: str
    just_now: bool  # False: the link opened again, the address verified before


def verify_email(token: str, now: datetime) -> Verified:
    """Verifies the address the token names (the account's or its pending new one).

    The first to verify an address owns it; the account's previous address is released.
    """
    invalid = "確認リンクが正しくないか、期限が切れています"
    payload = signing.unsign("verify", token, now)
    if not isinstance(payload, dict):
        raise InvalidInput(invalid)
    account = load_account(str(payload.get("a")))
    address = payload.get("e")
    if (
        account is None
        or not isinstance(address, str)
        or address not in (account.email, account.pending_email)
    ):
        raise InvalidInput(invalid)
    if account.email_verified and address == account.email:
        return Verified(account.account_id, just_now=False)  # the link opened twice
    previous = account.email if account.email_verified else None
    try:
        store.claim_address(account, address, previous)
    except Refused as error:
        if address_owner(address) not in (None, account.account_id):
            raise Conflict("このメールアドレスは、別のアカウントで確認済みです") from error
        raise Conflict("確認を保存できませんでした。もう一度お試しください") from error
    return Verified(account.account_id, just_now=True)


def pending_verification(
    account_id: str, now: datetime, missing_ok: bool = False
) -> tuple[str, str] | None:
    """The address still to verify and a fresh token for it, or None when nothing is.
    ``missing_ok``: None for an account gone meanwhile (an unverified one expires)."""
    account = load_account(account_id)
    if account is None:
        if missing_ok:
            return None
        raise NotFound("アカウントが見つかりません")
    if account.pending_email:
        address = account.pending_email
    elif not account.email_verified:
        address = account.email
    else:
        return None
    return address, verification_token(account_id, address, now)


# ----- rate limits -----


def _window(now: datetime, length: timedelta) -> str:
    return str(int(now.timestamp()) // int(length.total_seconds()))


def _count(key: str, now: datetime, length: timedelta, by: int = 1) -> int:
    """Counts in this window, atomically, and returns the count with this one."""
    return store.count(key, _window(now, length), now + 2 * length, by)


def _mail_source_key(source: str) -> str:
    return mail_limit_pk("source", source)


def allow_account_mail(
    address: str, account_id: str | None, source: str | None, now: datetime
) -> None:
    """Counts one account mail to ``address``; refuses it past any of the hourly limits.

    ``source`` None: the source was counted already (allow_mail_source).
    """
    limits = [(mail_limit_pk("address", address), MAIL_PER_ADDRESS)]
    if source is not None:
        limits.append((_mail_source_key(source), MAIL_PER_SOURCE))
    if account_id is not None:
        limits.append((mail_limit_pk("account", account_id), MAIL_PER_ACCOUNT))
    if any(_count(key, now, MAIL_WINDOW) > limit for key, limit in limits):
        raise RateLimited(
            "短い間に送るメールが多すぎます。1時間ほど待ってから、もう一度お試しください"
        )


def allow_mail_source(source: str, now: datetime) -> None:
    """Counts one account mail from ``source`` alone, before the work of making it."""
    if _count(_mail_source_key(source), now, MAIL_WINDOW) > MAIL_PER_SOURCE:
        raise RateLimited(
            "短い間に送るメールが多すぎます。1時間ほど待ってから、もう一度お試しください"
        )


def allow_login_request(source: str, now: datetime) -> bool:
    """Counts a request for a login link from ``source``: whether to owe one. Every request
    counts, known account or not, so that its count tells nothing."""
    return _count(_mail_source_key(source), now, MAIL_WINDOW) <= MAIL_PER_SOURCE


def allow_login_mail(account: Account, now: datetime) -> bool:
    """Counts a login link mailed to ``account`` (by the mail worker): whether to send it.

    The address and account count only login links, apart from other account mail, so that
    a stranger cannot spend them by registering with someone's address; what a stranger's
    requests do spend is mailed to the owner as working links.
    """
    limits = [
        (login_mail_limit_pk("address", account.email), MAIL_PER_ADDRESS),
        (login_mail_limit_pk("account", account.account_id), MAIL_PER_ACCOUNT),
    ]
    return not any(_count(key, now, MAIL_WINDOW) > limit for key, limit in limits)


def login_delay(failures: int) -> timedelta:
    """How long after the last try the next one must wait, after ``failures`` failures."""
    if failures < LOGIN_FREE_FAILURES:
        return timedelta(0)
    doublings = min(failures - LOGIN_FREE_FAILURES, 16)  # past the ceiling long before 2**16
    return min(LOGIN_FIRST_DELAY * 2**doublings, LOGIN_MAX_DELAY)


def _throttle(account_id: str, source: str, now: datetime) -> None:
    """Counts this try first, atomically, then refuses it if it came too soon.

    Counting before the (slow) password check means concurrent tries cannot all slip
    under the limit. A refused try counts too, so hammering only lengthens the wait.
    """
    if _count(login_source_pk(source), now, LOGIN_WINDOW) > LOGIN_ATTEMPTS_PER_SOURCE:
        raise RateLimited(
            "この接続元からのログインが多すぎます。しばらく待つか、"
            "ログイン用のリンクをメールで受け取ってください"
        )
    earlier, previous = store.count_try(
        login_pair_pk(account_id, source), now, now + LOGIN_THROTTLE_KEPT
    )
    wait = previous + login_delay(earlier) - now
    if wait > timedelta(0):
        minutes = max(1, -(-int(wait.total_seconds()) // 60))
        raise RateLimited(
            f"ログインの失敗が続いたため、{minutes}分ほど待ってからお試しください。"
            "ログイン用のリンクをメールで受け取ることもできます"
        )


def login(account_id: str, password: str, source: str, now: datetime) -> Account:
    """Checks the password, throttled per (account, source) with growing delays."""
    known = valid_account_id(account_id)
    _throttle(account_id if known else "-", source, now)
    account = load_account(account_id) if known else None
    if account is None or (
        account.expires_at is not None and not account.email_verified and account.expires_at <= now
    ):
        _password_matches(None, password)  # as slow as a known ID: IDs cannot be probed
        raise Unauthorized("IDまたはパスワードが違います")
    checked = _password_matches(account, password)
    if checked is None:
        raise Unauthorized("IDまたはパスワードが違います")
    forget_failures(account_id, source, now)
    return checked


def throttle_password_check(account_id: str, source: str, now: datetime) -> None:
    """Counts a password check outside the login (the account page asks for it), under the
    login's throttle: a logged-in browser is no way to guess the password without limit."""
    _throttle(account_id, source, now)


def forget_failures(account_id: str, source: str, now: datetime) -> None:
    """A right password forgets this source's failures and gives its try back to the source."""
    store.forget_tries(login_pair_pk(account_id, source))
    _count(login_source_pk(source), now, LOGIN_WINDOW, by=-1)


def _password_matches(
    account: Account | None, password: str, rehash: bool = True
) -> Account | None:
    """The account when the password is its own, else None. ``rehash``: a hash made with
    weaker parameters is rewritten, and the account is then returned as it is after that
    write (a later write of this request is conditioned on its version)."""
    try:
        _hasher.verify(account.password_hash if account else _dummy_hash(), password)
    except (VerificationError, InvalidHashError):
        return None
    if account is None:
        return None
    if rehash and _hasher.check_needs_rehash(account.password_hash):
        return store.set_password_hash(account, _hasher.hash(password))
    return account


def find_for_login_link(identifier: str) -> Account | None:
    """The verified account an ID or a verified address names, for a login link by mail."""
    identifier = identifier.strip()
    if valid_account_id(identifier):
        account = load_account(identifier)
    else:
        try:
            owner = address_owner(normalize_email(identifier))
        except InvalidInput:
            return None
        account = load_account(owner) if owner else None
    if account is None or not account.email_verified or account.undeliverable:
        return None
    return account


def find(account_id: str) -> Account | None:
    """The account as it is now (the account page), or None."""
    return load_account(account_id)


def _existing(account_id: str) -> Account:
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    return account


def change_password(account_id: str, old: str, new: str) -> None:
    account = _password_matches(_existing(account_id), old)
    if account is None:
        raise Forbidden("いまのパスワードが違います")
    check_password(new, account_id, account.email, account.email.split("@")[0])
    store.set_password_hash(account, _hasher.hash(new))


def reset_password(account_id: str, new: str) -> None:
    """A new password without the old one: only for a session a login link opened (the
    mailbox proved the owner), within the hour (sessions.RESET_FOR)."""
    account = _existing(account_id)
    check_password(new, account_id, account.email, account.email.split("@")[0])
    store.set_password_hash(account, _hasher.hash(new))


def change_email(account_id: str, password: str, email: str, now: datetime) -> Registration:
    """Asks for a new address: it replaces the old one once verified (mail goes to the old
    one until then). Answers alike whether or not the address is another account's."""
    account = _password_matches(_existing(account_id), password)
    if account is None:
        raise Forbidden("パスワードが違います")
    address = normalize_email(email)
    if address == account.email:
        raise InvalidInput("いまと同じメールアドレスです")
    try:
        store.set_pending_email(account, address)
    except Refused as error:
        raise Conflict("保存できませんでした。もう一度お試しください") from error
    owner = address_owner(address)
    token = verification_token(account_id, address, now) if owner is None else None
    return Registration(account_id, address, token, owner)


def set_mail_level(account_id: str, level: str) -> None:
    if level not in MAIL_LEVELS:
        raise InvalidInput("知らない通知設定です")
    account = _existing(account_id)
    try:
        store.set_mail_level(account, level)
    except Refused as error:
        raise Conflict("設定を保存できませんでした。もう一度お試しください") from error


def set_preferences(account_id: str, preferences: dict[str, bool]) -> None:
    unknown = set(preferences) - set(PREFERENCES)
    if unknown:
        raise InvalidInput("知らない通知設定です")
    account = _existing(account_id)
    if not preferences:
        return  # nothing to change (an empty update is refused by DynamoDB)
    try:
        store.set_preferences(account, preferences)
    except Refused as error:
        raise Conflict("設定を保存できませんでした。もう一度お試しください") from error
