"""Accounts, verified addresses, sessions and counters: their items and conditional writes."""

from datetime import UTC, datetime

from pynamodb.exceptions import DoesNotExist

from .db import ensure_configured, transaction
from .errors import Refused, conditioned
from .keys import account_pk, email_pk, login_link_pk, quick_link_pk, session_sk
from .models import AccountItem, CounterItem, EmailItem, SessionItem

EPOCH = datetime.fromtimestamp(0, UTC)


# ----- accounts -----


def create_account(account: AccountItem) -> None:
    """A new account unless the ID is taken (``Refused``)."""
    ensure_configured()
    conditioned("create_account", lambda: account.save(condition=AccountItem.pk.does_not_exist()))


def new_account(
    account_id: str,
    password_hash: str,
    email: str,
    preferences: dict[str, bool],
    now: datetime,
    expires_at: datetime,
) -> AccountItem:
    return AccountItem(
        account_pk(account_id),
        "ACCOUNT",
        account_id=account_id,
        password_hash=password_hash,
        email=email,
        email_verified=False,
        holds={},
        departures=[],
        preferences=preferences,
        created_at=now,
        expires_at=expires_at,
    )


def delete_unverified(account: AccountItem) -> bool:
    """Deletes an unverified account; False when it was verified (or changed) meanwhile: the
    item's version is a condition too."""
    try:
        conditioned(
            "delete_unverified",
            lambda: account.delete(condition=AccountItem.email_verified == False),  # noqa: E712
        )
    except Refused:
        return False
    return True


def address_owner(address: str) -> str | None:
    """The account that verified this address, if any."""
    ensure_configured()
    try:
        return str(EmailItem.get(email_pk(address), "EMAIL", consistent_read=True).account_id)
    except DoesNotExist:
        return None


def claim_address(account: AccountItem, address: str, previous: str | None) -> None:
    """The first account to verify an address owns it; its previous address is released."""

    def write() -> None:
        with transaction() as t:
            t.save(
                EmailItem(email_pk(address), "EMAIL", account_id=account.account_id),
                condition=EmailItem.pk.does_not_exist()
                | (EmailItem.account_id == account.account_id),
            )
            if previous is not None:
                t.delete(
                    EmailItem(email_pk(previous), "EMAIL"),
                    condition=EmailItem.account_id == account.account_id,
                )
            t.update(
                account,
                actions=[
                    AccountItem.email.set(address),
                    AccountItem.email_verified.set(True),
                    AccountItem.undeliverable.set(False),
                    AccountItem.pending_email.remove(),
                    AccountItem.expires_at.remove(),
                ],
            )

    conditioned("claim_address", write)


def set_password_hash(account: AccountItem, password_hash: str) -> None:
    account.update(actions=[AccountItem.password_hash.set(password_hash)])


def set_pending_email(account: AccountItem, address: str) -> None:
    conditioned(
        "set_pending_email",
        lambda: account.update(actions=[AccountItem.pending_email.set(address)]),
    )


def set_preferences(account: AccountItem, preferences: dict[str, bool]) -> None:
    # The list is made anew for each attempt: PynamoDB appends the version's increment to it.
    conditioned(
        "set_preferences",
        lambda: account.update(
            actions=[AccountItem.preferences[key].set(bool(v)) for key, v in preferences.items()]
        ),
    )


def set_mail_level(account: AccountItem, level: str) -> None:
    conditioned(
        "set_mail_level", lambda: account.update(actions=[AccountItem.mail_level.set(level)])
    )


def mark_undeliverable(address: str) -> str | None:
    """The account that verified ``address``, marked never to be mailed again; None when no
    account has it (or it moved to another address meanwhile)."""
    ensure_configured()
    try:
        owner = EmailItem.get(email_pk(address), "EMAIL").account_id
        account = AccountItem.get(account_pk(owner), "ACCOUNT", consistent_read=True)
    except DoesNotExist:
        return None
    if account.email != address:
        return None
    try:
        conditioned(
            "mark_undeliverable",
            lambda: account.update(
                actions=[AccountItem.undeliverable.set(True)],
                condition=AccountItem.email == address,
            ),
        )
    except Refused:
        return None
    return str(owner)


# ----- counters -----


def count(key: str, window: str, expires_at: datetime, by: int = 1) -> int:
    """Counts in this window, atomically, and returns the count with this one."""
    ensure_configured()
    counter = CounterItem(key, window)
    counter.update(actions=[CounterItem.count.add(by), CounterItem.expires_at.set(expires_at)])
    return int(counter.count)


def count_try(key: str, now: datetime, expires_at: datetime) -> tuple[int, datetime]:
    """Counts one login try and moves its time along; returns the tries before this one and
    the time of the previous try (the epoch for the first)."""
    ensure_configured()
    pair = CounterItem(key, "LOGIN")
    pair.update(
        actions=[
            CounterItem.count.add(1),
            CounterItem.previous_at.set(CounterItem.last_at | EPOCH),
            CounterItem.last_at.set(now),
            CounterItem.expires_at.set(expires_at),
        ]
    )
    return int(pair.count) - 1, pair.previous_at or EPOCH


def forget_tries(key: str) -> None:
    CounterItem(key, "LOGIN").delete()


def use_once(nonce: str, expires_at: datetime) -> bool:
    """Marks a one-time link used; False when it already was."""
    ensure_configured()
    used = CounterItem(login_link_pk(nonce), "USED", expires_at=expires_at)
    try:
        conditioned("use_once", lambda: used.save(condition=CounterItem.pk.does_not_exist()))
    except Refused:
        return False
    return True


def link_used(link: str) -> bool:
    """Whether a one-tap mail link (``links.used_key``) has set its choice already."""
    ensure_configured()
    try:
        CounterItem.get(quick_link_pk(link), "USED", consistent_read=True)
    except DoesNotExist:
        return False
    return True


def mark_link_used(link: str, until: datetime) -> None:
    CounterItem(quick_link_pk(link), "USED", expires_at=until).save()


# ----- sessions -----


def open_session(
    account_id: str,
    session_id: str,
    village_id: str | None,
    now: datetime,
    expires_at: datetime,
    reset_until: datetime | None = None,
) -> None:
    ensure_configured()
    SessionItem(
        account_pk(account_id),
        session_sk(session_id),
        account_id=account_id,
        village_id=village_id,
        created_at=now,
        expires_at=expires_at,
        reset_until=reset_until,
    ).save()


def read_session(account_id: str, session_id: str, consistent: bool) -> SessionItem | None:
    ensure_configured()
    try:
        return SessionItem.get(
            account_pk(account_id), session_sk(session_id), consistent_read=consistent
        )
    except DoesNotExist:
        return None


def close_session(account_id: str, session_id: str) -> None:
    ensure_configured()
    SessionItem(account_pk(account_id), session_sk(session_id)).delete()


def close_sessions(account_id: str, keep: str | None) -> None:
    """Ends every session of the account but ``keep``."""
    ensure_configured()
    items = SessionItem.query(account_pk(account_id), SessionItem.sk.startswith("SESSION#"))
    with SessionItem.batch_write() as batch:
        for item in items:
            if item.sk != session_sk(keep or ""):
                batch.delete(item)
