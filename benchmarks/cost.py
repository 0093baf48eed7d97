"""The cost of a whole game (issue 14): a scripted 13-player long Mobius village on moto.

Thirteen phones play it through the real Lambda handlers: every page, post and save is an
HTTP API event handed to ``app.http_api`` (so bytes out are the real, gzipped answers), the
minute tick is ``app.tick``, the updates and reminders run in ``app.advance_worker`` from a
(moto) SQS queue and their mail in ``app.mail_worker`` from the mail queue, as deployed.
``metering.py`` counts what AWS would bill; ``prices.py`` prices it.

Play (the issue's model): each living member, each day, opens the village page 8 times and
posts 5 times and saves their choices twice (a post or a save answers 303 and the phone
loads the page again, as a browser does); a dead member reads the village twice a day; two
living members a day make their first save with a one-tap link from the morning mail, and
one saves only after the day's reminder (so reminders go out). In the ending every member
reads 4 times and posts 3 times. A phone logs in once and fetches the stylesheet once.

The deaths are scripted, one a night (the judged is also the attack target), so that a game
lasts exactly its days: 7 (six nights, the oni win) or 12 (eleven nights, the humans win);
the last day is the ending, closed by the next update.

Shared costs (decision 63): the minute tick runs whether or not a village is due. A tick that
finds this village due is charged to it in full; every other minute of the game is charged
at 1/``VILLAGES_SHARING_THE_TICK`` of an empty tick, and so is the SQS pollers' idle long
polling of the two queues. The hourly check for a new long village is charged to the game it
creates.
"""

import base64
import gzip
import html
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_string
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import parse_qs, urlencode, urlsplit

import boto3
from chalice.local import RouteMatcher
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

import app as app_module
from chalicelib import jobs, runtime
from chalicelib.links import read_member_token
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS, Side
from chalicelib.services import scheduler
from chalicelib.storage import db
from chalicelib.storage.keys import look_keys
from chalicelib.storage.models import LookItem
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb, one_backup_per_transaction

from .metering import Meter, metering
from .prices import Usage, cost
from .requests import fake_aws, verified_accounts

REGION = "ap-northeast-1"
SENDER = "noreply@mobius.example"
PASSWORD = "bench-password-1"
CONFIG = Path(__file__).resolve().parent.parent / ".chalice" / "config.json"
DEFAULT_MEMORY_MB = 128  # Chalice's default when a stage names none

VILLAGES_SHARING_THE_TICK = 100  # running villages the minute tick's fixed cost is spread over
# Lambda polls an SQS source with 5 long polls of up to 20 s each at once: 15 a minute, idle,
# for each of the two queues (the advance queue and the mail queue).
IDLE_POLLS_A_MINUTE = 15 * 2

# SES's default production sending rate (mails a second), shared by the mail workers.
SES_RATE = 14
MAIL_PACE = SES_RATE / jobs.MAIL_WORKERS
QUIET_HORIZON = timedelta(hours=6)  # how far ahead the bench looks for the next due tick
VIEWS, POSTS, SAVES = 8, 5, 2  # per living member and day
DEAD_VIEWS = 2
ENDING_VIEWS, ENDING_POSTS = 4, 3
QUICK_LINKS_A_DAY = 2
LATE_SAVERS_A_DAY = 1
DAY = timedelta(hours=18)  # a long village's day period (RULES §2)
REMINDER_LEAD = timedelta(hours=3)  # decision 22
TEXTS = (
    "おはようございます。今日もよろしくお願いします。",
    "占い結果を見てから決めたいと思います。少し待ってください。",
    "昨日の流れを見ると、発言の少ない人が気になります。皆さんはどう思いますか？",
    "了解です。",
    "共有の情報を整理すると、まだ鬼が三人とも残っている可能性があります。"
    "今日の祈り先は慎重に決めましょう。私はまだ迷っています。",
    "夜までには行動を決めておきます。",
)


def memory_mb(function: str | None = None) -> int:
    """The deployed (prod) stage's Lambda memory, as .chalice/config.json sets it: the
    stage's, or ``function``'s own where it has one."""
    config = json.loads(CONFIG.read_text())
    stage = config.get("stages", {}).get("prod", {})
    own = stage.get("lambda_functions", {}).get(function, {}) if function else {}
    size = own.get("lambda_memory_size", stage.get("lambda_memory_size"))
    return int(size or config.get("lambda_memory_size", DEFAULT_MEMORY_MB))


def victims(days: int) -> Callable[[dict[str, Side]], list[str]]:
    """Who dies each night, by side, so that the game ends on its ``days``-th day."""

    def plan(sides: dict[str, Side]) -> list[str]:
        humans = [s for s in SLOTS if sides[s] is Side.HUMAN]
        oni = [s for s in SLOTS if sides[s] is Side.ONI]
        madman = [s for s in SLOTS if sides[s] is Side.MADMAN]
        if days == 7:  # six humans judged: 3 humans to 3 oni, the oni win
            return humans[:6]
        if days == 12:  # the madman, two oni, seven humans, then the last oni: the humans win
            return madman + oni[:2] + humans[:7] + oni[2:]
        raise ValueError(f"no script for a {days}-day game")

    return plan


# ----- a phone: HTTP API events through the real handler -----


def _route(method: str, path: str) -> tuple[str, dict[str, str]]:
    match = RouteMatcher(list(app_module.app.routes)).match_route(path)
    assert method in app_module.app.routes[match.route], (method, path)
    return match.route, match.captured


def http_event(method: str, target: str, headers: dict[str, str], body: bytes | None) -> dict:
    """What an HTTP API (payload format 1.0) hands the Lambda: form bodies in base64."""
    url = urlsplit(target)
    query = parse_qs(url.query, keep_blank_values=True)
    route, captured = _route(method, url.path)
    return {
        "version": "1.0",
        "resource": route,
        "path": url.path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": {k: v[-1] for k, v in query.items()} or None,
        "multiValueQueryStringParameters": query or None,
        "pathParameters": captured or None,
        "stageVariables": None,
        "requestContext": {
            "accountId": DEFAULT_ACCOUNT_ID,
            "apiId": "bench",
            "httpMethod": method,
            "identity": {"sourceIp": "198.51.100.7", "userAgent": headers.get("user-agent")},
            "path": url.path,
            "protocol": "HTTP/1.1",
            "requestId": "bench",
            "resourcePath": route,
            "routeKey": f"{method} {route}",
            "stage": "$default",
        },
        "body": base64.b64encode(body).decode("ascii") if body is not None else None,
        "isBase64Encoded": body is not None,
    }


CSRF = re.compile(r'name="csrf" value="([^"]*)"')
STYLESHEET = re.compile(r'href="(/static/[^"]+\.css)"')


@dataclass
class Phone:
    """One member's browser: its cookie, the CSRF token of its last page, its cache."""

    game: "Game"
    account_id: str
    cookie: str | None = None
    csrf: str | None = None
    cached: set[str] = field(default_factory=set)

    def get(self, target: str) -> str:
        return self.request("GET", target)

    def post(self, target: str, form: dict[str, str]) -> str:
        return self.request("POST", target, {**form, "csrf": self.csrf or ""})

    def request(self, method: str, target: str, form: dict[str, str] | None = None) -> str:
        """Sends one request, follows a redirect as a browser does, returns the last page."""
        headers = {
            "host": "mobius-jinro.example",
            "accept-encoding": "gzip, deflate, br",
            "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)",
        }
        if self.cookie:
            headers["cookie"] = self.cookie
        body = None
        if form is not None:
            headers["content-type"] = "application/x-www-form-urlencoded"
            body = urlencode(form).encode()
        response = self.game.invoke(http_event(method, target, headers, body))
        page = self._keep(response)
        status = response["statusCode"]
        if status == 303:
            return self.get(self._header(response, "location").split("#")[0])
        assert status == 200, (method, target, status, page[:500])
        for sheet in STYLESHEET.findall(page):
            if sheet not in self.cached:  # immutable: once per phone and release
                self.cached.add(sheet)
                self.get(sheet)
        return page

    def _keep(self, response: dict) -> str:
        cookie = self._header(response, "set-cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        raw = response.get("body") or ""
        data = base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode()
        if self._header(response, "content-encoding") == "gzip":
            data = gzip.decompress(data)
        page = data.decode("utf-8", "replace")
        match = CSRF.search(page)
        if match:
            self.csrf = html.unescape(match.group(1))
        return page

    @staticmethod
    def _header(response: dict, name: str) -> str:
        for key, value in (response.get("headers") or {}).items():
            if key.lower() == name:
                return str(value)
        for key, values in (response.get("multiValueHeaders") or {}).items():
            if key.lower() == name and values:
                return str(values[0])
        return ""


def wire_bytes(response: dict) -> int:
    """The answer's size as it leaves: status line, headers and the (gzipped) body."""
    raw = response.get("body") or ""
    body = len(base64.b64decode(raw)) if response.get("isBase64Encoded") else len(raw.encode())
    headers = sum(len(k) + len(str(v)) + 4 for k, v in (response.get("headers") or {}).items())
    for name, values in (response.get("multiValueHeaders") or {}).items():
        headers += sum(len(name) + len(str(v)) + 4 for v in values)
    return len("HTTP/1.1 200 OK\r\n\r\n") + headers + body


# ----- the game -----


class Game:
    def __init__(self, meter: Meter, queues: dict[str, str], seed: int) -> None:
        self.meter = meter
        self.queues = queues  # the advance and the mail queue's URLs
        self.rng = random.Random(seed)
        self.seed = seed
        self.now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)  # 03:00 JST: a long village's hour
        self.started = self.now
        self.checked = self.now  # the ticks are run up to here
        self.ticks_run = 0
        self._quiet = (-1, self.now)  # (index changes, up to when nothing is due) last found
        self.sqs = boto3.client("sqs", region_name=REGION)
        runtime.set_clock(lambda: self.now)

    # -- Lambda invocations --

    def invoke(self, event: dict) -> dict:
        with self.meter.invocation():
            response = app_module.http_api(event, None)
        response = json.loads(json.dumps(response))  # what Lambda serializes
        self.meter.usage.http_requests += 1
        self.meter.usage.bytes_out += wire_bytes(response)
        return response

    def run_until(self, moment: datetime) -> None:
        """Every tick that finds the village due, up to ``moment``, and its workers.

        Only a change in a LOOK index entry changes what the due query finds: until one is
        written, a moment found quiet stays quiet, and the query is not asked again."""
        minute = timedelta(minutes=1)
        while True:
            changes, quiet_until = self._quiet
            if changes == self.meter.index_changes["LOOK"] and moment <= quiet_until:
                self.checked = max(self.checked, moment)
                return
            horizon = max(moment, self.checked + QUIET_HORIZON)
            due = self._first_due(self.checked + minute, horizon)
            if due is None or due > moment:
                # quiet up to just before the due minute (a moment inside the minute before it is
                # quiet too: with ``due - minute`` such a moment looped here for ever)
                quiet = due - timedelta(microseconds=1) if due else horizon
                self._quiet = (self.meter.index_changes["LOOK"], quiet)
                continue
            self.tick(due)
            self.checked = due

    def _first_due(self, low: datetime, high: datetime) -> datetime | None:
        """The first whole minute in [low, high] at which the due query finds a village: the
        earliest look of any shard (read here, not metered), rounded up to the minute."""
        looks = [
            datetime.strptime(str(item.gsi1sk), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
            for key in look_keys()
            for item in LookItem.by_state.query(key, limit=1)
        ]
        if not looks:
            return None
        due = max(_minute(low, up=True), _minute(min(looks), up=True))
        return due if due <= _minute(high, up=False) else None

    def tick(self, moment: datetime) -> None:
        self.now = moment
        self.ticks_run += 1
        _tick(self.meter, moment)
        self.work()

    def work(self) -> None:
        """The SQS pollers hand the tick's messages to the advance worker and then the mail it
        owes to the mail worker (one village a call, as its event source is set), deleting
        each batch after (their idle polls in between are shared: decision 63)."""
        # A mail worker sends at its share of the account's SES rate (decision 58).
        paced = {"memory_mb": memory_mb("mail_worker"), "sends_per_second": MAIL_PACE}
        workers: tuple[tuple[str, Callable[..., Any], int, dict[str, Any]], ...] = (
            ("advance", app_module.advance_worker, 10, {}),
            ("mail", app_module.mail_worker, 1, paced),
        )
        for name, worker, batch_size, kwargs in workers:
            queue_url = self.queues[name]
            while True:
                received = self.sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)
                messages = received.get("Messages", [])
                if not messages:
                    break  # an empty poll: one of the idle polls, shared (decision 63)
                self.meter.usage.sqs_requests += 1  # the poll that found them is the game's
                for n in range(0, len(messages), batch_size):
                    with self.meter.invocation(**kwargs):
                        worker(_sqs_event(messages[n : n + batch_size]), None)
                with self.meter.counted():
                    self.sqs.delete_message_batch(
                        QueueUrl=queue_url,
                        Entries=[
                            {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]}
                            for n, m in enumerate(messages)
                        ],
                    )

    def create_village(self) -> str:
        with self.meter.invocation():  # the tick at 03:00 JST: no opening long village
            village_id = scheduler.ensure_long_village(self.now, random.Random(self.seed))
        assert village_id is not None
        return village_id

    def at(self, moment: datetime, action: Callable[[], Any]) -> None:
        self.run_until(moment)
        self.now = moment
        action()


def _tick(meter: Meter, moment: datetime) -> None:
    """The minute tick's Lambda. Its hourly new-village check is left out: that is the next
    game's cost, charged to it at its creation."""
    no_new_village = mock.patch.object(scheduler, "ensure_long_village", return_value=None)
    with no_new_village, meter.invocation():
        app_module.tick(_scheduled_event(moment), None)


def _minute(moment: datetime, up: bool) -> datetime:
    floor = moment.replace(second=0, microsecond=0)
    return floor + timedelta(minutes=1) if up and floor < moment else floor


def _scheduled_event(moment: datetime) -> dict:
    return {
        "version": "0",
        "id": "bench",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": DEFAULT_ACCOUNT_ID,
        "time": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{DEFAULT_ACCOUNT_ID}:rule/tick"],
        "detail": {},
    }


def _sqs_event(messages: list[dict]) -> dict:
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": {},
                "messageAttributes": {},
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": f"arn:aws:sqs:{REGION}:{DEFAULT_ACCOUNT_ID}:bench",
                "awsRegion": REGION,
            }
            for m in messages
        ]
    }


# ----- play -----


def _spread(rng: random.Random, start: datetime, end: datetime, count: int) -> list[datetime]:
    span = int((end - start).total_seconds())
    return sorted(start + timedelta(seconds=rng.randrange(span)) for _ in range(count))


def _text(rng: random.Random) -> str:
    return rng.choice(TEXTS)


def choices_of(slot: str, victim: str, game: Any) -> dict[str, str]:
    """A slot's choices for a night in which ``victim`` is judged and attacked, and no one
    else dies: guards guard someone else, the assassin waits."""
    living = game.living()
    oni = [s for s in living if game.sides[s] is Side.ONI]
    attacker = next((s for s in oni if s != victim), victim)
    others = [s for s in living if s not in (slot, victim)]
    wanted = {
        "pray": victim if victim != slot else others[0],
        "divine": others[0] if others else victim,
        "guard": others[-1] if others else victim,
        "attack": victim,
        "attacker": attacker,
    }
    return {k: t for k, t in wanted.items() if t in game.legal_targets(slot, k)}


def one_tap_token(address: str, day: int, now: datetime) -> str | None:
    """A one-tap prayer link from the member's last mail of the day (its HTML part)."""
    for message in reversed(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages):
        if address not in message.destinations:
            continue
        parsed = message_from_string(message.raw_data)
        for part in parsed.walk():
            if part.get_content_type() != "text/html":
                continue
            page = part.get_payload(decode=True).decode("utf-8")
            for token in re.findall(r"/m/([A-Za-z0-9_\-.]+)", page):
                link = read_member_token(token, now)
                if link is not None and link.day == day and link.key == "pray":
                    return token
        return None
    return None


def play(days: int, memory: int, seed: int = 14) -> tuple[Usage, dict[str, Any]]:
    """Plays one game from the village's creation to its close; returns its usage (the
    shared part included) and what it counted."""
    with metering(memory) as meter:
        sqs = boto3.client("sqs", region_name=REGION)
        queues = {
            name: sqs.create_queue(QueueName=queue)["QueueUrl"]
            for name, queue in (("advance", jobs.QUEUE_NAME), ("mail", jobs.MAIL_QUEUE_NAME))
        }
        urls = {"MOBIUS_QUEUE_URL": queues["advance"], "MOBIUS_MAIL_QUEUE_URL": queues["mail"]}
        with mock.patch.dict("os.environ", urls):
            game = Game(meter, queues, seed)
            players = _accounts(game.now)
            village_id = game.create_village()
            phones = {a: Phone(game, a) for a in players}
            slots = _opening(game, village_id, phones)
            for day in range(1, days + 1):
                _day(game, village_id, phones, slots, day, days)
            record = load_village(village_id)
            assert record is not None and record.state.value == "ended", record and record.state
            game.run_until(game.now + timedelta(hours=1))
        empty = _empty_tick(meter)
    minutes = (game.now - game.started) / timedelta(minutes=1)
    shared = empty.scaled(minutes / VILLAGES_SHARING_THE_TICK)
    shared.sqs_requests += minutes * IDLE_POLLS_A_MINUTE / VILLAGES_SHARING_THE_TICK
    usage = meter.usage + shared
    counts = {
        "http_requests": meter.usage.http_requests,
        "lambda_invocations": round(usage.lambda_invocations),
        "dynamodb_requests": sum(
            n for name, n in meter.requests.items() if name.startswith("dynamodb:")
        ),
        "rru": round(usage.rru),
        "wru": round(usage.wru),
        "wru_by_item": dict(meter.wru_by_item.most_common()),  # table and index writes
        "mails": meter.usage.mails,
        "kb_out": round(usage.bytes_out / 1024),
        "ticks_due": game.ticks_run,
        # The minute tick and the poller's idle polls, at 1/VILLAGES_SHARING_THE_TICK.
        "shared_dollars": round(cost(shared)["total"], 5),
    }
    return usage, counts


def _empty_tick(meter: Meter) -> Usage:
    """One tick with nothing due, as a usage (what every minute costs the whole service)."""
    before = meter.usage
    meter.usage = Usage()
    try:
        _tick(meter, datetime(2027, 6, 1, tzinfo=UTC))
        return meter.usage
    finally:
        meter.usage = before


def _accounts(now: datetime) -> list[str]:
    """Thirteen verified accounts (registering is not a game's cost: it is not metered)."""
    return verified_accounts("player", 13, now, PASSWORD)


def _opening(game: Game, village_id: str, phones: dict[str, Phone]) -> dict[str, str]:
    """Members join over the first hours, talk, and come back before the start."""
    rng = game.rng
    record = load_village(village_id)
    assert record is not None and record.next_update is not None
    start = record.next_update
    page = f"/villages/{village_id}"
    slots = {}
    events: list[tuple[datetime, Callable[[], Any]]] = []
    for n, (account, phone) in enumerate(phones.items()):
        joined = game.now + timedelta(hours=1, minutes=40 * n)
        slots[account] = SLOTS[n]

        def join(phone: Phone = phone, n: int = n) -> None:
            phone.get("/login")
            phone.post("/login", {"account_id": phone.account_id, "password": PASSWORD})
            phone.get(page)
            phone.post(f"{page}/join", {"slot": SLOTS[n], "persona": YAMAZATO[n].key})

        events.append((joined, join))
        for moment in _spread(rng, joined + timedelta(minutes=15), joined + timedelta(hours=4), 2):
            events.append((moment, _poster(phone, page, "public", rng)))
        back = _spread(rng, start - timedelta(hours=14), start - timedelta(minutes=30), 6)
        for moment in back[:4]:
            events.append((moment, _viewer(phone, page)))
        for moment in back[4:]:
            events.append((moment, _poster(phone, page, "public", rng)))
    for moment, action in sorted(events, key=lambda e: e[0]):
        game.at(moment, action)
    game.run_until(start + timedelta(minutes=1))
    game.now = start + timedelta(minutes=1)
    return slots


def _viewer(phone: Phone, page: str) -> Callable[[], Any]:
    return lambda: phone.get(page)


def _poster(phone: Phone, page: str, board: str, rng: random.Random) -> Callable[[], Any]:
    text = _text(rng)
    return lambda: phone.post(f"{page}/posts", {"board": board, "text": text})


def _saver(phone: Phone, page: str, choices: dict[str, str]) -> Callable[[], Any]:
    return lambda: phone.post(f"{page}/actions", choices)


def _one_tap(game: Game, phone: Phone, address: str, day: int) -> Callable[[], Any]:
    def tap() -> None:
        token = one_tap_token(address, day, game.now)
        assert token is not None, f"no one-tap link for {address} on day {day}"
        phone.get(f"/m/{token}")
        phone.post(f"/m/{token}", {})

    return tap


def _day(
    game: Game,
    village_id: str,
    phones: dict[str, Phone],
    slots: dict[str, str],
    day: int,
    days: int,
) -> None:
    """One day from its morning to the next update (the last day: the ending, then the close)."""
    rng = game.rng
    record = load_village(village_id)
    assert record is not None and record.next_update is not None
    morning, update_at = game.now, record.next_update
    page = f"/villages/{village_id}"
    events: list[tuple[datetime, Callable[[], Any]]] = []
    if day == days:
        assert record._meta.state == "ending", (day, record._meta.state)
        for phone in phones.values():
            span = (morning + timedelta(minutes=5), update_at - timedelta(minutes=30))
            for moment in _spread(rng, *span, ENDING_VIEWS):
                events.append((moment, _viewer(phone, page)))
            for moment in _spread(rng, *span, ENDING_POSTS):
                events.append((moment, _poster(phone, page, "public", rng)))
    else:
        game_state = record.game
        assert game_state.day == day and record._meta.state == "running", (day, record._meta.state)
        victim = victims(days)(game_state.sides)[day - 1]
        living = [a for a in phones if slots[a] in game_state.living()]
        late = set(rng.sample(living, LATE_SAVERS_A_DAY))
        tapping = set(rng.sample([a for a in living if a not in late], QUICK_LINKS_A_DAY))
        deadline = morning + DAY
        for account, phone in phones.items():
            slot = slots[account]
            if account not in living:
                for moment in _spread(rng, morning, deadline, DEAD_VIEWS):
                    events.append((moment, _viewer(phone, page)))
                if game_state.sides[slot] is not Side.HUMAN:  # the dead oni side still votes
                    choices = choices_of(slot, victim, game_state)
                    events.append((morning + timedelta(hours=2), _saver(phone, page, choices)))
                continue
            day_span = (morning + timedelta(minutes=5), deadline - timedelta(minutes=10))
            for moment in _spread(rng, *day_span, VIEWS):
                events.append((moment, _viewer(phone, page)))
            oni_side = game_state.sides[slot] is not Side.HUMAN
            for n, moment in enumerate(_spread(rng, *day_span, POSTS)):
                board = "oni" if oni_side and n % 2 else "public"
                events.append((moment, _poster(phone, page, board, rng)))
            reminder = deadline - REMINDER_LEAD
            save_span = (
                (reminder + timedelta(minutes=5), deadline - timedelta(minutes=10))
                if account in late
                else (morning + timedelta(minutes=5), reminder - timedelta(minutes=10))
            )
            saves = _spread(rng, *save_span, SAVES)
            choices = choices_of(slot, victim, game_state)
            for n, moment in enumerate(saves):
                if n == 0 and account in tapping:
                    address = f"player{list(phones).index(account)}@example.jp"
                    events.append((moment, _one_tap(game, phone, address, day)))
                else:
                    events.append((moment, _saver(phone, page, choices)))
    for moment, action in sorted(events, key=lambda e: e[0]):
        game.at(moment, action)
    game.run_until(update_at + timedelta(minutes=1))
    game.now = update_at + timedelta(minutes=1)
    after = load_village(village_id)
    assert after is not None
    if day < days:
        assert victim in after.game.deaths and len(after.game.deaths) == day, after.game.deaths


def figures() -> dict[str, Any]:
    fake_aws()
    memory = memory_mb()
    result: dict[str, Any] = {
        "memory_mb": memory,
        "mail_worker_memory_mb": memory_mb("mail_worker"),
        "mail_pace_per_worker": MAIL_PACE,
        "villages_sharing_the_tick": VILLAGES_SHARING_THE_TICK,
    }
    for days in (7, 12):
        with _fresh_aws():
            usage, counts = play(days, memory)
        dollars = cost(usage)
        result[f"game_{days}_days"] = round(dollars["total"], 4)
        result[f"game_{days}_days_by_service"] = {
            k: round(v, 5) for k, v in dollars.items() if k != "total"
        }
        result[f"game_{days}_days_counts"] = counts
    return result


@contextmanager
def _fresh_aws() -> Iterator[None]:
    with mock_aws(), like_dynamodb(), one_backup_per_transaction():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=SENDER)
        try:
            yield
        finally:
            runtime.set_clock(runtime.system_clock)
