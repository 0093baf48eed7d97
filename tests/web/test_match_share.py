"""棋譜を共有 (issue 25, decision 62): either player of an ended game makes a public read-only
link to its record — every card and the review revealed, no player, no chat, an Open Graph
card — which anyone opens logged out, and either player takes back (the link stops at once)."""

import re

from tests.support.clients import text
from tests.web.test_matches import start, stored

RECORD = re.compile(r"/records/([A-Za-z0-9_-]{16})")


def two_people_ended(browser, new_browser):
    match_id = start(browser, side="B", opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    browser.get(f"/matches/{match_id}")
    browser.post(f"/matches/{match_id}/chat", {"text": "ないしょの話"})
    friend.get(f"/matches/{match_id}")
    friend.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign", "confirm": "1"})
    assert stored(match_id).state == "ended"
    return match_id, friend


def share(browser, match_id: str):
    browser.get(f"/matches/{match_id}")
    return browser.post(f"/matches/{match_id}/share", {"do": "share"})


def test_a_shared_record_is_read_logged_out_with_everything_revealed(browser, new_browser):
    match_id, _ = two_people_ended(browser, new_browser)
    assert share(browser, match_id).status_code == 303
    page = text(browser.get(f"/matches/{match_id}"))
    token = RECORD.search(page).group(1)
    reader = new_browser()  # logged out, no cookie
    shared = reader.get(f"/records/{token}")
    assert shared.status_code == 200
    body = text(shared)
    assert "棋譜" in body and "人狼陣営の勝ち" in body and "感想戦" in body
    assert body.count('class="truth"') == 9  # every card's true role
    assert "ないしょの話" not in body and 'id="chat"' not in body  # no chat
    for player in stored(match_id).players.as_dict().values():  # nothing of the players
        assert player.removeprefix("g:") not in body
    assert "投了する" not in body and "<form" not in body.split("<main")[1]
    assert f'<meta property="og:url" content="http://127.0.0.1:8000/records/{token}">' in body
    assert '<meta property="og:title" content="2人で遊ぶ人狼・スタンダード9人の棋譜：' in body
    assert '<meta name="twitter:card" content="summary">' in body


def test_sharing_twice_keeps_one_link_and_either_player_takes_it_back(browser, new_browser):
    match_id, friend = two_people_ended(browser, new_browser)
    share(browser, match_id)
    token = stored(match_id).share
    share(friend, match_id)
    assert stored(match_id).share == token
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/share", {"do": "withdraw"}).status_code == 303
    assert stored(match_id).share is None
    assert new_browser().get(f"/records/{token}").status_code == 404
    share(browser, match_id)  # shared again: a new link, the old one stays dead
    assert stored(match_id).share not in (None, token)
    assert new_browser().get(f"/records/{token}").status_code == 404


def test_a_running_game_cannot_be_shared(browser):
    match_id = start(browser)
    response = share(browser, match_id)
    assert response.status_code == 409 and stored(match_id).share is None


def test_only_a_player_shares_or_takes_back(browser, new_browser):
    match_id, _ = two_people_ended(browser, new_browser)
    third = new_browser()
    third.get("/")
    assert third.post(f"/matches/{match_id}/share", {"do": "share"}).status_code == 403
    share(browser, match_id)
    assert third.post(f"/matches/{match_id}/share", {"do": "withdraw"}).status_code == 403
    assert stored(match_id).share is not None


def test_an_unknown_or_malformed_record_link_is_404(browser):
    assert browser.get("/records/AAAAAAAAAAAAAAAA").status_code == 404
    assert browser.get("/records/not-a-token").status_code == 404


def test_a_game_against_the_cpu_is_shared_too(browser, new_browser):
    match_id = start(browser, side="A")
    browser.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign", "confirm": "1"})
    share(browser, match_id)
    token = stored(match_id).share
    assert "人狼陣営の勝ち" in text(new_browser().get(f"/records/{token}"))
