"""Signed links in mail: a member's way into a village, and one-tap choices.

A member link is bound to an account, a village and a day, and expires at the
village's next update. A quick link adds one choice (key and target) to it, and
what that choice was when the mail was made: once the member has changed it since,
the link is refused rather than undo the change (and a repeat changes nothing). A link
that set its choice is marked used, so that it cannot set it again after the member took
it back by hand; the mail's time keeps a later mail's same choice a link of its own.
GET on a link only shows a confirmation page; the POST there acts.
"""

import json
import re
from datetime import UTC, datetime, timedelta

from msgspec import Struct
from msgspec.structs import astuple

from . import runtime, signing

UNSUBSCRIBE_FOR = timedelta(days=365)
VILLAGE_ID = re.compile(r"[0-9]{1,12}")


class MemberLink(Struct, frozen=True):
    account_id: str
    village_id: str
    day: int
    key: str | None = None  # a quick link's choice
    target: str | None = None
    was: str | None = None  # that choice when the mail was made
    made: int | None = None  # when the mail was made (so that two mails' links differ)


def member_token(link: MemberLink, expires_at: datetime) -> str:
    payload = {"a": link.account_id, "v": link.village_id, "d": link.day}
    if link.key:
        payload.update(k=link.key, t=link.target, w=link.was)
        if link.made is not None:
            payload["m"] = link.made
    return signing.sign("member", payload, expires_at)


def member_url(link: MemberLink, expires_at: datetime) -> str:
    return f"{runtime.base_url()}/m/{member_token(link, expires_at)}"


def read_member_token(token: str, now: datetime) -> MemberLink | None:
    payload = signing.unsign("member", token, now)
    if not isinstance(payload, dict):
        return None
    try:
        return MemberLink(
            payload["a"],
            payload["v"],
            payload["d"],
            payload.get("k"),
            payload.get("t"),
            payload.get("w"),
            payload.get("m"),
        )
    except KeyError:
        return None


def claimed_village(token: str) -> str | None:
    """The village a member link names, even expired or tampered with: a refused link's
    page offers that village (its public page is everyone's), nothing more."""
    payload = signing.claimed("member", token)
    village = payload.get("v") if isinstance(payload, dict) else None
    return village if isinstance(village, str) and VILLAGE_ID.fullmatch(village) else None


def used_key(link: MemberLink) -> str:
    """What a quick link's used-mark is keyed on: the link as its token decodes (account,
    village, day, choice, what it was, when the mail was made), never the token's text, which
    base64 lets be spelled several ways (decision 80)."""
    return json.dumps(astuple(link), ensure_ascii=False)


def match_scope(match_id: str) -> str:
    """A match link's narrow session's scope (a village's is its number: never the same)."""
    return f"M:{match_id}"


def match_url(account_id: str, match_id: str, expires_at: datetime) -> str:
    """A player's signed way into one game from its mail: that game only, until it expires."""
    payload = {"a": account_id, "m": match_id, "u": int(expires_at.timestamp())}
    token = signing.sign("match", payload, expires_at)
    return f"{runtime.base_url()}/matches/{match_id}/pass/{token}"


class MatchPass(Struct, frozen=True):
    account_id: str
    until: datetime


def read_match_token(token: str, match_id: str, now: datetime) -> MatchPass | None:
    """Whom a match link was made for and until when, if it is this game's, signed and not
    expired."""
    payload = signing.unsign("match", token, now)
    if not isinstance(payload, dict) or payload.get("m") != match_id:
        return None
    account, until = payload.get("a"), payload.get("u")
    if not isinstance(account, str) or not isinstance(until, int):
        return None
    return MatchPass(account, datetime.fromtimestamp(until, UTC))


PRESENCE_FOR = timedelta(days=30)  # as long as a game's page can be kept open


def presence_token(match_id: str, side: str, now: datetime) -> str:
    """What a live game's page sends with its polls to say its side's player is here
    (decision 82): this game and side only, and nothing else; no session is read."""
    return signing.sign("here", {"m": match_id, "s": side}, now + PRESENCE_FOR)


def read_presence_token(token: str, match_id: str, now: datetime) -> str | None:
    """The side a presence token speaks for in this game, if signed and not expired."""
    payload = signing.unsign("here", token, now)
    if not isinstance(payload, dict) or payload.get("m") != match_id:
        return None
    side = payload.get("s")
    return side if isinstance(side, str) else None


def unsubscribe_url(account_id: str, now: datetime) -> str:
    token = signing.sign("unsubscribe", {"a": account_id}, now + UNSUBSCRIBE_FOR)
    return f"{runtime.base_url()}/unsubscribe/{token}"


def read_unsubscribe_token(token: str, now: datetime) -> str | None:
    payload = signing.unsign("unsubscribe", token, now)
    return payload.get("a") if isinstance(payload, dict) else None
