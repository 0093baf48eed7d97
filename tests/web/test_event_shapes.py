"""The handler behind both API Gateway fronts: the REST API's proxy event (``app.app``) and
an HTTP API's payload format 1.0 event (``app.http_api``) give players the same pages,
headers, cookies and statuses (issue #14: the HTTP API costs 30 % of the REST API)."""

import html as html_lib
import re
from urllib.parse import urlencode, urlsplit

import pytest

from chalicelib import links
from chalicelib.web import static
from chalicelib.web.http import PUBLIC, SESSION_COOKIE
from tests.support.accounts import make_account
from tests.support.villages import new_village

from .lambda_events import SHAPES, Reply, invoke

pytestmark = pytest.mark.parametrize("shape", SHAPES)

BROWSER = {"Host": "127.0.0.1:8000", "User-Agent": "phone", "Accept": "text/html,*/*;q=0.8"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
CSRF = re.compile(r'name="csrf" value="([^"]*)"')


def session_of(reply: Reply) -> str:
    cookies = reply.headers.get("set-cookie") or []
    assert len(cookies) == 1, cookies
    assert cookies[0].startswith(SESSION_COOKIE + "=")
    assert "HttpOnly" in cookies[0] and "SameSite=Lax" in cookies[0]
    return cookies[0].split(";", 1)[0]


def csrf_of(reply: Reply) -> str:
    return html_lib.unescape(CSRF.search(reply.text).group(1))


def assert_page(reply: Reply, status: int = 200, cache: str = "no-store") -> None:
    assert reply.status == status, reply.text[:300]
    assert reply.header("Content-Type") == "text/html; charset=utf-8"
    assert reply.header("X-Content-Type-Options") == "nosniff"
    assert reply.header("Cache-Control") == cache
    assert reply.header("Content-Security-Policy") is not None


def test_pages_render_with_query_strings_and_path_parameters(shape, clock):
    village_id = new_village(clock)
    lounge = invoke(shape, "GET", "/", BROWSER)
    assert_page(lounge, cache=PUBLIC)  # a visitor's: back/forward cache allowed
    assert f'href="/villages/{village_id}"' in lounge.text
    assert static.files()["app.css"].body in lounge.text  # inline
    assert_page(invoke(shape, "GET", "/?state=nonsense", BROWSER), 400)
    village = invoke(shape, "GET", f"/villages/{village_id}", BROWSER)
    assert_page(village, cache=PUBLIC)
    assert "テスト村" in village.text


def test_login_posts_a_form_with_its_cookie_and_csrf_and_redirects_with_a_new_cookie(shape, clock):
    make_account("alice", clock())
    form = invoke(shape, "GET", "/login", BROWSER)
    assert_page(form, cache=PUBLIC)
    cookie = session_of(form)
    body = urlencode({"account_id": "alice", "password": "correct horse battery"})
    refused = invoke(shape, "POST", "/login", {**BROWSER, **FORM, "Cookie": cookie}, body.encode())
    assert_page(refused, 403)  # no CSRF token
    body = urlencode(
        {"account_id": "alice", "password": "correct horse battery", "csrf": csrf_of(form)}
    )
    done = invoke(shape, "POST", "/login", {**BROWSER, **FORM, "Cookie": cookie}, body.encode())
    assert done.status == 303
    assert done.header("Location") == "/"
    assert done.header("Cache-Control") == "no-store"
    logged_in = session_of(done)
    assert logged_in != cookie
    account = invoke(shape, "GET", "/account", {**BROWSER, "Cookie": logged_in})
    assert_page(account)
    assert "alice" in account.text


def test_unknown_paths_and_methods_get_the_404_page(shape, clock):
    for method, path in [("GET", "/no/such/page"), ("POST", "/no/such/page"), ("GET", "/a/")]:
        missing = invoke(shape, method, path, BROWSER)
        assert missing.status == 404
        assert missing.header("Content-Type") == "text/html; charset=utf-8"
        assert "ページが見つかりません" in missing.text
    # A route whose village does not exist is the app's own 404.
    assert_page(invoke(shape, "GET", "/villages/999", BROWSER), 404)


@pytest.mark.parametrize(
    ("method", "path", "allow", "above"),
    [
        ("GET", "/matches", "POST", None),  # a reload or Back on the 人狼の配置 page
        ("GET", "/logout", "POST", None),
        ("GET", "/villages/12/posts", "POST", "/villages/12"),
        ("GET", "/matches/abc/moves", "POST", "/matches/abc"),
        ("DELETE", "/", "GET", None),
    ],
)
def test_a_form_s_address_opened_as_a_page_is_the_405_page_with_a_way_on(
    shape, clock, method, path, allow, above
):
    reply = invoke(shape, method, path, BROWSER)
    if shape == "rest":  # the REST API's gateway answers every unrouted request with its page
        assert reply.status == 404 and "ページが見つかりません" in reply.text
        return
    assert_page(reply, 405)
    assert reply.header("Allow") == allow
    assert "MethodNotAllowed" not in reply.text
    assert "フォームの送り先なので、ページとしては開けません" in reply.text
    if above:
        assert f'href="{above}">元のページへ' in reply.text
    else:  # the page above is the lounge, linked already
        assert "元のページへ" not in reply.text
    assert 'href="/">ラウンジへ戻る' in reply.text


def test_the_404_the_405_and_the_favicon_keep_the_visitor_s_session(shape, clock):
    make_account("alice", clock())
    form = invoke(shape, "GET", "/login", BROWSER)
    body = urlencode(
        {"account_id": "alice", "password": "correct horse battery", "csrf": csrf_of(form)}
    )
    headers = {**BROWSER, **FORM, "Cookie": session_of(form)}
    logged_in = session_of(invoke(shape, "POST", "/login", headers, body.encode()))
    pages = ["/no/such/page", "/matches"] if shape == "http" else []  # else the gateway's
    for path in [*pages, "/favicon.ico"]:
        reply = invoke(shape, "GET", path, {**BROWSER, "Cookie": logged_in})
        assert reply.status in (404, 405, 200), path
        assert reply.header("Set-Cookie") is None, path  # no new session: nobody logged out
        if path in pages:
            assert 'class="account" href="/account">alice<' in reply.text
    still = invoke(shape, "GET", "/account", {**BROWSER, "Cookie": logged_in})
    assert_page(still)
    assert "alice" in still.text


def test_the_favicon_is_the_site_s_icon_which_every_page_links(shape, clock):
    icon = invoke(shape, "GET", "/favicon.ico", {"Accept": "image/*,*/*;q=0.8"})
    assert icon.status == 200
    assert icon.header("Content-Type") == "image/svg+xml"
    assert icon.body == static.files()[static.ICON].body.encode("utf-8")
    page = invoke(shape, "GET", "/login", BROWSER)
    assert f'<link rel="icon" href="{static.url(static.ICON)}" type="image/svg+xml">' in page.text
    assert invoke(shape, "GET", static.url(static.ICON)).body == icon.body


def test_static_files_are_versioned_and_cached_for_a_year(shape):
    css = invoke(shape, "GET", static.url("app.css"), {"Accept": "text/css,*/*;q=0.1"})
    assert css.status == 200
    assert css.header("Content-Type") == "text/css; charset=utf-8"
    assert css.header("Cache-Control") == "public, max-age=31536000, immutable"
    assert css.body == static.files()["app.css"].body.encode("utf-8")
    stale = invoke(shape, "GET", "/static/app.0123456789ab.css")
    assert stale.status == 307
    assert stale.header("Location") == static.url("app.css")


def test_the_one_click_unsubscribe_post_needs_no_cookie_nor_csrf(shape, clock):
    make_account("alice", clock())
    path = urlsplit(links.unsubscribe_url("alice", clock())).path
    asked = invoke(shape, "GET", path, BROWSER)
    assert_page(asked)
    done = invoke(shape, "POST", path, FORM, b"List-Unsubscribe=One-Click")
    assert_page(done)
    assert "お知らせメールを停止しました" in done.text


def test_gzip_for_text_of_a_kilobyte_or_more_when_accepted(shape, clock):
    """The REST API compresses in API Gateway (MinimumCompressionSize); the HTTP API does
    not, so its handler does."""
    accepting = {**BROWSER, "Accept-Encoding": "gzip, deflate, br"}
    page = invoke(shape, "GET", "/login", accepting)
    css = invoke(shape, "GET", static.url("app.css"), accepting)
    plain = invoke(shape, "GET", "/login", BROWSER)
    redirect = invoke(shape, "GET", "/static/app.0123456789ab.css", accepting)
    assert len(plain.body) >= 1024
    assert not plain.gzipped and not redirect.gzipped
    assert page.text == plain.text.replace(csrf_of(plain), csrf_of(page))
    if shape == "http":
        assert page.gzipped and css.gzipped
        assert page.header("Vary") == "Accept-Encoding"
    else:
        assert not page.gzipped and not css.gzipped  # API Gateway compresses these
