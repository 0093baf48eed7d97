"""Play a correspondence duel by mail (issue 27 for duels, decisions 127–128): each turn's mail
carries the player's own reply address for that move and replies valid now; a reply (real-
shaped raw messages: Gmail, iPhone Mail, docomo's ISO-2022-JP) is played through
``matches.move`` on the move its mail was written for, and answered once with what was done
and the board as that side sees it. Stale, foreign, spoofed, tampered and duplicate mail."""

import random
import re
from datetime import timedelta
from pathlib import Path

import pytest

from benchmarks.requests import counting
from chalicelib import effects, jobs
from chalicelib.inbound import address, message
from chalicelib.notify.match_notices import reply_address
from chalicelib.rules.duel import Duel
from chalicelib.rulesets import match_rules
from chalicelib.services import match_replies, matches, replies
from chalicelib.services.owed import MailHandOver
from chalicelib.services.unit import Unit
from chalicelib.storage import matches as store
from chalicelib.storage import outbox as mailbox
from chalicelib.storage import records as records_store
from chalicelib.storage.models import MatchItem
from tests.mail.test_quoted_game_mail import TEXT_STYLES
from tests.support.accounts import make_account
from tests.support.mail import Mail, sent_mails
from tests.support.matches import match_item

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mail"
# Each fixture's sender, who plays A.
SENDERS = {
    "duel_gmail": "yamada.taro@gmail.com",
    "duel_iphone": "hanako.s@icloud.com",
    "duel_docomo": "hanako-0123@docomo.ne.jp",
}
B_EMAIL = "bob@example.jp"
EXAMPLES = re.compile(r"たとえば:\n(.*?)(?:\n\n|\Z)", re.S)


def raw(name: str, to: str) -> bytes:
    return (FIXTURES / f"{name}.eml").read_bytes().replace(b"__REPLY_TO__", to.encode())


def new_game(clock, a_email: str = "alice@example.jp", ranked: bool = False) -> str:
    """A correspondence game (1手1日, std9) between alice (A) and bob (B), both seated: A's
    turn is mailed at once."""
    make_account("alice", clock(), a_email)
    make_account("bob", clock(), B_EMAIL)
    given = {"preset": "std9", "side": "A", "strength": "normal", "clock": "day"}
    given |= {"ranked": "1"} if ranked else {}
    with effects.sent_after(Unit()) as unit:
        match_id = matches.start("duel", {**given, "opponent": "invite"}, "a:alice", clock(), unit)
        matches.join(unit.match(match_id), "a:bob", clock())
    return match_id


def game(match_id: str) -> Duel:
    item = store.load_match(match_id)
    assert item is not None
    return Duel.from_json(item.game)


def moves(match_id: str) -> int:
    return matches.load(match_id).moves


def to(match_id: str, side: str, at: int | None = None) -> str:
    count = moves(match_id) if at is None else at
    found = reply_address(match_rules("duel"), match_id, side, count)
    assert found is not None
    return found


def mails_to(email: str) -> list[Mail]:
    return [m for m in sent_mails() if m.to == email]


def receive(raw_mail: bytes, clock) -> replies.Received:
    """A reply as the receipt rule's function takes it: what it owes sent after it."""
    with effects.sent_after(Unit()) as unit:
        return replies.receive(raw_mail, clock(), unit)


def reply_as(email: str, reply_to: str, text: str, clock, message_id: str = "") -> bytes:
    return message.as_sent_by(email, reply_to, text, clock(), message_id)


def examples_in(mail: Mail) -> list[list[str]]:
    """The replies a turn's mail offers, each a list of lines."""
    found = EXAMPLES.search(mail.text)
    assert found, mail.text
    blocks = [[line for line in b.split("\n") if line] for b in found.group(1).split("（または）")]
    # As the mail shows them, marked so that a quote of the mail plays nothing (issue 36);
    # the player writes them without the mark.
    assert all(line.startswith("・") for block in blocks for line in block)
    return [[line.removeprefix("・") for line in block] for block in blocks]


def test_a_turn_mail_carries_the_players_reply_address_for_that_move_and_replies_valid_now(
    clock,
):
    match_id = new_game(clock)
    [turn] = mails_to("alice@example.jp")
    assert turn.message["Reply-To"] == to(match_id, "A", 0)
    assert len(turn.message["Reply-To"].partition("@")[0]) < 64
    assert examples_in(turn) == [["CO要請 占い師"], ["処刑 1"]]
    assert "返信しても指せます" in turn.html and "CO要請 占い師" in turn.html
    assert mails_to(B_EMAIL) == []  # not bob's move


@pytest.mark.parametrize("name", list(SENDERS))
def test_a_reply_from_each_kind_of_mailer_is_played_and_confirmed_once(clock, name):
    """Each fixture asks 「CO要請 占い師」 (full-width letters and spaces, a full-width colon)
    above a quoted 「処刑 1」 that is never played."""
    match_id = new_game(clock, SENDERS[name])
    before = len(sent_mails())
    assert receive(raw(name, to(match_id, "A")), clock).outcome == "applied"
    duel = game(match_id)
    assert duel.phase == "B:answer" and duel.question["request"]["roles"] == ["seer"]
    assert 1 in duel.alive and moves(match_id) == 1
    [confirmation] = [m for m in mails_to(SENDERS[name]) if "返信" in m.subject]
    assert "指しました: 占い師のCO要請(全体)" in confirmation.joined
    assert "いまの盤面(あなたから見えるもの)" in confirmation.joined.replace("（", "(").replace(
        "）", ")"
    )
    assert "1日目・B の回答" in confirmation.text
    assert "〆切" not in confirmation.text  # bob's deadline now, not alice's
    assert confirmation.message["In-Reply-To"]
    assert confirmation.message["Reply-To"] is None  # not A's move now
    [turn] = mails_to(B_EMAIL)  # bob's turn, with his own reply address
    assert turn.message["Reply-To"] == to(match_id, "B", 1)
    assert examples_in(turn) == [["騙りなし"]]
    assert len(sent_mails()) == before + 2


def test_the_same_message_delivered_twice_is_played_once(clock):
    match_id = new_game(clock, SENDERS["duel_gmail"])
    mail = raw("duel_gmail", to(match_id, "A"))
    assert receive(mail, clock).outcome == "applied"
    sent = len(sent_mails())
    assert receive(mail, clock).outcome == "duplicate"
    assert moves(match_id) == 1 and len(sent_mails()) == sent


def test_a_reply_to_a_move_the_game_has_left_is_refused_with_why_and_never_played_later(clock):
    match_id = new_game(clock)
    old = to(match_id, "A", 0)
    asked = receive(reply_as("alice@example.jp", old, "CO要請 占い師", clock), clock)
    answered = receive(reply_as(B_EMAIL, to(match_id, "B"), "騙りなし", clock), clock)
    assert asked.outcome == answered.outcome == "applied"
    assert game(match_id).phase == "A:day" and moves(match_id) == 2  # A's move again
    late = receive(reply_as("alice@example.jp", old, "処刑 2", clock), clock)
    assert late.outcome == "refused"
    assert late.reason == match_replies.STALE.format(then=0, now=2)
    assert 2 in game(match_id).alive and moves(match_id) == 2
    said = [m for m in mails_to("alice@example.jp") if "指していません" in m.subject]
    assert len(said) == 1 and "0手目のお知らせへの返信" in said[0].joined


def test_a_player_writing_to_the_other_players_address_is_told_why_and_nothing_is_played(clock):
    match_id = new_game(clock)
    answer = receive(reply_as(B_EMAIL, to(match_id, "A"), "処刑 1", clock), clock)
    assert answer.outcome == "refused" and answer.reason == match_replies.NOT_YOURS
    assert moves(match_id) == 0
    [said] = mails_to(B_EMAIL)
    assert "あなたあてのメールのものではありません" in said.joined
    assert "生存" in said.text and "共有者" not in said.text  # bob's own view only


def test_a_spoofed_from_gets_no_reply_and_plays_nothing(clock):
    """From is alice's address, but SES's DMARC verdict fails and SPF/DKIM name another
    domain."""
    match_id = new_game(clock, "yamada.taro@gmail.com")
    sent = len(sent_mails())
    assert receive(raw("spoofed", to(match_id, "A")), clock).outcome == "dropped"
    assert moves(match_id) == 0 and len(sent_mails()) == sent


def test_a_tampered_or_foreign_game_token_gets_no_reply(clock):
    match_id = new_game(clock, SENDERS["duel_gmail"])
    local, _, domain = to(match_id, "A").partition("@")
    tampered = f"{local[:-1]}{'a' if local[-1] != 'a' else 'b'}@{domain}"
    assert receive(raw("duel_gmail", tampered), clock).outcome == "dropped"
    # A well-signed address of a game that does not exist.
    other = address.address(address.ReplyTo("duel", "AAAAAAAAAAAAAAAA", "a", 0))
    assert receive(raw("duel_gmail", other), clock).outcome == "dropped"
    assert moves(match_id) == 0 and [m for m in sent_mails() if "返信" in m.subject] == []


def test_an_unreadable_command_plays_nothing_and_an_illegal_one_gets_the_engines_reason(clock):
    match_id = new_game(clock)
    reply_to = to(match_id, "A")
    bad = receive(reply_as("alice@example.jp", reply_to, "処刑 誰か\nよろしく", clock), clock)
    assert bad.outcome == "applied" and moves(match_id) == 0
    illegal = receive(reply_as("alice@example.jp", reply_to, "処刑 99", clock), clock)
    assert illegal.outcome == "applied" and moves(match_id) == 0
    two = receive(reply_as("alice@example.jp", reply_to, "処刑 1\n処刑 2", clock), clock)
    assert two.outcome == "applied" and moves(match_id) == 0
    said = [m.joined for m in mails_to("alice@example.jp") if "指していません" in m.subject]
    assert len(said) == 3
    assert "処刑するカードはカードの番号で書いてください" in said[0]
    assert "手ではないので読み飛ばしました: よろしく" in said[0]
    assert "99" in said[1] and "指しました" not in said[1]
    assert "1通で送れる手は1つです" in said[2]


def test_a_whole_correspondence_game_is_played_by_replying_with_the_mails_examples(clock):
    """Both players answer every turn's mail (or the confirmation while it is still their
    move) with one of the replies it offers, to the address it came from, until the game
    ends by §7; every reply is confirmed once."""
    match_id = new_game(clock)
    rng = random.Random("by-reply")
    emails = {"A": "alice@example.jp", "B": B_EMAIL}
    replied = 0
    for _ in range(400):
        duel = game(match_id)
        if duel.phase == "end":
            break
        side = duel.phase[0]
        offers = [m for m in mails_to(emails[side]) if m.message["Reply-To"]]
        mail = offers[-1]
        assert mail.message["Reply-To"] == to(match_id, side)
        lines = rng.choice(examples_in(mail))
        clock.advance(timedelta(hours=1))
        answer = receive(reply_as(emails[side], to(match_id, side), "\n".join(lines), clock), clock)
        assert answer.outcome == "applied", answer
        replied += 1
        assert moves(match_id) == replied, lines  # played, on the move its mail was for
    ending = game(match_id).ending
    assert ending is not None and ending["at"] in ("execution", "morning")
    confirmations = [m for m in sent_mails() if "返信を受け付けました" in m.subject]
    assert len(confirmations) == replied


def test_the_confirmation_of_the_move_that_ends_the_game_says_the_result(clock):
    """The player whose reply ended the game is not sent the end's mail too (decision 56: the
    mover is told at once); their confirmation says who won."""
    match_id = new_game(clock)
    reply_to = to(match_id, "A")
    resigned = receive(reply_as("alice@example.jp", reply_to, "投了", clock), clock)
    assert resigned.outcome == "applied"
    assert game(match_id).ending["at"] == "resign"
    [confirmation] = [m for m in mails_to("alice@example.jp") if "返信" in m.subject]
    assert "指しました: 投了" in confirmation.text
    assert "対局終了: 人狼陣営の勝ちで、あなたの負けです" in confirmation.joined
    assert confirmation.message["Reply-To"] is None
    [end] = mails_to(B_EMAIL)
    assert end.subject.endswith("対局が終わりました")


def test_a_ranked_games_answer_by_mail_is_held_like_the_pages_and_confirmed_once(clock):
    """A ranked game holds B's answer to a request naming the seer (decision 65): by mail too,
    the answer is kept aside, confirmed at once, played when the hold ends; its second
    delivery is a duplicate."""
    match_id = new_game(clock, ranked=True)
    asked = reply_as("alice@example.jp", to(match_id, "A"), "CO要請 占い師", clock)
    assert receive(asked, clock).outcome == "applied"
    answer = reply_as(B_EMAIL, to(match_id, "B"), "騙りなし", clock)
    assert receive(answer, clock).outcome == "applied"
    assert matches.load(match_id).held is not None and moves(match_id) == 1
    [confirmation] = [m for m in mails_to(B_EMAIL) if "返信" in m.subject]
    assert "指しました: 回答: 騙りなし" in confirmation.text
    assert receive(answer, clock).outcome == "duplicate"
    clock.advance(timedelta(seconds=21))
    with effects.sent_after(Unit()) as unit:
        assert matches.settle(unit.match(match_id), clock())
    assert moves(match_id) == 2 and game(match_id).phase == "A:day"


def test_the_ses_lambda_plays_a_reply_to_a_games_mail(clock, monkeypatch):
    """The receipt rule's function reads the stored message and plays it (its watch and mail
    hand-over are the game pages' own)."""
    import boto3

    monkeypatch.setenv("MOBIUS_INBOUND_BUCKET", "mobius-inbound-mail-test")
    s3 = boto3.client("s3", region_name="ap-northeast-1")
    s3.create_bucket(
        Bucket="mobius-inbound-mail-test",
        CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"},
    )
    match_id = new_game(clock, SENDERS["duel_gmail"])
    body = raw("duel_gmail", to(match_id, "A"))
    s3.put_object(Bucket="mobius-inbound-mail-test", Key=f"{jobs.INBOUND_PREFIX}d1", Body=body)
    event = {"Records": [{"ses": {"mail": {"messageId": "d1"}, "receipt": {}}}]}
    assert jobs.reply_mail(event) == ["applied"]
    assert moves(match_id) == 1 and game(match_id).phase == "B:answer"


def test_deployed_a_replys_move_hands_its_clock_and_its_mail_to_the_queues(
    clock, monkeypatch, deployed_queues
):
    """As the stack runs it: the move's new flag goes to the advance queue, the opponent's
    turn mail to the mail workers (nothing sent by the reply's own function)."""
    import boto3

    bucket = "mobius-inbound-mail-test"
    monkeypatch.setenv("MOBIUS_INBOUND_BUCKET", bucket)
    s3 = boto3.client("s3", region_name="ap-northeast-1")
    s3.create_bucket(
        Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"}
    )
    match_id = new_game(clock, SENDERS["duel_gmail"])
    watched, handed = (deployed_queues.count(q) for q in (jobs.QUEUE_NAME, jobs.MAIL_QUEUE_NAME))
    before = len(mails_to(B_EMAIL))
    s3.put_object(
        Bucket=bucket, Key=f"{jobs.INBOUND_PREFIX}d2", Body=raw("duel_gmail", to(match_id, "A"))
    )
    event = {"Records": [{"ses": {"mail": {"messageId": "d2"}, "receipt": {}}}]}
    assert jobs.reply_mail(event) == ["applied"]
    assert deployed_queues.count(jobs.QUEUE_NAME) == watched + 1
    assert deployed_queues.count(jobs.MAIL_QUEUE_NAME) == handed + 1
    assert len(mails_to(B_EMAIL)) == before


def test_a_reply_that_ends_a_game_between_two_accounts_is_three_requests(clock):
    """Decision duel 102: the game and the address's owner in one read, both accounts' records
    in one more, the transaction; the mail it owes goes to the mail workers (not counted)."""
    match_id = new_game(clock, ranked=True)
    # Both played: rated, not aborted.
    match_item(match_id).update(actions=[MatchItem.movers.set({"A", "B"})])
    mail = reply_as("alice@example.jp", to(match_id, "A"), "投了", clock)
    unit = Unit()
    with counting() as calls:
        received = replies.receive(mail, clock(), unit)
    assert received.outcome == "applied"
    assert calls == {"BatchGetItem": 2, "TransactWriteItems": 1}, calls
    assert MailHandOver(mailbox.match_mail(match_id)) in list(unit.collect_owed())
    assert game(match_id).ending["at"] == "resign"
    assert records_store.load("bob", "duel").data["ranked"] == {"games": 1, "wins": 1}


@pytest.mark.parametrize("style", ["pasted", "outlook_en", "outlook_bold", "iphone_ja", "docomo"])
def test_a_reply_quoting_the_turn_mail_whole_plays_the_players_own_move_alone(clock, style):
    """Issue 36: the turn mail quoted whole, recognised as a quote or pasted as it is, under
    the player's 「CO要請 占い師」: the quoted examples (the same move and 「処刑 1」) would make
    two moves, refused; the player's own is played."""
    match_id = new_game(clock)
    [turn] = mails_to("alice@example.jp")
    body = f"CO要請 占い師\n\n{TEXT_STYLES[style](turn.text)}"
    raw_reply = reply_as("alice@example.jp", turn.message["Reply-To"], body, clock)
    assert receive(raw_reply, clock).outcome == "applied"
    duel = game(match_id)
    assert duel.phase == "B:answer" and duel.question["request"]["roles"] == ["seer"]
    assert 1 in duel.alive and moves(match_id) == 1
