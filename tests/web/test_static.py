"""Static files: content-hashed URLs cached for a year, stale names redirected, gzip rules."""

import hashlib
from pathlib import Path

import pytest

from chalicelib.web import compression, static
from tests.support.clients import header

ROOT = Path(__file__).resolve().parents[2]
IMMUTABLE = "public, max-age=31536000, immutable"


def current_css() -> str:
    body = (ROOT / "templates" / "static" / "app.css").read_bytes()
    return f"/static/app.{hashlib.sha256(body).hexdigest()[:12]}.css"


def test_the_stylesheet_is_named_by_the_hash_of_its_content():
    # Pages carry it inline (tests/web/test_page_head.py); pages of earlier releases link it.
    assert static.url("app.css") == current_css()


def test_the_hashed_stylesheet_is_cached_for_a_year_and_immutable(browser):
    response = browser.client.http.get(current_css())
    assert response.status_code == 200
    assert header(response, "Cache-Control") == IMMUTABLE
    assert header(response, "Content-Type") == "text/css; charset=utf-8"
    assert header(response, "X-Content-Type-Options") == "nosniff"
    assert response.body == (ROOT / "templates" / "static" / "app.css").read_bytes()


def test_a_stale_hash_is_sent_to_the_current_file_and_not_cached(browser):
    response = browser.client.http.get("/static/app.0123456789ab.css")
    assert response.status_code == 307
    assert header(response, "Location") == current_css()
    assert header(response, "Cache-Control") == "no-store"


@pytest.mark.parametrize(
    "path",
    ["/static/nope.0123456789ab.css", "/static/nope.css", "/static/app.js", "/static/..%2Fapp.py"],
)
def test_unknown_static_files_are_not_found(browser, path):
    response = browser.client.http.get(path)
    assert response.status_code == 404
    assert header(response, "Cache-Control") == "no-store"


def test_the_plain_name_still_works_with_a_short_cache(browser):
    response = browser.client.http.get("/static/app.css")
    assert response.status_code == 200
    assert header(response, "Cache-Control") == "public, max-age=3600"


@pytest.mark.parametrize(
    ("accept_encoding", "accepted"),
    [
        ("gzip, deflate, br", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        (None, False),
    ],
)
def test_gzip_is_used_only_when_the_client_accepts_it(accept_encoding, accepted):
    assert compression.accepts_gzip(accept_encoding) is accepted


def test_only_text_of_a_kilobyte_or_more_is_compressed():
    html = {"Content-Type": "text/html; charset=utf-8"}
    big, small = b"x" * 1024, b"x" * 1023
    assert compression.should_compress(html, big, "gzip")
    assert not compression.should_compress(html, small, "gzip")
    assert not compression.should_compress({"Content-Type": "image/png"}, big, "gzip")
    assert not compression.should_compress({**html, "Content-Encoding": "br"}, big, "gzip")
    headers = {"Vary": "Cookie"}
    compression.vary(headers)
    assert headers == {"Vary": "Cookie, Accept-Encoding"}
