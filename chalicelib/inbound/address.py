"""A member's reply address: ``<rules>.<village>.<slot>.<day>.<mac>@<reply domain>``.

The local part names the village, the member's seat, the day the mail was written for and the
rule set, and carries an HMAC of them truncated to 65 bits in lowercase base32: mail systems
may fold the case of a local part, and the longest one (``mobius.<12 digits>.commoner_a.
<3 digits>.<13>``) stays at 52 octets, well under RFC 5321's 64. The key is the signing key,
under a purpose of its own (decision 117).

A game played move by move has the same shape (decision 127): its rule set's name, the game
(its 16-character id, whose case a mail system may fold, written as the 20 lowercase base32
characters of its 12 octets), the side, the move count the mail was written for:
``duel.<20>.a.<4 digits>.<13>`` is 46 octets."""

import base64
import binascii
import hashlib
import hmac
import os
import re

from msgspec import Struct

from .. import runtime

MAC_CHARS = 13  # 65 bits of base32
_LOCAL = re.compile(
    r"([a-z]{1,12})\.([0-9]{1,12}|[a-z2-7]{20})\.([a-z0-9_]{1,16})\.([0-9]{1,4})\.([a-z2-7]{13})"
)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{16}")  # a game's id: secrets.token_urlsafe(12)


class ReplyTo(Struct, frozen=True):
    rules: str
    village_id: str  # a village's number, or a game's id
    slot: str  # a seat, or a game's side (lowercase)
    day: int  # a village's day, or a game's move count


def domain() -> str:
    """The game's mail domain, where SES receives replies (a setting of the stage)."""
    return os.environ.get("MOBIUS_REPLY_DOMAIN", "reply.mobius.example").lower()


def _macs(rules: str, village_id: str, slot: str, day: int) -> list[str]:
    """The address's MAC under each signing key, the newest first (a rotation: decision 206)."""
    keys = runtime.secrets()
    if not keys:
        raise RuntimeError("neither MOBIUS_SECRET nor MOBIUS_SECRET_PARAMETER is set")
    return [_mac(key, rules, village_id, slot, day) for key in keys]


def _mac(secret: str, rules: str, village_id: str, slot: str, day: int) -> str:
    message = f"mobius:reply:{rules}:{village_id}:{slot}:{day}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:MAC_CHARS]


def _owner(owner: str) -> str:
    """How the local part writes a village's number (as it is) or a game's id (base32)."""
    if owner.isdigit():
        return owner
    if not GAME_ID.fullmatch(owner):
        raise ValueError(f"no reply address for {owner!r}")
    return base64.b32encode(base64.urlsafe_b64decode(owner)).decode().rstrip("=").lower()


def _owner_of(written: str) -> str:
    if written.isdigit():
        return written
    return base64.urlsafe_b64encode(base64.b32decode(written.upper() + "====")).decode()


def local_part(to: ReplyTo) -> str:
    mac = _macs(to.rules, to.village_id, to.slot, to.day)[0]
    return f"{to.rules}.{_owner(to.village_id)}.{to.slot}.{to.day}.{mac}"


def address(to: ReplyTo) -> str:
    return f"{local_part(to)}@{domain()}"


def on_our_domain(addr: str) -> bool:
    return addr.lower().rpartition("@")[2] == domain()


def read(addr: str) -> ReplyTo | None:
    """What a reply address names, or None unless it is ours, well formed and its MAC holds."""
    local, _, host = addr.strip().lower().rpartition("@")
    if host != domain():
        return None
    match = _LOCAL.fullmatch(local)
    if match is None:
        return None
    rules, written, slot, day, mac = match.groups()
    try:
        village_id = _owner_of(written)
    except (binascii.Error, ValueError):
        return None
    if not any(hmac.compare_digest(mac, m) for m in _macs(rules, village_id, slot, int(day))):
        return None
    return ReplyTo(rules, village_id, slot, int(day))
