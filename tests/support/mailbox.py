"""Builders and checks of the mail suites: seat a village, tick the scheduler through
time, and tell what a member's mail may say (RULES §5, §8) from the game's full truth."""

import html
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode, urlparse

from chalicelib import effects, links, runtime, signing
from chalicelib.notify.notices import IDLE_WARNING_SUBJECT
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS, is_oni_side
from chalicelib.rulesets.base import Viewer
from chalicelib.rulesets.mobius.labels import SIDE_LABELS, SLOT_LABELS, VERDICT_LABELS
from chalicelib.rulesets.mobius.visibility import private
from chalicelib.services import scheduler, villages
from chalicelib.services.unit import Unit
from chalicelib.storage.keys import outbox_index_key, outbox_index_sk, outbox_pk, outbox_sk
from chalicelib.storage.models import OutboxItem
from chalicelib.storage.repository import VillageRecord

from .mail import Mail, sent_mails

URL = re.compile(r"https://mobius\.example/[A-Za-z0-9_\-./?=]+")


def seat(village_id: str, accounts: list[str], clock, slots=SLOTS) -> dict[str, str]:
    """Each account joins the next slot; returns slot -> account."""
    seated = {}
    for account, slot in zip(accounts, slots, strict=False):
        villages.join(village_id, account, slot, YAMAZATO[SLOTS.index(slot)].key, clock())
        seated[slot] = account
    return seated


def tick(clock, rng) -> scheduler.TickReport:
    """One scheduler tick at the clock's time, what it owes sent as the deployed app sends
    it (inline here: no queues)."""
    with effects.sent_after(Unit()) as unit:
        return scheduler.tick(clock(), rng, unit)


def tick_until(clock, rng, until: datetime, step=timedelta(minutes=5)) -> None:
    """Ticks every ``step`` from now until ``until`` (inclusive), moving the clock."""
    while clock() + step <= until:
        clock.advance(step)
        tick(clock, rng)
    if clock() < until:
        clock.now = until
        tick(clock, rng)


def touch_all(village_id: str, seated: dict[str, str], clock) -> None:
    for account in seated.values():
        villages.touch(village_id, account, clock())


class MailBox:
    """The mails moto's SES has sent since the last look."""

    def __init__(self) -> None:
        self.seen = 0

    def new(self) -> list[Mail]:
        mails = sent_mails()
        fresh = mails[self.seen :]
        self.seen = len(mails)
        return fresh


def split_idle_warnings(mails: list[Mail]) -> tuple[list[Mail], list[Mail]]:
    """The mails other than idle warnings, and the idle warnings (decision 140): a member who
    looked in at a day's first minute and not since is warned before the next update."""
    warned = [m for m in mails if m.subject.endswith(IDLE_WARNING_SUBJECT)]
    return [m for m in mails if m not in warned], warned


def account_of(mail: Mail) -> str:
    return mail.to.split("@")[0]


def names_of(record: VillageRecord) -> dict[str, str]:
    return record.names()


def links_in(text: str) -> list[str]:
    return URL.findall(text)


def path_of(url: str) -> str:
    return urlparse(url).path


def member_links(mail: Mail) -> dict[tuple[str | None, str | None], str]:
    """The /m/ paths of a mail by (key, target); (None, None) is the personal link.

    The text part carries the personal link only; the one-tap links are in the HTML part."""
    found = {}
    for url in links_in(mail.text) + links_in(mail.html):
        if "/m/" in url:
            link = links.read_member_token(path_of(url)[3:], links.runtime.now())
            found[(link.key, link.target)] = path_of(url)
    return found


def seer(running) -> tuple[str, str, str]:
    """A living seer's (village, account, slot), in the mail suite's ``running`` village."""
    village, seated, _ = running
    return village, seated["seer_a"], "seer_a"


# ----- what a member's mail may say -----


@dataclass(frozen=True)
class Secrets:
    """Every private fact of one slot, as the notice templates word it."""

    side: str
    facts: frozenset[str]


def secrets_of(game, names: dict[str, str], slot: str) -> Secrets:
    """What ``slot`` alone may read by mail (its visibility.private), in the mail's words."""
    mine = private(game, Viewer(account_id="x", slot=slot))
    facts = set()
    for s, side in mine.placement.items():
        facts.add(f"{names[s]}（{SIDE_LABELS[side]}）")
    for seer, target in mine.random_targets.items():
        facts.add(f"{SLOT_LABELS[seer]}→{names[target]}")
    if mine.random_divination:
        r = mine.random_divination
        facts.add(f"初日ランダム占い: {names[r['target']]}は「{VERDICT_LABELS[r['verdict']]}」")
    if mine.empathy:
        r = mine.empathy
        facts.add(f"共感: {names[r['target']]}は「{VERDICT_LABELS[r['verdict']]}」")
    for r in mine.results.values():
        facts.add(f"あなたの結果: {names[r['target']]}は「{VERDICT_LABELS[r['verdict']]}」")
    for dm in mine.dms.values():
        facts.add(f"{names[dm['from']]}のダイイングメッセージ: 「{names[dm['names']]}」")
    if mine.killer:
        facts.add(f"相手は {names[mine.killer['slot']]}")
    return Secrets(side=SIDE_LABELS[mine.side], facts=frozenset(facts))


def news_of(game, names: dict[str, str], slot: str, day: int) -> set[str]:
    """The private news of the morning of ``day`` for ``slot``, in the mail's words."""
    mine = private(game, Viewer(account_id="x", slot=slot))
    news = set()
    if day in mine.results:
        r = mine.results[day]
        news.add(f"あなたの結果: {names[r['target']]}は「{VERDICT_LABELS[r['verdict']]}」")
    if day in mine.dms:
        dm = mine.dms[day]
        news.add(f"{names[dm['from']]}のダイイングメッセージ: 「{names[dm['names']]}」")
    if mine.killer and mine.killer["day"] == day:
        news.add(f"相手は {names[mine.killer['slot']]}")
    return news


def assert_tells_nothing_of_others(
    mail: Mail, record: VillageRecord, slot: str, ending: bool = False
) -> None:
    """The mail holds none of another member's private facts that ``slot`` does not share.

    Checked against the game's full truth: every other slot's private facts (sides in the
    oni placement's wording, random targets, results, DMs, killers). ``ending``: the ending
    mail, which lists every side (RULES §2.5: everything is open then)."""
    game = record.game
    names = names_of(record)
    mine = secrets_of(game, names, slot)
    for body in (mail.joined, mail.html):  # joined: a fact cut across two lines counts too
        for other in SLOTS:
            if other == slot:
                continue
            for fact in secrets_of(game, names, other).facts - mine.facts:
                assert fact not in body, (slot, other, fact)
        if not is_oni_side(game.sides[slot]):
            assert "鬼サイドの配置" not in body
            assert "ランダム占い先" not in body
            for s in SLOTS:
                if s != slot:  # no other slot's side in any wording
                    for label in SIDE_LABELS.values():
                        assert f"{names[s]}（{label}）" not in body
                        assert ending or f"{names[s]}: {label}" not in body


def facts_in(mail: Mail, record: VillageRecord, slot: str) -> set[str]:
    """Which of ``slot``'s own private facts the mail's text states."""
    mine = secrets_of(record.game, names_of(record), slot)
    return {fact for fact in mine.facts if fact in mail.joined}


# ----- the app through Chalice's test client -----

CSRF_INPUT = re.compile(r'name="csrf" value="([^"]*)"')
ALERT = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.S)


class Phone:
    """One person's browser: one session cookie, the CSRF token of the last page."""

    def __init__(self, client) -> None:
        self.client = client
        self.cookie: str | None = None
        self.csrf: str | None = None

    def _keep(self, response):
        cookie = header(response, "Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        match = CSRF_INPUT.search(body_of(response))
        if match:
            self.csrf = html.unescape(match.group(1))
        return response

    def get(self, path: str):
        headers = {"cookie": self.cookie} if self.cookie else {}
        return self._keep(self.client.http.get(path, headers=headers))

    def post(self, path: str, form: dict[str, str] | None = None, csrf: bool = True):
        data = dict(form or {})
        if csrf and self.csrf:
            data.setdefault("csrf", self.csrf)
        headers = {"content-type": "application/x-www-form-urlencoded"}
        if self.cookie:
            headers["cookie"] = self.cookie
        return self._keep(self.client.http.post(path, headers=headers, body=urlencode(data)))


def header(response, name: str) -> str | None:
    return next((v for k, v in response.headers.items() if k.lower() == name.lower()), None)


def body_of(response) -> str:
    return response.body.decode("utf-8") if response.body else ""


def alert(response) -> str:
    match = ALERT.search(body_of(response))
    assert match, f"no message on the page (status {response.status_code})"
    return html.unescape(match.group(1)).strip()


def session_account(response) -> str | None:
    """Whom the session cookie a response sets is logged in as."""
    cookie = header(response, "Set-Cookie")
    assert cookie, "no session cookie"
    token = cookie.split(";", 1)[0].split("=", 1)[1]
    payload = signing.unsign("session", token, runtime.now())
    return payload["a"]


def owe_morning_mail(village_id: str, at: datetime) -> None:
    """A morning mail owed since ``at`` (to nobody real): an item in the village's outbox
    shard, as a step writes it."""
    OutboxItem(
        outbox_pk(village_id),
        outbox_sk(1, "morning", "nobody"),
        village_id=village_id,
        day=1,
        mail_kind="morning",
        account_id="nobody",
        status="pending",
        attempts=0,
        created_at=at,
        gsi1pk=outbox_index_key(village_id),
        gsi1sk=outbox_index_sk(at, village_id),
    ).save()
