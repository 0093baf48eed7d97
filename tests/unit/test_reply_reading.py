"""Reading a reply mail (issue 27), pure: where the new text ends, which lines are commands,
whose verdicts count. The whole loop on real-shaped messages is tests/mail/test_reply_mail.py."""

from email import message_from_string

import pytest

from chalicelib.inbound import commands, message

VOCABULARY = commands.Vocabulary(
    {"pray": ("祈り", "祈る"), "guard": ("警備", "護衛")},
    {
        "medium_a": ("霊能者A 小夜", "小夜", "霊能者A"),
        "medium_b": ("霊能者B 徳兵衛", "徳兵衛", "霊能者B"),
        "seer_a": ("占い師A 楓", "楓", "占い師A"),
        "seer_b": ("占い師B 楓", "楓", "占い師B"),  # two personas of one name
    },
)


def read(text: str) -> list[tuple[str | None, str | None, str | None]]:
    return [(line.key, line.target, line.problem) for line in commands.read(text, VOCABULARY)]


@pytest.mark.parametrize(
    "line",
    [
        "祈り 霊能者A",
        "祈り:霊能者A",
        "祈り：小夜",
        "祈り　霊能者Ａ",
        "PRAY medium_a",
        "祈る 「小夜」",
        "祈り 霊能者A 小夜",
        "pray : medium_a",
    ],
)
def test_a_command_is_a_word_then_a_colon_or_spaces_then_a_target(line):
    assert read(message.new_text(line)) == [("pray", "medium_a", None)]


@pytest.mark.parametrize("word", ["なし", "無し", "未定", "none", "NONE", "-"])
def test_undecided_is_written_as_nashi_mitei_or_none(word):
    assert read(f"警備 {word}") == [("guard", None, None)]


def test_nothing_is_guessed():
    [(_, _, unknown_word), (_, _, unknown_name), (_, _, ambiguous), (_, _, alone)] = read(
        "占い 霊能者A\n祈り 霊能者C\n祈り 楓\n祈り"
    )
    assert unknown_word == "その行動はわかりませんでした"
    assert unknown_name == "その相手はわかりませんでした"
    assert ambiguous == "その名前の人が複数います"
    assert alone is not None and "読み取れませんでした" in alone


def test_the_same_choice_on_two_lines_is_refused_on_both():
    assert [problem for *_, problem in read("祈り 小夜\n祈り 徳兵衛")] == [
        "同じ行動が2回以上書かれています。1行にしてください"
    ] * 2


@pytest.mark.parametrize(
    "quoted",
    [
        "On Tue, Dec 1, 2026 at 12:00 PM Mobius <\nr@reply.example> wrote:\n祈り 霊能者B",
        "2026年12月1日(火) 12:00 メビウス人狼 <r@reply.example>:\n祈り 霊能者B",
        "山田さんは書きました:\n祈り 霊能者B",
        "2026/12/01 12:00、メビウス人狼 <r@reply.example>のメール:\n祈り 霊能者B",
        "-----Original Message-----\n祈り 霊能者B",
        "________________________________\n差出人: メビウス人狼\n祈り 霊能者B",
        "差出人: メビウス人狼 <noreply@mobius.example>\n祈り 霊能者B",
        "-- \n祈り 霊能者B",
        "Sent from my iPhone\n祈り 霊能者B",
        "> 祈り 霊能者B",
        "＞ 祈り 霊能者B",
    ],
)
def test_the_quoted_original_and_the_signature_yield_nothing(quoted):
    assert read(message.new_text(f"祈り 霊能者A\n\n{quoted}")) == [("pray", "medium_a", None)]


def test_html_only_mail_is_read_without_its_blockquote():
    html = "<div>祈り&nbsp;霊能者A<br></div><blockquote>祈り 霊能者B</blockquote>"
    assert read(message.new_text(message.html_text(html))) == [("pray", "medium_a", None)]


def results(header: str) -> message.Verdicts:
    return message.verdicts(message_from_string(f"Authentication-Results: {header}\n\nx"))


def test_verdicts_hold_only_aligned_with_the_from_domain():
    good = results(
        "amazonses.com; spf=pass envelope-from=a@mail.example.jp; dkim=pass header.i=@example.jp;"
        " dmarc=none"
    )
    assert good.pass_for("a@example.jp")
    assert not good.pass_for("a@gmail.com")
    forged = results(
        "amazonses.com; spf=pass envelope-from=a@example.jp; dkim=pass header.i=@example.jp;"
        " dmarc=fail"
    )
    assert not forged.pass_for("a@example.jp")
    assert not results("mx.attacker.example; spf=pass; dkim=pass; dmarc=pass").pass_for("a@x.jp")
    no_dkim = results("amazonses.com; spf=pass envelope-from=a@example.jp; dkim=none; dmarc=none")
    assert not no_dkim.pass_for("a@example.jp")


def mail(*headers: str, subject: str = "Re: 3日目の朝になりました") -> str:
    return (
        "\n".join(("From: a@gmail.com", "To: r@reply.example", f"Subject: {subject}", *headers, ""))
        + "\n祈り 霊能者A\n"
    )


@pytest.mark.parametrize(
    "header",
    [
        "Auto-Submitted: auto-replied",
        "Auto-Submitted: auto-generated",
        "Precedence: bulk",
        "Precedence: junk",
        "Precedence: list",
        "X-Autoreply: yes",
        "X-Autorespond: yes",
        "List-Id: <news.example.com>",
        "Return-Path: <>",
    ],
)
def test_each_sign_of_a_machine_made_mail_alone_keeps_it_unanswered(header):
    """Issue 27: auto-replies and bounces are never answered, whichever one sign they carry."""
    assert message.machine_made(message_from_string(mail(header)), "a@gmail.com") is not None


@pytest.mark.parametrize(
    "subject",
    [
        "自動応答: 不在です",
        "Out of Office: back Monday",
        "Automatic reply: Re: 村",
        "不在通知",
        "AUTO: Taro Yamada is out of the office",  # Lotus Notes
        "Re: 【人狼ひろば・メビウス】12番 春の村：朝になりました【自動返信】",
        "【自動返信】Re: 【人狼ひろば・メビウス】12番 春の村：朝になりました",
        "Re: お知らせ（山田は不在です）",
        "メールエラー通知",  # au
        "Undelivered Mail Returned to Sender",
        "Please confirm your message",  # challenge/response
        "Abwesenheitsnotiz: Re: Dorf",
        "Réponse automatique : Re: village",
    ],
)
def test_a_vacation_notice_is_known_by_its_subject(subject):
    assert message.machine_made(message_from_string(mail(subject=subject)), "a@gmail.com")


def test_bounces_are_known_by_their_sender():
    for sender in ("MAILER-DAEMON@mx.example", "postmaster@mx.example"):
        assert message.machine_made(message_from_string(mail()), sender.lower()) == "bounce"


@pytest.mark.parametrize(
    "subject",
    [
        "Re: 【人狼ひろば・メビウス】12番 不在の村：2日目の朝になりました",  # the GM's name
        "Re: 【人狼ひろば・メビウス】12番 春の村：まもなく自動で村から退出になります",
        "Re: 【人狼ひろば】今日のパズル（12月2日）",
        "Re: 【人狼ひろば・一夜の対決】対局「練習」：あなたの番です",
    ],
)
def test_a_reply_to_our_own_subject_is_a_persons_whatever_the_village_is_called(subject):
    assert message.machine_made(message_from_string(mail(subject=subject)), "a@gmail.com") is None


@pytest.mark.parametrize(
    ("header", "octets"),
    [
        ("Subject", "【自動返信】Re: お知らせ".encode()),  # raw UTF-8, no MIME words
        ("Subject", "不在のお知らせ".encode("cp932")),  # raw Shift_JIS
        ("Subject", "自動応答: お知らせ".encode("iso2022_jp")),  # raw ISO-2022-JP escapes
    ],
)
def test_a_raw_8bit_subject_is_read_as_utf8_then_shift_jis_then_iso2022jp(header, octets):
    raw = b"From: a@gmail.com\r\n" + header.encode() + b": " + octets + b"\r\n\r\npray\r\n"
    assert message.read(raw).machine == "auto-reply subject"


@pytest.mark.parametrize(
    "sender",
    [
        *("no-reply@au.com", "noreply@example.jp", "do-not-reply@x.jp", "owner-list@x.jp"),
        *("list-request@x.jp", "MAILER-DAEMON@x.jp", "post_master@x.jp", ""),
    ],
)
def test_programs_sender_addresses_are_machine_made(sender):
    assert message.machine_made(message_from_string(mail()), sender.lower()) == "bounce"


@pytest.mark.parametrize(
    "header",
    [
        "X-TMDA-Fingerprint: 5hY0e",  # challenge/response
        "X-Boxbe-Challenge: yes",
        "List-Unsubscribe: <mailto:u@x.jp>",
        "X-ML-Name: neko",
        "X-Failed-Recipients: a@x.jp",
        "Feedback-Type: abuse",
    ],
)
def test_headers_only_programs_set_keep_a_mail_unanswered(header):
    assert message.machine_made(message_from_string(mail(header)), "a@gmail.com") is not None


def test_a_report_part_anywhere_is_a_bounce():
    report = (
        "From: a@gmail.com\nSubject: Re: x\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nx\n'
        "--b\nContent-Type: message/delivery-status\n\nStatus: 5.1.1\n--b--\n"
    )
    assert message.machine_made(message_from_string(report), "a@gmail.com") == "bounce"


def test_a_persons_reply_is_not_machine_made():
    """Outlook sets X-Auto-Response-Suppress on a person's own mail; Auto-Submitted: no is a
    person's too."""
    person = mail("Auto-Submitted: no", "X-Auto-Response-Suppress: All", "Precedence: normal")
    assert message.machine_made(message_from_string(person), "a@gmail.com") is None


@pytest.mark.parametrize(
    "line", ["例: 祈り 霊能者A", "例：祈り 小夜", "・祈り 霊能者A", "・祈り:小夜"]
)
def test_a_line_as_the_mail_shows_it_is_no_command_and_says_how_to_write_it(line):
    """Issue 36: the mail shows commands marked, so that a quote of it plays nothing."""
    assert read(message.new_text(line)) == [(None, None, commands.AS_SHOWN)]
