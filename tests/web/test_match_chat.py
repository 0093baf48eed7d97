"""Chat between the two people of a game (issue 25, decision 61): not part of the record, a
village post's limits (1,000 characters, one per 5 s per player), escaped, live through the
poll's count; none in a game against the computer; nobody else reads or writes it."""

import json
from datetime import timedelta

from tests.support.clients import alert, text
from tests.web.test_matches import moves_of, play_json, start, stored


def two_people(browser, new_browser):
    match_id = start(browser, side="B", clock="3m", opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, friend


def say(browser, match_id: str, words: str):
    browser.get(f"/matches/{match_id}")
    return browser.post(f"/matches/{match_id}/chat", {"text": words})


def chat_of(browser, match_id: str) -> str:
    return text(browser.get(f"/matches/{match_id}")).split('id="chat"')[1].split("</section>")[0]


def test_the_two_players_chat_and_each_sees_who_said_what(browser, new_browser, clock):
    match_id, friend = two_people(browser, new_browser)
    response = say(friend, match_id, "よろしくお願いします")
    assert response.status_code == 303 and response.headers["Location"].endswith("#chat")
    clock.advance(timedelta(seconds=1))
    assert say(browser, match_id, "こちらこそ\n二行目").status_code == 303
    mine = chat_of(browser, match_id)
    assert "相手</strong>" in mine and "よろしくお願いします" in mine
    assert "あなた</strong>" in mine and "こちらこそ\n二行目" in mine
    assert mine.index("よろしく") < mine.index("こちらこそ")  # oldest first
    # Not part of the record: no move, the game's count unchanged.
    assert moves_of(match_id) == [] and stored(match_id).moves == 0
    # The live poll counts the messages; the page shows a link to them.
    poll = json.loads(text(browser.get(f"/matches/{match_id}/since/0")))
    assert poll == {"new": False, "moves": 0, "state": "running", "chats": 2}
    assert 'data-chats="2"' in text(browser.get(f"/matches/{match_id}"))


def test_a_chat_message_is_escaped(browser, new_browser):
    match_id, friend = two_people(browser, new_browser)
    say(friend, match_id, '<script>alert("x")</script><b>太字</b>')
    seen = chat_of(browser, match_id)
    assert "<script>alert" not in seen and "&lt;script&gt;" in seen and "<b>" not in seen


def test_a_player_chats_once_per_5_seconds(browser, new_browser, clock):
    match_id, friend = two_people(browser, new_browser)
    assert say(friend, match_id, "一").status_code == 303
    clock.advance(timedelta(seconds=4))
    again = say(friend, match_id, "二")
    assert again.status_code == 429 and "連続して書き込めません" in alert(again)
    assert say(browser, match_id, "三").status_code == 303  # the other player's own pace
    clock.advance(timedelta(seconds=1))
    assert say(friend, match_id, "四").status_code == 303
    assert stored(match_id).chats == 3


def test_a_chat_message_has_a_village_posts_limits(browser, new_browser):
    match_id, friend = two_people(browser, new_browser)
    blank = say(friend, match_id, "  \n ")
    assert blank.status_code == 400 and "本文を書いてください" in alert(blank)
    long = say(friend, match_id, "あ" * 1001)
    assert long.status_code == 400 and "1000文字まで" in alert(long)
    assert say(friend, match_id, "あ" * 1000).status_code == 303


def test_no_chat_against_the_computer(browser):
    match_id = start(browser)
    page = text(browser.get(f"/matches/{match_id}"))
    assert 'id="chat"' not in page
    refused = browser.post(f"/matches/{match_id}/chat", {"text": "こんにちは"})
    assert refused.status_code == 403 and stored(match_id).chats == 0


def test_no_chat_while_the_other_seat_waits(browser):
    match_id = start(browser, opponent="invite")
    assert 'id="chat"' not in text(browser.get(f"/matches/{match_id}"))
    assert browser.post(f"/matches/{match_id}/chat", {"text": "だれか"}).status_code == 403


def test_nobody_else_reads_or_writes_the_chat(browser, new_browser):
    match_id, friend = two_people(browser, new_browser)
    say(friend, match_id, "ないしょ話")
    third = new_browser()
    page = third.get(f"/matches/{match_id}")
    assert page.status_code == 403 and "ないしょ話" not in text(page)
    third.get("/")
    assert third.post(f"/matches/{match_id}/chat", {"text": "割り込み"}).status_code == 403
    assert stored(match_id).chats == 1


def test_chat_goes_on_after_the_end_and_never_touches_the_moves(browser, new_browser, clock):
    match_id, friend = two_people(browser, new_browser)
    assert play_json(friend, match_id, {"do": "resign"}).status_code == 303
    clock.advance(timedelta(seconds=5))
    assert say(browser, match_id, "対局ありがとうございました").status_code == 303
    assert "対局ありがとうございました" in chat_of(friend, match_id)
    assert [m.move for m in moves_of(match_id)] == [{"do": "resign"}]
