"""Signed tokens for links and cookies (itsdangerous).

Expiry is checked against the injected clock (not the system time), so tests
can travel in time. The key comes from runtime.secret() at call time.
"""

from datetime import datetime
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from . import runtime


class MissingSecret(RuntimeError):
    pass


def _serializer(purpose: str) -> URLSafeSerializer:
    secret = runtime.secret()
    if not secret:
        raise MissingSecret("neither MOBIUS_SECRET nor MOBIUS_SECRET_PARAMETER is set")
    return URLSafeSerializer(secret, salt=f"mobius:{purpose}")


def sign(purpose: str, payload: Any, expires_at: datetime) -> str:
    return _serializer(purpose).dumps({"p": payload, "x": int(expires_at.timestamp())})


def unsign(purpose: str, token: str, now: datetime) -> Any | None:
    """The payload, or None when the token is tampered with, expired or for another purpose."""
    try:
        data = _serializer(purpose).loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or now.timestamp() >= data.get("x", 0):
        return None
    return data.get("p")
