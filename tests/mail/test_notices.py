"""What the mails look like on the wire and when they go: MIME, the verification mail,
reminders, the abandoned notice and the long village's times."""

import email
import re
from datetime import timedelta
from email.header import decode_header, make_header
from email.utils import parseaddr, parsedate_to_datetime

from chalicelib.clock import jst
from chalicelib.notify import ses as mail
from chalicelib.notify.notices import IDLE_WARNING_SUBJECT
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import accounts, actions, hosting, villages
from chalicelib.storage.repository import load_village
from tests.support.mail import sent_mails
from tests.support.mailbox import (
    MailBox,
    Phone,
    account_of,
    body_of,
    links_in,
    path_of,
    seat,
    tick,
    tick_until,
    touch_all,
)

SHORT = TIMINGS[Pace.SHORT]
LONG = TIMINGS[Pace.LONG]


# ----- on the wire -----


def test_a_notice_is_multipart_utf8_with_an_encoded_subject_and_crlf_lines(
    players, clock, rng, village
):
    seat(village, players, clock)
    clock.advance(SHORT.first_update)
    tick(clock, rng)
    notice = sent_mails()[0]
    raw = notice.raw.encode("utf-8")
    # RFC 5322: CRLF lines, none over 998 characters, ASCII only (8-bit text is encoded).
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998
    assert raw.isascii()
    message = notice.message
    assert message["MIME-Version"] == "1.0"
    assert message.get_content_type() == "multipart/alternative"
    parts = [p for p in message.walk() if not p.is_multipart()]
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html"]
    for part in parts:
        assert part.get_content_charset() == "utf-8"
        assert part["Content-Transfer-Encoding"] == "base64"
    # Encoded words (RFC 2047) of at most 75 characters that decode to the Japanese subject.
    assert re.fullmatch(r"(=\?utf-8\?b\?[A-Za-z0-9+/=]+\?=\s*)+", message["Subject"])
    assert all(len(w) <= 75 for w in message["Subject"].split())
    assert notice.subject == "【人狼ひろば・メビウス】1番 テスト村：1日目が始まりました"
    name, address = parseaddr(message["From"])
    assert str(make_header(decode_header(name))) == "人狼ひろば"
    assert address == "noreply@mobius.example"
    assert message["To"] == "player00@example.jp"
    assert parsedate_to_datetime(message["Date"]) == clock()
    assert message["Message-ID"].endswith("@mobius.example>")
    assert '<html lang="ja">' in notice.html and "テスト村" in notice.html


def test_a_hostile_village_name_cannot_add_headers(clock):
    raw = mail.compose(
        "a@example.jp",
        "【人狼ひろば・メビウス】1番 x\r\nBcc: evil@example.com\r\n\r\nbody：1日目",
        "本文",
        "<p>本文</p>",
    )
    message = email.message_from_bytes(raw)
    assert message["Bcc"] is None
    assert [k for k in message if k.lower() == "bcc"] == []
    assert "evil@example.com" in str(make_header(decode_header(message["Subject"])))


def test_the_registration_sends_a_verification_mail(client, clock):
    phone = Phone(client)
    phone.get("/register")
    page = phone.post(
        "/register",
        {"account_id": "hanako", "password": "correct horse battery", "email": "Hanako@Example.JP"},
    )
    assert page.status_code == 200
    [verify] = sent_mails()
    assert verify.to == "hanako@example.jp"
    assert verify.subject == "【人狼ひろば】メールアドレスの確認"
    assert verify.message["List-Unsubscribe"] is None  # not a notice: nothing to stop
    [link] = links_in(verify.text)
    assert link.startswith("https://mobius.example/verify?token=")
    assert f'href="{link}"' in verify.html
    assert f"{jst(clock() + accounts.VERIFY_FOR)}" in verify.text
    assert "hanako さん" in verify.text
    # The link verifies only on the button's POST.
    token = link.split("token=")[1]
    assert accounts.verify_email(token, clock()).account_id == "hanako"


# ----- reminders -----


def test_reminders_go_once_before_the_deadline_to_living_members_who_have_not_saved(
    players, clock, rng, village
):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start
    tick(clock, rng)
    box = MailBox()
    box.new()
    savers = {seated["seer_a"], seated["seer_b"]}
    muted = seated["medium_b"]
    accounts.set_preferences(muted, {"reminder_mail": False})
    clock.now = start + timedelta(minutes=1)
    for account in seated.values():
        if account in savers:
            actions.save_actions(village, account, {"pray": "assassin"}, clock())
        else:
            villages.touch(village, account, clock())
    # Short village: 15 minutes before the deadline (45 min), not earlier.
    tick_until(clock, rng, start + timedelta(minutes=29), step=timedelta(minutes=7))
    assert box.new() == []
    clock.now = start + timedelta(minutes=30)
    tick(clock, rng)
    reminders = box.new()
    expected = set(seated.values()) - savers - {muted}
    assert sorted(account_of(m) for m in reminders) == sorted(expected)
    record = load_village(village)
    deadline = jst(start + SHORT.day)
    for reminder in reminders:
        assert (
            reminder.subject
            == "【人狼ひろば・メビウス】1番 テスト村：〆切が近づいています（1日目）"
        )
        assert "今日の行動がまだ決まっていません" in reminder.text
        assert f"〆切: {deadline}" in reminder.text
        assert "ワンタップで行動" in reminder.html
    assert record._meta.reminded_day == 1
    # Once: later ticks of the day, a duplicate tick, a save after the reminder: nothing more.
    tick(clock, rng)
    actions.save_actions(village, seated["guard_a"], {"pray": "assassin"}, clock())
    tick_until(clock, rng, start + timedelta(minutes=59), step=timedelta(minutes=4))
    # (Those last seen at 1 min are warned at 46 min of their departure at 61, decision 140.)
    assert [m for m in box.new() if IDLE_WARNING_SUBJECT not in m.subject] == []

    # Day 2: the judged character is dead and is not reminded; the others who saved on
    # day 1 but not today are.
    clock.now = start + SHORT.turn
    tick(clock, rng)
    record = load_village(village)
    [dead] = [s for s, d in record.game.deaths.items() if d.kind == "ash"]
    assert dead == "assassin"
    box.new()
    clock.advance(timedelta(minutes=1))
    touch_all(village, {s: a for s, a in seated.items() if s not in record.game.deaths}, clock)
    tick_until(clock, rng, start + SHORT.turn + timedelta(minutes=30), step=timedelta(minutes=10))
    reminded = {account_of(m) for m in box.new()}
    living = {a for s, a in seated.items() if s not in record.game.deaths}
    assert reminded == living - {muted}
    assert seated[dead] not in reminded


def test_a_long_village_reminds_three_hours_before_its_deadline(players, clock, rng):
    first = clock() + timedelta(hours=1)
    vid = villages.create_village(
        villages.AskedVillage(pace="long", name="長期村", first_update=first), now=clock(), rng=rng
    )
    seated = seat(vid, players, clock)
    tick_until(clock, rng, first, step=timedelta(hours=1))
    record = load_village(vid)
    reminder_at = record.rules.reminder(record, record.created_at)[0]
    assert reminder_at == first + LONG.day - timedelta(hours=3)
    box = MailBox()
    box.new()
    clock.advance(timedelta(hours=1))
    touch_all(vid, seated, clock)
    tick_until(clock, rng, first + timedelta(hours=14, minutes=59), step=timedelta(hours=5))
    assert box.new() == []
    clock.now = first + timedelta(hours=15)
    tick(clock, rng)
    reminders = box.new()
    assert len(reminders) == 13
    # In Japan time: 18 h after the 13:00 JST start, the deadline is 07:00 JST.
    assert jst(first) == "2026年12月1日 13:00"
    assert all("〆切: 2026年12月2日 07:00" in m.text for m in reminders)
    assert all("次の更新: 2026年12月2日 13:00" in m.text for m in reminders)


# ----- the abandoned village -----


def test_the_abandoned_notice_links_to_the_village_page(players, clock, rng, village, client):
    seated = seat(village, players[:5], clock)
    box = MailBox()
    hosting.abandon(village, "人数が集まらないため", "cli:test", clock())
    clock.advance(timedelta(minutes=1))
    tick(clock, rng)
    notices = box.new()
    assert sorted(account_of(m) for m in notices) == sorted(seated.values())
    for notice in notices:
        assert notice.subject == "【人狼ひろば・メビウス】1番 テスト村：廃村になりました"
        [link] = [u for u in links_in(notice.text) if "/unsubscribe/" not in u]
        page = Phone(client).get(path_of(link))
        assert page.status_code == 200, body_of(page)
        assert "テスト村" in body_of(page)


def test_the_ending_notice_names_the_winner_and_opens_every_side(players, clock, rng, village):
    seated = seat(village, players, clock)
    start = load_village(village)._meta.next_update
    clock.now = start
    tick(clock, rng)
    clock.advance(timedelta(minutes=2))
    game = load_village(village).game
    oni_side = [s for s in game.sides if game.sides[s] in ("oni", "madman")]
    box = MailBox()
    box.new()
    for slot in oni_side[:3]:
        actions.save_actions(village, seated[slot], {"victory": slot}, clock())
    assert load_village(village)._meta.state == "ending"
    tick(clock, rng)
    endings = box.new()
    assert len(endings) == 13
    for notice in endings:
        assert notice.subject == "【人狼ひろば・メビウス】1番 テスト村：決着がつきました（1日目）"
        assert "鬼サイドの勝利です（勝利宣言）" in notice.text
        # Declared by day: no new morning, so no morning report in the mail.
        assert "日目の朝になりました" not in notice.joined
        assert notice.text.count(": 鬼\n") == 3
        assert notice.text.count(": 狂人\n") == 1
        assert "ワンタップ" not in notice.joined
    # Closing at the next update sends nothing.
    tick_until(clock, rng, start + SHORT.turn, step=timedelta(minutes=20))
    assert load_village(village)._meta.state == "ended"
    assert box.new() == []
