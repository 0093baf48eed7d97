"""Browser fixtures: the app served in this process on moto, and a phone driven by Playwright.

The server is Chalice's LocalDevServer (as ``make run`` serves it) in a daemon thread,
on a loopback port, over moto's in-process DynamoDB and SES; the clock is a FakeClock the
tests move by hand. The browser is Debian's Chromium (never a downloaded one) with a
360 px phone viewport. Without /usr/bin/chromium the tests are skipped, loudly; so are the
accessibility tests without axe-core (node_modules, installed by `make test` with npm).
"""

import email
import random
import re
import threading
from datetime import UTC, datetime
from pathlib import Path

import boto3
import pytest
from argon2 import PasswordHasher
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib import runtime
from chalicelib.clock import system_clock
from chalicelib.notify.ses import sender
from chalicelib.personas import YAMAZATO
from chalicelib.services import accounts, villages
from chalicelib.storage import db
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb
from tests.fakes import FakeClock

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "ja-JP",
    "timezone_id": "Asia/Tokyo",
}
WIDTH = PHONE["viewport"]["width"]
MIN_TARGET = 44  # px: the smallest touch target we accept
# How long a step may wait for its condition (a page, an element, a text). A wait ends as soon as
# its condition holds, so this bounds only a failure; it is no speed check (those are `make
# bench`'s): a two-core machine under a load of 15 took over 10 s for /dev/clock's tick.
WAIT_MS = 30_000

HOST = "127.0.0.1"
REGION = "ap-northeast-1"
PASSWORD = "correct horse battery"
START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)  # 12:00 JST
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"BROWSER TESTS SKIPPED: {CHROMIUM} not found (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "BROWSER TESTS SKIPPED: the playwright package is not installed"
    return None


def _axe_missing() -> str | None:
    if not AXE.exists():
        return f"AXE TESTS SKIPPED: {AXE} not found (apt-get install npm, then make test)"
    return None


def _reasons(item) -> list[str]:
    reasons = [_missing()]
    if item.get_closest_marker("axe") is not None:
        reasons.append(_axe_missing())
    return [reason for reason in reasons if reason is not None]


def pytest_collection_modifyitems(config, items):
    # `make test` runs each test file whole on one xdist worker (`--dist loadfile`): a module's
    # tests share its server and its Chromium (module-scoped); modules, each with its own on
    # a free port and in its worker's own moto, spread over the workers (decision 131).
    for item in items:
        if item.get_closest_marker("browser") is None:
            continue
        reasons = _reasons(item)
        if reasons:
            item.add_marker(pytest.mark.skip(reason=reasons[0]))


def pytest_terminal_summary(terminalreporter):
    # Counted from the reports, not at collection: under pytest-xdist the workers collect.
    for reason in (_missing(), _axe_missing()):
        if reason is None:
            continue
        skipped = [
            report
            for report in terminalreporter.stats.get("skipped", [])
            if isinstance(report.longrepr, tuple) and reason in str(report.longrepr[2])
        ]
        if skipped:
            terminalreporter.write_sep("!", reason, red=True, bold=True)
            terminalreporter.write_line(f"{len(skipped)} browser test(s) did not run.", red=True)


# ----- the app, served in this process -----


class Server:
    def __init__(self, url: str, clock: FakeClock) -> None:
        self.url = url
        self.clock = clock


@pytest.fixture(scope="module")
def server():
    """moto + the app on a free loopback port, for the tests of one module."""
    from chalice.config import Config
    from chalice.local import LocalDevServer

    from app import app
    from devserver.__main__ import _not_found_handler

    clock = FakeClock(START)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_DEFAULT_REGION", REGION)
        mp.setenv("AWS_ACCESS_KEY_ID", "testing")
        mp.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        mp.setenv("MOBIUS_TABLE", "mobius-e2e")
        mp.setenv("MOBIUS_SECRET", "e2e-secret-not-for-production")
        # Local stage (plain http, /dev pages), in-process moto, mail sent inline.
        for name in (
            "AWS_REGION",
            "DYNAMODB_ENDPOINT",
            "SES_ENDPOINT",
            "MOBIUS_STAGE",
            "MOBIUS_QUEUE_URL",
            "MOBIUS_MAIL_FROM",
        ):
            mp.delenv(name, raising=False)
        # Cheap password hashes: the story registers a dozen accounts.
        mp.setattr(accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
        with mock_aws(), like_dynamodb():
            db.configure()
            db.create_table()
            boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=sender())
            runtime.set_clock(clock)
            config = Config.create(
                chalice_app=app, app_name="mobius-village", chalice_stage="local"
            )
            local = LocalDevServer(app, config, HOST, 0, handler_cls=_not_found_handler())
            port = local.server.server_address[1]
            url = f"http://{HOST}:{port}"
            mp.setenv("MOBIUS_BASE_URL", url)
            thread = threading.Thread(target=local.server.serve_forever, daemon=True)
            thread.start()
            try:
                yield Server(url, clock)
            finally:
                local.shutdown()
                local.server.server_close()
                thread.join(timeout=10)
                runtime.set_clock(system_clock)


# ----- the phone -----


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


# Touch targets: controls, navigation and button-like links. Links inside running text
# (「新規登録 へ」, 「この村から離脱する」) are excluded; their line is their target.
TARGETS = ", ".join(
    (
        "button",
        "select",
        "textarea",
        "input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
        "label.check",
        "nav a",
        "a.button",
        "ul.villages a",
        ".pager a",
    )
)

LAYOUT_JS = """
({selector, minimum}) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (box.width === 0 && box.height === 0) continue;
    if (box.height < minimum) {
      const text = (el.innerText || el.value || el.name || "").trim().slice(0, 30);
      small.push(`<${el.tagName.toLowerCase()}> "${text}" ${box.height.toFixed(1)}px`);
    }
  }
  return {
    scrollWidth: document.documentElement.scrollWidth,
    bodyWidth: document.body.scrollWidth,
    small,
  };
}
"""


class Phone:
    """One person's phone: a page whose every step is checked for layout and screenshotted."""

    def __init__(self, page, base_url: str, prefix: str) -> None:
        self.page = page
        self.base_url = base_url
        self.prefix = prefix
        self.errors: list[str] = []
        self.shots: list[Path] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def goto(self, path: str):
        return self.page.goto(path if path.startswith("http") else self.base_url + path)

    def reload(self) -> None:
        """Loads the page again. A live page may be reloading itself at the same moment (its
        poll saw the other side's move): that aborts ours, and the page is loaded again anyway,
        so ours is tried once more rather than failing the test on the race."""
        from playwright.sync_api import Error

        for _ in range(3):
            try:
                self.page.reload()
                return
            except Error as error:
                if "ERR_ABORTED" not in str(error):
                    raise
        self.page.reload()

    def login(self, account_id: str) -> None:
        """Logs in through the login page and waits for the header to name the account."""
        from playwright.sync_api import expect

        self.goto("/login")
        self.page.fill("#account_id", account_id)
        self.page.fill("#password", PASSWORD)
        self.page.locator("main").get_by_role("button", name="ログイン").click()
        expect(self.page.locator("nav.user")).to_contain_text(account_id)

    def check(self, step: str) -> None:
        """Layout at 360 px, touch targets and console, then a full-page screenshot."""
        page = self.page
        page.wait_for_load_state("load")
        shot = ARTIFACTS / f"{self.prefix}-{len(self.shots) + 1:02d}-{step}.png"
        page.screenshot(path=str(shot), full_page=True)
        self.shots.append(shot)
        layout = page.evaluate(LAYOUT_JS, {"selector": TARGETS, "minimum": MIN_TARGET})
        where = f"{step} ({page.url})"
        assert layout["scrollWidth"] <= WIDTH, f"horizontal scroll on {where}: {layout}"
        assert layout["bodyWidth"] <= WIDTH, f"content wider than the screen on {where}: {layout}"
        assert not layout["small"], f"touch targets under {MIN_TARGET}px on {where}: {layout}"
        assert not self.errors, f"errors on {where}: {self.errors}"


@pytest.fixture
def phone(server, chromium, request):
    """A fresh phone (cookies and all) for each call: phone("visitor")."""
    contexts = []

    def make(name: str) -> Phone:
        context = chromium.new_context(**PHONE)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return Phone(context.new_page(), server.url, f"{request.node.name}-{name}")

    yield make
    for context in contexts:
        context.close()


# ----- mail and players -----


def sent_mails() -> list[dict]:
    """Every mail moto's SES "sent": to, subject and the plain-text part."""
    mails = []
    for message in ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages:
        raw = getattr(message, "raw_data", None)
        if raw is None:
            continue
        parsed = email.message_from_string(raw)
        text = next(
            part.get_payload(decode=True).decode("utf-8")
            for part in parsed.walk()
            if part.get_content_type() == "text/plain"
        )
        mails.append({"to": list(message.destinations), "text": text})
    return mails


def verification_link(address: str) -> str:
    for mail in reversed(sent_mails()):
        if address in mail["to"]:
            match = re.search(r"https?://\S+/verify\?token=\S+", mail["text"])
            if match:
                return match.group(0)
    raise AssertionError(f"no verification mail to {address}")


def make_player(name: str, now: datetime) -> str:
    """A verified account made directly through the services."""
    token = accounts.register(name, PASSWORD, f"{name}@example.jp", now).token
    accounts.verify_email(token, now)
    return name


def seat_players(village_id: str, slots: list[str], now: datetime, prefix: str) -> dict[str, str]:
    """New players join ``slots`` with the first free personas; returns slot -> account."""
    record = load_village(village_id)
    assert record is not None
    taken = {m.persona for m in record.members.values() if m.persona}
    free = [p.key for p in YAMAZATO if p.key not in taken]
    seated = {}
    for n, slot in enumerate(slots):
        account = make_player(f"{prefix}{n:02d}", now)
        villages.join(village_id, account, slot, free[n], now)
        seated[slot] = account
    return seated


def new_village(now: datetime, name: str, seed: int) -> str:
    return villages.create_village(pace="short", name=name, now=now, rng=random.Random(seed))
