"""Accounts as the tests make them: one password, registered and verified through the services."""

from datetime import datetime

from argon2 import PasswordHasher

from chalicelib.services import accounts

PASSWORD = "correct horse battery"
# Read before any test swaps it for the cheap one: the tests of how passwords are stored use it.
PRODUCTION_HASHER = accounts._hasher


def cheap_hasher() -> PasswordHasher:
    """argon2id at its cheapest: the suites register hundreds of accounts."""
    return PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


def make_account(name: str, now: datetime, email: str | None = None, verified: bool = True) -> str:
    """A registered account (its email verified unless ``verified`` is false)."""
    token = accounts.register(name, PASSWORD, email or f"{name}@example.jp", now).token
    if verified:
        accounts.verify_email(token, now)
    return name
