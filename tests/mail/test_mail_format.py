"""Every kind of mail on the wire: strict MIME, short header lines and encoded words,
Auto-Submitted, and a text part a text-only mail app shows well.

Each kind is produced as the system sends it, with a long village name (30 Japanese
characters) and long account IDs (20 characters): the game notices (start, morning,
reminder, ending, abandoned) through the scheduler and the outbox, the account mails
(verify, already, login) through account_mail. The raw bytes are what
chalicelib.mail.compose built and SES was handed.
"""

import email
import email.policy
import re
from datetime import timedelta
from email.header import decode_header, make_header

import pytest

from chalicelib.rulesets.mobius import ruleset as notices
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import account_mail, account_notices, actions, update, villages
from chalicelib.storage.repository import load_village
from tests.integration.conftest import make_account
from tests.mail.helpers import MailBox, seat, tick, touch_all

SHORT = TIMINGS[Pace.SHORT]
VILLAGE_NAME = "春の終わりに集まった山里の人びとが鬼と人間を見分ける長い夜村"
LONG_ID = "long_account_id_{:04d}"  # 20 characters
PASSWORD = "correct horse battery"
ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")
URL = re.compile(r"https?://")

assert len(VILLAGE_NAME) == 30
assert len(LONG_ID.format(0)) == 20

_MAILS: dict[str, list[bytes]] = {}


def raw_of(mail) -> bytes:
    return mail.raw.encode("ascii")


def every_kind_of_mail(clock, rng) -> dict[str, list[bytes]]:
    """kind -> the raw mails of that kind, made once for the module (about a second)."""
    if not _MAILS:
        _MAILS.update(_send_every_kind(clock, rng))
    return _MAILS


def _send_every_kind(clock, rng) -> dict[str, list[bytes]]:
    made: dict[str, list[bytes]] = {}
    box = MailBox()
    box.new()
    players = [make_account(LONG_ID.format(n), clock()) for n in range(13)]
    village = villages.create_village(pace="short", name=VILLAGE_NAME, now=clock(), rng=rng)
    seated = seat(village, players, clock)
    start = load_village(village).meta.next_update
    clock.now = start
    tick(clock, rng)
    made["start"] = [raw_of(m) for m in box.new()]
    # Nobody saves: everyone living is reminded before the deadline.
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    clock.now = start + timedelta(minutes=30)
    tick(clock, rng)
    made["reminder"] = [raw_of(m) for m in box.new()]
    clock.now = start + SHORT.turn
    tick(clock, rng)
    made["morning"] = [raw_of(m) for m in box.new()]
    # The oni side declares victory by day: the ending.
    clock.advance(timedelta(minutes=2))
    game = load_village(village).game
    record = load_village(village)
    living = [s for s in game.sides if s not in game.deaths]
    oni_side = [s for s in living if game.sides[s] in ("oni", "madman")]
    for slot in oni_side[:3]:
        actions.save_actions(village, seated[slot], {"victory": slot}, clock())
    assert load_village(village).meta.state == "ending", record.meta.state
    tick(clock, rng)
    made["ending"] = [raw_of(m) for m in box.new()]
    # Another village, abandoned by the GM before it starts.
    others = [make_account(LONG_ID.format(n), clock()) for n in range(20, 25)]
    lonely = villages.create_village(pace="short", name=VILLAGE_NAME, now=clock(), rng=rng)
    seat(lonely, others, clock)
    update.abandon(lonely, clock())
    clock.advance(timedelta(minutes=1))
    tick(clock, rng)
    made["abandoned"] = [raw_of(m) for m in box.new()]
    # Account mails: a registration, a registration with an address already taken, a login.
    now = clock()
    newcomer = LONG_ID.format(9999)
    account_mail.sign_up(newcomer, PASSWORD, f"{newcomer}@example.jp", "192.0.2.1", now)
    made["verify"] = [raw_of(m) for m in box.new()]
    taken = f"{players[0]}@example.jp"
    account_mail.sign_up(LONG_ID.format(9998), PASSWORD, taken, "192.0.2.1", now)
    made["already"] = [raw_of(m) for m in box.new()]
    account_mail.send_login_link(players[1], "192.0.2.1", now)
    made["login"] = [raw_of(m) for m in box.new()]
    return made


NOTICE_KINDS = tuple(notices.SUBJECTS)
ACCOUNT_KINDS = tuple(account_notices.SUBJECTS)
KINDS = NOTICE_KINDS + ACCOUNT_KINDS


@pytest.fixture
def mails(clock, rng):
    return every_kind_of_mail(clock, rng)


def test_every_kind_of_mail_is_checked(mails):
    assert set(NOTICE_KINDS) == {"start", "morning", "ending", "abandoned", "reminder"}
    assert set(ACCOUNT_KINDS) == {"verify", "already", "login"}
    for kind in KINDS:
        assert mails[kind], f"no {kind} mail was sent"


def strict(raw: bytes) -> email.message.EmailMessage:
    """Parsed with email.policy.strict: any defect raises, or is listed on its part."""
    message = email.message_from_bytes(raw, policy=email.policy.strict)
    for part in message.walk():
        assert part.defects == [], part.defects
        for name, value in part.items():
            assert value.defects == (), (name, value.defects)
    return message


def header_lines(raw: bytes) -> list[str]:
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return head.split("\r\n")


def text_part(message) -> str:
    [part] = [p for p in message.walk() if p.get_content_type() == "text/plain"]
    return part.get_content()


@pytest.mark.parametrize("kind", KINDS)
def test_headers_are_strict_short_and_say_the_mail_is_automatic(mails, kind):
    for raw in mails[kind]:
        message = strict(raw)
        assert message["Auto-Submitted"] == "auto-generated"
        for line in header_lines(raw):
            for word in ENCODED_WORD.findall(line):
                assert len(word) <= 75, (kind, word)  # RFC 2047
            if line.startswith("List-Unsubscribe:"):
                assert len(line) <= 998, line  # a URL is never folded
            else:
                assert len(line) <= 78, (kind, line)
        subject = str(make_header(decode_header(email.message_from_bytes(raw)["Subject"])))
        if kind in ACCOUNT_KINDS:
            assert subject == account_notices.SUBJECTS[kind]
            assert message["List-Unsubscribe"] is None
        else:
            day = re.search(r"(\d+)日目", subject)
            wording = notices.SUBJECTS[kind].format(day=day.group(1) if day else "")
            assert re.fullmatch(
                rf"【メビウス人狼】\d+番 {VILLAGE_NAME}：{re.escape(wording)}", subject
            )
            assert message["List-Unsubscribe"].startswith("<https://mobius.example/unsubscribe/")
            assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def text_problems(text: str) -> list[str]:
    """What keeps a text part from reading well in a text-only mail app."""
    problems = []
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if len(line) > 998:
            problems.append(f"line {n + 1} over 998 characters")
        elif len(line) > 78 and not URL.search(line):
            problems.append(f"line {n + 1} over 78 characters: {line}")
        if n and not line.strip() and not lines[n - 1].strip():
            problems.append(f"two blank lines in a row before line {n + 1}")
    return problems


def assert_text_reads_well(mails: dict[str, list[bytes]], kind: str) -> None:
    for raw in mails[kind]:
        text = text_part(strict(raw))
        assert text.strip(), kind
        assert text_problems(text) == [], (kind, text)


@pytest.mark.parametrize("kind", ACCOUNT_KINDS)
def test_account_mail_text_is_short_lined_without_double_blank_lines(mails, kind):
    assert_text_reads_well(mails, kind)


@pytest.mark.parametrize("kind", NOTICE_KINDS)
def test_notice_text_is_short_lined_without_double_blank_lines(mails, kind):
    assert_text_reads_well(mails, kind)
