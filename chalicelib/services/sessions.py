"""Logged-in browsers: one revocable session item each (logout and a new password end them).

A full session is the whole account for 30 days. A mail link opens a narrow one: that
village's pages, posts and actions for its member, until the village's next update.
"""

import secrets
from datetime import datetime, timedelta

from msgspec import Struct

from ..storage import accounts as store
from ..storage.accounts import Session

SESSION_FOR = timedelta(days=30)
# A login link's session may set a new password without the old one for this long: the way
# back in for a member who forgot it.
RESET_FOR = timedelta(hours=1)
SESSION_ID_LENGTH = 32  # characters of token_urlsafe(24)


class Grant(Struct, frozen=True):
    """Who a session speaks for, and where: ``village_id`` None is the whole account."""

    account_id: str
    session_id: str
    village_id: str | None
    may_reset: bool = False  # opened by a login link within the hour: a new password needs no old

    def acts_in(self, village_id: str) -> bool:
        return self.village_id is None or self.village_id == village_id


def open_session(
    account_id: str,
    now: datetime,
    village_id: str | None = None,
    until: datetime | None = None,
    reset: bool = False,
) -> Grant:
    """A new session for 30 days at most; ``until`` ends it sooner (a narrow one's village
    update, an unverified account's day: after that its ID may be someone else's).
    ``reset``: opened by a login link, it may set a new password for an hour."""
    session_id = secrets.token_urlsafe(24)
    expires_at = min(until, now + SESSION_FOR) if until else now + SESSION_FOR
    reset_until = now + RESET_FOR if reset else None
    store.open_session(account_id, session_id, village_id, now, expires_at, reset_until)
    return Grant(account_id, session_id, village_id, reset)


def check(account_id: str, session_id: str, now: datetime, writes: bool = True) -> Grant | None:
    """The session's grant, or None once it was closed or has expired (TTL deletes late).

    ``writes``: the request may change something, so the session item is read consistently
    (a session ended a moment ago changes nothing). A request that only reads reads it
    eventually consistent, for half the units (decision 69); a session it does not find
    is read again consistently, since a login's new session may not have reached every copy
    yet."""
    if not well_formed(session_id):
        return None
    session = store.read_session(account_id, session_id, consistent=writes)
    if not writes and not _live(session, now):
        session = store.read_session(account_id, session_id, consistent=True)
    return grant_of(session, account_id, session_id, now)


def well_formed(session_id: str) -> bool:
    """A session id as ``open_session`` makes them: anything else is not read at all."""
    return len(session_id) == SESSION_ID_LENGTH


def grant_of(
    session: Session | None, account_id: str, session_id: str, now: datetime
) -> Grant | None:
    """The grant of a session read consistently (None: closed or expired)."""
    if session is None or not _live(session, now):
        return None
    may_reset = session.reset_until is not None and now < session.reset_until
    return Grant(account_id, session_id, session.village_id, may_reset)


def _live(session: Session | None, now: datetime) -> bool:
    return session is not None and session.expires_at is not None and session.expires_at > now


def close(grant: Grant) -> None:
    store.close_session(grant.account_id, grant.session_id)


def close_all(account_id: str, keep: str | None = None) -> None:
    """Ends every session of the account but ``keep`` (a new password: other browsers out)."""
    store.close_sessions(account_id, keep)
