"""Accounts, verified addresses, sessions and counters: their items and conditional writes.

Above storage an account and a session are the plain records below, never their items: a
write is asked for by what it means and rebuilds the item's key (and version, the condition
of every versioned write) from the record as read.
"""

from collections.abc import Mapping
from datetime import UTC, datetime

from msgspec import Struct, field
from pynamodb.exceptions import DoesNotExist

from .db import ensure_configured, transaction
from .errors import Refused, conditioned
from .keys import account_pk, email_pk, login_link_pk, quick_link_pk, session_sk
from .models import AccountItem, CounterItem, EmailItem, SessionItem, plain, record_of

EPOCH = datetime.fromtimestamp(0, UTC)


# ----- accounts -----


class Account(Struct, frozen=True):
    """An account as read (``AccountItem``'s fields; see there what each means)."""

    account_id: str
    password_hash: str
    email: str
    created_at: datetime
    email_verified: bool = False
    pending_email: str | None = None
    holds: Mapping[str, str] = field(default_factory=dict)  # pace -> village id
    lock_until: datetime | None = None
    departures: tuple[str, ...] = ()
    preferences: Mapping[str, bool] = field(default_factory=dict)
    mail_level: str | None = None
    undeliverable: bool = False
    gm: bool = False
    finished_games: int = 0
    hosted_village: str | None = None
    puzzle_mail: bool = False
    expires_at: datetime | None = None  # unverified: when it goes
    version: int | None = None  # every versioned write's condition


def account_record(item: AccountItem) -> Account:
    return record_of(
        Account,
        item,
        holds=plain(item.holds),
        departures=tuple(item.departures or ()),
        preferences=plain(item.preferences),
    )


def account_item(account: Account) -> AccountItem:
    """The item a write of ``account`` updates: its key and the version read (PynamoDB makes
    the version the write's condition and counts it up, as for the item as read)."""
    item = AccountItem(account_pk(account.account_id), "ACCOUNT")
    if account.version is not None:  # none: written without one (PynamoDB refuses a None)
        item.version = account.version
    return item


def create_account(
    account_id: str,
    password_hash: str,
    email: str,
    preferences: dict[str, bool],
    now: datetime,
    expires_at: datetime,
) -> None:
    """A new unverified account unless the ID is taken (``Refused``)."""
    ensure_configured()
    item = AccountItem(
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
    conditioned("create_account", lambda: item.save(condition=AccountItem.pk.does_not_exist()))


def delete_unverified(account: Account) -> bool:
    """Deletes an unverified account; False when it was verified (or changed) meanwhile: the
    version read is a condition too."""
    try:
        conditioned(
            "delete_unverified",
            lambda: account_item(account).delete(
                condition=AccountItem.email_verified == False  # noqa: E712
            ),
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


def claim_address(account: Account, address: str, previous: str | None) -> None:
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
                account_item(account),
                actions=[
                    AccountItem.email.set(address),
                    AccountItem.email_verified.set(True),
                    AccountItem.undeliverable.set(False),
                    AccountItem.pending_email.remove(),
                    AccountItem.expires_at.remove(),
                ],
            )

    conditioned("claim_address", write)


def set_password_hash(account: Account, password_hash: str) -> Account:
    """The new hash; the account as it is now (its next write is conditioned on this one)."""
    item = account_item(account)
    item.update(actions=[AccountItem.password_hash.set(password_hash)])
    return account_record(item)


def set_pending_email(account: Account, address: str) -> None:
    conditioned(
        "set_pending_email",
        lambda: account_item(account).update(actions=[AccountItem.pending_email.set(address)]),
    )


def set_preferences(account: Account, preferences: dict[str, bool]) -> None:
    # The list is made anew for each attempt: PynamoDB appends the version's increment to it.
    conditioned(
        "set_preferences",
        lambda: account_item(account).update(
            actions=[AccountItem.preferences[key].set(bool(v)) for key, v in preferences.items()]
        ),
    )


def set_mail_level(account: Account, level: str) -> None:
    conditioned(
        "set_mail_level",
        lambda: account_item(account).update(actions=[AccountItem.mail_level.set(level)]),
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


class Session(Struct, frozen=True):
    """One logged-in browser as read (``SessionItem``'s fields)."""

    account_id: str
    village_id: str | None  # set: a mail link's narrow session, for that village only
    created_at: datetime
    expires_at: datetime | None
    reset_until: datetime | None  # opened by a login link: may set a password until then


def session_record(item: SessionItem) -> Session:
    return record_of(Session, item)


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


def read_session(account_id: str, session_id: str, consistent: bool) -> Session | None:
    ensure_configured()
    try:
        item = SessionItem.get(
            account_pk(account_id), session_sk(session_id), consistent_read=consistent
        )
    except DoesNotExist:
        return None
    return session_record(item)


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
