"""What every page carries in its head and headers (issue 29): a description of its kind,
the stylesheet inline (allowed by its hash, no render-blocking request), and a cache header
that lets a visitor's public page come back from the back/forward cache, while any page that
shows something of someone's stays no-store."""

import base64
import hashlib
import html as html_lib
import re
from pathlib import Path

import pytest

from tests.support.accounts import make_account
from tests.support.clients import Browser, header, text
from tests.support.villages import fill, new_village

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')
STYLE = re.compile(r"<style>(.*?)</style>", re.S)
PUBLIC = "private, no-cache"


def description(response) -> str:
    found = DESCRIPTION.findall(text(response))
    assert len(found) == 1, found
    return html_lib.unescape(found[0])


def page_templates() -> list[Path]:
    return [
        p for p in sorted(TEMPLATES.glob("*.html")) if '{% extends "base.html" %}' in p.read_text()
    ]


@pytest.mark.parametrize("template", page_templates(), ids=lambda p: p.name)
def test_every_page_kind_describes_itself(template):
    block = re.search(r"{% block description %}(.+?){% endblock %}", template.read_text())
    assert block and block.group(1).strip(), f"{template.name} has no description"


def test_the_pages_have_their_own_descriptions(browser, clock):
    village = new_village(clock)
    said = {path: description(browser.get(path)) for path in ("/", "/login", "/register")}
    said["village"] = description(browser.get(f"/villages/{village}"))
    assert len(set(said.values())) == len(said), said
    assert "テスト村" in said["village"]


@pytest.mark.parametrize("path", ["/", "/login", "/register", "/villages/1", "/villages/999"])
def test_the_stylesheet_is_inline_and_its_hash_alone_is_allowed(browser, clock, path):
    new_village(clock)
    response = browser.get(path)
    body = text(response)
    [css] = STYLE.findall(body)
    assert css == (TEMPLATES / "static" / "app.css").read_text(encoding="utf-8")
    assert 'rel="stylesheet"' not in body  # nothing to fetch before the first paint
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
    csp = header(response, "Content-Security-Policy")
    [style_src] = [d.strip() for d in csp.split(";") if d.strip().startswith("style-src")]
    assert style_src == f"style-src 'self' 'sha256-{digest}'"
    assert "'unsafe-inline'" not in csp


@pytest.mark.parametrize("path", ["/", "/login", "/register", "/villages/1"])
def test_a_visitors_public_pages_may_come_back_from_the_back_forward_cache(browser, clock, path):
    new_village(clock)
    response = browser.get(path)
    assert response.status_code == 200
    assert header(response, "Cache-Control") == PUBLIC
    body = text(response).lower()
    assert "<script" not in body and "unload" not in body  # nothing else that blocks it


def test_pages_with_anything_private_stay_no_store(browser, new_browser, clock):
    village = new_village(clock)
    # A visitor's pages that carry a token or an error are not kept.
    for path in ("/verify?token=x", "/login/link?token=x", "/villages/999", "/account"):
        assert header(browser.get(path), "Cache-Control") == "no-store", path
    # Logged in, every page names the account: none is kept, the lounge neither.
    alice = make_account("alice", clock())
    fill(village, [alice], clock)
    member = new_browser()
    member.login(alice)
    for path in ("/", "/login", "/register", f"/villages/{village}", "/account"):
        assert header(member.get(path), "Cache-Control") == "no-store", path


def test_a_page_shown_after_a_post_is_not_kept(browser: Browser, clock):
    response = browser.post("/login", {"account_id": "nobody", "password": "wrong password"})
    assert response.status_code >= 400
    assert header(response, "Cache-Control") == "no-store"
