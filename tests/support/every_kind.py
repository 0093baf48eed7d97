"""Every kind of mail the system sends, made as it sends them (scheduler, outbox, SES on
moto): the Mobius notices, the classic notices (each reminder variant), the account mails,
the receipts of reply mail.

Shared by the mail format tests and the browser's axe run over every HTML part. Long
village names (30 Japanese characters) and account IDs (20 characters) stretch each line.
Needs moto's DynamoDB table, a verified SES sender and the runtime clock set to ``clock``.
"""

import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from chalicelib import effects
from chalicelib.inbound import message
from chalicelib.notify.notices import IDLE_WARNING_SUBJECT as WARNING
from chalicelib.rulesets.classic.ruleset import SUBJECTS as CLASSIC_SUBJECTS
from chalicelib.rulesets.duel.ruleset import SUBJECTS as DUEL_SUBJECTS
from chalicelib.rulesets.mobius import ruleset as mobius
from chalicelib.services import (
    account_mail,
    account_notices,
    actions,
    hosting,
    matches,
    puzzles,
    replies,
    villages,
)
from chalicelib.services.unit import Unit
from chalicelib.storage.puzzles import save_puzzle
from chalicelib.storage.repository import load_village
from tests.support import puzzle_days
from tests.support.accounts import make_account
from tests.support.classic_villages import account_of, join_all, living_seats, start
from tests.support.mail import Mail
from tests.support.mailbox import MailBox, seat, tick, tick_until, touch_all
from tests.support.once import once_per_run

VILLAGE_NAME = "春の終わりに集まった山里の人びとが鬼と人間を見分ける長い夜村"
LONG_ID = "long_account_id_{:04d}"  # 20 characters
PASSWORD = "correct horse battery"
# Each kind as "rule set:kind"; a classic reminder is either the vote's or the night's.
MOBIUS_KINDS = tuple(f"mobius:{kind}" for kind in mobius.SUBJECTS)
CLASSIC_KINDS = (
    *(f"classic:{kind}" for kind in CLASSIC_SUBJECTS if kind != "reminder"),
    "classic:reminder-vote",
    "classic:reminder-night",
)
ACCOUNT_KINDS = tuple(f"account:{kind}" for kind in account_notices.SUBJECTS)
DUEL_KINDS = tuple(f"duel:{kind}" for kind in DUEL_SUBJECTS)
# A reply mail's receipt: what was saved, refused and not understood; or why nothing was.
REPLY_KINDS = ("reply:applied", "reply:refused")
# A correspondence duel's confirmation of a reply: the move played, or why none was.
DUEL_REPLY_KINDS = ("duel_reply:applied", "duel_reply:refused")
PUZZLE_KINDS = ("puzzle:daily",)  # the daily puzzle to an account that asked for it
# The idle warning before an auto-departure (decision 140): a running Mobius village's, a
# classic prologue's.
IDLE_KINDS = ("mobius:idle_warning", "classic:idle_warning")
KINDS = (
    MOBIUS_KINDS
    + CLASSIC_KINDS
    + ACCOUNT_KINDS
    + DUEL_KINDS
    + REPLY_KINDS
    + DUEL_REPLY_KINDS
    + PUZZLE_KINDS
    + IDLE_KINDS
)

assert len(VILLAGE_NAME) == 30
assert len(LONG_ID.format(0)) == 20


def every_kind(clock, rng) -> dict[str, list[Mail]]:
    """kind -> the mails of that kind (a few seconds: three villages played)."""
    made: dict[str, list[Mail]] = {}
    box = MailBox()
    box.new()
    made.update(_mobius(clock, rng, box))
    made.update(_classic(clock, rng, box))
    made.update(_account(clock, box))
    made.update(_duel(clock, box))
    made.update(_puzzle(clock, box))
    made.update(_idle(clock, rng, box))
    return made


def made_once(clock, rng, factory: pytest.TempPathFactory) -> dict[str, list[Mail]]:
    """``every_kind``, made by the first test of the run that asks: the format, quoting and
    axe tests read the same mails, and each making cost some 20 s of a worker's time."""

    def make(folder: Path) -> None:
        raws = {kind: [m.raw for m in mails] for kind, mails in every_kind(clock, rng).items()}
        (folder / "mails.json").write_text(json.dumps(raws), encoding="utf-8")

    folder = once_per_run(factory, "every_kind", make)
    raws = json.loads((folder / "mails.json").read_text(encoding="utf-8"))
    return {kind: [Mail(raw) for raw in made] for kind, made in raws.items()}


def _mobius(clock, rng, box: MailBox) -> dict[str, list[Mail]]:
    made = {}
    players = [make_account(LONG_ID.format(n), clock()) for n in range(13)]
    village = villages.create_village(
        villages.AskedVillage(pace="short", name=VILLAGE_NAME), now=clock(), rng=rng
    )
    seated = seat(village, players, clock)
    begin = load_village(village)._meta.next_update
    clock.now = begin
    tick(clock, rng)
    made["mobius:start"] = box.new()
    made.update(_receipts(made["mobius:start"], clock, box))
    # Nobody saves: everyone living is reminded before the deadline.
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    clock.now = begin + timedelta(minutes=30)
    tick(clock, rng)
    made["mobius:reminder"] = box.new()
    clock.now = begin + mobius.TIMINGS[mobius.Pace.SHORT].turn
    tick(clock, rng)
    # The morning, and the idle warnings of members last seen at 1 min (decision 140).
    made["mobius:morning"] = [m for m in box.new() if WARNING not in m.subject]
    # The oni side declares victory by day: the ending.
    clock.advance(timedelta(minutes=2))
    game = load_village(village).game
    living = [s for s in game.sides if s not in game.deaths]
    for slot in [s for s in living if game.sides[s] in ("oni", "madman")][:3]:
        actions.save_actions(village, seated[slot], {"victory": slot}, clock())
    assert load_village(village)._meta.state == "ending"
    tick(clock, rng)
    made["mobius:ending"] = box.new()
    # Another village, abandoned by the GM before it starts.
    others = [make_account(LONG_ID.format(n), clock()) for n in range(20, 25)]
    lonely = villages.create_village(
        villages.AskedVillage(pace="short", name=VILLAGE_NAME), now=clock(), rng=rng
    )
    seat(lonely, others, clock)
    hosting.abandon(lonely, "人数が集まらないため", "cli:test", clock())
    clock.advance(timedelta(minutes=1))
    tick(clock, rng)
    made["mobius:abandoned"] = box.new()
    return made


def _receipts(start: list[Mail], clock, box: MailBox) -> dict[str, list[Mail]]:
    """A member replies to their start mail (a saved line, a refused one, one not understood),
    then to another member's: each gets its receipt."""
    first, second = start[0], start[1]
    text = "祈り なし\n占い 庶民A\nよろしくお願いします"
    replies.receive(
        message.as_sent_by(first.to, first.message["Reply-To"], text, clock()), clock(), Unit()
    )
    applied = box.new()
    foreign = message.as_sent_by(first.to, second.message["Reply-To"], "祈り なし", clock())
    replies.receive(foreign, clock(), Unit())
    return {"reply:applied": applied, "reply:refused": box.new()}


def _classic_kind(mail: Mail) -> str:
    for kind, subject in CLASSIC_SUBJECTS.items():
        if re.search(re.escape(subject).replace(re.escape("{day}"), r"\d+"), mail.subject):
            if kind == "reminder":
                return "reminder-vote" if "突然死" in mail.text else "reminder-night"
            return kind
    raise AssertionError(mail.subject)


def _classic(clock, rng, box: MailBox) -> dict[str, list[Mail]]:
    made: dict[str, list[Mail]] = {}
    accounts = [make_account(LONG_ID.format(n), clock()) for n in range(30, 35)]
    name = VILLAGE_NAME
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name=name, rules="classic"), now=clock(), rng=rng
    )
    join_all(vid, accounts, clock)
    start(vid, accounts, clock)
    tick(clock, rng)  # the start
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2's morning: the scapegoat died
    a, b, c, d, e = living_seats(vid)
    for voter, target in {a: b, b: a, c: a, d: b, e: c}.items():  # a tie: a second round
        actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
    tick(clock, rng)
    # Nobody votes again: the vote reminders, then sudden deaths for all, a draw.
    tick_until(clock, rng, load_village(vid)._meta.next_update, timedelta(minutes=1))
    for mail in box.new():
        made.setdefault(f"classic:{_classic_kind(mail)}", []).append(mail)
    # A second village: everyone executes one, the night's roles are reminded to act.
    others = [make_account(LONG_ID.format(n), clock()) for n in range(40, 45)]
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name=name, rules="classic"), now=clock(), rng=rng
    )
    join_all(vid, others, clock)
    start(vid, others, clock)
    tick(clock, rng)
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    seats = living_seats(vid)
    for voter in seats:
        target = seats[0] if voter != seats[0] else seats[1]
        actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
    tick(clock, rng)
    tick_until(clock, rng, load_village(vid)._meta.next_update, timedelta(minutes=1))
    for mail in box.new():
        made.setdefault(f"classic:{_classic_kind(mail)}", []).append(mail)
    # A third, abandoned before it starts.
    lonely = villages.create_village(
        villages.AskedVillage(pace="short", name=name, rules="classic"), now=clock(), rng=rng
    )
    join_all(lonely, [make_account(LONG_ID.format(n), clock()) for n in range(50, 52)], clock)
    hosting.abandon(lonely, "人数が集まらないため", "cli:test", clock())
    clock.advance(timedelta(minutes=1))
    tick(clock, rng)
    made["classic:abandoned"] = box.new()
    return made


def _account(clock, box: MailBox) -> dict[str, list[Mail]]:
    """A registration, a registration with an address already taken, a login link."""
    now = clock()
    newcomer = LONG_ID.format(9999)
    account_mail.sign_up(newcomer, PASSWORD, f"{newcomer}@example.jp", "192.0.2.1", now)
    verify = box.new()
    taken = f"{LONG_ID.format(0)}@example.jp"
    account_mail.sign_up(LONG_ID.format(9998), PASSWORD, taken, "192.0.2.1", now)
    already = box.new()
    account_mail.send_login_link(LONG_ID.format(1), "192.0.2.1", now)
    return {"account:verify": verify, "account:already": already, "account:login": box.new()}


def _duel(clock, box: MailBox) -> dict[str, list[Mail]]:
    """A game by mail (1手1日) between two accounts: its start, a reminder, a turn, the end,
    each use case's owed mail sent after it as its entrypoint sends it."""
    a, b = (make_account(LONG_ID.format(n), clock()) for n in (60, 61))
    given = {"preset": "17A", "side": "A", "strength": "normal", "clock": "day"}
    with effects.sent_after(Unit()) as unit:
        match_id = matches.start("duel", {**given, "opponent": "invite"}, f"a:{a}", clock(), unit)
        matches.join(unit.match(match_id), f"a:{b}", clock())
    begun = box.new()  # the game begins on A's move (A is away: B sat)
    clock.advance(timedelta(hours=21, minutes=1))
    with effects.sent_after(Unit()) as unit:
        matches.look(match_id, 0, clock(), unit)
    reminder = box.new()
    # A replies to the reminder (a move, a line that is no move), then to the turn's mail again.
    for mail, text in ((reminder[0], "CO要請 占い師\nよろしく"), (begun[0], "処刑 1")):
        sent = message.as_sent_by(mail.to, mail.message["Reply-To"], text, clock())
        with effects.sent_after(Unit()) as unit:
            replies.receive(sent, clock(), unit)
    after = box.new()
    answered = [m for m in after if "返信" in m.subject]
    turn = [m for m in after if m not in answered]  # B's turn: A moved
    with effects.sent_after(Unit()) as unit:
        matches.move(unit.match(match_id), [f"a:{b}"], 1, {"do": "resign"}, None, clock())
    return {
        "duel:start": begun,
        "duel:turn": turn,
        "duel:reminder": reminder,
        "duel:end": box.new(),
        "duel_reply:applied": answered[:1],
        "duel_reply:refused": answered[1:],
    }


def _puzzle(clock, box: MailBox) -> dict[str, list[Mail]]:
    """The day's puzzle (the generator's, read from tests/support/puzzle_days.py) to an account that
    asked for it."""
    fan = make_account(LONG_ID.format(70), clock())
    puzzles.set_mail(fan, True)
    day = puzzles.today(clock())
    save_puzzle(day.isoformat(), puzzle_days.puzzle_of(date(2026, 12, 1)), clock())
    puzzles.owe_daily_mail(clock())
    return {"puzzle:daily": box.new()}


def _idle(clock, rng, box: MailBox) -> dict[str, list[Mail]]:
    """A Mobius member idle for 45 min of a running short village, and a classic prologue
    member idle for 21 h: each is warned of their auto-departure."""
    players = [make_account(LONG_ID.format(n), clock()) for n in range(80, 93)]
    village = villages.create_village(
        villages.AskedVillage(pace="short", name=VILLAGE_NAME), now=clock(), rng=rng
    )
    seated = seat(village, players, clock)
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    clock.advance(timedelta(minutes=45))
    tick(clock, rng)
    made = {"mobius:idle_warning": [m for m in box.new() if WARNING in m.subject]}
    two = [make_account(LONG_ID.format(n), clock()) for n in range(93, 95)]
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name=VILLAGE_NAME, rules="classic"),
        now=clock(),
        rng=rng,
    )
    join_all(vid, two, clock)
    clock.advance(timedelta(hours=21))
    tick(clock, rng)
    made["classic:idle_warning"] = [m for m in box.new() if WARNING in m.subject]
    return made
