"""Mail per event for games played move by move (decision 56): the end to a player who was not
the one ending it, and, played by mail (1手1日), the turn to the person to move and a reminder
before the deadline; keyed by the game and its move count, through the villages' outbox, mail
worker, preferences and unsubscribe. Guests have no address: no mail. Sent on moto's SES."""

import email
import re
from datetime import timedelta
from email.header import decode_header, make_header
from urllib.parse import urlparse

from chalicelib import effects, jobs
from chalicelib.clock import jst
from chalicelib.labels import SITE_NAME
from chalicelib.services import accounts, scheduler
from chalicelib.storage import outbox as mailbox
from tests.support.accounts import make_account
from tests.support.clients import text
from tests.support.mail import mail_text, sent_messages
from tests.support.matches import worker_look
from tests.support.queues import sqs_event
from tests.web.test_matches import play_json, start, stored

BRAND = f"【{SITE_NAME}・2人で遊ぶ人狼】"
PASS_LINK = re.compile(r"https?://\S+/matches/[A-Za-z0-9_-]{16}/pass/\S+")


def mails_to(account: str) -> list:
    return [m for m in sent_messages() if f"{account}@example.jp" in m.destinations]


def subject(message) -> str:
    parsed = email.message_from_string(message.raw_data)
    return str(make_header(decode_header(parsed["Subject"])))


def two_people(browser, new_browser, clock, control="day", side="A"):
    """alice starts a private game on ``side``, bob joins by its link: both signed in."""
    make_account("alice", clock())
    make_account("bob", clock())
    browser.login("alice")
    match_id = start(browser, side=side, clock=control, opponent="invite")
    friend = new_browser()
    friend.login("bob")
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, friend


def test_correspondence_the_person_to_move_is_mailed_their_turn_with_a_signed_link(
    browser, new_browser, clock
):
    match_id, _friend = two_people(browser, new_browser, clock)
    # bob sat: A (alice) is to move and away. Nobody has moved: the game has begun.
    [first] = mails_to("alice")
    begun = "対局が始まりました（あなたの番です）"
    assert subject(first) == f"{BRAND}スタンダード9人 A(村人陣営)：{begun}"
    said = mail_text(first)
    assert "相手が席に着き、対局が始まりました" in said and "相手が指しました" not in said
    assert mails_to("bob") == []
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    [turn] = mails_to("bob")
    assert subject(turn) == f"{BRAND}スタンダード9人 B(人狼陣営)：あなたの番です"
    body = mail_text(turn)
    assert "あなたの番です" in body and "〆切:" in body and "/unsubscribe/" in body
    assert len(mails_to("alice")) == 1  # alice moved: she was on the page
    # The signed link lets bob in (a phone where nobody is logged in), this game only.
    link = PASS_LINK.search(body)
    assert link
    phone = new_browser()
    response = phone.get(urlparse(link.group(0)).path)
    assert response.status_code == 303 and response.headers["Location"].endswith(match_id)
    page = text(phone.get(f"/matches/{match_id}"))
    assert "あなたの番" in page and "リンクで参加中" in page
    assert play_json(phone, match_id, {"do": "answer", "claims": []}).status_code == 303
    other = start(new_browser())  # a guest's game: the link lends nothing there
    assert phone.get(f"/matches/{other}").status_code == 403


def test_a_link_of_another_game_or_tampered_with_is_refused(browser, new_browser, clock):
    match_id, _ = two_people(browser, new_browser, clock)
    [turn] = mails_to("alice")
    path = urlparse(PASS_LINK.search(mail_text(turn)).group(0)).path
    phone = new_browser()
    other = start(new_browser())
    assert phone.get(path.replace(match_id, other)).status_code == 400
    assert phone.get(path[:-2] + "xx").status_code == 400
    clock.advance(timedelta(days=1, seconds=1))  # the link ends with the turn's deadline
    assert phone.get(path).status_code == 400


def test_no_turn_mail_in_a_game_with_a_clock_that_is_not_by_mail(browser, new_browser, clock):
    match_id, _ = two_people(browser, new_browser, clock, control="3m")
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert mails_to("alice") == [] and mails_to("bob") == []


def test_the_end_is_mailed_to_the_player_who_did_not_end_it(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    browser.get(f"/matches/{match_id}")
    response = browser.post(
        f"/matches/{match_id}/moves",
        {"moves": str(stored(match_id).moves), "do": "resign", "confirm": "1"},
    )
    assert response.status_code == 303
    [end] = mails_to("bob")
    assert subject(end) == f"{BRAND}スタンダード9人 B(人狼陣営)：対局が終わりました"
    body = mail_text(end)
    assert "人狼陣営の勝ちで、あなたの勝ちです" in body and "感想戦" in body
    assert mails_to("alice") == []
    phone = new_browser()
    phone.get(urlparse(PASS_LINK.search(body).group(0)).path)
    assert "感想戦" in text(phone.get(f"/matches/{match_id}"))  # the revealed board


def test_lost_on_time_with_nobody_looking_the_player_is_mailed_the_end(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="3m")  # against the CPU
    clock.advance(timedelta(seconds=201))
    assert worker_look(match_id, 0, clock())
    [end] = mails_to("alice")
    assert "時間切れ" in mail_text(end) and "あなたの負け" in mail_text(end)


def test_lost_on_time_found_by_the_players_own_page_is_not_mailed(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="3m")
    clock.advance(timedelta(seconds=201))
    assert "時間切れ" in text(browser.get(f"/matches/{match_id}"))
    assert stored(match_id).state == "ended" and mails_to("alice") == []


def test_a_game_the_person_ends_against_the_cpu_owes_no_mail(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="day")
    browser.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign", "confirm": "1"})
    assert stored(match_id).state == "ended" and mails_to("alice") == []


def test_a_guest_is_never_mailed(browser, new_browser, clock):
    match_id = start(browser, clock="day", opponent="invite")
    friend = new_browser()
    make_account("bob", clock())
    friend.login("bob")
    friend.get(f"/matches/{match_id}")
    friend.post(f"/matches/{match_id}/join")  # B: the guest (A) is to move
    clock.advance(timedelta(hours=22))
    worker_look(match_id, 0, clock())
    clock.advance(timedelta(hours=3))
    worker_look(match_id, 0, clock())
    assert stored(match_id).state == "ended"
    assert len(mails_to("bob")) == 1 and "あなたの勝ち" in mail_text(mails_to("bob")[0])
    assert len(sent_messages()) == 1  # bob's end only: the guest has no address


def test_correspondence_the_player_is_reminded_once_before_the_deadline(
    browser, new_browser, clock
):
    match_id, _friend = two_people(browser, new_browser, clock)
    assert len(mails_to("alice")) == 1  # her turn
    clock.advance(timedelta(hours=20, minutes=59))
    worker_look(match_id, 0, clock())
    assert len(mails_to("alice")) == 1  # not yet: more than 3 hours left
    clock.advance(timedelta(minutes=2))
    for _ in range(2):  # a duplicate message reminds once
        worker_look(match_id, 0, clock())
    _turn, reminder = mails_to("alice")
    assert subject(reminder) == f"{BRAND}スタンダード9人 A(村人陣営)：〆切が近づいています"
    assert "時間切れであなたの負け" in mail_text(reminder)
    # Redelivered to the mail worker: nothing is sent twice.
    scheduler.send_owed_mail(mailbox.match_mail(match_id), clock())
    jobs.mail_batch(sqs_event(mailbox.match_mail(match_id)))
    assert len(mails_to("alice")) == 2 and mails_to("bob") == []


def test_a_turn_played_before_its_mail_left_is_not_mailed(browser, new_browser, clock, monkeypatch):
    held = []
    # The mail worker is slow.
    monkeypatch.setattr(
        effects, "hand_over_mail", lambda owed, unit=None: held.extend(h.owner for h in owed)
    )
    match_id, friend = two_people(browser, new_browser, clock)
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert play_json(friend, match_id, {"do": "answer", "claims": []}).status_code == 303
    for owner in held:
        scheduler.send_owed_mail(owner, clock())
    # alice's turn came back to her before the worker ran: her first notice is stale, bob's
    # too (he answered); her second one (move 2) is sent, and says bob moved.
    [turn] = mails_to("alice")
    assert "相手が指しました" in mail_text(turn) and mails_to("bob") == []


def test_preferences_switch_match_mail_off(browser, new_browser, clock):
    make_account("alice", clock())
    accounts.set_preferences("alice", {"morning_mail": False, "reminder_mail": True})
    make_account("bob", clock())
    accounts.set_preferences("bob", {"morning_mail": True, "reminder_mail": True})
    browser.login("alice")
    match_id = start(browser, clock="day", opponent="invite")
    friend = new_browser()
    friend.login("bob")
    friend.get(f"/matches/{match_id}")
    friend.post(f"/matches/{match_id}/join")
    assert mails_to("alice") == []  # her turn's mail is off
    clock.advance(timedelta(hours=21, minutes=1))
    worker_look(match_id, 0, clock())
    [reminder] = mails_to("alice")  # reminders are a preference of their own
    assert "〆切" in subject(reminder)


def test_correspondence_page_names_the_deadline_in_jst_not_seconds(browser, new_browser, clock):
    """1手1日 (issue 37): the page shows the day and time to move by, in JST, never a bank
    of 0 and a countdown of 86,400 seconds."""
    match_id, friend = two_people(browser, new_browser, clock)
    deadline = clock() + timedelta(days=1)
    when = jst(deadline)
    page = text(browser.get(f"/matches/{match_id}"))
    assert f"あなたの〆切は <strong>{when}</strong>(日本時間)です" in page
    assert "秒読み" not in page and "持ち時間 0分" not in page
    assert 'class="clock running"' not in page  # nothing for the live script to count down
    assert f"相手の〆切は <strong>{when}</strong>" in text(friend.get(f"/matches/{match_id}"))


def test_the_pages_name_the_opponent_naturally(browser, new_browser, clock):
    """The inviter waits (招待中), then both play a person: never 「相手は招待した人」."""
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="day", opponent="invite")
    page = text(browser.get(f"/matches/{match_id}"))
    assert "招待中・相手を待っています" in page and "〆切は相手が席に着いてから決まります" in page
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    for who in (browser, friend):
        page = text(who.get(f"/matches/{match_id}"))
        assert "人との対局" in page and "招待した人" not in page
