"""Every kind of mail on the wire: strict MIME (one MIME-Version), short header lines and
encoded words, Auto-Submitted, and a text part a text-only mail app shows well.

Each kind is produced as the system sends it (tests/mail/every_kind.py), with a long village
name and long account IDs: the Mobius and classic notices through the scheduler and the
outbox, the account mails (verify, already, login) through account_mail. The raw bytes are
what chalicelib.notify.ses.compose built and SES was handed.
"""

import email
import email.policy
import re
from email.header import decode_header, make_header

import pytest

from chalicelib import rulesets
from chalicelib.inbound import address
from chalicelib.labels import SITE_NAME
from chalicelib.notify.notices import IDLE_WARNING_SUBJECT
from chalicelib.rulesets.classic.ruleset import SUBJECTS as CLASSIC_SUBJECTS
from chalicelib.rulesets.duel.ruleset import SUBJECTS as DUEL_SUBJECTS
from chalicelib.rulesets.mobius.ruleset import SUBJECTS as MOBIUS_SUBJECTS
from chalicelib.services import account_notices
from tests.support.every_kind import (
    ACCOUNT_KINDS,
    CLASSIC_KINDS,
    DUEL_KINDS,
    DUEL_REPLY_KINDS,
    IDLE_KINDS,
    KINDS,
    MOBIUS_KINDS,
    PUZZLE_KINDS,
    REPLY_KINDS,
    VILLAGE_NAME,
    made_once,
)

ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")
URL = re.compile(r"https?://\S+")
SUBJECTS = {"mobius": MOBIUS_SUBJECTS, "classic": CLASSIC_SUBJECTS}

_MAILS: dict[str, list[bytes]] = {}


@pytest.fixture
def mails(clock, rng, tmp_path_factory) -> dict[str, list[bytes]]:
    """kind -> the raw mails of that kind, made once for the run."""
    if not _MAILS:
        made = made_once(clock, rng, tmp_path_factory)
        _MAILS.update({kind: [m.raw.encode("ascii") for m in made[kind]] for kind in made})
    return _MAILS


def test_every_kind_of_mail_is_checked(mails):
    assert len(CLASSIC_KINDS) == 7 and len(ACCOUNT_KINDS) == 3 and len(DUEL_KINDS) == 4
    assert len(REPLY_KINDS) == 2 and PUZZLE_KINDS == ("puzzle:daily",)
    assert len(DUEL_REPLY_KINDS) == 2 and len(IDLE_KINDS) == 2
    assert set(mails) == set(KINDS)
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
        rules, name = kind.split(":")
        if rules == "account":
            assert subject == account_notices.SUBJECTS[name]
            assert message["List-Unsubscribe"] is None
        elif rules == "duel":  # a game's own title and the player's side (decision 56)
            brand = f"【{SITE_NAME}・{rulesets.match_rules(rules).label}】"
            wording = DUEL_SUBJECTS[name]
            assert re.fullmatch(rf"{re.escape(brand)}17A [AB]\(.+\)：{re.escape(wording)}", subject)
            assert message["List-Unsubscribe"].startswith("<https://mobius.example/unsubscribe/")
        elif rules == "duel_reply":  # a confirmation under the player's own reply (decision 129)
            brand = f"【{SITE_NAME}・{rulesets.match_rules('duel').label}】"
            wording = {"applied": "返信を受け付けました", "refused": "返信の手は指していません"}[
                name
            ]
            assert re.fullmatch(rf"{re.escape(brand)}17A A\(.+\)：{re.escape(wording)}", subject)
            assert message["In-Reply-To"] and message["List-Unsubscribe"] is None
        elif rules == "puzzle":  # the daily puzzle: the site's, not one game's or village's
            assert re.fullmatch(rf"【{SITE_NAME}】今日の盤面パズル（\d+月\d+日）", subject)
            assert message["List-Unsubscribe"].startswith("<https://mobius.example/unsubscribe/")
            assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        elif rules == "reply":  # an answer to the member's own mail, under it
            wording = {"applied": "返信を受け付けました", "refused": "返信は使えませんでした"}[name]
            assert re.fullmatch(
                rf"【{SITE_NAME}・メビウス】\d+番 {VILLAGE_NAME}：{wording}", subject
            )
            assert message["In-Reply-To"] and message["List-Unsubscribe"] is None
        else:
            day = re.search(r"(\d+)日目", subject)
            wording = (
                IDLE_WARNING_SUBJECT  # the platform's, for every rule set (decision 140)
                if name == "idle_warning"
                else SUBJECTS[rules][name.split("-")[0]].format(day=day.group(1) if day else "")
            )
            # The site's name, then the village's game (not one game's name for every village).
            brand = f"【{SITE_NAME}・{rulesets.get(rules).label}】"
            assert re.fullmatch(
                rf"{re.escape(brand)}\d+番 {VILLAGE_NAME}：{re.escape(wording)}", subject
            )
            assert message["List-Unsubscribe"].startswith("<https://mobius.example/unsubscribe/")
            assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


# The notices of a village still open, where a member may still act (issue 27).
OPEN_VILLAGE_KINDS = tuple(
    kind
    for kind in MOBIUS_KINDS + CLASSIC_KINDS + IDLE_KINDS
    if kind.split(":")[1].split("-")[0] in ("start", "morning", "round", "reminder", "idle_warning")
)


@pytest.mark.parametrize("kind", OPEN_VILLAGE_KINDS)
def test_every_notice_of_an_open_village_can_be_answered_by_reply(mails, kind):
    """Issue 27: every such mail carries the member's own signed Reply-To (its rule set's),
    and says how to reply with an example (to a member who has a choice to make then)."""
    examples = 0
    for raw in mails[kind]:
        message = email.message_from_bytes(raw)
        to = address.read(message["Reply-To"] or "")
        assert to is not None and to.rules == kind.split(":")[0], (kind, message["Reply-To"])
        examples += "このメールに返信しても決められます" in text_part(strict(raw))
    # A classic prologue has no choice a reply makes: its idle warning asks only for a reply.
    assert examples > 0 or kind == "classic:idle_warning", kind


@pytest.mark.parametrize("kind", KINDS)
def test_a_message_has_one_mime_version_header(mails, kind):
    # RFC 2045 §4: on the message, not on each part (MIMEText adds it to every part).
    for raw in mails[kind]:
        message = strict(raw)
        assert message["MIME-Version"] == "1.0"
        headers = [name for part in message.walk() for name in part]
        assert [h.lower() for h in headers].count("mime-version") == 1, (kind, headers)


def text_problems(text: str) -> list[str]:
    """What keeps a text part from reading well in a text-only mail app."""
    problems = []
    lines = text.splitlines()
    for n, line in enumerate(lines):
        size = len(line.encode("utf-8"))
        if size > 998:
            problems.append(f"line {n + 1} over 998 octets")
        elif size > 78 and not URL.fullmatch(line):  # a long URL stands alone on its line
            problems.append(f"line {n + 1} over 78 octets ({size}): {line}")
        if n and not line.strip() and not lines[n - 1].strip():
            problems.append(f"two blank lines in a row before line {n + 1}")
    return problems


@pytest.mark.parametrize("kind", KINDS)
def test_text_lines_fit_78_octets_without_double_blank_lines(mails, kind):
    for raw in mails[kind]:
        text = text_part(strict(raw))
        assert text.strip(), kind
        assert text_problems(text) == [], (kind, text)
