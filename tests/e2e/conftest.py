"""Browser fixtures: the app served in this process on moto, and a phone driven by Playwright.

The server is Chalice's LocalDevServer (as ``make run`` serves it) in a daemon thread,
on a loopback port, over moto's in-process DynamoDB and SES; the clock is a FakeClock the
tests move by hand. The browser is Debian's Chromium (never a downloaded one) with a
360 px phone viewport. Without /usr/bin/chromium the tests are skipped, loudly; so are the
accessibility tests without axe-core (node_modules, installed by `make test` with npm).
"""

import threading

import boto3
import pytest
from moto import mock_aws

from chalicelib import jobs, runtime
from chalicelib.clock import system_clock
from chalicelib.notify.ses import sender
from chalicelib.services import accounts
from chalicelib.storage import db
from devserver.moto_local import like_dynamodb
from tests.support.accounts import cheap_hasher
from tests.support.fakes import START, FakeClock
from tests.support.mail import REGION
from tests.support.phones import ARTIFACTS, AXE, CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT_MS, Phone

HOST = "127.0.0.1"


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
        mp.setattr(accounts, "_hasher", cheap_hasher())
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


# ----- the local runner's tools -----


class LocalLinks:
    """The local runner's tools, so that the header carries its local-only links; the clock is
    not moved through them."""

    def mails(self) -> list[dict]:
        return []

    def advance_clock(self, minutes: int) -> None:
        raise AssertionError("not moved here")


@pytest.fixture
def local_links():
    runtime.set_dev_tools(LocalLinks())
    yield
    runtime.set_dev_tools(None)


class LocalTools:
    """The local runner's tools over the test server's clock: /dev/clock moves it and ticks."""

    def __init__(self, clock) -> None:
        self.clock = clock

    def mails(self) -> list[dict]:
        return []

    def advance_clock(self, minutes: int) -> None:
        from datetime import timedelta

        self.clock.advance(timedelta(minutes=minutes))
        jobs.tick()

    def advance_to(self, at) -> None:
        self.clock.now = max(self.clock.now, at)
        jobs.tick()


@pytest.fixture
def local_tools(server):
    tools = LocalTools(server.clock)
    runtime.set_dev_tools(tools)
    yield tools
    runtime.set_dev_tools(None)
