"""A hostile second look at logins, sessions and account mail (after issue #9's fixes)."""

import re
from datetime import timedelta

from chalicelib.services import accounts, sessions
from chalicelib.storage.repository import load_account
from tests.support.accounts import PASSWORD, make_account
from tests.support.clients import text
from tests.support.mail import mail_text, sent_messages
from tests.web.test_account_security import LOGIN_LINK


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


# ----- nobody can spend an owner's login-link mail, or learn from it who is registered -----


def ask_login_link(browser, identifier):
    browser.get("/login")
    return browser.post("/login/mail", {"identifier": identifier})


def mails_to(address):
    return [m for m in sent_messages() if address in m.destinations]


def test_refused_registrations_naming_an_address_do_not_spend_its_mail(new_browser, clock):
    make_account("alice", clock())
    stranger = new_browser()
    for n in range(accounts.MAIL_PER_ADDRESS + 1):
        refused = register(stranger, f"mallory{n}", "alice@example.jp", password="password")
        assert refused.status_code == 400  # a weak password: nothing registered, nothing sent
    assert mails_to("alice@example.jp") == []
    assert ask_login_link(new_browser(), "alice").status_code == 200
    assert len(mails_to("alice@example.jp")) == 1, "the owner's login link was not sent"


def test_refused_registrations_naming_an_id_do_not_spend_its_mail(new_browser, clock):
    make_account("alice", clock())
    stranger = new_browser()
    for n in range(accounts.MAIL_PER_ACCOUNT + 1):
        taken = register(stranger, "alice", f"m{n}@example.jp")
        assert taken.status_code == 409
    assert ask_login_link(new_browser(), "alice").status_code == 200
    assert len(mails_to("alice@example.jp")) == 1, "the owner's login link was not sent"


def test_registrations_with_an_owners_address_do_not_stop_their_login_link(new_browser, clock):
    make_account("alice", clock())
    for n in range(accounts.MAIL_PER_ADDRESS + 1):
        register(new_browser(), f"mallory{n}", "alice@example.jp")
    assert ask_login_link(new_browser(), "alice").status_code == 200
    assert LOGIN_LINK.search(mail_text(mails_to("alice@example.jp")[-1]))


def test_a_stranger_asking_login_links_cannot_lock_the_owner_out(new_browser, clock):
    make_account("alice", clock())
    stranger = new_browser()
    for _ in range(accounts.MAIL_PER_ADDRESS + 2):
        ask_login_link(stranger, "alice")
    clock.advance(timedelta(minutes=40))
    owner = new_browser()
    asked = ask_login_link(owner, "alice")
    assert asked.status_code == 200
    # No new mail (the address had its share this hour), but one in the mailbox still works.
    token = LOGIN_LINK.search(mail_text(mails_to("alice@example.jp")[-1])).group(1)
    assert owner.post("/login/link", {"token": token}).status_code == 303
    assert owner.get("/account").status_code == 200


def test_asking_login_links_for_an_address_tells_nothing_of_its_account(browser, clock):
    make_account("alice", clock())
    answers = set()
    for identifier in ("alice@example.jp", "nobody@example.jp"):
        for _ in range(accounts.MAIL_PER_ADDRESS + 1):
            asked = ask_login_link(browser, identifier)
            answers.add((asked.status_code, re.sub(r'value="[^"]*"', "", text(asked))))
    assert len(answers) == 1, "a known address answers otherwise than an unknown one"


# ----- a session is no way round the password throttle -----


def test_guessing_the_password_on_the_account_page_is_throttled_like_a_login(browser, clock):
    """Someone at a logged-in browser (a shared computer, a copied cookie) must not learn
    the password by trying it on the account page without limit, and then keep the account."""
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    for n in range(accounts.LOGIN_FREE_FAILURES):
        wrong = {"what": "password", "old": f"guess {n} of mine", "new": "lantern moss 42 x"}
        assert browser.post("/account", wrong).status_code == 403
    guess = {"what": "email", "password": PASSWORD, "email": "mallory@example.jp"}
    assert browser.post("/account", guess).status_code == 429
    right = {"what": "password", "old": PASSWORD, "new": "lantern moss 42 x"}
    assert browser.post("/account", right).status_code == 429
    assert load_account("alice").pending_email is None


def test_a_right_password_on_the_account_page_forgets_earlier_slips(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    for _ in range(accounts.LOGIN_FREE_FAILURES - 1):
        browser.post("/account", {"what": "password", "old": "a slip of mine", "new": "x"})
    right = {"what": "password", "old": PASSWORD, "new": "lantern moss 42 x"}
    assert browser.post("/account", right).status_code == 200
    for _ in range(accounts.LOGIN_FREE_FAILURES - 1):
        browser.post("/account", {"what": "password", "old": "a slip again", "new": "x"})
    again = {"what": "password", "old": "lantern moss 42 x", "new": "harbor tulip 77 q"}
    assert browser.post("/account", again).status_code == 200


def test_a_login_link_mailed_to_the_old_address_dies_with_the_change_of_address(
    browser, new_browser, clock
):
    """An owner moves away from a mailbox someone else can read: a login link still lying
    there must not open the account."""
    make_account("alice", clock())
    assert ask_login_link(new_browser(), "alice").status_code == 200
    old_link = LOGIN_LINK.search(mail_text(mails_to("alice@example.jp")[-1])).group(1)
    registration = accounts.change_email("alice", PASSWORD, "alice.new@example.jp", clock())
    accounts.verify_email(registration.token, clock())
    reader = new_browser()
    reader.get("/login")
    assert reader.post("/login/link", {"token": old_link}).status_code == 400
    assert reader.get("/account").status_code == 401


def test_a_flood_of_registrations_from_one_source_is_refused_before_hashing(
    browser, clock, monkeypatch
):
    hashed = []

    class Counting:
        def __init__(self, hasher):
            self.hasher = hasher

        def hash(self, password):
            hashed.append(password)
            return self.hasher.hash(password)

        def __getattr__(self, name):
            return getattr(self.hasher, name)

    monkeypatch.setattr(accounts, "_hasher", Counting(accounts._hasher))
    answers = [
        register(browser, f"flood{n}", f"flood{n}@example.jp").status_code
        for n in range(accounts.MAIL_PER_SOURCE + 2)
    ]
    assert answers[-1] == 429
    assert len(hashed) <= accounts.MAIL_PER_SOURCE
