"""Web fixtures: moto (DynamoDB + SES) with an empty table per test, a fake clock, Chalice's
test client and a browser.

The browser keeps the session cookie and reads the CSRF token from the last page, as a
person with a phone would; helpers build villages and games through the services.
"""

import copy
import email
import html as html_lib
import os
import random
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import boto3
import pytest
from argon2 import PasswordHasher
from chalice.test import Client
from moto import mock_aws
from moto.ses.models import ses_backends

from app import app
from chalicelib import effects, runtime
from chalicelib.clock import JST, system_clock
from chalicelib.personas import YAMAZATO
from chalicelib.rules.duel.puzzle import Puzzle
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import accounts, matches, sessions, update, villages
from chalicelib.services.puzzles import today
from chalicelib.services.unit import Unit
from chalicelib.storage import db
from chalicelib.storage import puzzles as puzzle_store
from chalicelib.web.http import SESSION_COOKIE, Session
from devserver.moto_local import like_dynamodb
from tests import puzzle_days
from tests.fakes import FakeClock
from tests.moto_tables import fresh_table, tables

SENDER = "noreply@mobius.example"
REGION = "ap-northeast-1"
ACCOUNT = "123456789012"
PASSWORD = "correct horse battery"
START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)  # 12:00 JST


@pytest.fixture(scope="package")
def moto_package():
    """One moto for the package (creating boto clients and the table costs ~0.3 s a test).

    Keeps the empty table as moto holds it; each test starts from a copy of it.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_DEFAULT_REGION", REGION)
        mp.setenv("AWS_ACCESS_KEY_ID", "testing")
        mp.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        mp.delenv("AWS_REGION", raising=False)
        mp.delenv("DYNAMODB_ENDPOINT", raising=False)
        mp.delenv("SES_ENDPOINT", raising=False)
        mp.delenv("MOBIUS_STAGE", raising=False)
        mp.delenv("MOBIUS_MAIL_FROM", raising=False)
        mp.setenv("MOBIUS_TABLE", "mobius-web-test")
        mp.setenv("MOBIUS_SECRET", "test-secret-not-for-production")
        # Cheap password hashes: the suite hashes hundreds of passwords.
        mp.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
        with mock_aws(), like_dynamodb():
            db.configure()
            fresh_table()
            boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=SENDER)
            yield
        db.configure(db.config_from_env())  # the next suite configures its own table


@pytest.fixture(autouse=True)
def aws(moto_package):
    """A fresh, empty table and no sent mail for every test."""
    fresh_table()
    ses_backends[ACCOUNT][REGION].sent_messages.clear()


@pytest.fixture
def clock():
    fake = FakeClock(START)
    runtime.set_clock(fake)
    yield fake
    runtime.set_clock(system_clock)


@pytest.fixture
def client(clock, tmp_path):
    """The app as the local runner serves it: no stage settings (plain http, test sender).

    The project's .chalice/config.json names deployed stages; a project directory without
    one gives the local defaults, as ``chalice local`` on a developer's machine.
    """
    return Client(app, project_dir=str(tmp_path))


@pytest.fixture
def prod_client(clock):
    """The app with the prod stage's settings (https: Secure cookies)."""
    return Client(app, stage_name="prod")


def sent_mails() -> list:
    return list(ses_backends[ACCOUNT][REGION].sent_messages)


def mail_text(message) -> str:
    """The plain-text part of a raw mail moto kept."""
    parsed = email.message_from_string(message.raw_data)
    for part in parsed.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode("utf-8")
    raise AssertionError("no text part")


def verification_token(to: str) -> str:
    """The token of the last verification mail sent to ``to``."""
    for message in reversed(sent_mails()):
        if to in message.destinations:
            match = re.search(r"/verify\?token=([A-Za-z0-9_\-.]+)", mail_text(message))
            if match:
                return match.group(1)
    raise AssertionError(f"no verification mail to {to}")


def make_account(name: str, now: datetime, verified: bool = True) -> str:
    token = accounts.register(name, PASSWORD, f"{name}@example.jp", now).token
    if verified:
        accounts.verify_email(token, now)
    return name


def worker_look(match_id: str, moves: int, now: datetime) -> bool:
    """The advance worker's look at a game it was asked to watch (``jobs.advance``'s): what
    the look owes is sent after it, as there."""
    with effects.sent_after(Unit()) as unit:
        return matches.look(match_id, moves, now, unit)


def session_cookie(account_id: str | None, now: datetime, csrf: str = "test-csrf") -> str:
    """A signed session cookie (name=value) with its session item, as the login page sets."""
    grant = sessions.open_session(account_id, now) if account_id else None
    session = Session(account_id=account_id, csrf=csrf, session_id=grant and grant.session_id)
    return session.cookie(now).split(";", 1)[0]


CSRF_INPUT = re.compile(r'name="csrf" value="([^"]*)"')


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


def text(response) -> str:
    return response.body.decode("utf-8") if response.body else ""


@pytest.fixture
def browser(client):
    return Browser(client)


@pytest.fixture
def new_browser(client):
    return lambda: Browser(client)


def new_village(clock, seed: int = 20261201, pace: str = "short") -> str:
    return villages.create_village(pace=pace, name="テスト村", now=clock(), rng=random.Random(seed))


def fill(village_id: str, accounts_: list[str], clock, slots=SLOTS) -> dict[str, str]:
    """Each account joins one slot in order; returns slot -> account."""
    seated = {}
    for n, (account, slot) in enumerate(zip(accounts_, slots, strict=False)):
        villages.join(village_id, account, slot, YAMAZATO[n].key, clock())
        seated[slot] = account
    return seated


def start(village_id: str, clock) -> None:
    """Moves the clock to the first update (short village) and runs it: day 1 starts."""
    clock.advance(timedelta(hours=6))
    kinds = [h.kind for h in update.advance(village_id, clock())]
    assert kinds == ["started"], kinds


ALERT = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.S)


def alert(response) -> str:
    """The error message a page shows, as the player reads it."""
    match = ALERT.search(text(response))
    assert match, f"no error message on the page (status {response.status_code})"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


def header(response, name: str) -> str | None:
    for key, value in response.headers.items():
        if key.lower() == name.lower():
            return value
    return None


_SNAPSHOTS: dict[str, tuple] = {}


def cached_state(name: str, clock, build):
    """Runs ``build`` once per session; later tests get a copy of the table it left.

    Building a running village (13 accounts, 13 joins, the start) costs about a second of
    moto requests; every test that needs one gets the same table and clock instead.
    """
    table = os.environ["MOBIUS_TABLE"]
    if name in _SNAPSHOTS:
        saved, now, result = _SNAPSHOTS[name]
        tables()[table] = copy.deepcopy(saved)
        clock.now = now
        return result
    result = build()
    _SNAPSHOTS[name] = (copy.deepcopy(tables()[table]), clock.now, result)
    return result


def running_game(clock) -> tuple[str, dict[str, str]]:
    """A short village whose day 1 has just begun, all 13 slots taken; (id, slot -> account)."""

    def build():
        players = [make_account(f"p{n:02d}", clock()) for n in range(13)]
        vid = new_village(clock)
        seated = fill(vid, players, clock)
        start(vid, clock)
        return vid, seated

    return cached_state("running_game", clock, build)


@pytest.fixture
def game(clock):
    return running_game(clock)


def puzzle_json() -> dict:
    """The daily puzzle of START's JST day, as the generator made it (tests/puzzle_days.py)."""
    return puzzle_days.puzzle_of(START.astimezone(JST).date())


def store_puzzle(day, now) -> None:
    """Stores that puzzle as ``day``'s (the web tests need a stored puzzle, not its seconds)."""
    puzzle_store.save_puzzle(day.isoformat(), puzzle_json(), now)


@pytest.fixture
def todays_puzzle(clock):
    for n in range(8):  # today's and the next week's (the daily job makes tomorrow's)
        store_puzzle(today(clock()) + timedelta(days=n), clock())
    return Puzzle.from_json(puzzle_json())
