"""Account pages: register, email verification landing, login (rate-limited), logout, /account."""

import re
from datetime import timedelta

from chalicelib.services import accounts
from chalicelib.storage.repository import load_account
from tests.support.accounts import PASSWORD, make_account
from tests.support.clients import alert, header, text
from tests.support.mail import mail_text, sent_messages, verification_token


def register(browser, account_id="alice", password=PASSWORD, email="Alice@Example.jp"):
    browser.get("/register")
    return browser.post(
        "/register", {"account_id": account_id, "password": password, "email": email}
    )


def test_register_sends_a_mail_whose_link_verifies_only_on_post(browser):
    page = browser.get("/register")
    assert page.status_code == 200
    assert 'action="/register"' in text(page)

    done = register(browser)
    assert done.status_code == 200
    assert "メールを送りました" in text(done)
    assert "alice@example.jp" in text(done)  # the address as stored: case-folded
    [mail] = sent_messages()
    assert set(mail.destinations) == {"alice@example.jp"}
    assert "/verify?token=" in mail_text(mail)
    token = verification_token("alice@example.jp")

    # A mail scanner opening the link changes nothing: GET only shows the button.
    landing = browser.get("/verify", token=token)
    assert landing.status_code == 200
    assert 'action="/verify"' in text(landing)
    assert "確認する" in text(landing)
    assert f'value="{token}"' in text(landing)
    assert load_account("alice").email_verified is False

    verified = browser.post("/verify", {"token": token})
    assert verified.status_code == 200
    assert "確認できました" in text(verified)
    assert load_account("alice").email_verified is True
    # Pressing the button twice is harmless.
    again = browser.post("/verify", {"token": token})
    assert again.status_code == 200
    assert load_account("alice").email_verified is True


def test_verify_refuses_a_bad_or_expired_token(browser, clock):
    register(browser)
    token = verification_token("alice@example.jp")
    browser.get("/verify", token=token)
    bad = browser.post("/verify", {"token": token[:-3] + "xyz"})
    assert bad.status_code == 400
    assert alert(bad) == "確認リンクが正しくないか、期限が切れています"
    empty = browser.post("/verify", {"token": ""})
    assert empty.status_code == 400
    clock.advance(accounts.VERIFY_FOR + timedelta(seconds=1))
    expired = browser.post("/verify", {"token": token})
    assert expired.status_code == 400
    assert alert(expired) == "確認リンクが正しくないか、期限が切れています"
    assert load_account("alice").email_verified is False


def test_register_refusals_keep_the_values_and_say_why(browser):
    bad_id = register(browser, account_id="a!")
    assert bad_id.status_code == 400
    assert alert(bad_id) == "IDは半角英数字と _ の3〜20文字にしてください"
    assert 'value="Alice@Example.jp"' in text(bad_id)  # what was typed is kept

    short = register(browser, password="short")
    assert short.status_code == 400
    assert "パスワードは8〜256文字" in alert(short)

    bad_mail = register(browser, email="not-an-address")
    assert bad_mail.status_code == 400
    assert alert(bad_mail) == "メールアドレスの形式が正しくありません"

    assert register(browser).status_code == 200
    taken = register(browser, email="other@example.jp")
    assert taken.status_code == 409
    assert alert(taken) == "このIDはすでに使われています"
    assert len(sent_messages()) == 1


def test_login_sets_a_new_session_and_redirects_to_a_local_next(browser, clock):
    make_account("alice", clock())
    browser.get("/login")
    anonymous_cookie, anonymous_csrf = browser.cookie, browser.csrf
    wrong = browser.post("/login", {"account_id": "alice", "password": "wrong password"})
    assert wrong.status_code == 401
    assert alert(wrong) == "IDまたはパスワードが違います"
    assert 'value="alice"' in text(wrong)  # the ID is kept in the form

    ok = browser.post(
        "/login", {"account_id": "alice", "password": PASSWORD, "next": "/villages/1"}
    )
    assert ok.status_code == 303
    assert header(ok, "Location") == "/villages/1"
    assert browser.cookie != anonymous_cookie
    account = browser.get("/account")
    assert account.status_code == 200
    assert "alice" in text(account)
    assert browser.csrf != anonymous_csrf  # a new CSRF token with the new session


def test_login_never_redirects_off_site(new_browser, clock):
    make_account("alice", clock())
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", "/\t/evil"):
        browser = new_browser()
        browser.get("/login", next=target)
        response = browser.post(
            "/login", {"account_id": "alice", "password": PASSWORD, "next": target}
        )
        assert response.status_code == 303
        assert header(response, "Location") == "/", target


def test_login_is_rate_limited_per_account(browser, clock):
    make_account("alice", clock())
    browser.get("/login")
    for _ in range(5):
        failed = browser.post("/login", {"account_id": "alice", "password": "guess guess"})
        assert failed.status_code == 401
    limited = browser.post("/login", {"account_id": "alice", "password": PASSWORD})
    assert limited.status_code == 429
    assert alert(limited).startswith("ログインの失敗が続いたため、1分ほど待ってから")
    assert browser.get("/account").status_code == 401  # not logged in
    clock.advance(timedelta(minutes=31))
    assert browser.post("/login", {"account_id": "alice", "password": PASSWORD}).status_code == 303


def test_login_is_rate_limited_per_source(new_browser, clock):
    make_account("alice", clock())
    for n in range(20):  # 20 failures from one address, over many IDs
        browser = new_browser()
        browser.get("/login")
        assert (
            browser.post(
                "/login", {"account_id": f"guess{n}", "password": "guess guess"}
            ).status_code
            == 401
        )
    browser = new_browser()
    browser.get("/login")
    limited = browser.post("/login", {"account_id": "alice", "password": PASSWORD})
    assert limited.status_code == 429


def test_logout_ends_the_session(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    old_csrf = browser.csrf
    out = browser.post("/logout")
    assert out.status_code == 303
    assert header(out, "Location") == "/"
    page = browser.get("/account")
    assert page.status_code == 401
    assert alert(page) == "ログインしてください"
    browser.get("/login")
    assert browser.csrf != old_csrf  # a new session, a new CSRF token
    stale = browser.post("/logout", {"csrf": old_csrf})
    assert stale.status_code == 403
    assert browser.client.http.get("/logout").status_code != 200  # only a POST logs out


def test_account_page_requires_login(browser):
    page = browser.get("/account")
    assert page.status_code == 401
    assert alert(page) == "ログインしてください"
    browser.get("/login")
    change = browser.post("/account", {"what": "password", "old": PASSWORD, "new": "x" * 10})
    assert change.status_code == 401
    assert alert(change) == "ログインしてください"


def test_account_shows_the_account_and_changes_the_password(browser, new_browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    page = browser.get("/account")
    assert "alice@example.jp" in text(page)
    assert "（確認済み）" in text(page)
    assert re.search(r"参加中の村:\s*なし</p>", text(page))

    wrong = browser.post("/account", {"what": "password", "old": "not it!!", "new": "new password"})
    assert wrong.status_code == 403
    assert alert(wrong) == "いまのパスワードが違います"
    short = browser.post("/account", {"what": "password", "old": PASSWORD, "new": "short"})
    assert short.status_code == 400
    assert "パスワードは8〜256文字" in alert(short)
    done = browser.post("/account", {"what": "password", "old": PASSWORD, "new": "new password"})
    assert done.status_code == 200
    assert "パスワードを変更しました" in text(done)

    other = new_browser()
    other.get("/login")
    assert other.post("/login", {"account_id": "alice", "password": PASSWORD}).status_code == 401
    assert (
        other.post("/login", {"account_id": "alice", "password": "new password"}).status_code == 303
    )


def test_account_changes_the_email_with_a_new_verification(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    wrong = browser.post(
        "/account", {"what": "email", "password": "nope nope", "email": "new@example.jp"}
    )
    assert wrong.status_code == 403
    assert alert(wrong) == "パスワードが違います"
    same = browser.post(
        "/account", {"what": "email", "password": PASSWORD, "email": "alice@example.jp"}
    )
    assert same.status_code == 400
    assert alert(same) == "いまと同じメールアドレスです"
    done = browser.post(
        "/account", {"what": "email", "password": PASSWORD, "email": "new@example.jp"}
    )
    assert done.status_code == 200
    assert "確認メールを送りました" in text(done)
    assert "new@example.jp" in text(done)
    assert "確認待ち" in text(done)
    assert load_account("alice").email == "alice@example.jp"  # until the new one is verified
    token = verification_token("new@example.jp")
    browser.get("/verify", token=token)
    assert browser.post("/verify", {"token": token}).status_code == 200
    assert load_account("alice").email_verified is True
    assert load_account("alice").email == "new@example.jp"


def test_account_saves_notification_preferences(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    page = text(browser.get("/account"))
    assert 'name="morning_mail" checked' in page
    assert 'name="reminder_mail" checked' in page
    done = browser.post("/account", {"what": "preferences", "reminder_mail": "on"})
    assert done.status_code == 200
    assert "通知設定を保存しました" in text(done)
    assert 'name="morning_mail" checked' not in text(done)
    assert 'name="reminder_mail" checked' in text(done)
    prefs = load_account("alice").preferences
    assert prefs == {"morning_mail": False, "reminder_mail": True}

    unknown = browser.post("/account", {"what": "everything"})
    assert unknown.status_code == 400
    assert alert(unknown) == "変更する項目が正しくありません"


def test_an_expired_session_is_logged_out_and_its_forms_refused(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    stale_cookie, stale_csrf = browser.cookie, browser.csrf
    clock.advance(timedelta(days=30, seconds=1))
    page = browser.get("/account")
    assert page.status_code == 401
    assert alert(page) == "ログインしてください"
    # A form left open past the expiry, sent with the old cookie and its CSRF token.
    browser.cookie, browser.csrf = stale_cookie, stale_csrf
    refused = browser.post("/account", {"what": "password", "old": PASSWORD, "new": "new password"})
    assert refused.status_code == 403
    assert (
        alert(refused)
        == "フォームの有効期限が切れました。ページを読み込み直してから、もう一度送信してください"
    )
    assert load_account("alice") is not None
    clock.advance(timedelta(seconds=1))
    fresh = browser.login("alice")  # logging in again works
    assert fresh.status_code == 303


def test_a_tampered_session_cookie_is_no_session(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    name, value = browser.cookie.split("=", 1)
    browser.cookie = f"{name}={value[:-2]}xx"
    page = browser.get("/account")
    assert page.status_code == 401
    browser.cookie = "mobius_session=garbage; other=1"
    assert browser.get("/account").status_code == 401


def test_account_saves_how_much_game_mail(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    page = text(browser.get("/account"))
    assert 'name="mail" value="all" checked' in page  # every update by default
    done = browser.post(
        "/account",
        {"what": "preferences", "mail": "mine", "morning_mail": "on", "reminder_mail": "on"},
    )
    assert done.status_code == 200
    assert 'name="mail" value="mine" checked' in text(done)
    assert load_account("alice").mail_level == "mine"
    bad = browser.post("/account", {"what": "preferences", "mail": "lots"})
    assert bad.status_code == 400
    assert load_account("alice").mail_level == "mine"


def test_verifying_the_address_signs_the_player_in_once(browser, new_browser):
    register(browser)
    token = verification_token("alice@example.jp")
    phone = new_browser()  # the mail opened on a phone: no session there yet
    phone.get("/verify", token=token)
    verified = phone.post("/verify", {"token": token})
    assert verified.status_code == 200
    assert 'href="/"' in text(verified) and "ラウンジへ" in text(verified)
    assert header(verified, "Set-Cookie")
    account_page = phone.get("/account")
    assert account_page.status_code == 200
    assert "alice" in text(account_page)
    # The link opened again elsewhere verifies nothing new and signs nobody in: it is no
    # login link.
    other = new_browser()
    other.get("/verify", token=token)
    again = other.post("/verify", {"token": token})
    assert again.status_code == 200
    assert other.get("/account").status_code == 401
