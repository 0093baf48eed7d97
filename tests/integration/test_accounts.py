"""Accounts (issue #3): register, verify through the signed link, log in, change password,
change email, notification preferences, login rate limits."""

import logging
from datetime import timedelta

import pytest

from chalicelib.services import accounts, villages
from chalicelib.services.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    RateLimited,
    Unauthorized,
)
from chalicelib.storage.keys import account_pk, email_pk
from chalicelib.storage.models import AccountItem, EmailItem, Item
from chalicelib.storage.repository import load_account
from tests.support.accounts import PRODUCTION_HASHER, make_account
from tests.support.villages import persona_of, refused

PASSWORD = "correct horse battery"


def test_register_id_is_3_to_20_of_letters_digits_underscore(clock):
    for bad in ("ab", "a" * 21, "bad-id", "has space", "名前です", "abc!", ""):
        refused(InvalidInput, accounts.register, bad, PASSWORD, f"x{len(bad)}@example.jp", clock())
        assert load_account(bad) is None
    for n, good in enumerate(("abc", "A_9", "x" * 20, "Mixed_Case_01")):
        accounts.register(good, PASSWORD, f"ok{n}@example.jp", clock())
        assert load_account(good).account_id == good


def test_register_id_is_unique(clock):
    accounts.register("alice", PASSWORD, "alice@example.jp", clock())
    error = refused(Conflict, accounts.register, "alice", PASSWORD, "other@example.jp", clock())
    assert "ID" in str(error)
    assert load_account("alice").email == "alice@example.jp"
    # The refused registration did not take the other address either.
    accounts.register("bob", PASSWORD, "other@example.jp", clock())


def test_register_password_needs_8_characters(clock):
    refused(InvalidInput, accounts.register, "shorty", "kx8#mq2", "s@example.jp", clock())
    assert load_account("shorty") is None
    accounts.register("eighty", "kx8#mq2L", "e@example.jp", clock())
    assert accounts.login("eighty", "kx8#mq2L", "203.0.113.1", clock()).account_id == "eighty"


def test_register_password_is_stored_as_argon2id_and_never_logged(clock, monkeypatch, caplog):
    monkeypatch.setattr(accounts, "_hasher", PRODUCTION_HASHER)
    secret = "very-secret-passphrase"
    caplog.set_level(logging.DEBUG)
    token = accounts.register("carol", secret, "carol@example.jp", clock()).token
    accounts.verify_email(token, clock())
    accounts.login("carol", secret, "203.0.113.1", clock())
    refused(Unauthorized, accounts.login, "carol", secret + "x", "203.0.113.1", clock())
    accounts.change_password("carol", secret, secret + "-2")
    stored = load_account("carol").password_hash
    assert stored.startswith("$argon2id$")
    assert secret not in stored
    assert secret not in caplog.text
    # Nowhere in the table either.
    assert not [i for i in Item.scan() if secret in str(i.attribute_values)]


def test_register_email_is_unique_whatever_its_case(clock):
    make_account("dave", clock(), email="Dave.Smith@Example.JP")
    assert load_account("dave").email == "dave.smith@example.jp"
    # Another registration with the address gets no verification link (its owner is mailed).
    for other, typed in (("dave2", "dave.smith@example.jp"), ("dave3", " DAVE.SMITH@EXAMPLE.JP ")):
        registration = accounts.register(other, PASSWORD, typed, clock())
        assert (registration.token, registration.owner) == (None, "dave")
    assert EmailItem.get(email_pk("dave.smith@example.jp"), "EMAIL").account_id == "dave"


def test_register_refuses_a_malformed_email(clock):
    for bad in ("no-at-sign", "a@b", "two@@example.jp", "sp ace@example.jp"):
        refused(InvalidInput, accounts.register, "erin", PASSWORD, bad, clock())
    assert load_account("erin") is None


def test_join_only_after_email_verified_through_signed_link(clock, village):
    token = accounts.register("frank", PASSWORD, "frank@example.jp", clock()).token
    assert load_account("frank").email_verified is False
    error = refused(
        Forbidden, villages.join, village, "frank", "seer_a", persona_of("seer_a"), clock()
    )
    assert "メールアドレスの確認" in str(error)
    # A tampered link and a link for another purpose are refused.
    refused(InvalidInput, accounts.verify_email, token[:-2] + "xx", clock())
    refused(InvalidInput, accounts.verify_email, "not-a-token", clock())
    assert load_account("frank").email_verified is False
    assert accounts.verify_email(token, clock()).account_id == "frank"
    assert load_account("frank").email_verified is True
    villages.join(village, "frank", "seer_a", persona_of("seer_a"), clock())
    assert load_account("frank").holds == {"short": village}


def test_verification_link_expires_after_24_hours(clock):
    token = accounts.register("grace", PASSWORD, "grace@example.jp", clock()).token
    clock.advance(timedelta(hours=24))
    refused(InvalidInput, accounts.verify_email, token, clock())
    assert load_account("grace").email_verified is False


def test_login_checks_the_password(clock):
    make_account("heidi", clock())
    assert accounts.login("heidi", PASSWORD, "203.0.113.1", clock()).account_id == "heidi"
    wrong = refused(Unauthorized, accounts.login, "heidi", "wrong password", "203.0.113.1", clock())
    unknown = refused(Unauthorized, accounts.login, "nobody", PASSWORD, "203.0.113.1", clock())
    assert str(wrong) == str(unknown)  # does not tell which IDs exist


def test_login_is_rate_limited_per_account_and_source(clock):
    make_account("ivan", clock())
    source = "198.51.100.1"
    for _ in range(accounts.LOGIN_FREE_FAILURES):
        refused(Unauthorized, accounts.login, "ivan", "wrong password", source, clock())
    # Even the right password, from that source, waits now.
    refused(RateLimited, accounts.login, "ivan", PASSWORD, source, clock())
    # The owner elsewhere and another account are not affected.
    assert accounts.login("ivan", PASSWORD, "203.0.113.99", clock()).account_id == "ivan"
    make_account("judy", clock())
    assert accounts.login("judy", PASSWORD, source, clock()).account_id == "judy"
    clock.advance(accounts.LOGIN_MAX_DELAY)
    assert accounts.login("ivan", PASSWORD, source, clock()).account_id == "ivan"


def test_login_is_rate_limited_per_source(clock):
    make_account("kim", clock())
    source = "192.0.2.7"
    for n in range(accounts.LOGIN_ATTEMPTS_PER_SOURCE):
        # Different IDs, so no account reaches its own limit.
        refused(Unauthorized, accounts.login, f"guess{n % 4}", "wrong password", source, clock())
    refused(RateLimited, accounts.login, "kim", PASSWORD, source, clock())
    assert accounts.login("kim", PASSWORD, "192.0.2.8", clock()).account_id == "kim"
    clock.advance(2 * accounts.LOGIN_WINDOW)
    assert accounts.login("kim", PASSWORD, source, clock()).account_id == "kim"


def test_change_password_needs_the_old_one(clock):
    make_account("leo", clock())
    refused(Forbidden, accounts.change_password, "leo", "not the password", "brand new pass")
    refused(InvalidInput, accounts.change_password, "leo", PASSWORD, "short")
    accounts.login("leo", PASSWORD, "203.0.113.1", clock())  # unchanged so far
    accounts.change_password("leo", PASSWORD, "brand new pass")
    assert accounts.login("leo", "brand new pass", "203.0.113.1", clock()).account_id == "leo"
    refused(Unauthorized, accounts.login, "leo", PASSWORD, "203.0.113.1", clock())


def test_change_email_needs_the_password_and_a_new_verification(clock, village):
    make_account("mia", clock())
    make_account("ned", clock())
    refused(Forbidden, accounts.change_email, "mia", "not the password", "mia2@example.jp", clock())
    refused(InvalidInput, accounts.change_email, "mia", PASSWORD, "MIA@example.jp", clock())
    # Ned's address: no verification link (Ned is told instead), nothing changes.
    assert accounts.change_email("mia", PASSWORD, "NED@example.jp", clock()).token is None
    assert load_account("mia").email == "mia@example.jp"
    assert load_account("mia").email_verified is True

    token = accounts.change_email("mia", PASSWORD, "Mia.New@Example.jp", clock()).token
    account = load_account("mia")
    # Until the new address is verified, the old one stays (mail goes there; joining works).
    assert (account.email, account.email_verified) == ("mia@example.jp", True)
    assert account.pending_email == "mia.new@example.jp"
    assert accounts.verify_email(token, clock()).account_id == "mia"
    account = load_account("mia")
    assert (account.email, account.email_verified, account.pending_email) == (
        "mia.new@example.jp",
        True,
        None,
    )
    villages.join(village, "mia", "seer_a", persona_of("seer_a"), clock())
    # The old address is free again; the new one is Mia's.
    olga = accounts.register("olga", PASSWORD, "mia@example.jp", clock())
    accounts.verify_email(olga.token, clock())
    assert accounts.register("pete", PASSWORD, "MIA.NEW@example.jp", clock()).owner == "mia"
    assert EmailItem.get(email_pk("mia@example.jp"), "EMAIL").account_id == "olga"


def test_notification_preferences(clock):
    make_account("quinn", clock())
    assert load_account("quinn").preferences == {
        "morning_mail": True,
        "reminder_mail": True,
    }
    accounts.set_preferences("quinn", {"morning_mail": False})
    assert load_account("quinn").preferences == {
        "morning_mail": False,
        "reminder_mail": True,
    }
    accounts.set_preferences("quinn", {"morning_mail": True, "reminder_mail": False})
    assert load_account("quinn").preferences == {
        "morning_mail": True,
        "reminder_mail": False,
    }
    refused(InvalidInput, accounts.set_preferences, "quinn", {"spam": True})
    accounts.set_preferences("quinn", {})  # nothing to change
    assert load_account("quinn").preferences == {
        "morning_mail": True,
        "reminder_mail": False,
    }


def test_a_password_rehashed_at_its_check_is_then_changed(clock, monkeypatch):
    """The check rewrites a hash made with weaker parameters; the change it guards is
    conditioned on the account as that rewrite left it, not as first read (decision 235)."""
    make_account("rory", clock())  # hashed with the tests' cheap parameters
    monkeypatch.setattr(accounts, "_hasher", PRODUCTION_HASHER)
    before = load_account("rory").version
    accounts.change_password("rory", PASSWORD, "another good passphrase")
    after = load_account("rory")
    assert after.version == before + 2  # the rehash, then the new password
    assert PRODUCTION_HASHER.verify(after.password_hash, "another good passphrase")


def test_an_account_stored_without_a_version_is_written_all_the_same(clock):
    """An account item put without ``version`` (as the deploy test's set-up does): its first
    write is conditioned on there being none, and counts it from 1."""
    make_account("vera", clock())
    item = AccountItem.get(account_pk("vera"), "ACCOUNT")
    raw = item.serialize()
    del raw["version"]
    AccountItem._get_connection().put_item(
        account_pk("vera"),
        "ACCOUNT",
        attributes={k: v for k, v in raw.items() if k not in ("pk", "sk")},
    )
    assert load_account("vera").version is None
    accounts.set_mail_level("vera", "mine")
    stored = load_account("vera")
    assert stored.mail_level == "mine" and stored.version == 1


@pytest.mark.parametrize("use_case", ["change_password", "change_email", "set_preferences"])
def test_account_changes_of_an_unknown_account_are_refused(clock, use_case):
    from chalicelib.services.errors import NotFound

    calls = {
        "change_password": lambda: accounts.change_password("ghost", PASSWORD, "new password!"),
        "change_email": lambda: accounts.change_email("ghost", PASSWORD, "g@example.jp", clock()),
        "set_preferences": lambda: accounts.set_preferences("ghost", {"morning_mail": False}),
    }
    refused(NotFound, calls[use_case])
