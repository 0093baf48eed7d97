"""The app through Chalice's test client, and a browser that keeps a person's session.

The browser keeps the session cookie and reads the CSRF token from the last page, as a person
with a phone would.
"""

import html as html_lib
import re
from datetime import datetime
from urllib.parse import urlencode

import pytest
from chalice.test import Client

from app import app
from chalicelib.services import sessions
from chalicelib.web.http import SESSION_COOKIE, Session

from .accounts import PASSWORD

CSRF_INPUT = re.compile(r'name="csrf" value="([^"]*)"')
ALERT = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.S)


@pytest.fixture
def client(clock, tmp_path):
    """The app as the local runner serves it: no stage settings (plain http, test sender).

    The project's .chalice/config.json names deployed stages; a project directory without
    one gives the local defaults, as ``chalice local`` on a developer's machine.
    """
    return Client(app, project_dir=str(tmp_path))


def text(response) -> str:
    return response.body.decode("utf-8") if response.body else ""


def header(response, name: str) -> str | None:
    for key, value in response.headers.items():
        if key.lower() == name.lower():
            return value
    return None


def alert(response) -> str:
    """The error message a page shows, as the player reads it."""
    match = ALERT.search(text(response))
    assert match, f"no error message on the page (status {response.status_code})"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


def session_cookie(account_id: str | None, now: datetime, csrf: str = "test-csrf") -> str:
    """A signed session cookie (name=value) with its session item, as the login page sets."""
    grant = sessions.open_session(account_id, now) if account_id else None
    session = Session(account_id=account_id, csrf=csrf, session_id=grant and grant.session_id)
    return session.cookie(now).split(";", 1)[0]


class Browser:
    """One person's phone: a cookie jar of one cookie and the CSRF token of the last page."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.cookie: str | None = None
        self.csrf: str | None = None
        self.last = None

    def _keep(self, response):
        set_cookie = header(response, "Set-Cookie")
        if set_cookie and set_cookie.startswith(SESSION_COOKIE + "="):
            self.cookie = set_cookie.split(";", 1)[0]
        body = response.body.decode("utf-8") if response.body else ""
        match = CSRF_INPUT.search(body)
        if match:
            self.csrf = html_lib.unescape(match.group(1))
        self.last = response
        return response

    def headers(self, extra: dict | None = None) -> dict:
        headers = dict(extra or {})
        if self.cookie:
            headers["cookie"] = self.cookie
        return headers

    def get(self, path: str, **query):
        if query:
            path += "?" + urlencode(query)
        return self._keep(self.client.http.get(path, headers=self.headers()))

    def post(
        self, path: str, data: dict | None = None, csrf: bool = True, raw: bytes | None = None
    ):
        if self.csrf is None and csrf:
            self.get("/login")  # a page with a form, hence a CSRF token
        form = dict(data or {})
        if csrf:
            form.setdefault("csrf", self.csrf)
        body = raw if raw is not None else urlencode(form).encode()
        headers = self.headers({"content-type": "application/x-www-form-urlencoded"})
        return self._keep(self.client.http.post(path, headers=headers, body=body))

    def login(self, account_id: str, password: str = PASSWORD):
        self.get("/login")
        response = self.post("/login", {"account_id": account_id, "password": password})
        assert response.status_code == 303, text(response)
        self.get("/")  # follow the redirect: the new session's CSRF token
        return response


@pytest.fixture
def browser(client):
    return Browser(client)


@pytest.fixture
def new_browser(client):
    return lambda: Browser(client)
