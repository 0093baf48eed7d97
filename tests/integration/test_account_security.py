"""Account defences (issue #9): login throttles that cannot be raced or used to lock an owner
out, unknown IDs as slow as known ones, guessable passwords refused, addresses claimed only
once verified, and account mail that cannot flood an address."""

import threading
from datetime import timedelta

import pytest

from chalicelib.services import accounts
from chalicelib.services.errors import Conflict, InvalidInput, RateLimited, Unauthorized
from chalicelib.storage.keys import email_pk
from chalicelib.storage.models import EmailItem
from chalicelib.storage.repository import load_account
from tests.support.accounts import make_account
from tests.support.villages import refused

PASSWORD = "correct horse battery"
ATTACKER = "198.51.100.66"
OWNER = "203.0.113.5"


class CountingHasher:
    """The suite's hasher, counting how many passwords it checks."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.verified = 0
        self.lock = threading.Lock()

    def verify(self, stored, password):
        with self.lock:
            self.verified += 1
        return self.inner.verify(stored, password)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def hasher(monkeypatch):
    counting = CountingHasher(accounts._hasher)
    monkeypatch.setattr(accounts, "_hasher", counting)
    return counting


def attempt(account_id, password, source, clock):
    try:
        return accounts.login(account_id, password, source, clock())
    except (Unauthorized, RateLimited) as error:
        return error


# ----- 1. the limit cannot be raced -----


def test_concurrent_wrong_passwords_are_counted_before_any_is_checked(clock, hasher):
    make_account("ada", clock())
    barrier = threading.Barrier(24)
    results = []

    def guess():
        barrier.wait()
        results.append(attempt("ada", "wrong password", ATTACKER, clock))

    threads = [threading.Thread(target=guess) for _ in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = [r for r in results if isinstance(r, Unauthorized)]
    limited = [r for r in results if isinstance(r, RateLimited)]
    assert len(checked) == accounts.LOGIN_FREE_FAILURES
    assert len(limited) == 24 - accounts.LOGIN_FREE_FAILURES
    assert hasher.verified == accounts.LOGIN_FREE_FAILURES
    # The right password right after is refused too: no password is checked past the limit.
    assert isinstance(attempt("ada", PASSWORD, ATTACKER, clock), RateLimited)
    assert hasher.verified == accounts.LOGIN_FREE_FAILURES


# ----- 4. a stranger cannot lock the owner out; delays grow -----


def test_a_strangers_failures_never_lock_the_owner_out(clock):
    make_account("bea", clock())
    for _ in range(3 * accounts.LOGIN_FREE_FAILURES):
        attempt("bea", "wrong password", ATTACKER, clock)
    assert accounts.login("bea", PASSWORD, OWNER, clock()).account_id == "bea"


def test_login_delays_grow_with_each_failure_and_a_success_clears_them(clock):
    make_account("cleo", clock())
    for _ in range(accounts.LOGIN_FREE_FAILURES):
        refused(Unauthorized, accounts.login, "cleo", "wrong password", ATTACKER, clock())
    waits = []
    for _ in range(4):
        refused(RateLimited, accounts.login, "cleo", "wrong password", ATTACKER, clock())
        # Just past the delay, one more try is let through (and fails).
        delay = accounts.login_delay(int(_throttle_count("cleo")))
        waits.append(delay)
        clock.advance(delay + timedelta(seconds=1))
        refused(Unauthorized, accounts.login, "cleo", "wrong password", ATTACKER, clock())
    assert waits == sorted(waits) and waits[0] < waits[-1]
    assert all(w <= accounts.LOGIN_MAX_DELAY for w in waits)
    clock.advance(accounts.LOGIN_MAX_DELAY)
    assert accounts.login("cleo", PASSWORD, ATTACKER, clock()).account_id == "cleo"
    # The success forgot the failures: free tries again.
    refused(Unauthorized, accounts.login, "cleo", "wrong password", ATTACKER, clock())
    assert accounts.login("cleo", PASSWORD, ATTACKER, clock()).account_id == "cleo"


def _throttle_count(account_id: str) -> int:
    from chalicelib.storage.models import CounterItem

    return CounterItem.get(f"R#login#pair#{account_id}#{ATTACKER}", "LOGIN").count


def test_the_delay_doubles_from_one_minute_to_an_hour():
    assert accounts.login_delay(accounts.LOGIN_FREE_FAILURES - 1) == timedelta(0)
    assert accounts.login_delay(accounts.LOGIN_FREE_FAILURES) == timedelta(minutes=1)
    assert accounts.login_delay(accounts.LOGIN_FREE_FAILURES + 1) == timedelta(minutes=2)
    assert accounts.login_delay(accounts.LOGIN_FREE_FAILURES + 3) == timedelta(minutes=8)
    assert accounts.login_delay(100) == accounts.LOGIN_MAX_DELAY


# ----- 5. unknown IDs take as long as known ones -----


def test_unknown_and_malformed_ids_are_checked_against_a_dummy_hash(clock, hasher):
    make_account("dora", clock())
    for account_id in ("dora", "nobody", "x" * 3000, "名前"):
        before = hasher.verified
        error = refused(Unauthorized, accounts.login, account_id, "wrong password", OWNER, clock())
        assert str(error) == "IDまたはパスワードが違います"
        assert hasher.verified == before + 1, account_id


# ----- 6. guessable passwords -----


@pytest.mark.parametrize(
    "password",
    ["password", "12345678", "aaaaaaaa", "evelyn_88", "evelyn88@example.jp", "qwertyuiop"],
)
def test_guessable_passwords_are_refused_with_a_reason_in_japanese(clock, password):
    error = refused(
        InvalidInput, accounts.register, "evelyn_88", password, "evelyn88@example.jp", clock()
    )
    assert str(error).startswith("このパスワードは推測されやすいため使えません。")
    assert load_account("evelyn_88") is None


def test_a_new_password_must_not_be_guessable_either(clock):
    make_account("fay", clock())
    refused(InvalidInput, accounts.change_password, "fay", PASSWORD, "password1")
    refused(InvalidInput, accounts.change_password, "fay", PASSWORD, "fay@example.jp")
    accounts.change_password("fay", PASSWORD, "lantern moss 42")
    assert accounts.login("fay", "lantern moss 42", OWNER, clock()).account_id == "fay"


# ----- 8. no squatting on an address -----


def test_an_unverified_registration_does_not_hold_the_address(clock):
    squatter = accounts.register("squat", PASSWORD, "gina@example.jp", clock())
    owner = accounts.register("gina", PASSWORD, "gina@example.jp", clock())
    assert owner.token is not None  # the real owner gets a verification link all the same
    assert accounts.verify_email(owner.token, clock()).account_id == "gina"
    assert EmailItem.get(email_pk("gina@example.jp"), "EMAIL").account_id == "gina"
    # The squatter's link no longer takes it.
    refused(Conflict, accounts.verify_email, squatter.token, clock())
    assert load_account("squat").email_verified is False


def test_an_unverified_account_expires_after_24_hours_and_frees_its_id(clock):
    accounts.register("hana", PASSWORD, "hana@example.jp", clock())
    assert load_account("hana").expires_at == clock() + accounts.UNVERIFIED_FOR
    refused(Conflict, accounts.register, "hana", PASSWORD, "other@example.jp", clock())
    clock.advance(accounts.UNVERIFIED_FOR + timedelta(seconds=1))
    # Expired (DynamoDB's TTL deletes it late): it no longer logs in, and the ID is free.
    refused(Unauthorized, accounts.login, "hana", PASSWORD, OWNER, clock())
    fresh = accounts.register("hana", PASSWORD, "hana2@example.jp", clock())
    assert accounts.verify_email(fresh.token, clock()).account_id == "hana"
    assert load_account("hana").expires_at is None  # verified accounts never expire


def test_a_verified_account_keeps_its_id(clock):
    make_account("iris", clock())
    clock.advance(accounts.UNVERIFIED_FOR * 3)
    refused(Conflict, accounts.register, "iris", PASSWORD, "iris2@example.jp", clock())
    assert load_account("iris").email == "iris@example.jp"


# ----- 9. account mail cannot flood an address -----


def test_account_mail_is_limited_per_address_account_and_source(clock):
    for _ in range(accounts.MAIL_PER_ADDRESS):
        accounts.allow_account_mail("target@example.jp", None, f"192.0.2.{_}", clock())
    refused(
        RateLimited, accounts.allow_account_mail, "target@example.jp", None, "192.0.2.99", clock()
    )
    for n in range(accounts.MAIL_PER_ACCOUNT):
        accounts.allow_account_mail(f"a{n}@example.jp", "jo", f"192.0.2.{n}", clock())
    refused(RateLimited, accounts.allow_account_mail, "a9@example.jp", "jo", "192.0.2.99", clock())
    for n in range(accounts.MAIL_PER_SOURCE):
        accounts.allow_account_mail(f"s{n}@example.jp", f"acct{n}", "192.0.2.200", clock())
    refused(
        RateLimited, accounts.allow_account_mail, "s99@example.jp", "acct99", "192.0.2.200", clock()
    )
    clock.advance(accounts.MAIL_WINDOW)
    accounts.allow_account_mail("target@example.jp", "jo", "192.0.2.200", clock())
