"""Play by mail (issue 27): a member replies to the village's mail with commands and gets one
receipt. Real-shaped raw messages (tests/fixtures/mail) through the SES inbound handler's
service, against moto: who is answered, what is read, what is saved, what is said back."""

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib.inbound import address, commands, message
from chalicelib.inbound.words import reply_address, vocabulary
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, outbox, receipts, replies
from chalicelib.services.unit import Unit
from chalicelib.storage import outbox as outbox_store
from chalicelib.storage.repository import load_account, load_village
from tests.mail.test_quoted_game_mail import TEXT_STYLES
from tests.support import classic_villages as classic
from tests.support.accounts import make_account
from tests.support.mail import sent_mails
from tests.support.villages import fill, to_update

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mail"
# Who sends each fixture: the address it comes from and the seat its account plays.
SENDERS = {
    "gmail": ("yamada.taro@gmail.com", "commoner_a"),
    "iphone": ("hanako.s@icloud.com", "commoner_b"),
    "outlook": ("suzuki@example.co.jp", "commoner_c"),
    "html_only": ("web.user@example.net", "commoner_d"),
    "docomo": ("hanako-0123@docomo.ne.jp", "guard_a"),
    "au": ("ichiro_a@au.com", "guard_b"),
    "softbank": ("jiro.b@i.softbank.jp", "empath_a"),
}


def raw(name: str, to: str) -> bytes:
    return (FIXTURES / f"{name}.eml").read_bytes().replace(b"__REPLY_TO__", to.encode())


@pytest.fixture
def members(clock):
    """Thirteen accounts, the fixtures' senders at their seats: slot -> account."""
    by_slot = {slot: f"from_{name}" for name, (_, slot) in SENDERS.items()}
    emails = {slot: email for email, slot in SENDERS.values()}
    return {
        slot: make_account(by_slot.get(slot, f"p{n:02d}"), clock(), emails.get(slot))
        for n, slot in enumerate(SLOTS)
    }


@pytest.fixture
def running(village, members, clock):
    """A Mobius village on day 1, every seat taken; no mail sent yet is counted."""
    fill(village, [members[s] for s in SLOTS], clock)
    to_update(village, clock)
    return village


def reply_from(name: str, village: str, clock, slot: str | None = None) -> replies.Received:
    record = load_village(village)
    to = reply_address(record, slot or SENDERS.get(name, SENDERS["gmail"])[1])
    return replies.receive(raw(name, to), clock(), Unit())


def choices(village: str, account: str) -> dict[str, str]:
    return actions.own_choices(load_village(village), account)


def receipts_to(email: str) -> list:
    return [m for m in sent_mails() if m.to == email and "返信" in m.subject]


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("gmail", "medium_a"),  # by the job's label, a folded Japanese quote header
        ("iphone", "medium_b"),  # by persona name, a full-width colon, 「iPhoneから送信」
        ("html_only", "medium_a"),  # English, by slot id, HTML only
        ("docomo", "medium_a"),  # ISO-2022-JP, full-width space and letter
        ("au", "medium_a"),  # Shift_JIS (cp932) in base64, by persona name
        ("softbank", "medium_a"),  # Shift_JIS quoted-printable, full-width English
    ],
)
def test_a_reply_from_each_kind_of_mailer_saves_its_command_and_is_answered_once(
    running, members, clock, name, target
):
    email, slot = SENDERS[name]
    sent_before = len(sent_mails())
    assert reply_from(name, running, clock).outcome == "applied"
    assert choices(running, members[slot]) == {"pray": target}
    receipt = receipts_to(email)
    assert len(receipt) == 1 and len(sent_mails()) == sent_before + 1
    names = load_village(running).names()
    assert "保存しました" in receipt[0].text
    assert f"祈り {names[target]}" in receipt[0].text  # the full current choices


def test_the_quoted_original_never_yields_a_command(running, members, clock):
    """Every fixture quotes 「祈り 庶民B」 (commoner_b) below the new text: never saved."""
    for name in SENDERS:
        assert reply_from(name, running, clock).outcome == "applied"
    record = load_village(running)
    saved = [actions.own_choices(record, members[s]).get("pray") for _, s in SENDERS.values()]
    assert "commoner_b" not in saved


def test_outlook_a_refused_line_says_why_and_an_unknown_line_is_listed_back(
    running, members, clock
):
    assert reply_from("outlook", running, clock).outcome == "applied"
    assert choices(running, members["commoner_c"]) == {"pray": "medium_a"}
    (receipt,) = receipts_to("suzuki@example.co.jp")
    assert "保存できませんでした: 占い 庶民B" in receipt.text
    assert "占い" in receipt.text.split("保存できませんでした: 占い 庶民B")[1].split("\n")[1]
    assert "読み取れませんでした: よろしく" in receipt.text


def test_a_forwarded_mail_saves_nothing_and_says_no_command_was_found(running, members, clock):
    actions.save_actions(running, members["commoner_a"], {"pray": "seer_a"}, clock())
    assert reply_from("forwarded", running, clock).outcome == "applied"
    assert choices(running, members["commoner_a"]) == {"pray": "seer_a"}
    (receipt,) = receipts_to("yamada.taro@gmail.com")
    assert "行動の指定は見つかりませんでした" in receipt.text


def test_the_same_message_delivered_twice_is_applied_once(running, members, clock):
    assert reply_from("gmail", running, clock).outcome == "applied"
    # The member changes their mind on the page; SES then delivers the reply again.
    actions.save_actions(running, members["commoner_a"], {"pray": "seer_b"}, clock())
    assert reply_from("gmail", running, clock).outcome == "duplicate"
    assert choices(running, members["commoner_a"]) == {"pray": "seer_b"}
    assert len(receipts_to("yamada.taro@gmail.com")) == 1


def test_a_duplicate_of_a_reply_that_saved_nothing_is_not_answered_again(running, clock):
    assert reply_from("forwarded", running, clock).outcome == "applied"
    assert reply_from("forwarded", running, clock).outcome == "duplicate"
    assert len(receipts_to("yamada.taro@gmail.com")) == 1


@pytest.mark.parametrize(
    "name",
    [
        *("autoreply", "bounce", "spoofed", "auto_lotus", "auto_raw_utf8", "auto_raw_sjis"),
        *("au_error", "challenge"),
    ],
)
def test_auto_replies_bounces_and_spoofed_senders_get_no_reply_and_change_nothing(
    running, members, clock, name
):
    before = len(sent_mails())
    received = reply_from(name, running, clock, slot="commoner_a")
    assert received.outcome == "dropped"
    assert choices(running, members["commoner_a"]) == {}
    assert len(sent_mails()) == before


@pytest.mark.parametrize(
    "name", ["auto_lotus", "auto_raw_utf8", "auto_raw_sjis", "au_error", "challenge"]
)
def test_machine_made_mail_is_dropped_as_such_and_is_no_access(running, members, clock, name):
    """Issue 36: Lotus Notes' 「AUTO:」, 【自動返信】 after our own subject in raw 8-bit UTF-8,
    不在 in a raw Shift_JIS subject, au's メールエラー通知 from a no-reply sender, a
    challenge/response mail: each dropped for what it is, before the member's access is
    recorded (a loop of receipts otherwise, and an absent member kept in their seat)."""
    before = load_village(running)._members["commoner_a"].last_access
    clock.advance(timedelta(minutes=10))
    received = reply_from(name, running, clock, slot="commoner_a")
    assert received.reason.startswith("written by a machine")
    assert load_village(running)._members["commoner_a"].last_access == before
    # A person's reply at the same moment is access (the comparison above can fail).
    reply_from("forwarded", running, clock)
    assert load_village(running)._members["commoner_a"].last_access != before


def test_a_tampered_reply_address_gets_no_reply(running, members, clock):
    to = reply_address(load_village(running), "commoner_a")
    local, _, domain = to.partition("@")
    tampered = f"{local[:-1]}{'a' if local[-1] != 'a' else 'b'}@{domain}"
    before = len(sent_mails())
    assert replies.receive(raw("gmail", tampered), clock(), Unit()).outcome == "dropped"
    # Another member's seat written into a valid-looking address: the MAC no longer holds.
    forged = to.replace(".commoner_a.", ".commoner_b.")
    assert replies.receive(raw("gmail", forged), clock(), Unit()).outcome == "dropped"
    assert choices(running, members["commoner_a"]) == {} and len(sent_mails()) == before


def test_mail_from_our_own_address_is_never_answered(running, clock):
    to = reply_address(load_village(running), "commoner_a")
    own = raw("gmail", to).replace(
        b"From: =?UTF-8?B?5bGx55Sw5aSq6YOO?= <yamada.taro@gmail.com>",
        b"From: <noreply@mobius.example>",
    )
    before = len(sent_mails())
    assert replies.receive(own, clock(), Unit()).outcome == "dropped"
    assert len(sent_mails()) == before


def test_a_member_writing_to_another_members_address_is_told_why_and_nothing_is_saved(
    running, members, clock
):
    received = reply_from("gmail", running, clock, slot="commoner_b")
    assert received.outcome == "refused"
    assert choices(running, members["commoner_b"]) == {}
    assert choices(running, members["commoner_a"]) == {}
    (receipt,) = receipts_to("yamada.taro@gmail.com")
    assert replies.NOT_YOURS in receipt.joined
    assert "何も保存していません" in receipt.text


def test_a_reply_to_an_earlier_days_mail_is_told_why_and_nothing_is_saved(running, members, clock):
    old = reply_address(load_village(running), "commoner_a")
    to_update(running, clock)  # day 2
    assert replies.receive(raw("gmail", old), clock(), Unit()).outcome == "refused"
    assert choices(running, members["commoner_a"]) == {}
    (receipt,) = receipts_to("yamada.taro@gmail.com")
    assert "1日目のお知らせへの返信でした。いまは2日目です" in receipt.joined


def test_a_sender_no_account_verified_gets_no_reply(running, clock):
    to = reply_address(load_village(running), "commoner_a")
    stranger = raw("gmail", to).replace(b"yamada.taro@gmail.com", b"someone.else@gmail.com")
    before = len(sent_mails())
    assert replies.receive(stranger, clock(), Unit()).outcome == "dropped"
    assert len(sent_mails()) == before


def test_a_reply_address_stays_well_under_64_octets():
    longest = address.ReplyTo("mobius", "9" * 12, "commoner_a", 999)
    assert len(address.local_part(longest)) <= 52
    assert address.read(address.address(longest)) == longest
    assert address.read(address.address(longest).upper()) == longest  # case folded in transit


def test_every_game_mail_has_the_members_reply_address_and_an_example_valid_today(
    village, members, clock
):
    fill(village, [members[s] for s in SLOTS], clock)
    to_update(village, clock)
    outbox.deliver(clock())
    start = [m for m in sent_mails() if m.to == "yamada.taro@gmail.com"][-1]
    record = load_village(village)
    assert start.message["Reply-To"] == reply_address(record, "commoner_a")
    lines = start.text.split("\n")
    shown = lines[lines.index("「例:」の後ろの形で書いてください。") + 1]
    # Shown after 「例: 」, so that a quote of the mail plays nothing (issue 36).
    assert shown.startswith("例: ")
    example = shown.removeprefix("例: ")
    assert example in start.html
    # The example, sent back as it is, is saved.
    reply = message.as_sent_by("yamada.taro@gmail.com", start.message["Reply-To"], example, clock())
    assert replies.receive(reply, clock(), Unit()).outcome == "applied"
    assert len(choices(village, members["commoner_a"])) == 1


def test_classic_a_vote_and_a_night_choice_by_reply(clock, rng):
    """A classic village: 「投票 p3」 by the rule book's number, 「投票：<name>」 by name."""
    five = [make_account(f"cl{n:02d}", clock(), f"cl{n:02d}@gmail.com") for n in range(5)]
    vid = classic.create(clock, rng)
    classic.join_all(vid, five, clock)
    classic.start(vid, five, clock)
    classic.to_due(vid, clock)  # night 1 closes: day 2's first round
    record = load_village(vid)
    game = record.game
    living = classic.living_seats(vid)
    voter, target = living[0], living[1]
    character = next(c for c, s in game.seats.items() if s == target)
    account = classic.account_of(vid, voter)
    to = reply_address(record, voter)
    received = replies.receive(
        message.as_sent_by(f"{account}@gmail.com", to, f"投票 {character}", clock()),
        clock(),
        Unit(),
    )
    assert received.outcome == "applied"
    assert choices(vid, account) == {"vote": target}
    (receipt,) = [m for m in sent_mails() if m.to == f"{account}@gmail.com" and "返信" in m.subject]
    assert f"投票 {record.names()[target]}" in receipt.text


def ses_event(message_id: str, **verdicts: str) -> dict:
    """The SES receipt rule's Lambda action event (its shape, trimmed to what is read)."""
    receipt = {
        f"{name}Verdict": {"status": verdicts.get(name, "PASS")}
        for name in ("spf", "dkim", "spam", "virus", "dmarc")
    }
    return {
        "Records": [
            {
                "eventSource": "aws:ses",
                "eventVersion": "1.0",
                "ses": {
                    "mail": {"messageId": message_id, "source": "x@gmail.com"},
                    "receipt": receipt,
                },
            }
        ]
    }


def test_the_reply_function_reads_the_message_ses_stored_and_applies_it(
    running, members, clock, monkeypatch
):
    import boto3

    from chalicelib import jobs

    monkeypatch.setenv("MOBIUS_INBOUND_BUCKET", "mobius-inbound-mail-test")
    s3 = boto3.client("s3", region_name="ap-northeast-1")
    s3.create_bucket(
        Bucket="mobius-inbound-mail-test",
        CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"},
    )
    to = reply_address(load_village(running), "commoner_a")
    s3.put_object(
        Bucket="mobius-inbound-mail-test", Key=f"{jobs.INBOUND_PREFIX}m1", Body=raw("gmail", to)
    )
    assert jobs.reply_mail(ses_event("m1")) == ["applied"]
    assert choices(running, members["commoner_a"]) == {"pray": "medium_a"}


@pytest.mark.parametrize("failed", ["spf", "dkim", "spam", "virus", "dmarc"])
def test_a_message_ses_judged_failed_is_dropped_unread(running, clock, failed):
    from chalicelib import jobs

    def unread(message_id: str) -> bytes:
        raise AssertionError("read a message SES failed")

    before = len(sent_mails())
    assert jobs.reply_mail(ses_event("m2", **{failed: "FAIL"}), read=unread) == ["dropped"]
    assert len(sent_mails()) == before


def reads_back(village: str, account: str, wanted: dict[str, str | None], clock) -> None:
    """Saves ``wanted``; the member's current choices the receipt writes parse back (as a reply
    would) to exactly those choices. With nothing to choose, there is no choices block."""
    actions.save_actions(village, account, wanted, clock())
    record = load_village(village)
    owed = outbox_store.reply_receipt(village, record.day, account, "<p@x>", "{}", clock())
    item = outbox_store.as_written(owed)
    receipt = receipts.compose(record, load_account(account), item, clock())
    assert receipt is not None
    lines = receipt.text.split("\n")
    heads = [n for n, line in enumerate(lines) if line.endswith("決められます）:")]
    if not heads:  # e.g. a classic villager's night
        assert wanted == {} and actions.own_choices(record, account) == {}
        return
    shown = lines[heads[0] + 1 : lines.index("", heads[0] + 1)]
    # As shown, marked 「・」: a quote of the receipt plays nothing (issue 36); the member
    # writes them without the mark.
    assert all(line.startswith("・") for line in shown)
    assert all(line.key is None for line in commands.read("\n".join(shown), vocabulary(record)))
    block = "\n".join(line.removeprefix("・") for line in shown)
    read = commands.read(block, vocabulary(record))
    assert all(line.key is not None for line in read)
    parsed = {line.key: line.target for line in read}
    assert parsed == {**{k: None for k in wanted}, **actions.own_choices(record, account)}
    assert {k: v for k, v in parsed.items() if k in wanted} == wanted


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_property_the_receipt_reads_back_as_the_members_choices(running, clock, data):
    """For any member and any legal choices, the current choices the receipt writes parse back
    (as a reply would) to exactly those choices."""
    record = load_village(running)
    slot = data.draw(st.sampled_from(SLOTS))
    account = record.seats()[slot].account_id
    wanted = {
        choice.key: data.draw(st.sampled_from((None, *choice.targets)))
        for choice in record.rules.quick_choices(record, slot)
    }
    reads_back(running, account, wanted, clock)


@pytest.fixture(params=[("short", "night"), ("long", "night"), ("long", "vote")])
def classic_running(request, clock, rng):
    """A 13-member classic village (every role of RULES-CLASSIC §1 dealt) on night 1, or on
    day 2's first vote round (a long village's: its votes may change until the close, §2.3.2,
    so every drawn vote is one the member may send)."""
    pace, phase = request.param
    thirteen = [make_account(f"rt{n:02d}", clock(), f"rt{n:02d}@gmail.com") for n in range(13)]
    vid = classic.create(clock, rng, pace=pace)
    classic.join_all(vid, thirteen, clock)
    classic.start(vid, thirteen, clock)
    if phase == "vote":
        classic.to_due(vid, clock)  # night 1 closes: day 2's first round
        assert load_village(vid).game.village.voting
    return vid


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_property_classic_the_receipt_reads_back_as_the_members_choices(
    classic_running, clock, data
):
    """The round trip for the classic rule set: for any living member and any legal choices
    (a vote by day, a night's divination, guard or attack), the receipt's current choices
    parse back to exactly those choices."""
    vid = classic_running
    record = load_village(vid)
    slot = data.draw(st.sampled_from(classic.living_seats(vid)))
    account = classic.account_of(vid, slot)
    offered = record.rules.quick_choices(record, slot)
    wanted = {c.key: data.draw(st.sampled_from((None, *c.targets))) for c in offered}
    reads_back(vid, account, wanted, clock)


EXAMPLE_LINE = "「例:」の後ろの形で書いてください。"


def reply_with_the_example(mail, email: str, clock) -> str | None:
    """A member who only reads their latest game mail: sends its example command back to its
    Reply-To, as it is; the outcome, or None when the mail offers nothing to send."""
    lines = mail.text.split("\n")
    if mail.message["Reply-To"] is None or EXAMPLE_LINE not in lines:
        return None
    example = lines[lines.index(EXAMPLE_LINE) + 1].removeprefix("例: ")
    raw = message.as_sent_by(email, mail.message["Reply-To"], example, clock())
    return replies.receive(raw, clock(), Unit()).outcome


def test_classic_a_whole_village_is_played_by_replying_to_its_mail_alone(clock, rng):
    """Issue 27's Done line: once the start votes are in, every member only ever replies to
    the latest game mail they got with the command it suggests, and the village plays to its
    ending; every vote arrives by mail, so nobody dies suddenly (§2.3.4.1)."""
    five = [make_account(f"pm{n:02d}", clock(), f"pm{n:02d}@gmail.com") for n in range(5)]
    vid = classic.create(clock, rng)
    classic.join_all(vid, five, clock)
    classic.start(vid, five, clock)
    replied = []
    for _ in range(40):
        if load_village(vid).state.value != "running":
            break
        outbox.deliver(clock())
        for account in five:
            email = f"{account}@gmail.com"
            games = [m for m in sent_mails() if m.to == email and "返信" not in m.subject]
            if games and (outcome := reply_with_the_example(games[-1], email, clock)):
                replied.append(outcome)
        classic.to_due(vid, clock)
    g = classic.game(vid)
    assert load_village(vid).state.value == "ending" and g.village is not None
    assert g.village.ending is not None
    assert replied and set(replied) == {"applied"}
    assert not any(r.sudden for r in g.village.rounds)


@pytest.mark.parametrize("style", ["pasted", "outlook_en", "outlook_lower", "au", "gmail_en"])
def test_a_reply_quoting_the_days_mail_whole_saves_the_members_own_command_alone(
    village, members, clock, style
):
    """Issue 36: the day's mail quoted whole, recognised as a quote or pasted as it is, under
    the member's own copy of its example: the quoted example, read too, would make the same
    choice twice (both refused); the member's own is saved."""
    fill(village, [members[s] for s in SLOTS], clock)
    to_update(village, clock)
    outbox.deliver(clock())
    start = [m for m in sent_mails() if m.to == "yamada.taro@gmail.com"][-1]
    lines = start.text.split("\n")
    own = lines[lines.index(EXAMPLE_LINE) + 1].removeprefix("例: ")
    body = f"{own}\n\n{TEXT_STYLES[style](start.text)}"
    reply = message.as_sent_by("yamada.taro@gmail.com", start.message["Reply-To"], body, clock())
    assert replies.receive(reply, clock(), Unit()).outcome == "applied"
    assert len(choices(village, members["commoner_a"])) == 1
    (receipt,) = receipts_to("yamada.taro@gmail.com")
    assert f"保存しました: {own}" in receipt.text
