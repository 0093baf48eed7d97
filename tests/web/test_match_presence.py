"""Leaving a live game loses (issue 25, decision 82): in a live game between two people, the
player whose page has been gone for a minute while it is their move loses (接続切れ（1分）);
reloading at once keeps the game; games against the computer and games played by mail are
exempt. Presence is the page's loads, its polls (with the page's token) and, without
JavaScript, its small self-refreshing frame; the loss is decided by any read or write of the
game and by the worker's delayed look, conditioned so that exactly one outcome wins. Driven
by the clock seam."""

import html
import json
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from chalicelib import effects
from chalicelib.rules.duel import Duel
from chalicelib.services import matches
from chalicelib.storage import matches as store
from tests.support.accounts import make_account
from tests.support.clients import header, text
from tests.support.mail import mail_text
from tests.support.matches import worker_look
from tests.web.test_match_mail import mails_to, two_people
from tests.web.test_matches import play_json, start, stored

SECOND = timedelta(seconds=1)
POLL = re.compile(r'data-poll="([^"]+)"')
FRAME = re.compile(r'<iframe class="here" src="([^"]+)"')


@pytest.fixture
def watched(monkeypatch):
    """The delayed messages the game's writes ask for: (match, moves, when)."""
    asked = []
    monkeypatch.setattr(effects, "watch_clock", lambda *call: asked.append(call))
    return asked


def flat(mail) -> str:
    """A mail's text part without the line breaks its 78-octet lines put in."""
    return mail_text(mail).replace("\n", "")


def look(match_id: str, clock, moves: int = 0) -> bool:
    return worker_look(match_id, moves, clock())


def ending(match_id: str) -> dict | None:
    return Duel.from_json(stored(match_id).game).ending


def seen(match_id: str):
    presence = store.load_match(match_id).presence
    assert presence is not None
    return presence.seen


def poll_of(browser, match_id: str) -> tuple[str, str | None]:
    """The page's poll (its address, ``?seat=open`` if made while a seat waited) and its
    presence token."""
    found = POLL.search(text(browser.get(f"/matches/{match_id}")))
    assert found
    url = urlsplit(html.unescape(found.group(1)))
    query = parse_qs(url.query)
    seat = f"?seat={query['seat'][0]}" if "seat" in query else ""
    return url.path + seat, query["here"][0] if "here" in query else None


def here_poll(poll: str, token: str) -> str:
    return f"{poll}{'&' if '?' in poll else '?'}here={token}"


def test_gone_59_seconds_keeps_the_game_61_seconds_loses_it(browser, new_browser, clock):
    match_id, friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()  # bob sat: alice (A) is to move, her presence counts from now
    clock.advance(59 * SECOND)
    assert not look(match_id, clock)
    assert "あなたの番" not in text(friend.get(f"/matches/{match_id}"))  # bob waits
    assert stored(match_id).state == "running"
    clock.advance(2 * SECOND)
    assert look(match_id, clock)
    item = stored(match_id)
    assert item.state == "ended" and item.ended_at == began + 60 * SECOND
    assert ending(match_id) == {"winner": "wolves", "day": 1, "at": "gone", "by": "A"}
    page = text(browser.get(f"/matches/{match_id}"))
    assert "あなたの負け" in page and "接続切れ（1分）" in page
    # Nobody was on the page when the worker found it: both are mailed the end.
    [lost] = mails_to("alice")
    assert "接続切れ（1分）" in flat(lost) and "あなたの負け" in flat(lost)
    [won] = mails_to("bob")
    assert "接続切れ（1分）" in flat(won) and "あなたの勝ち" in flat(won)


def test_reloading_at_30_seconds_resets_the_minute(browser, new_browser, clock):
    match_id, friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    clock.advance(30 * SECOND)
    assert browser.get(f"/matches/{match_id}").status_code == 200  # alice reloads
    assert seen(match_id) == began + 30 * SECOND
    clock.advance(31 * SECOND)
    assert not look(match_id, clock)
    assert stored(match_id).state == "running"
    clock.advance(30 * SECOND)  # 60 s since the reload: bob's page finds it
    assert "あなたの勝ち" in text(friend.get(f"/matches/{match_id}"))
    assert ending(match_id)["at"] == "gone"
    assert stored(match_id).ended_at == began + 90 * SECOND
    assert mails_to("bob") == []  # bob was on the page
    assert "接続切れ（1分）" in flat(mails_to("alice")[0])


def test_coming_back_after_the_minute_is_too_late(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    clock.advance(61 * SECOND)
    page = text(browser.get(f"/matches/{match_id}"))
    assert "あなたの負け" in page and "接続切れ（1分）" in page
    assert mails_to("alice") == [] and len(mails_to("bob")) == 1


def test_the_pages_polls_say_the_player_is_here_at_most_every_15_seconds(
    browser, new_browser, clock
):
    match_id, friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    poll, token = poll_of(browser, match_id)
    assert token  # the mover's page carries its presence token
    clock.advance(10 * SECOND)
    assert browser.client.http.get(here_poll(poll, token)).status_code == 200
    assert seen(match_id) == began  # 10 s: nothing written
    clock.advance(6 * SECOND)
    browser.client.http.get(here_poll(poll, token))
    assert seen(match_id) == began + 16 * SECOND
    for _ in range(5):  # an open page keeps the game however long the player thinks
        clock.advance(15 * SECOND)
        browser.client.http.get(here_poll(poll, token))
        assert not look(match_id, clock)
    assert stored(match_id).state == "running"
    # Without the token, or with bob's own page's (he waits: it has none), nothing counts.
    bob_poll, bob_token = poll_of(friend, match_id)
    assert bob_token is None
    clock.advance(20 * SECOND)
    before = seen(match_id)
    browser.get(poll)
    browser.client.http.get(here_poll(poll, token[:-3] + "abc"))
    assert seen(match_id) == before
    clock.advance(45 * SECOND)  # 65 s since alice was last seen: bob's poll says so
    answer = json.loads(text(friend.get(bob_poll)))
    assert answer["new"] is True
    friend.get(f"/matches/{match_id}")
    assert ending(match_id)["at"] == "gone"


def test_without_javascript_the_frame_on_the_page_says_the_player_is_here(
    browser, new_browser, clock
):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    page = text(browser.get(f"/matches/{match_id}"))
    frame = FRAME.search(page)
    assert frame and "<noscript>" in page
    for _ in range(6):  # the frame refreshes itself; the page (a move half filled in) stays
        clock.advance(20 * SECOND)
        response = browser.client.http.get(frame.group(1))  # no cookie needed
        assert response.status_code == 200
        assert header(response, "X-Frame-Options") == "SAMEORIGIN"
        assert "frame-ancestors 'self'" in header(response, "Content-Security-Policy")
        assert 'http-equiv="refresh"' in text(response) and "接続中" in text(response)
        assert not look(match_id, clock)
    assert stored(match_id).state == "running"
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    after = browser.client.http.get(frame.group(1))
    assert "対局が動きました" in text(after) and 'http-equiv="refresh"' not in text(after)


def test_the_waiting_sides_absence_does_not_matter_only_the_movers(browser, new_browser, clock):
    # No clock at all: a game between two people on their pages is still a live game.
    match_id, friend = two_people(browser, new_browser, clock, control="none")
    poll, token = poll_of(browser, match_id)
    for _ in range(30):  # five minutes: alice thinks on her page, bob's page is gone
        clock.advance(10 * SECOND)
        browser.client.http.get(here_poll(poll, token))
        assert not look(match_id, clock)
    assert stored(match_id).state == "running"
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    answered = clock()  # bob must answer now: his minute starts with his turn
    clock.advance(59 * SECOND)
    assert not look(match_id, clock, moves=1)
    clock.advance(2 * SECOND)
    assert look(match_id, clock, moves=1)
    assert ending(match_id) == {"winner": "village", "day": 1, "at": "gone", "by": "B"}
    assert stored(match_id).ended_at == answered + 60 * SECOND
    assert "あなたの勝ち" in text(browser.get(f"/matches/{match_id}"))
    assert "接続切れ（1分）" in text(friend.get(f"/matches/{match_id}"))


def test_games_against_the_cpu_are_exempt(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="3m")
    assert stored(match_id).presence is None
    clock.advance(150 * SECOND)
    assert "あなたの番" in text(browser.get(f"/matches/{match_id}"))
    assert stored(match_id).state == "running"  # only the flag (200 s) ends it


def test_games_played_by_mail_are_exempt(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="day")
    assert stored(match_id).presence is None
    clock.advance(timedelta(hours=2))
    assert not look(match_id, clock)
    assert stored(match_id).state == "running"


def test_duplicate_looks_end_the_game_once_and_mail_it_once(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    clock.advance(61 * SECOND)
    assert look(match_id, clock)
    assert not look(match_id, clock)
    clock.advance(SECOND)
    assert not look(match_id, clock)
    assert len(mails_to("alice")) == 1 and len(mails_to("bob")) == 1
    assert len(store.match_moves(match_id)) == 0


def test_the_worker_is_asked_to_look_at_the_minute_and_again_after_a_sign_of_life(
    browser, new_browser, clock, watched
):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    assert watched[-1] == (match_id, 0, began + 60 * SECOND)  # not the flag's 200 s
    clock.advance(20 * SECOND)
    browser.get(f"/matches/{match_id}")
    clock.advance(41 * SECOND)
    assert not look(match_id, clock)
    assert watched[-1] == (match_id, 0, began + 80 * SECOND)
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert watched[-1] == (match_id, 1, clock() + 60 * SECOND)  # bob's minute


def test_a_player_back_at_second_59_beats_the_loss_being_written(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    clock.advance(59 * SECOND)
    hers = matches.load(match_id)  # alice's reload reads the game at 59 s ...
    clock.advance(2 * SECOND)
    worker = matches.load(match_id)  # ... the worker reads it at 61 s, before her write
    matches.seen_here(match_id, hers.presence, "A", began + 59 * SECOND)
    assert not matches.end_if_due(worker, clock())  # its condition: not seen since its read
    assert stored(match_id).state == "running"
    assert seen(match_id) == began + 59 * SECOND


def test_a_loss_written_first_makes_the_late_sign_of_life_a_no_op(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    clock.advance(59 * SECOND)
    hers = matches.load(match_id)
    clock.advance(2 * SECOND)
    assert matches.end_if_due(matches.load(match_id), clock())
    matches.seen_here(match_id, hers.presence, "A", began + 59 * SECOND)  # refused, quietly
    assert ending(match_id)["at"] == "gone" and store.load_match(match_id).presence is None


def test_a_move_that_arrives_while_the_loss_is_written_wins_or_loses_whole(
    browser, new_browser, clock
):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    began = clock()
    clock.advance(61 * SECOND)
    worker = matches.load(match_id)
    # alice's move request began at 59 s (not gone then) and commits before the worker's write.
    matches.move(
        matches.load(match_id),
        ["a:alice"],
        0,
        {"do": "co", "roles": ["seer"]},
        None,
        began + 59 * SECOND,
    )
    assert not matches.end_if_due(worker, clock())
    assert stored(match_id).state == "running" and stored(match_id).moves == 1
    # The other order: the loss first, then a move that read the game before it.
    other, _ = two_people_again(browser, new_browser, clock)
    clock.advance(61 * SECOND)
    mover = matches.load(other)
    assert matches.end_if_due(matches.load(other), clock())
    with pytest.raises(matches.Stale):
        matches.move(mover, ["a:alice"], 0, {"do": "co", "roles": ["seer"]}, None, clock())
    assert stored(other).moves == 0 and ending(other)["at"] == "gone"


def two_people_again(browser, new_browser, clock):
    """A second game between the same alice and bob (both already registered)."""
    match_id = start(browser, clock="3m", opponent="invite")
    friend = new_browser()
    friend.login("bob")
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, friend


def test_a_presence_token_speaks_for_its_own_game_only(browser, new_browser, clock):
    match_id, _friend = two_people(browser, new_browser, clock, control="3m")
    _poll, token = poll_of(browser, match_id)
    other, _ = two_people_again(browser, new_browser, clock)
    began = clock()
    clock.advance(20 * SECOND)
    browser.get(f"/matches/{other}/since/0", here=token)
    assert browser.client.http.get(f"/matches/{other}/here/{token}").status_code == 404
    assert seen(other) == began  # alice's token of the first game counts nowhere else


def test_an_inviter_waiting_on_the_page_is_here_when_the_other_sits(browser, new_browser, clock):
    match_id = start(browser, side="A", clock="3m", opponent="invite")
    poll, token = poll_of(browser, match_id)  # alice (A) waits on her page, her move next
    assert poll.endswith("?seat=open") and token
    assert json.loads(text(browser.get(poll)))["new"] is False
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    assert json.loads(text(browser.get(poll)))["new"] is True  # her page reloads into the game
    for _ in range(8):  # even a page that kept polling without reloading keeps her here
        clock.advance(10 * SECOND)
        browser.client.http.get(here_poll(poll, token))
        assert not look(match_id, clock)
    assert stored(match_id).state == "running"
