"""A hostile second look at logins, sessions and account mail (after issue #9's fixes)."""

from datetime import timedelta

from chalicelib.services import accounts, sessions
from chalicelib.storage.repository import load_account
from tests.web.conftest import PASSWORD, text


def register(browser, account_id, email, password=PASSWORD):
    browser.get("/register")
    return browser.post(
        "/register", {"account_id": account_id, "password": password, "email": email}
    )


def test_a_session_on_an_expired_registration_does_not_open_the_next_owner_of_its_id(
    new_browser, clock
):
    squatter = new_browser()
    assert register(squatter, "bob", "squatter@example.jp").status_code == 200
    squatter.login("bob")  # an unverified account may log in during its day
    assert squatter.get("/account").status_code == 200
    clock.advance(accounts.UNVERIFIED_FOR + timedelta(minutes=1))
    owner = new_browser()
    assert register(owner, "bob", "bob@example.jp").status_code == 200
    assert load_account("bob").email == "bob@example.jp"
    page = squatter.get("/account")
    assert page.status_code == 401, "the squatter's old cookie opens the new bob's account"
    assert "bob@example.jp" not in text(page)


def test_undoing_a_registration_ends_the_sessions_opened_on_it(clock):
    registration = accounts.register("bob", PASSWORD, "bob@example.jp", clock())
    grant = sessions.open_session("bob", clock())  # a login in the moment before the undo
    accounts.cancel_registration(registration)
    assert sessions.check("bob", grant.session_id, clock()) is None
