"""An invitation is revocable by its creator (issue 25 「ルームを作成」, decision 63): while the
other seat waits, 「招待を取り消す」 deletes the game at once — its link, its room and its
place in the creator's list lead nowhere; once someone sat it cannot be taken back."""

from chalicelib.storage import matches as store
from tests.support.clients import text
from tests.web.test_matches import start


def cancel(browser, match_id: str):
    browser.get(f"/matches/{match_id}")
    return browser.post(f"/matches/{match_id}/cancel")


def test_the_creator_takes_an_invitation_back_and_its_link_leads_nowhere(browser, new_browser):
    match_id = start(browser, side="B", opponent="room")
    assert "招待を取り消す" in text(browser.get(f"/matches/{match_id}"))
    response = cancel(browser, match_id)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert store.load_match(match_id) is None
    friend = new_browser()
    assert friend.get(f"/matches/{match_id}").status_code == 404
    assert friend.post(f"/matches/{match_id}/join").status_code == 404
    assert match_id not in text(friend.get("/"))  # not in the rooms
    assert match_id not in text(browser.get("/"))  # not in the creator's games


def test_moves_made_while_waiting_go_with_it(browser):
    match_id = start(browser, side="A", opponent="invite")
    browser.get(f"/matches/{match_id}")
    move = {"moves": "0", "do": "co", "role.seer": "1", "scope": "whole"}
    assert browser.post(f"/matches/{match_id}/moves", move).status_code == 303
    assert len(store.match_moves(match_id)) == 1
    assert cancel(browser, match_id).status_code == 303
    assert store.match_moves(match_id) == []


def test_once_someone_sat_it_cannot_be_taken_back(browser, new_browser):
    match_id = start(browser, opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    friend.post(f"/matches/{match_id}/join")
    assert "招待を取り消す" not in text(browser.get(f"/matches/{match_id}"))
    assert cancel(browser, match_id).status_code == 409
    assert cancel(friend, match_id).status_code == 409
    assert store.load_match(match_id) is not None


def test_nobody_else_takes_it_back_and_a_cpu_game_has_none(browser, new_browser):
    match_id = start(browser, opponent="invite")
    other = new_browser()
    other.get("/")
    assert other.post(f"/matches/{match_id}/cancel").status_code == 403
    against_cpu = start(browser)
    assert cancel(browser, against_cpu).status_code == 409
    assert store.load_match(match_id) is not None and store.load_match(against_cpu) is not None
