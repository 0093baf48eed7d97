"""Secrecy of classic villages (RULES-CLASSIC §6) as a property over seeded games.

Seeded games of 5, 9 and 13 players (the heaven option on and off) are played with random
legal votes and night choices, a sudden death, and marker texts written on every board by every
member whenever the rules let them write there. At two moments — in the game and in the
epilogue — every viewer (each member alive or dead, whatever their role; a logged-in
non-member; a visitor) opens the village page for every board and day, and every mail sent is
read. A page may show a marker only when §6 lets that viewer read its board; a member's roles
list, private news and mail hold only what is theirs. The expectations are written from the rule
book, not from the rule set's visibility module.
"""

import contextlib
import email
import random
import re
from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import NPC
from chalicelib.services import actions, outbox, posts, update, villages
from chalicelib.services.errors import ServiceError
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.clients import Browser, session_cookie, text
from tests.support.mail import sent_messages

BOARDS = ("public", "wolves", "masons", "monologue", "heaven")
ROLE_WORDS = {
    "villager": "村人",
    "seer": "占い師",
    "medium": "霊能者",
    "hunter": "狩人",
    "mason": "共有者",
    "werewolf": "人狼",
    "madman": "狂人",
    "fox": "妖狐",
}
PARTNER_ROLE = {"wolves": "werewolf", "masons": "mason"}
MARKER = re.compile(r"MK\d+Z")
GAMES = ((5, True, 3), (9, False, 41), (13, True, 2026))


@dataclass
class Play:
    vid: str
    rng: random.Random
    accounts: list[str]
    hsa: bool
    markers: dict[str, tuple[str, str]] = field(default_factory=dict)  # text -> (board, writer)

    def record(self):
        return load_village(self.vid)

    def seat(self, account: str) -> str | None:
        return self.record().slot_of(account)

    roles: dict[str, str] = field(default_factory=dict)
    deaths: set[str] = field(default_factory=set)

    def look(self) -> None:
        """Who is what and who is dead, as stored now (read once per check)."""
        record = self.record()
        game = record.game
        self.roles, self.deaths = {}, set()
        for account in self.accounts:
            seat = record.slot_of(account)
            character = next((c for c, s in game.seats.items() if s == seat), None)
            if character is not None:
                self.roles[account] = game.village.roles[character].value
                if character in game.village.deaths:
                    self.deaths.add(account)

    def role(self, account: str) -> str | None:
        return self.roles.get(account)

    def dead(self, account: str) -> bool:
        return account in self.deaths


def write_everywhere(play: Play, clock) -> None:
    """Every member tries every board; what the rules allow is written (and remembered)."""
    for account in play.accounts:
        for board in BOARDS:
            marker = f"MK{len(play.markers)}Z"
            try:
                posts.post(play.vid, account, board, f"{marker} {board}", clock())
            except ServiceError:
                continue
            play.markers[marker] = (board, account)
    clock.now += timedelta(seconds=6)  # the next post of each member is allowed


def act(play: Play, clock, *, silent: str | None) -> None:
    """Random legal votes (``silent`` does not vote) and night choices for everyone alive."""
    record = play.record()
    game = record.game
    engine = game.village
    if engine is None or engine.ending is not None:
        return
    for character in engine.living():
        if character == NPC:
            continue
        seat = game.seats[character]
        account = record.seats()[seat].account_id
        data: dict[str, str] = {}
        if engine.voting and character in engine.voters() and account != silent:
            targets = engine.vote_targets(character)
            data["vote"] = game.seats.get(play.rng.choice(targets), "npc")
        for ability in engine.choice_keys(character):
            targets = [t for t in engine.choice_targets(character, ability) if t != NPC]
            if targets:
                data[ability.value] = game.seats[play.rng.choice(targets)]
        if data:
            with contextlib.suppress(ServiceError):  # the round closed early meanwhile
                actions.save_actions(play.vid, account, data, clock())
        record = play.record()
        game = record.game
        engine = game.village
        if engine.ending is not None:
            return


def step(play: Play, clock) -> None:
    record = play.record()
    if record.next_update is not None and record.next_update > clock():
        clock.now = record.next_update
    update.advance(play.vid, clock())
    outbox.deliver(clock())


def may_read(play: Play, board: str, writer: str, viewer: str | None, epilogue: bool) -> bool:
    """RULES-CLASSIC §6, from the rule book."""
    if epilogue or board == "public":
        return True
    if viewer is None or viewer not in play.accounts:
        return False
    dead = play.dead(viewer)
    if board == "monologue":
        return writer == viewer or (dead and play.hsa)
    if board == "heaven":
        return dead
    return play.role(viewer) == PARTNER_ROLE[board] or (dead and play.hsa)


def viewers(play: Play, client, clock, outsider: str) -> dict[str | None, Browser]:
    out: dict[str | None, Browser] = {None: Browser(client)}
    for account in [*play.accounts, outsider]:
        b = Browser(client)
        b.cookie = session_cookie(account, clock())
        out[account] = b
    return out


def check_pages(play: Play, client, clock, outsider: str) -> None:
    play.look()
    record = play.record()
    epilogue = record.state.value in ("ending", "ended")
    days = range(record.day + 1)
    everyone = viewers(play, client, clock, outsider)
    if epilogue:  # everything is open to everyone: the visitor, one member and the outsider
        everyone = {v: b for v, b in everyone.items() if v in (None, outsider, play.accounts[0])}
    for viewer, browser in everyone.items():
        member = viewer in play.accounts
        for board in BOARDS:
            for day in days:
                page = text(browser.get(f"/villages/{play.vid}", board=board, day=day))
                for marker in MARKER.findall(page):
                    written_on, writer = play.markers[marker]
                    assert may_read(play, written_on, writer, viewer, epilogue), (
                        viewer,
                        board,
                        day,
                        marker,
                        written_on,
                    )
        page = text(browser.get(f"/villages/{play.vid}"))
        members = page.split('<section id="members">')[-1]
        # The full record and the cast table (issue 23): everyone's once the game is over,
        # nobody's before; a night's cause of death only for those who see every role.
        for day in days:
            shown = text(browser.get(f"/villages/{play.vid}", day=day))
            assert ("全記録" in shown) == epilogue, (viewer, day)
            assert ('<section id="cast"' in shown) == epilogue, (viewer, day)
        causes_shown = "の夜に襲撃" in members or "の夜に呪殺" in members
        assert causes_shown <= (epilogue or (member and play.dead(viewer) and play.hsa))
        shown_roles = sum(members.count(f"（{w}）") for w in ROLE_WORDS.values())
        if not member:
            assert "あなたの情報" not in page
            assert shown_roles == (len(play.accounts) if epilogue else 0)
            continue
        sees_all = epilogue or (play.dead(viewer) and play.hsa)
        assert shown_roles == (len(play.accounts) if sees_all else 1), (viewer, shown_roles)
        role = play.role(viewer)
        assert f"あなたは <strong>{ROLE_WORDS[role]}</strong> です" in page
        private = page.split('<section id="private"')[-1].split("</section>")[0]
        assert ("占い：" in private) <= (role == "seer")
        assert ("霊能：" in private) <= (role == "medium")
        assert ("護衛成功" in private) <= (role == "hunter")
        assert ("人狼に襲われましたが" in private) <= (role == "fox")
        assert ("仲間:" in private) <= (role in ("werewolf", "mason"))


def check_mail(play: Play) -> None:
    play.look()
    for message in sent_messages():
        parsed_to = email.message_from_string(message.raw_data)["To"]
        account = parsed_to.split("@")[0]
        if account not in play.accounts:
            continue
        role = play.role(account)
        parsed = email.message_from_string(message.raw_data)
        parts = [
            p.get_payload(decode=True).decode("utf-8")
            for p in parsed.walk()
            if p.get_content_type() in ("text/plain", "text/html")
        ]
        for part in parts:
            for word in ROLE_WORDS.values():
                if (
                    f"あなたの役職は「{word}」" in part
                    or f"あなたの役職は<strong>「{word}」" in part
                ):
                    assert word == ROLE_WORDS[role]
            assert ("占い：" in part) <= (role == "seer")
            assert ("霊能：" in part) <= (role == "medium")
            assert ("護衛成功" in part) <= (role == "hunter")
            assert ("仲間:" in part) <= (role in ("werewolf", "mason"))
            assert not MARKER.search(part)  # no board text ever goes by mail


@pytest.mark.parametrize(("players", "hsa", "seed"), GAMES)
def test_no_classic_page_or_mail_shows_what_section_6_keeps_from_the_viewer(
    client, clock, players, hsa, seed
):
    rng = random.Random(seed)
    accounts = [make_account(f"sc{seed % 1000:03d}x{i:02d}", clock()) for i in range(players)]
    outsider = make_account(f"out{seed % 1000:03d}", clock())
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short", name="秘密の村", rules="classic", given={"heaven_sees_all": hsa}
        ),
        now=clock(),
        rng=rng,
    )
    for n, account in enumerate(accounts):
        villages.join(vid, account, f"s{n + 1}", YAMAZATO[n].key, clock())
    play = Play(vid, rng, accounts, hsa)
    write_everywhere(play, clock)
    for account in accounts:
        actions.prologue(vid, account, "start", None, clock())
    assert play.record().state.value == "running"
    silent = accounts[-1]
    checked_mid_game = False
    for event in range(30):
        record = play.record()
        if record.state.value != "running":
            break
        write_everywhere(play, clock)
        act(play, clock, silent=silent if event >= 1 else None)
        silent = None if event >= 1 else silent
        if play.record().state.value != "running":
            break  # a round closed early ended the game
        step(play, clock)
        if not checked_mid_game and event >= 3 and play.record().state.value == "running":
            check_pages(play, client, clock, outsider)
            checked_mid_game = True
    assert play.record().state.value == "ending"
    write_everywhere(play, clock)
    check_pages(play, client, clock, outsider)
    check_mail(play)
