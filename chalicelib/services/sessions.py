"""Logged-in browsers: one revocable session item each (logout and a new password end them).

A full session is the whole account for 30 days. A mail link opens a narrow one: that
village's pages, posts and actions for its member, until the village's next update.
"""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from pynamodb.exceptions import DoesNotExist
from pynamodb.expressions.condition import Condition

from ..storage.db import ensure_configured
from ..storage.models import SessionItem
from ..storage.repository import account_pk

SESSION_FOR = timedelta(days=30)
SESSION_ID_LENGTH = 32  # characters of token_urlsafe(24)


@dataclass(frozen=True)
class Grant:
    """Who a session speaks for, and where: ``village_id`` None is the whole account."""

    account_id: str
    session_id: str
    village_id: str | None

    def acts_in(self, village_id: str) -> bool:
        return self.village_id is None or self.village_id == village_id


def session_sk(session_id: str) -> str:
    return f"SESSION#{session_id}"


def open_session(
    account_id: str, now: datetime, village_id: str | None = None, until: datetime | None = None
) -> Grant:
    """A new session for 30 days at most; ``until`` ends it sooner (a narrow one's village
    update, an unverified account's day: after that its ID may be someone else's)."""
    ensure_configured()
    session_id = secrets.token_urlsafe(24)
    expires_at = min(until, now + SESSION_FOR) if until else now + SESSION_FOR
    SessionItem(
        account_pk(account_id),
        session_sk(session_id),
        account_id=account_id,
        village_id=village_id,
        created_at=now,
        expires_at=expires_at,
    ).save()
    return Grant(account_id, session_id, village_id)


def check(account_id: str, session_id: str, now: datetime) -> Grant | None:
    """The session's grant, or None once it was closed or has expired (TTL deletes late)."""
    if len(session_id) != SESSION_ID_LENGTH:
        return None
    ensure_configured()
    try:
        item = SessionItem.get(account_pk(account_id), session_sk(session_id))
    except DoesNotExist:
        return None
    if item.expires_at is None or item.expires_at <= now:
        return None
    return Grant(account_id, session_id, item.village_id)


def key(grant: Grant) -> tuple[str, str]:
    return account_pk(grant.account_id), session_sk(grant.session_id)


def live(grant: Grant, now: datetime) -> Condition:
    """The condition that the session item the grant names is there, unexpired, same scope."""
    scope = (
        SessionItem.village_id.does_not_exist()
        if grant.village_id is None
        else SessionItem.village_id == grant.village_id
    )
    return (SessionItem.expires_at > now) & scope


def close(grant: Grant) -> None:
    ensure_configured()
    SessionItem(account_pk(grant.account_id), session_sk(grant.session_id)).delete()


def close_all(account_id: str, keep: str | None = None) -> None:
    """Ends every session of the account but ``keep`` (a new password: other browsers out)."""
    ensure_configured()
    items = SessionItem.query(account_pk(account_id), SessionItem.sk.startswith("SESSION#"))
    with SessionItem.batch_write() as batch:
        for item in items:
            if item.sk != session_sk(keep or ""):
                batch.delete(item)
