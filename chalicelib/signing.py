"""Signed tokens for links and cookies (itsdangerous).

Expiry is checked against the injected clock (not the system time), so tests
can travel in time. The keys come from runtime.secrets() at call time.
"""

from datetime import datetime
from typing import Any

from itsdangerous import BadData, BadSignature, URLSafeSerializer
from itsdangerous.encoding import base64_decode, base64_encode

from . import runtime

# The longest token ``claimed`` reads: a mail link's is a few hundred characters.
CLAIMED_LENGTH = 2000


class MissingSecret(RuntimeError):
    pass


def _serializer(purpose: str) -> URLSafeSerializer:
    keys = runtime.secrets()
    if not keys:
        raise MissingSecret("neither MOBIUS_SECRET nor MOBIUS_SECRET_PARAMETER is set")
    # itsdangerous signs with the last key of a list and accepts a signature by any: during
    # a rotation, links and sessions signed with the old key keep working (decision 206).
    return URLSafeSerializer(list(reversed(keys)), salt=f"mobius:{purpose}")


def sign(purpose: str, payload: Any, expires_at: datetime) -> str:
    return _serializer(purpose).dumps({"p": payload, "x": int(expires_at.timestamp())})


def canonical(token: str) -> bool:
    """Whether ``token`` is spelled as ``sign`` spells it. Base64 lets the same bytes be
    written several ways (a padding ``=`` added, the unused low bits of the last character
    set), and itsdangerous accepts them all: a token that marks something used must have one
    spelling only, or a used link would work again spelled differently."""
    try:
        return all(base64_encode(base64_decode(part)).decode() == part for part in token.split("."))
    except BadData:  # not base64 at all
        return False


def unsign(purpose: str, token: str, now: datetime) -> Any | None:
    """The payload, or None when the token is tampered with, expired, for another purpose or
    not spelled as it was signed (``canonical``)."""
    if not canonical(token):
        return None
    try:
        data = _serializer(purpose).loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or now.timestamp() >= data.get("x", 0):
        return None
    return data.get("p")


def claimed(purpose: str, token: str) -> Any | None:
    """What a token says, whether or not its signature holds or it is still valid: only for
    a refused link's hints that show nothing private (which village it was for), never for
    what the link may do."""
    if len(token) > CLAIMED_LENGTH:
        return None  # unverified text is decompressed: never a long one
    _, data = _serializer(purpose).loads_unsafe(token)
    return data.get("p") if isinstance(data, dict) else None
