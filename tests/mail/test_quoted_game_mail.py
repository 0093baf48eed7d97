"""Issue 36: a reply never plays a line the player did not write. Every kind of mail the
server sends (tests/mail/every_kind.py: both village rule sets, the duel, the receipts, the
idle warning), quoted whole in every client style this suite knows, Japanese and English,
text and HTML, recognised as a quote or not (pasted as it is): under 「了解」 nothing is a
command; under the player's own command, that command alone is."""

import unicodedata
from email.message import EmailMessage
from email.utils import format_datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.inbound import commands, message
from chalicelib.personas import CHARACTER_SETS
from chalicelib.rulesets.classic.ruleset import REPLY_WORDS as CLASSIC_WORDS
from chalicelib.rulesets.duel import mail as duel_mail
from chalicelib.rulesets.duel.mail import WORDS as DUEL_WORDS
from chalicelib.rulesets.mobius.ruleset import REPLY_WORDS as MOBIUS_WORDS
from tests.support.every_kind import made_once
from tests.support.mail import Mail

FROM = "人狼ひろば <noreply@mobius.example>"
SENT = "Wednesday, December 2, 2026 9:00 PM"


def _q(text: str, mark: str = "> ") -> str:
    return "\n".join(mark + line if line else mark.rstrip() for line in text.split("\n"))


def _raw(text: str) -> str:
    return text


# Each style: how a client writes the game mail's text part under the player's own text.
TEXT_STYLES = {
    "gmail_en": lambda t: f"On Wed, Dec 2, 2026 at 9:00 PM {FROM} wrote:\n\n{_q(t)}",
    "gmail_en_folded": lambda t: (
        f"On Wed, Dec 2, 2026 at 9:00 PM 人狼ひろば <\nnoreply@mobius.example> wrote:\n\n{_q(t)}"
    ),
    "three_line_wrote": lambda t: (
        f"On Wed, Dec 2, 2026 at 9:00 PM\n人狼ひろば\n<noreply@mobius.example> wrote:\n{_q(t)}"
    ),
    "decorated_wrote": lambda t: (
        f"---- On Wed, 02 Dec 2026 21:00:00 +0900 人狼ひろば wrote ----\n\n{t}"
    ),
    "gmail_ja": lambda t: f"2026年12月2日(水) 21:00 {FROM}:\n\n{_q(t)}",
    "gmail_ja_folded": lambda t: (
        f"2026年12月2日(水) 21:00 人狼ひろば <\nnoreply@mobius.example>:\n\n{_q(t)}"
    ),
    "iphone_ja": lambda t: f"iPhoneから送信\n\n2026/12/02 21:00、{FROM}のメール:\n\n{_q(t)}",
    "iphone_en": lambda t: (
        f"Sent from my iPhone\n\nOn Dec 2, 2026, at 21:00, {FROM} wrote:\n\n{_q(t)}"
    ),
    "thunderbird_ja": lambda t: f"人狼ひろば さんは書きました:\n{_q(t)}",
    "becky": lambda t: f"On Wed, 02 Dec 2026 21:00:00 +0900\n{FROM} wrote:\n\n{_q(t)}",
    "carrier_dated": lambda t: f"2026/12/02 21:00:00, {FROM}:\n{_q(t, '>')}",
    "docomo": lambda t: f"-----Original Message-----\nFrom: {FROM}\nSent: {SENT}\n\n{t}",
    "au": lambda t: f"----- 元のメッセージ -----\n送信元：{FROM}\n件名：お知らせ\n\n{t}",
    "softbank": lambda t: f"--- Original Message ---\nFROM: {FROM}\nDATE: 2026/12/02 21:00\n\n{t}",
    "original_ja": lambda t: f"------ オリジナルメッセージ ------\n{t}",
    "outlook_en": lambda t: (
        f"________________________________\nFrom: {FROM}\nSent: {SENT}\nTo: a@b.jp\n"
        f"Subject: お知らせ\n\n{t}"
    ),
    "outlook_lower": lambda t: f"from: {FROM}\nsent: {SENT}\nto: a@b.jp\n\n{t}",
    "outlook_mac": lambda t: f"From: {FROM}\nDate: {SENT}\nTo: a@b.jp\nSubject: お知らせ\n\n{t}",
    "outlook_bold": lambda t: (
        f"*From:* {FROM}\n*Sent:* {SENT}\n*To:* a@b.jp\n*Subject:* お知らせ\n\n{t}"
    ),
    "outlook_date_first": lambda t: f"Sent: {SENT}\nFrom: {FROM}\n\n{t}",
    "outlook_ja": lambda t: (
        f"差出人: {FROM}\n送信日時: 2026年12月2日 21:00\n宛先: a@b.jp\n件名: お知らせ\n\n{t}"
    ),
    "german": lambda t: f"Am 02.12.2026 um 21:00 schrieb {FROM}:\n\n{_q(t)}",
    "german_outlook": lambda t: f"Von: {FROM}\nGesendet: Mittwoch, 2. Dezember 2026 21:00\n\n{t}",
    "french": lambda t: f"De : {FROM}\nEnvoyé : mercredi 2 décembre 2026 21:00\nObjet : x\n\n{t}",
    "dutch": lambda t: f"Van: {FROM}\nVerzonden: woensdag 2 december 2026 21:00\n\n{t}",
    "swedish": lambda t: f"Från: {FROM}\nSkickat: den 2 december 2026 21:00\n\n{t}",
    "separator_stars": lambda t: f"*-------- Original Message --------*\n{t}",
    "separator_spanish": lambda t: f"-----Mensaje original-----\n{t}",
    "forwarded": lambda t: f"---------- Forwarded message ---------\nFrom: {FROM}\n\n{t}",
    "bar_quote": lambda t: _q(t, "| "),
    "pasted": _raw,  # no head, no marks: only what the server knows it sent protects here
}
# How a client writes the game mail's HTML part under the player's own HTML.
HTML_STYLES = {
    "html_blockquote": lambda h: f"<blockquote type=cite>{h}</blockquote>",
    "html_gmail": lambda h: (
        f'<div class="gmail_quote"><div>On Wed wrote:</div><blockquote>{h}</blockquote></div>'
    ),
    "html_outlook": lambda h: f'<div id="divRplyFwdMsg"><b>From:</b> {FROM}</div><div>{h}</div>',
    "html_pasted": lambda h: f"<div>{h}</div>",
}


def _folded(*tables: dict) -> set[str]:
    return {
        commands.fold(w) for table in tables for key, words in table.items() for w in (key, *words)
    }


# Every word a reply is read by, in any rule set.
VILLAGE_WORDS = _folded(MOBIUS_WORDS, CLASSIC_WORDS)
DUEL = _folded(DUEL_WORDS)


def commands_in(text: str, kind: str) -> list[str]:
    """The lines of the new text that a village would read as a command (a word and a
    target), or, in reply to a duel's mail, that the duel would read as a move (a word, with
    or without arguments: one that does not read refuses the whole reply)."""
    found = []
    for line in text.split("\n"):
        if kind.startswith("duel"):
            duel = duel_mail._LINE.fullmatch(unicodedata.normalize("NFKC", line))
            if duel and commands.fold(duel["word"]) in DUEL:
                found.append(line)
        elif (
            (village := commands._LINE.fullmatch(line))
            and commands.fold(village["word"]) in VILLAGE_WORDS
            and SENTENCE_END not in village["target"]
        ):
            found.append(line)
    return found


# A village's target is a name (a persona's, a seat's label, a slot, なし), and no name ends
# a sentence: a line such as 「占い：小夜は人間でした。」 (a classic seer's news) names nobody.
SENTENCE_END = "。"


def test_no_name_a_target_goes_by_ends_a_sentence():
    names = [p.name for personas in CHARACTER_SETS.values() for p in personas]
    assert names and not any(SENTENCE_END in name for name in names)


def reply(own: str, quoted: Mail, style: str) -> bytes:
    """The player's reply: ``own`` above the game mail quoted in ``style``."""
    mail = EmailMessage()
    mail["From"] = "player@example.jp"
    mail["To"] = "r@reply.mobius.example"
    mail["Subject"] = "Re: " + quoted.subject
    mail["Date"] = format_datetime(__import__("datetime").datetime(2026, 12, 2, 12, 30))
    if style in HTML_STYLES:
        own_html = "".join(f"<div>{line}</div>" for line in own.split("\n"))
        mail.set_content(own_html + HTML_STYLES[style](quoted.html), subtype="html")
    else:
        mail.set_content(f"{own}\n\n{TEXT_STYLES[style](quoted.text)}")
    return mail.as_bytes()


_MAILS: dict[str, list[Mail]] = {}


@pytest.fixture
def mails(clock, rng, tmp_path_factory) -> dict[str, list[Mail]]:
    """kind -> the mails of that kind, made once for the run."""
    if not _MAILS:
        _MAILS.update(made_once(clock, rng, tmp_path_factory))
    return _MAILS


OWN = {"village": ["投票 ボブ", "祈り 霊能者A", "占い:小夜"], "duel": ["CO要請 占い師", "処刑 3"]}
STYLES = sorted([*TEXT_STYLES, *HTML_STYLES])


def test_every_game_mail_pasted_whole_under_ryokai_is_no_command(mails):
    """The defence that does not depend on recognising the client: as written, no line of
    any mail the server sends is a command."""
    for kind, made in mails.items():
        for mail in made:
            for style in ("pasted", "html_pasted"):
                text = message.read(reply("了解", mail, style)).text
                assert commands_in(text, kind) == [], (kind, style)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_property_any_game_mail_quoted_in_any_style_under_ryokai_plays_nothing(mails, data):
    kind = data.draw(st.sampled_from(sorted(mails)))
    mail = data.draw(st.sampled_from(mails[kind]))
    style = data.draw(st.sampled_from(STYLES))
    incoming = message.read(reply("了解", mail, style))
    assert incoming.machine is None
    assert commands_in(incoming.text, kind) == []


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_property_the_players_own_command_above_any_quote_is_read_alone(mails, data):
    kind = data.draw(st.sampled_from(sorted(mails)))
    mail = data.draw(st.sampled_from(mails[kind]))
    style = data.draw(st.sampled_from(STYLES))
    own = data.draw(st.sampled_from(OWN["duel" if kind.startswith("duel") else "village"]))
    incoming = message.read(reply(f"{own}\nよろしく", mail, style))
    assert commands_in(incoming.text, kind) == [own]


# A quote nobody marked as an example: a command as a player of another seat wrote it.
PLAIN_QUOTE = "3日目の朝になりました。\n祈り 霊能者B\n投票 ボブ\n--\n人狼ひろば"
RECOGNISED = sorted(set(TEXT_STYLES) - {"pasted"})


@pytest.mark.parametrize("style", RECOGNISED)
def test_each_client_style_is_recognised_as_the_quote(style):
    """Not the defence above: each style's quote head or marks alone keep the quote out."""
    text = f"祈り 霊能者A\n\n{TEXT_STYLES[style](PLAIN_QUOTE)}"
    assert message.new_text(text) == "祈り 霊能者A"


@pytest.mark.parametrize("style", sorted(set(HTML_STYLES) - {"html_pasted"}))
def test_each_html_client_style_is_recognised_as_the_quote(style):
    html = "<p>" + PLAIN_QUOTE.replace("\n", "<br>") + "</p>"
    text = message.html_text(f"<div>祈り 霊能者A</div>{HTML_STYLES[style](html)}")
    assert message.new_text(text) == "祈り 霊能者A"


MARKED = [
    style
    for style in RECOGNISED
    if any(line.startswith((">", "|")) for line in TEXT_STYLES[style]("x").split("\n"))
]


@pytest.mark.parametrize("style", MARKED)
def test_a_command_below_a_marked_quote_is_read_bottom_posting(style):
    text = f"{TEXT_STYLES[style](PLAIN_QUOTE)}\n\n祈り 霊能者A\nよろしく"
    assert message.new_text(text) == "祈り 霊能者A\nよろしく"


def test_answers_between_quoted_paragraphs_are_read_inline():
    text = (
        "On Wed, Dec 2, 2026 at 9:00 PM 人狼ひろば <noreply@mobius.example> wrote:\n"
        "> 祈り 霊能者B\n> 占いの相手を選んでください。\n占い 庶民B\n\n"
        "> 投票 ボブ\n祈り 霊能者A\n\n"
        "山田\nSent from my iPhone\n\n> 警備 庶民C"
    )
    assert message.new_text(text) == "占い 庶民B\n祈り 霊能者A\n山田"


def test_a_bottom_posted_html_reply_is_read_below_its_blockquote():
    """Thunderbird's HTML: the head, the original in a blockquote, the answer under it."""
    html = (
        '<div class="moz-cite-prefix">2026/12/02 21:00, 人狼ひろば wrote:</div>'
        "<blockquote type=cite>祈り 霊能者B</blockquote><div>祈り 霊能者A</div>"
    )
    assert message.new_text(message.html_text(html)) == "祈り 霊能者A"


def test_a_signature_ends_the_text_when_no_quote_follows():
    assert message.new_text("祈り 霊能者A\n-- \n山田 太郎\n祈り 霊能者B") == "祈り 霊能者A"


def test_a_head_over_a_20000_character_line_is_read_in_time():
    """The library's "On … wrote:" pattern backtracks for a minute on one such line: only
    ``HEAD_WIDTH`` characters of a line are looked at. Not a timing assertion: a hang would
    be the failure."""
    long_line = "On " + "a " * 9_000
    assert message.new_text(long_line) == long_line.strip()
