"""``make run``: the village on this machine, on an embedded local AWS.

Starts moto's server on loopback, creates the table and the SES sender from the
same definitions the infra uses, serves the app at http://127.0.0.1:8000, ticks
the scheduler every few seconds on the real clock (plus any offset set at
/dev/clock): every schedule app.py declares, the daily puzzle's included (schedule.py), and
keeps the data in .local/ across restarts.
"""

import argparse
import email
import logging
import os
import random
import secrets
import signal
import threading
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header
from urllib.parse import urlsplit

from moto.core import DEFAULT_ACCOUNT_ID
from moto.server import ThreadedMotoServer
from moto.ses.models import ses_backends

from . import state
from .moto_local import like_dynamodb
from .schedule import Scheduled, run_due, schedules

HOST = "127.0.0.1"
REGION = "ap-northeast-1"
TABLE = "mobius-local"
TICK_SECONDS = 3

log = logging.getLogger("mobius.local")


def _environment(moto_port: int, port: int, secret: str) -> str:
    endpoint = f"http://{HOST}:{moto_port}"
    os.environ.update(
        AWS_DEFAULT_REGION=REGION,
        AWS_REGION=REGION,
        AWS_ACCESS_KEY_ID="local",
        AWS_SECRET_ACCESS_KEY="local",
        MOBIUS_STAGE="local",
        MOBIUS_TABLE=TABLE,
        MOBIUS_SECRET=secret,
        MOBIUS_BASE_URL=f"http://{HOST}:{port}",
        DYNAMODB_ENDPOINT=endpoint,
        SES_ENDPOINT=endpoint,
    )
    os.environ.pop("MOBIUS_QUEUE_URL", None)  # locally the tick processes villages itself
    return endpoint


class LocalVillage:
    """The clock, the mail log and the saved state; lent to the app as its dev tools.

    Two locks: ``ticking`` keeps ticks one at a time (a tick may run for a minute: the day's
    puzzles, a practice village's CPUs); ``lock`` guards the mail log and the clock, held only
    for moments, so that a snapshot (and Ctrl-C's last one) never waits for a tick."""

    def __init__(self, saved: dict, secret: str, scheduled: list[Scheduled]) -> None:
        self.scheduled = scheduled  # app.py's schedules and their jobs
        self.secret = secret  # kept so that sessions and mail links survive a restart
        self.offset = timedelta(seconds=saved.get("clock_offset_seconds", 0))
        self.sent = list(saved.get("mails", []))
        self.lock = threading.RLock()
        self.ticking = threading.Lock()

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def mails(self) -> list[dict]:
        with self.lock:
            self._collect()
            return list(self.sent)

    def advance_clock(self, minutes: int) -> None:
        with self.lock:
            self.offset += timedelta(minutes=minutes)
            state.announce_clock(self.offset.total_seconds())
        self.tick()

    def advance_to(self, at: datetime) -> None:
        """Exactly to ``at`` (a village's next event), never backwards."""
        with self.lock:
            self.offset += max(timedelta(0), at - self.now())
            state.announce_clock(self.offset.total_seconds())
        self.tick()

    def _collect(self) -> None:
        """Moves mail moto has sent into our log (which survives restarts)."""
        backend = ses_backends[DEFAULT_ACCOUNT_ID][REGION]
        while backend.sent_messages:
            raw = backend.sent_messages.pop(0)
            message = email.message_from_string(raw.raw_data)
            parts = {p.get_content_type(): p for p in message.walk() if not p.is_multipart()}
            text = parts.get("text/plain")
            html = parts.get("text/html")  # the one-tap links: /dev/outbox shows it too
            self.sent.append(
                {
                    "to": message["To"],
                    "subject": str(make_header(decode_header(message["Subject"]))),
                    "text": text.get_payload(decode=True).decode("utf-8") if text else "",
                    "html": html.get_payload(decode=True).decode("utf-8") if html else "",
                    "sent_at": self.now().isoformat(timespec="seconds"),
                }
            )

    def tick(self) -> None:
        with self.ticking:
            run_due(self.scheduled, self.now(), lambda name: log.exception("%s failed", name))
        with self.lock:
            self._collect()

    def snapshot(self, client) -> None:
        """The table, the mail and the clock on disk. A tick running meanwhile is not waited
        for: what it has written is in the table, and what it has not yet done is still due
        at the next start's first tick (the steps are idempotent)."""
        with self.lock:
            self._collect()
            state.save(
                {
                    "items": state.dump_table(TABLE, client),
                    "mails": self.sent,
                    "clock_offset_seconds": self.offset.total_seconds(),
                    "secret": self.secret,
                }
            )


def _not_found_handler():
    from chalice.local import ChaliceRequestHandler

    from chalicelib.web import compression, front, pages

    class Handler(ChaliceRequestHandler):
        """What no route takes gets the app's 404 or 405 page, as behind the HTTP API in AWS
        (chalice local answers API Gateway's 403 and Chalice's JSON 405), under the
        visitor's own session: its Cookie header goes with it."""

        def _generic_handle(self) -> None:
            app = self.local_gateway._app_object
            path = urlsplit(self.path).path
            if self.command in front.allowed_methods(app, path):
                super()._generic_handle()
                return
            headers = {name.lower(): value for name, value in self.headers.items()}
            context = {"identity": {"sourceIp": self.client_address[0]}}
            request = pages.Request(self.command, path, headers, {}, None, context)
            response = front.unrouted(app, request).to_dict()
            length = int(self.headers.get("content-length") or 0)
            self.rfile.read(length)  # the connection is kept alive: leave no body unread
            self._send_http_response(
                response["statusCode"],
                {**response["headers"], **response.get("multiValueHeaders", {})},
                response["body"],
            )

        # The base class bound its own _generic_handle to these names when it was made.
        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = do_PATCH = do_OPTIONS = _generic_handle

        def _send_http_response(self, code, headers, body) -> None:
            """Gzips as API Gateway does in AWS (text of 1 KB or more, when accepted)."""
            if body is not None:
                raw = body if isinstance(body, bytes) else body.encode("utf-8")
                if compression.should_compress(headers, raw, self.headers.get("Accept-Encoding")):
                    headers = {**headers, "Content-Encoding": "gzip"}
                    compression.vary(headers)
                    body = compression.compress(raw)
            super()._send_http_response(code, headers, body)

    return Handler


def _seed_village(now: datetime) -> None:
    from chalicelib.services import villages

    page = villages.lounge("opening", limit=50)
    if not any(v.pace == "short" and (v.rules or "mobius") == "mobius" for v in page.villages):
        village_id = villages.create_village(
            villages.AskedVillage(pace="short", name="はじめての短期村"),
            now=now,
            rng=random.Random(secrets.randbits(64)),
        )
        log.info("seeded short village %s", village_id)
    if not any(v.rules == "classic" for v in page.villages):
        village_id = villages.create_village(
            villages.AskedVillage(
                pace="short",
                name="はじめての人狼BBS村",
                rules="classic",
                given={"template": CLASSIC_TEMPLATE},
            ),
            now=now,
            rng=random.Random(secrets.randbits(64)),
        )
        log.info("seeded short classic village %s", village_id)
    for rules, name, computers in PRACTICE:
        if any(v.name == name for v in page.villages):
            continue
        village_id = villages.create_village(
            villages.AskedVillage(
                pace="short", name=name, rules=rules, cpu_members=computers, practice=True
            ),
            now=now,
            rng=random.Random(secrets.randbits(64)),
        )
        log.info("seeded practice village %s (%s, %d CPUs)", village_id, rules, computers)


# Practice villages (issue 24): one seat for the newcomer, the rest held by computer members.
# Mobius: 12 CPUs and the newcomer make the 13 seats; classic: 4 CPUs and the newcomer, the
# smallest village with a seer, a wolf and a start (decision 109).
PRACTICE = (
    ("mobius", "練習村（メビウス・CPU12人）", 12),
    ("classic", "練習村（人狼BBS式・CPU4人）", 4),
)


# The first public post of the seeded classic village (the GM's template).
CLASSIC_TEMPLATE = (
    "人狼BBS式の短期村です。4人以上集まり、全員が開始投票をするとゲームが始まります。\n"
    "昼は40分、投票の超過時間は5分、夜は15分です。投票しないまま締め切られると突然死します。"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="メビウス人狼をローカルで動かす")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--moto-port", type=int, default=5055)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's per-request lines

    saved = state.load()
    secret = saved.get("secret") or secrets.token_urlsafe(32)
    endpoint = _environment(args.moto_port, args.port, secret)
    with like_dynamodb():
        moto = ThreadedMotoServer(ip_address=HOST, port=args.moto_port, verbose=False)
        moto.start()
        try:
            return _serve(args.port, endpoint, saved, secret)
        finally:
            moto.stop()


def _serve(port: int, endpoint: str, saved: dict, secret: str) -> int:
    import boto3
    from chalice.config import Config
    from chalice.local import LocalDevServer

    from app import app
    from chalicelib import runtime
    from chalicelib.notify.ses import sender
    from chalicelib.storage import db

    client = state.dynamodb_client(endpoint, REGION)
    db.configure()
    db.create_table()
    if saved["items"]:
        state.restore_table(TABLE, client, saved["items"])
    boto3.client("ses", region_name=REGION, endpoint_url=endpoint).verify_email_identity(
        EmailAddress=sender()
    )
    village = LocalVillage(saved, secret, schedules(app))
    runtime.set_clock(village.now)
    state.announce_clock(village.offset.total_seconds())
    runtime.set_dev_tools(village)
    _seed_village(village.now())

    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(TICK_SECONDS):
            village.tick()
            village.snapshot(client)

    ticker = threading.Thread(target=loop, name="scheduler", daemon=True)
    ticker.start()
    config = Config.create(chalice_app=app, app_name="mobius-village", chalice_stage="local")
    server = LocalDevServer(app, config, HOST, port, handler_cls=_not_found_handler())
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"メビウス人狼: http://{HOST}:{port}/  (送信メール: /dev/outbox  時計: /dev/clock)")
    # The GM command line finds this server here (and only while it serves).
    state.announce_server({"endpoint": endpoint, "table": TABLE, "region": REGION})
    print('GM: make gm ARGS="list"（GMにする: make gm ARGS="grant アカウントID"）')
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        # Ctrl-C stops at once: the ticker (a daemon thread) is not waited for, and the last
        # snapshot does not wait for a tick it may be in the middle of.
        state.announce_server(None)
        stop.set()
        village.snapshot(client)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
