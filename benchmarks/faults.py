"""When AWS fails (issue 28): faults injected at the botocore clients, and the fault run.

``Faults`` makes AWS fail as it does once the SDK has retried: a DynamoDB call answered with
a throttling or an internal error (nothing written), or written and its answer lost; an SES
send refused, or accepted and its answer lost. It hooks the ``before-call`` / ``after-call``
events of every botocore client the app uses, so everything above botocore (PynamoDB, the
storage module, the services, the handlers) meets the fault as it would in AWS.
"""

import base64
import html
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock
from urllib.parse import urlencode

import boto3
from botocore.exceptions import ReadTimeoutError
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

import app as app_module
from chalicelib import jobs, runtime
from chalicelib.notify import ses
from chalicelib.personas import YAMAZATO
from chalicelib.services import actions, villages
from chalicelib.storage import db
from chalicelib.storage.keys import board_pk, outbox_pk
from chalicelib.storage.models import MODELS, CounterItem, Item, OutboxItem, PostItem
from chalicelib.storage.repository import VillageRecord, load_village
from devserver.moto_local import like_dynamodb, one_backup_per_transaction

from .cost import CSRF, REGION, SENDER, _scheduled_event, _sqs_event, http_event
from .requests import fake_aws, verified_accounts

THROTTLED = "ProvisionedThroughputExceededException"
INTERNAL = "InternalServerError"
# DynamoDB operations that write: only those can be "written, answer lost".
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"})


@dataclass
class _Answer:
    """What botocore's ``before-call`` short-circuit needs of an HTTP answer."""

    status_code: int
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes = b""


def _error(code: str, message: str) -> tuple[_Answer, dict[str, Any]]:
    return _Answer(400 if code == THROTTLED else 500), {
        "Error": {"Code": code, "Message": message},
        "ResponseMetadata": {"HTTPStatusCode": 400 if code == THROTTLED else 500},
    }


def app_clients() -> list[Any]:
    """Every botocore client the app's storage and mail use (created here if not yet)."""
    connections = [model._get_connection().connection for model in (Item, CounterItem, *MODELS)]
    connections.append(db.transaction()._connection)
    clients = {id(c.client): c.client for c in connections}
    mail = ses.ses()
    clients[id(mail)] = mail
    return list(clients.values())


@dataclass
class Faults:
    """Which calls fail. ``rate``: the share of DynamoDB calls that fail at random (drawn
    from ``rng``), half refused before the write, half (writes only) written and their
    answer lost; ``ses_rate``: the same for SES sends. ``fail``: operation → how many of
    its next calls fail before writing (a deterministic fault for a test); ``lose``: the
    same, written and their answer lost. ``only``: when set, the random faults hit only
    these operations."""

    rate: float = 0.0
    ses_rate: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(28))
    fail: dict[str, int] = field(default_factory=dict)
    lose: dict[str, int] = field(default_factory=dict)
    only: frozenset[str] | None = None
    # Only the calls this holds for (operation, request body as sent) count for ``fail``.
    fail_when: Callable[[str, str], bool] | None = None
    on: bool = True  # the fault run turns faults off to check what was kept
    injected: Counter[str] = field(default_factory=Counter)  # kind:operation → count

    def _before(
        self, model: Any, params: dict[str, Any], **_: Any
    ) -> tuple[_Answer, dict[str, Any]] | None:
        name = model.name
        if not self.on:
            return None
        if self.fail.get(name, 0) > 0 and self._chosen(name, params):
            self.fail[name] -= 1
            return self._refuse(name)
        if self.lose.get(name, 0) > 0:
            return None  # the call happens; its answer is lost after
        if model.service_model.service_name == "ses":
            if self.ses_rate and self.rng.random() < self.ses_rate / 2:
                self.injected[f"failed:{name}"] += 1
                return _error("ServiceUnavailable", "injected: SES unavailable")
            return None
        if self.only is not None and name not in self.only:
            return None
        if self.rate and self.rng.random() < self.rate / 2:
            return self._refuse(name)
        return None

    def _chosen(self, name: str, params: dict[str, Any]) -> bool:
        if self.fail_when is None:
            return True
        body = params.get("body") or b""
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
        return self.fail_when(name, text)

    def _refuse(self, name: str) -> tuple[_Answer, dict[str, Any]]:
        code = THROTTLED if self.rng.random() < 0.5 else INTERNAL
        self.injected[f"failed:{name}"] += 1
        return _error(code, "injected: AWS failed after the SDK's retries")

    def _after(self, model: Any, **_: Any) -> None:
        name = model.name
        if not self.on:
            return
        lost = False
        if self.lose.get(name, 0) > 0:
            self.lose[name] -= 1
            lost = True
        elif model.service_model.service_name == "ses":
            lost = bool(self.ses_rate) and self.rng.random() < self.ses_rate / 2
        elif name in WRITES and (self.only is None or name in self.only):
            lost = bool(self.rate) and self.rng.random() < self.rate / 2
        if lost:
            self.injected[f"lost:{name}"] += 1
            raise ReadTimeoutError(endpoint_url=f"injected: {name}'s answer lost")

    @contextmanager
    def installed(self, clients: Iterable[Any] | None = None) -> Iterator["Faults"]:
        """Hooks every app client (or ``clients``) while the block runs."""
        hooked = list(clients) if clients is not None else app_clients()
        handlers: list[tuple[Any, str, Callable[..., Any]]] = []
        for client in hooked:
            service = client.meta.service_model.service_id.hyphenize()
            for event, handler in (
                (f"before-call.{service}", self._before),
                (f"after-call.{service}", self._after),
            ):
                client.meta.events.register(event, handler)
                handlers.append((client, event, handler))
        try:
            yield self
        finally:
            for client, event, handler in handlers:
                client.meta.events.unregister(event, handler)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No faults while the block runs (the run reading the truth, setting up)."""
        was, self.on = self.on, False
        try:
            yield
        finally:
            self.on = was


# ----- the fault run: whole villages through the handlers while AWS fails -----

PASSWORD = "fault-run-password"
START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)  # 12:00 JST: no hourly long village
EVERY = 4  # minutes between a diligent member's visits (well within every idle rule)
OUTAGE = timedelta(minutes=13)  # the scheduler down (across a Mobius village's start)
CLASSIC_PLAYERS = 9


@dataclass
class Outcome:
    """What a fault run counted for one village."""

    rules: str
    minutes: int = 0
    state: str = ""
    statuses: Counter[int] = field(default_factory=Counter)
    # Every member visits every EVERY minutes and acts at once: each departure and each sudden
    # death is one our faults caused.
    departures: int = 0
    sudden_deaths: int = 0
    accepted: int = 0  # posts and saves answered "done" (303)
    accepted_lost: int = 0  # of those, not in the table once the run is over
    mails: int = 0
    duplicate_mails: int = 0
    failed_ticks: int = 0
    failed_worker_calls: int = 0
    redelivered: int = 0
    injected: Counter[str] = field(default_factory=Counter)

    def figures(self) -> dict[str, Any]:
        requests = sum(self.statuses.values())
        return {
            "minutes": self.minutes,
            "state": self.state,
            "requests": requests,
            "status_500": self.statuses[500],
            "status_503": self.statuses[503],
            "departures_caused_by_faults": self.departures,
            "sudden_deaths_caused_by_faults": self.sudden_deaths,
            "accepted": self.accepted,
            "accepted_then_lost": self.accepted_lost,
            "mails": self.mails,
            "duplicate_mails": self.duplicate_mails,
            "duplicate_rate": round(self.duplicate_mails / self.mails, 4) if self.mails else 0.0,
            "failed_ticks": self.failed_ticks,
            "failed_worker_calls": self.failed_worker_calls,
            "sqs_redelivered": self.redelivered,
            "dynamodb_faults": sum(
                n for k, n in self.injected.items() if "Email" not in k and "Quota" not in k
            ),
            "ses_faults": sum(n for k, n in self.injected.items() if "Email" in k),
        }


class Member:
    """One member's phone through ``app.http_api``: its cookie and its last page's CSRF."""

    def __init__(self, run: "FaultRun", account_id: str) -> None:
        self.run = run
        self.account_id = account_id
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, target: str, form: dict[str, str] | None = None) -> int:
        headers = {"host": "mobius-jinro.example", "user-agent": "fault-run"}
        if self.cookie:
            headers["cookie"] = self.cookie
        body = None
        if form is not None:
            headers["content-type"] = "application/x-www-form-urlencoded"
            body = urlencode({**form, "csrf": self.csrf}).encode()
        response = app_module.http_api(http_event(method, target, headers, body), None)
        status = int(response["statusCode"])
        self.run.outcome.statuses[status] += 1
        headers_out = {k.lower(): str(v) for k, v in (response.get("headers") or {}).items()}
        if "set-cookie" in headers_out:
            self.cookie = headers_out["set-cookie"].split(";", 1)[0]
        raw = response.get("body") or ""
        page = (
            base64.b64decode(raw).decode("utf-8", "replace")
            if response.get("isBase64Encoded")
            else str(raw)
        )
        found = CSRF.search(page)
        if found:
            self.csrf = html.unescape(found.group(1))
        return status


class FaultRun:
    """One village of ``rules`` played by diligent members through the HTTP handler, the
    minute tick and the SQS workers (moto's queues), while ``faults`` fail AWS; the scheduler
    is down for ``OUTAGE`` across a Mobius village's start, and a classic village's first
    evening."""

    def __init__(
        self,
        rules: str,
        faults: Faults,
        seed: int,
        redelivery: float,
        players: int,
        opening: timedelta,
    ) -> None:
        self.rules = rules
        self.opening = opening
        self.players = players
        self.faults = faults
        self.rng = random.Random(seed)
        self.redelivery = redelivery
        self.outcome = Outcome(rules)
        self.now = START
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.queues = {
            name: self.sqs.create_queue(QueueName=queue)["QueueUrl"]
            for name, queue in (("advance", jobs.QUEUE_NAME), ("mail", jobs.MAIL_QUEUE_NAME))
        }
        self.members: dict[str, Member] = {}
        self.posted: list[tuple[str, str]] = []  # (board, text) answered 303
        self.saved: dict[tuple[int, str], dict[str, str]] = {}  # (day, slot) → last accepted
        self.outage: tuple[datetime, datetime] | None = None
        self.village_id = ""
        self.sent_before = 0  # SES's count when play begins (the setup's account mail)

    def setup(self) -> None:
        """Accounts, the village, its members and their logins: no faults yet."""
        runtime.set_clock(lambda: self.now)
        count = self.players
        prefix = "m" if self.rules == "mobius" else "c"
        players = verified_accounts(f"{prefix}fault", count, self.now, PASSWORD)
        if self.rules == "mobius":
            first = self.now + self.opening
            self.village_id = villages.create_village(
                villages.AskedVillage(pace="short", name="障害村", first_update=first),
                now=self.now,
                rng=self.rng,
            )
            # The scheduler is down from 5 minutes before the start to 8 minutes after.
            self.outage = (first - timedelta(minutes=5), first - timedelta(minutes=5) + OUTAGE)
        else:
            self.village_id = villages.create_village(
                villages.AskedVillage(pace="short", name="障害BBS村", rules="classic"),
                now=self.now,
                rng=self.rng,
            )
            # Started at once by the start votes below; the scheduler is down an hour in.
            down = self.now + timedelta(hours=1)
            self.outage = (down, down + OUTAGE)
        for n, account in enumerate(players):
            record = load_village(self.village_id)
            assert record is not None
            seat = next(s for s, m in record.seats().items() if m.account_id is None)
            villages.join(self.village_id, account, seat, YAMAZATO[n].key, self.now)
            member = Member(self, account)
            member.request("GET", "/login")
            assert member.request("POST", "/login", {"account_id": account, "password": PASSWORD})
            self.members[account] = member
        if self.rules == "classic":
            for account in players:  # everyone start-votes: day 1 begins
                actions.prologue(self.village_id, account, "start", None, self.now)
        self.outcome.statuses.clear()
        self.sent_before = len(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)

    def play(self, minutes: int) -> Outcome:
        """Minute by minute: the tick (unless the scheduler is down), the workers, the members'
        visits, posts and saves; then, faults off, what was kept."""
        page = f"/villages/{self.village_id}"
        offsets = {a: n % EVERY for n, a in enumerate(self.members)}
        again: set[str] = set()  # members whose last act failed: they try again next minute
        with self.faults.installed():
            for minute in range(minutes):
                self.now = START + timedelta(minutes=minute)
                with self.faults.paused():
                    record = load_village(self.village_id)
                assert record is not None
                if record.state.value not in ("opening", "running", "ending"):
                    break
                self.outcome.minutes = minute
                self._tick()
                self._work()
                self.now += timedelta(seconds=30)
                with self.faults.paused():
                    record = load_village(self.village_id)
                assert record is not None
                if _awaiting_start(record, self.now):
                    continue  # the start is overdue: members wait for its mail to come back
                for account, member in self.members.items():
                    if (minute + offsets[account]) % EVERY and account not in again:
                        continue
                    again.discard(account)
                    if not self._visit(record, account, member, page):
                        again.add(account)
        self.now += timedelta(minutes=1)
        return self._kept()

    def _tick(self) -> None:
        if self.outage is not None and self.outage[0] <= self.now < self.outage[1]:
            return
        try:
            app_module.tick(_scheduled_event(self.now), None)
        except Exception:
            self.outcome.failed_ticks += 1

    def _work(self) -> None:
        """The SQS pollers: a batch whose worker failed is delivered again (at the next
        minute); a batch done is, now and then, delivered again all the same (SQS's
        at-least-once)."""
        workers = (("advance", app_module.advance_worker, 10), ("mail", app_module.mail_worker, 1))
        for name, worker, size in workers:
            url = self.queues[name]
            for _ in range(20):
                with self.faults.paused():
                    got = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=size)
                messages = got.get("Messages", [])
                if not messages:
                    break
                # The workers report the messages that failed (decision 201): SQS deletes the
                # others and delivers those again; a worker that raises fails the batch.
                try:
                    answer = worker(_sqs_event(messages), None) or {}
                    failed = {f["itemIdentifier"] for f in answer.get("batchItemFailures", [])}
                    if self.rng.random() < self.redelivery:
                        failed = {m["MessageId"] for m in messages}
                except Exception:
                    self.outcome.failed_worker_calls += 1
                    failed = {m["MessageId"] for m in messages}
                entries = [
                    {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]}
                    for n, m in enumerate(messages)
                ]
                kept = [
                    e for e, m in zip(entries, messages, strict=True) if m["MessageId"] in failed
                ]
                with self.faults.paused():
                    if len(kept) < len(entries):
                        self.sqs.delete_message_batch(
                            QueueUrl=url, Entries=[e for e in entries if e not in kept]
                        )
                    if not kept:
                        continue
                    self.outcome.redelivered += len(kept)
                    entries = kept
                    self.sqs.change_message_visibility_batch(
                        QueueUrl=url,
                        Entries=[{**e, "VisibilityTimeout": 0} for e in entries],
                    )
                break  # what is delivered again waits for the next minute's poll

    def _visit(self, record: VillageRecord, account: str, member: Member, page: str) -> bool:
        """A visit: the page, a post now and then, and the choices still unset. False when
        something failed (the member tries again at the next minute)."""
        ok = member.request("GET", page) == 200
        slot = record.slot_of(account)
        if slot is None:
            return ok
        if record.state.value in ("opening", "ending") or self.rng.random() < 0.3:
            text = f"障害試験の書き込み{len(self.posted)}"
            board = record.rules.public_board
            status = member.request("POST", f"{page}/posts", {"board": board, "text": text})
            if status == 303:
                self.posted.append((board, text))
            ok = ok and status in (303, 403)  # 403: the board is closed now (a refusal)
        if record.state.value != "running":
            return ok
        with self.faults.paused():
            quick = record.rules.quick_choices(record, slot)
        unset = [q for q in quick if q.was is None]
        if not unset:
            return ok
        choices = {q.key: self.rng.choice(q.targets) for q in unset}
        status = member.request("POST", f"{page}/actions", choices)
        if status == 303:
            self.outcome.accepted += 1
            key = (record.day, slot)
            self.saved[key] = {**self.saved.get(key, {}), **choices}
        return ok and status in (303, 403, 409)

    def _kept(self) -> Outcome:
        """Faults off: what the table kept of what was accepted, who left, who died suddenly,
        and how many mails SES sent twice."""
        outcome = self.outcome
        outcome.injected = Counter(self.faults.injected)
        with self.faults.paused():
            record = load_village(self.village_id)
            assert record is not None
            outcome.state = record.state.value
            outcome.departures = sum(1 for a in self.members if record.slot_of(a) is None)
            outcome.sudden_deaths = _sudden_deaths(record)
            texts = {
                (board, str(p.text))
                for board in {b for b, _ in self.posted}
                for p in PostItem.query(board_pk(self.village_id, board, None))
            }
            outcome.accepted += len(self.posted)
            outcome.accepted_lost = sum(1 for post in self.posted if post not in texts)
            if self.rules == "mobius":
                for (day, slot), choices in self.saved.items():
                    stored = record.recorded(day).get(slot, {})
                    if record._members[slot].account_id is None:
                        continue  # a departed member's choices go with the seat
                    if any(stored.get(k) != v for k, v in choices.items()):
                        outcome.accepted_lost += 1
            # A mail is one outbox item: what SES accepted beyond the items marked sent
            # was sent twice (or is sent and unmarked, to be sent again).
            outcome.mails = sum(
                1
                for item in OutboxItem.query(outbox_pk(self.village_id), consistent_read=True)
                if item.status == "sent"
            )
        accepted = len(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages) - self.sent_before
        outcome.duplicate_mails = accepted - outcome.mails
        return outcome


def _awaiting_start(record: VillageRecord, now: datetime) -> bool:
    """Whether a village's start is overdue (its opening still shown past its start time)."""
    due = record.next_update
    return record.state.value == "opening" and due is not None and due <= now


def _sudden_deaths(record: VillageRecord) -> int:
    """A classic game's sudden deaths (Mobius has none)."""
    engine = getattr(record.game, "village", None)
    return sum(len(r.sudden) for r in getattr(engine, "rounds", []) or [])


def run(
    rules: str,
    minutes: int,
    *,
    rate: float,
    ses_rate: float,
    redelivery: float,
    seed: int,
    players: int = 13,
    opening: timedelta = timedelta(minutes=30),
) -> Outcome:
    """One village of ``rules`` for at most ``minutes`` under the given fault rates, on a
    fresh moto. ``opening``: how long a Mobius village waits for its start."""
    fake_aws()
    urls = {}
    with mock_aws(), like_dynamodb(), one_backup_per_transaction():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=SENDER)
        faults = Faults(rate=rate, ses_rate=ses_rate, rng=random.Random(seed), on=False)
        try:
            probe = FaultRun(rules, faults, seed, redelivery, players, opening)
            urls = {
                "MOBIUS_QUEUE_URL": probe.queues["advance"],
                "MOBIUS_MAIL_QUEUE_URL": probe.queues["mail"],
            }
            with mock.patch.dict("os.environ", urls):
                probe.setup()
                faults.on = True
                return probe.play(minutes)
        finally:
            runtime.set_clock(runtime.system_clock)


def figures() -> dict[str, Any]:
    """``make bench``: a whole short Mobius and a whole short classic village with ~5 % of
    DynamoDB calls failing, SES failing or losing its answer, SQS delivering again, and the
    scheduler down for 13 minutes across the Mobius start."""
    rates = {"rate": 0.05, "ses_rate": 0.05, "redelivery": 0.05}
    return {
        "dynamodb_fault_rate": rates["rate"],
        "ses_fault_rate": rates["ses_rate"],
        "sqs_redelivery_rate": rates["redelivery"],
        "scheduler_outage_minutes": OUTAGE.seconds // 60,
        "mobius": run("mobius", 8 * 60, seed=28, **rates).figures(),
        "classic": run("classic", 6 * 60, seed=28, players=CLASSIC_PLAYERS, **rates).figures(),
    }
