"""Accounts: register, verify the email, log in (rate-limited), change password, email, prefs."""

import re
import unicodedata
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError, UpdateError

from .. import signing
from ..storage.db import ensure_configured, transaction
from ..storage.models import AccountItem, CounterItem, EmailItem
from ..storage.repository import account_pk, email_pk, load_account
from .errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited, Unauthorized

ACCOUNT_ID = re.compile(r"[A-Za-z0-9_]{3,20}")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
VERIFY_FOR = timedelta(days=3)

# Login failures allowed per window, per account and per source (RULES: none; product policy).
LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_FAILURES_PER_ACCOUNT = 5
LOGIN_FAILURES_PER_SOURCE = 20

PREFERENCES = ("morning_mail", "reminder_mail")  # both on by default

_hasher = PasswordHasher()


def _check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(f"パスワードは{MIN_PASSWORD}〜{MAX_PASSWORD}文字にしてください")


def normalize_email(email: str) -> str:
    """Unicode-normalized and case-folded: one account per address whatever its case."""
    folded = unicodedata.normalize("NFKC", email.strip()).casefold()
    if not EMAIL.fullmatch(folded) or len(folded) > 254:
        raise InvalidInput("メールアドレスの形式が正しくありません")
    return folded


def register(account_id: str, password: str, email: str, now: datetime) -> str:
    """Creates an unverified account; returns the token of its verification link."""
    if not ACCOUNT_ID.fullmatch(account_id):
        raise InvalidInput("IDは半角英数字と _ の3〜20文字にしてください")
    _check_password(password)
    address = normalize_email(email)
    ensure_configured()
    account = AccountItem(
        account_pk(account_id),
        "ACCOUNT",
        account_id=account_id,
        password_hash=_hasher.hash(password),
        email=address,
        email_verified=False,
        holds={},
        departures=[],
        preferences=dict.fromkeys(PREFERENCES, True),
        created_at=now,
    )
    try:
        with transaction() as t:
            t.save(account, condition=AccountItem.pk.does_not_exist())
            t.save(
                EmailItem(email_pk(address), "EMAIL", account_id=account_id),
                condition=EmailItem.pk.does_not_exist(),
            )
    except TransactWriteError as error:
        reasons = [r.code if r else None for r in (error.cancellation_reasons or [])]
        if reasons and reasons[0] == "ConditionalCheckFailed":
            raise Conflict("このIDはすでに使われています") from error
        raise Conflict("このメールアドレスはすでに登録されています") from error
    return verification_token(account_id, address, now)


def verification_token(account_id: str, email: str, now: datetime) -> str:
    return signing.sign("verify", {"a": account_id, "e": email}, now + VERIFY_FOR)


def verify_email(token: str, now: datetime) -> str:
    """Marks the address verified; returns the account id."""
    payload = signing.unsign("verify", token, now)
    if payload is None:
        raise InvalidInput("確認リンクが正しくないか、期限が切れています")
    account = load_account(payload["a"])
    if account is None or account.email != payload["e"]:
        raise InvalidInput("確認リンクが正しくないか、期限が切れています")
    try:
        account.update(
            actions=[AccountItem.email_verified.set(True)],
            condition=AccountItem.email == payload["e"],
        )
    except UpdateError as error:
        raise InvalidInput("確認リンクが正しくないか、期限が切れています") from error
    return account.account_id


def _window(now: datetime) -> str:
    start = int(now.timestamp()) // int(LOGIN_WINDOW.total_seconds())
    return str(start)


def _failures(key: str, now: datetime) -> int:
    try:
        return CounterItem.get(key, _window(now)).count
    except DoesNotExist:
        return 0


def _count_failure(key: str, now: datetime) -> None:
    CounterItem(key, _window(now)).update(
        actions=[
            CounterItem.count.add(1),
            CounterItem.expires_at.set(now + 2 * LOGIN_WINDOW),
        ]
    )


def login(account_id: str, password: str, source: str, now: datetime) -> AccountItem:
    """Checks the password; too many failures lock logins for a while, per account and source."""
    ensure_configured()
    account_key = f"R#login#account#{account_id}"
    source_key = f"R#login#source#{source}"
    if (
        _failures(account_key, now) >= LOGIN_FAILURES_PER_ACCOUNT
        or _failures(source_key, now) >= LOGIN_FAILURES_PER_SOURCE
    ):
        raise RateLimited("ログインの失敗が続いたため、しばらく待ってからお試しください")
    account = load_account(account_id) if ACCOUNT_ID.fullmatch(account_id) else None
    if account is None or not _password_matches(account, password):
        _count_failure(account_key, now)
        _count_failure(source_key, now)
        raise Unauthorized("IDまたはパスワードが違います")
    return account


def _password_matches(account: AccountItem, password: str) -> bool:
    try:
        _hasher.verify(account.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    if _hasher.check_needs_rehash(account.password_hash):
        account.update(actions=[AccountItem.password_hash.set(_hasher.hash(password))])
    return True


def _existing(account_id: str) -> AccountItem:
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    return account


def change_password(account_id: str, old: str, new: str) -> None:
    account = _existing(account_id)
    if not _password_matches(account, old):
        raise Forbidden("いまのパスワードが違います")
    _check_password(new)
    account.update(actions=[AccountItem.password_hash.set(_hasher.hash(new))])


def change_email(account_id: str, password: str, email: str, now: datetime) -> str:
    """Moves the account to a new address, unverified; returns the new verification token."""
    account = _existing(account_id)
    if not _password_matches(account, password):
        raise Forbidden("パスワードが違います")
    address = normalize_email(email)
    if address == account.email:
        raise InvalidInput("いまと同じメールアドレスです")
    try:
        with transaction() as t:
            t.save(
                EmailItem(email_pk(address), "EMAIL", account_id=account_id),
                condition=EmailItem.pk.does_not_exist(),
            )
            t.delete(EmailItem(email_pk(account.email), "EMAIL"))
            t.update(
                account,
                actions=[
                    AccountItem.email.set(address),
                    AccountItem.email_verified.set(False),
                    AccountItem.undeliverable.set(False),
                ],
            )
    except TransactWriteError as error:
        raise Conflict("このメールアドレスはすでに登録されています") from error
    return verification_token(account_id, address, now)


def set_preferences(account_id: str, preferences: dict[str, bool]) -> None:
    unknown = set(preferences) - set(PREFERENCES)
    if unknown:
        raise InvalidInput("知らない通知設定です")
    account = _existing(account_id)
    if not preferences:
        return  # nothing to change (an empty update is refused by DynamoDB)
    try:
        account.update(
            actions=[AccountItem.preferences[key].set(bool(v)) for key, v in preferences.items()]
        )
    except (UpdateError, PutError) as error:
        raise Conflict("設定を保存できませんでした。もう一度お試しください") from error
