"""Security of every page: headers, the session cookie, CSRF on every POST, escaping, limits."""

import re

import pytest

from chalicelib.storage.repository import load_account
from tests.support.accounts import make_account
from tests.support.clients import Browser, alert, header, text
from tests.support.villages import new_village

CSRF_REFUSAL = (
    "フォームの有効期限が切れました。ページを読み込み直してから、もう一度送信してください"
)


def assert_security_headers(response):
    csp = header(response, "Content-Security-Policy")
    assert csp is not None
    directives = {d.strip().split(" ", 1)[0]: d.strip() for d in csp.split(";")}
    assert directives["frame-ancestors"] == "frame-ancestors 'none'"
    script = directives.get("script-src", directives["default-src"])
    assert "'unsafe-inline'" not in script
    assert "'unsafe-eval'" not in script
    assert "'unsafe-inline'" not in directives["default-src"]
    assert header(response, "X-Content-Type-Options") == "nosniff"
    assert header(response, "Referrer-Policy") in ("no-referrer", "same-origin")


@pytest.fixture
def village(clock):
    return new_village(clock)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/register",
        "/login",
        "/verify?token=x",
        "/account",  # 401 page
        "/villages/1",
        "/villages/999",  # 404 page
        "/?state=nope",  # 400 page
    ],
)
def test_every_page_has_the_security_headers_and_no_inline_script(browser, village, path):
    response = browser.client.http.get(path)
    assert response.status_code < 500
    assert_security_headers(response)
    assert header(response, "Content-Type") == "text/html; charset=utf-8"
    body = text(response).lower()
    # Scripts only from our own static files (the board's reply helper), never inline.
    assert not re.findall(r'<script(?![^>]*\bsrc="/static/[a-z]+\.[0-9a-f]{12}\.js")', body)
    assert " onload=" not in body and " onclick=" not in body


def test_redirects_and_static_files_have_the_security_headers(browser, clock):
    make_account("alice", clock())
    assert_security_headers(browser.login("alice"))
    css = browser.client.http.get("/static/app.css")
    assert css.status_code == 200
    assert header(css, "Content-Type").startswith("text/css")
    assert_security_headers(css)
    missing = browser.client.http.get("/static/..%2Fapp.py")
    assert missing.status_code == 404
    assert browser.client.http.get("/static/nope.js").status_code == 404


def cookie_attributes(set_cookie: str) -> dict[str, str]:
    parts = [p.strip() for p in set_cookie.split(";")]
    return {p.split("=", 1)[0].lower(): (p.split("=", 1)[1] if "=" in p else "") for p in parts[1:]}


def test_the_session_cookie_is_httponly_lax_and_not_secure_locally(browser, clock):
    make_account("alice", clock())
    first = browser.get("/login")
    for response in (first, browser.login("alice")):
        set_cookie = header(response, "Set-Cookie")
        assert set_cookie.startswith("mobius_session=")
        attributes = cookie_attributes(set_cookie)
        assert "httponly" in attributes
        assert attributes["samesite"] == "Lax"
        assert attributes["path"] == "/"
        assert "secure" not in attributes  # plain http on the local runner


def test_the_session_cookie_is_secure_outside_local(prod_client, clock):
    make_account("alice", clock())
    browser = Browser(prod_client)
    for response in (browser.get("/login"), browser.login("alice")):
        attributes = cookie_attributes(header(response, "Set-Cookie"))
        assert "secure" in attributes
        assert "httponly" in attributes
        assert attributes["samesite"] == "Lax"
    assert browser.get("/account").status_code == 200


def test_a_page_with_a_valid_session_sets_no_new_cookie(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    assert header(browser.get("/"), "Set-Cookie") is None


CSRF_ROUTES = [
    ("/register", {"account_id": "bob", "password": "password123", "email": "b@b.jp"}),
    ("/verify", {"token": "x"}),
    ("/login", {"account_id": "p00", "password": "correct horse battery"}),
    ("/logout", {}),
    ("/account", {"what": "preferences"}),
    ("/villages/1/posts", {"board": "public", "text": "こんにちは"}),
    ("/villages/1/actions", {"pray": "seer_b"}),
    ("/villages/1/join", {"slot": "seer_a", "persona": "kaede"}),
    ("/villages/1/leave", {}),
]


def test_every_post_is_refused_without_the_right_csrf_token(browser, clock, game):
    vid, seated = game
    assert vid == "1"
    browser.login(seated["seer_a"])
    browser.get(f"/villages/{vid}")
    logged_in, good = browser.cookie, browser.csrf
    for path, form in CSRF_ROUTES:
        for token in (None, "", "forged-token", good + "x"):
            data = dict(form)
            if token is not None:
                data["csrf"] = token
            response = browser.post(path, data, csrf=False)
            assert response.status_code == 403, (path, token)
            assert alert(response) == CSRF_REFUSAL
            assert_security_headers(response)
        # Without the cookie, even the right token is refused (it belongs to that session).
        browser.cookie = None
        response = browser.post(path, {**form, "csrf": good}, csrf=False)
        assert response.status_code == 403, path
        assert alert(response) == CSRF_REFUSAL
        browser.cookie = logged_in
    # Nothing happened: still logged in and seated, nothing written, saved or registered.
    page = text(browser.get(f"/villages/{vid}"))
    assert "あなたの情報" in page
    assert "こんにちは" not in page
    assert 'value="seer_b" selected' not in page
    assert load_account("bob") is None
    assert load_account(seated["seer_a"]).preferences["morning_mail"] is True
    # And the same token is accepted: the refusals were about the token alone.
    saved = browser.post(f"/villages/{vid}/actions", {"pray": "seer_b"})
    assert saved.status_code == 303


def test_a_post_with_a_script_is_shown_as_text(browser, clock, game):
    vid, seated = game
    browser.login(seated["seer_a"])
    browser.get(f"/villages/{vid}")
    attack = '<script>alert("x")</script><img src=x onerror=alert(1)>"\'&'
    response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": attack})
    assert response.status_code == 303
    for viewer_page in (
        browser.get(f"/villages/{vid}"),
        browser.client.http.get(f"/villages/{vid}"),  # a visitor
    ):
        body = text(viewer_page)
        assert "<script>alert" not in body
        assert "<img src=x" not in body
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in body
        assert "&lt;img src=x onerror=alert(1)&gt;&#34;&#39;&amp;" in body


def test_reflected_form_values_are_escaped(browser):
    browser.get("/register")
    response = browser.post(
        "/register",
        {"account_id": '"><script>x()</script>', "password": "password123", "email": "a@b.jp"},
    )
    assert response.status_code == 400
    assert "<script>x()" not in text(response)
    assert "&#34;&gt;&lt;script&gt;x()&lt;/script&gt;" in text(response)
    login = browser.get("/login", next='/"><script>y()</script>')
    assert "<script>y()" not in text(login)


def test_oversized_and_undecodable_forms_are_refused(browser):
    browser.get("/login")
    huge = browser.post("/login", {"account_id": "a" * (70 * 1024), "password": "x"})
    assert huge.status_code == 413
    assert alert(huge) == "送信された内容が大きすぎます"
    garbled = browser.post("/login", raw=b"account_id=\xff\xfe&csrf=" + browser.csrf.encode())
    assert garbled.status_code == 400
    assert alert(garbled) == "送信された内容を読み取れませんでした"


def test_a_post_that_is_not_a_form_gets_a_japanese_page_not_a_json_error(browser):
    browser.get("/login")
    for content_type in ("application/json", "text/plain", "multipart/form-data; boundary=x"):
        response = browser.client.http.post(
            "/login",
            headers=browser.headers({"content-type": content_type}),
            body=b'{"account_id": "a"}',
        )
        assert response.status_code == 415, content_type
        assert alert(response) == "フォームの送り方が正しくありません。ページから送り直してください"
