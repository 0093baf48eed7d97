"""A correspondence game (1手1日) played only from the links in the mail each player receives
(issue 25): each player's phone has nobody logged in; a turn's mail (or its reminder) is
opened by its signed link, and the player moves from the page that link opens, as many moves
as are theirs in a row. A reminder comes before a deadline; a deadline missed loses, and the
end's mail opens the revealed board. The mail is read as a person running ``make run`` reads
it: on the local runner's /dev/outbox page (devserver's own dev tools, which collect what SES
sent), its links followed from there."""

import html
import random
import re
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlparse

import pytest

from chalicelib import runtime
from chalicelib.rules.duel import Duel
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from devserver.__main__ import LocalVillage
from tests.support.clients import text
from tests.support.matches import worker_look
from tests.web.test_match_mail import PASS_LINK, two_people
from tests.web.test_matches import play_json, stored

MOVES_FIELD = re.compile(r'name="moves" value="(\d+)"')
MOST_MOVES = 400
OUTBOX_CARD = re.compile(
    r'<details class="card">\s*<summary><strong>(?P<subject>.*?)</strong><br>'
    r'<span class="muted">(?P<to>.*?)・.*?</span></summary>\s*'
    r'<pre class="mail-body">(?P<body>.*?)</pre>',
    re.S,
)


@pytest.fixture(autouse=True)
def local_runner():
    """The local runner's dev tools (devserver.LocalVillage), as ``make run`` lends them."""
    runtime.set_dev_tools(LocalVillage({}, "local", []))
    yield
    runtime.set_dev_tools(None)


@dataclass(frozen=True)
class OutboxMail:
    """One mail as the /dev/outbox page shows it: its subject, its text, its clickable links."""

    subject: str
    to: str
    text: str
    links: tuple[str, ...]


def outbox(phone) -> list[OutboxMail]:
    """Every mail on the /dev/outbox page, oldest first (the page lists the newest first)."""
    page = phone.get("/dev/outbox")
    assert page.status_code == 200
    found = [
        OutboxMail(
            html.unescape(card["subject"]),
            html.unescape(card["to"]),
            html.unescape(re.sub(r"<[^>]+>", "", card["body"])),
            tuple(html.unescape(h) for h in re.findall(r'href="([^"]+)"', card["body"])),
        )
        for card in OUTBOX_CARD.finditer(text(page))
    ]
    return found[::-1]


class Player:
    """A person with a phone on which nobody is logged in, who acts only from their mail."""

    def __init__(self, name: str, side: str, phone) -> None:
        self.name, self.side, self.phone = name, side, phone
        self.read = 0  # mails already opened

    def new_mail(self) -> list[OutboxMail]:
        """The player's mail not yet read, as the /dev/outbox page shows it."""
        mails = [m for m in outbox(self.phone) if m.to == f"{self.name}@example.jp"]
        fresh, self.read = mails[self.read :], len(mails)
        return fresh

    def open_link(self, mail: OutboxMail) -> str:
        """Taps the mail's link on the outbox page; returns the page it lands on."""
        link = next((h for h in mail.links if PASS_LINK.fullmatch(h)), None)
        assert link, mail.text
        response = self.phone.get(urlparse(link).path)
        assert response.status_code == 303, text(response)
        return text(self.phone.get(response.headers["Location"]))

    def move(self, match_id: str, rng: random.Random) -> None:
        page = text(self.phone.get(f"/matches/{match_id}"))
        assert "あなたの番" in page, page
        shown = MOVES_FIELD.search(page)
        assert shown
        duel = Duel.from_json(stored(match_id).game)  # the test's player thinks with it
        move = random_player({}, legal_moves(duel, self.side), rng)
        response = play_json(self.phone, match_id, move, moves=int(shown.group(1)))
        assert response.status_code == 303, text(response)


def worker_looks(match_id: str, clock) -> bool:
    """The worker's delayed look (decision 49) at the game as it is now."""
    moves = stored(match_id).moves
    return worker_look(match_id, moves, clock())


def play_by_mail(browser, new_browser, clock, preset_rng: str):
    match_id, _ = two_people(browser, new_browser, clock, control="day")
    players = {
        "A": Player("alice", "A", new_browser()),
        "B": Player("bob", "B", new_browser()),
    }
    return match_id, players, random.Random(preset_rng)


def test_a_whole_correspondence_game_is_played_from_the_mails_links_only(
    browser, new_browser, clock
):
    match_id, players, rng = play_by_mail(browser, new_browser, clock, "by-mail")
    reminded = False
    for _ in range(MOST_MOVES):
        waited = False
        item = stored(match_id)
        if item.state == "ended":
            break
        side = Duel.from_json(item.game).phase[0]
        player = players[side]
        other = players["B" if side == "A" else "A"]
        assert other.new_mail() == []  # the side waiting was not mailed
        mails = player.new_mail()
        if not reminded and mails and item.moves >= 6:
            # This time the player lets the turn wait until the reminder comes.
            clock.advance(timedelta(hours=21, minutes=5))
            worker_looks(match_id, clock)
            [reminder] = player.new_mail()
            assert reminder.subject.endswith("〆切が近づいています")
            mails.append(reminder)
            reminded = waited = True
        for mail in mails:
            assert "あなたの番" in mail.text or "〆切" in mail.text
        if mails:
            page = player.open_link(mails[-1])
            assert "リンクで参加中" in page
        # A day per move: the player comes back within it, some hours later.
        clock.advance(timedelta(hours=1 if waited else rng.choice([1, 6, 11])))
        assert not worker_looks(match_id, clock)
        player.move(match_id, rng)
    item = stored(match_id)
    assert item.state == "ended" and reminded
    ending = Duel.from_json(item.game).ending
    assert ending["at"] in ("execution", "morning")  # a §7 victory, not a forfeit
    # The end is mailed to the one who did not make the last move; its link shows everything.
    last = item.moves
    for player in players.values():
        for mail in player.new_mail():
            assert mail.subject.endswith("対局が終わりました")
            assert "感想戦" in player.open_link(mail)
    assert stored(match_id).moves == last


def test_a_missed_deadline_loses_and_both_are_mailed_from_the_worker(browser, new_browser, clock):
    match_id, players, rng = play_by_mail(browser, new_browser, clock, "missed")
    alice, bob = players["A"], players["B"]
    [turn] = alice.new_mail()
    alice.open_link(turn)
    clock.advance(timedelta(hours=3))
    alice.move(match_id, rng)  # a question: bob must answer
    [turn] = bob.new_mail()
    assert "〆切" in turn.text
    clock.advance(timedelta(hours=21, minutes=30))  # bob does not come
    assert not worker_looks(match_id, clock)
    [reminder] = bob.new_mail()
    assert "〆切が近づいています" in reminder.subject
    clock.advance(timedelta(hours=2, minutes=31))  # past the day
    assert worker_looks(match_id, clock)
    ending = Duel.from_json(stored(match_id).game).ending
    assert ending["at"] == "time" and ending["by"] == "B"
    [lost] = bob.new_mail()
    [won] = alice.new_mail()
    assert "あなたの負け" in lost.text and "あなたの勝ち" in won.text
    # The turn's link has expired with its deadline; the end's opens the revealed board.
    expired = bob.phone.get(urlparse(PASS_LINK.search(turn.text).group(0)).path)
    assert expired.status_code == 400 and "/login?next=/matches/" in text(expired)
    assert "感想戦" in bob.open_link(lost) and "時間切れ" in alice.open_link(won)


def test_a_newer_link_renews_the_phones_way_in_past_the_older_links_deadline(
    browser, new_browser, clock
):
    match_id, players, rng = play_by_mail(browser, new_browser, clock, "renew")
    alice, bob = players["A"], players["B"]
    [first] = alice.new_mail()  # its link ends with this turn's deadline, a day from now
    alice.open_link(first)
    clock.advance(timedelta(hours=1))
    alice.move(match_id, rng)
    bob.open_link(bob.new_mail()[0])
    clock.advance(timedelta(hours=1))
    bob.move(match_id, rng)
    [second] = alice.new_mail()
    alice.open_link(second)  # the same phone: its way in is opened again, for longer
    clock.advance(timedelta(hours=23))  # past the first link's deadline
    alice.move(match_id, rng)
    # The first link has expired; on a phone that plays the game it just opens the board.
    stale = alice.phone.get(urlparse(PASS_LINK.search(first.text).group(0)).path)
    assert stale.status_code == 303 and stale.headers["Location"] == f"/matches/{match_id}"
