"""Guest games do not live forever (decision 58): a game no account plays carries DynamoDB's TTL
(`expires_at`) 30 days after its last write, its guests' list entries too; a game an account
plays is kept. DynamoDB deletes an expired item only some time after (moto never does): every
page, the view, a move, the live question and the top page's list treat it as gone already."""

from datetime import timedelta

from chalicelib.storage import matches as store
from chalicelib.storage.keys import player_match_sk, player_pk
from chalicelib.storage.models import MatchItem, MoveItem, PlayerMatchItem
from tests.support.accounts import make_account
from tests.support.clients import text
from tests.support.matches import worker_look
from tests.web.test_matches import play_json, start, stored

KEPT = timedelta(days=30)


def listed(player: str, match_id: str):
    item = stored(match_id)
    return PlayerMatchItem.get(player_pk(player), player_match_sk(item.created_at, match_id))


def guest_of(match_id: str) -> str:
    return next(p for p in stored(match_id).players.as_dict().values() if p.startswith("g:"))


def test_a_guest_game_expires_30_days_after_its_last_write(browser, clock):
    match_id = start(browser)
    assert stored(match_id).expires_at == clock() + KEPT
    guest = guest_of(match_id)
    assert listed(guest, match_id).expires_at == clock() + KEPT
    clock.advance(timedelta(days=3))
    response = play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    assert response.status_code == 303
    assert stored(match_id).expires_at == clock() + KEPT  # each write keeps it longer
    assert listed(guest, match_id).expires_at == clock() + KEPT
    moves = list(MoveItem.query(f"M#{match_id}", MoveItem.sk.startswith("MOVE#")))
    assert moves and all(m.expires_at == clock() + KEPT for m in moves)


def test_a_finished_guest_game_expires_30_days_after_its_end(browser, clock):
    match_id = start(browser)
    clock.advance(timedelta(hours=1))
    browser.get(f"/matches/{match_id}")
    response = browser.post(
        f"/matches/{match_id}/moves",
        {"moves": str(stored(match_id).moves), "do": "resign", "confirm": "1"},
    )
    assert response.status_code == 303
    ended = stored(match_id)
    assert ended.state == "ended" and ended.expires_at == clock() + KEPT


def test_a_game_an_account_plays_is_kept(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser)
    assert stored(match_id).expires_at is None
    assert listed("a:alice", match_id).expires_at is None
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    assert stored(match_id).expires_at is None


def test_an_account_joining_a_guests_invitation_keeps_the_game(browser, new_browser, clock):
    match_id = start(browser, opponent="invite")
    assert stored(match_id).expires_at == clock() + KEPT
    friend = new_browser()
    make_account("bob", clock())
    friend.login("bob")
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    assert stored(match_id).expires_at is None
    guest = guest_of(match_id)
    assert listed(guest, match_id).expires_at == clock() + KEPT  # the guest's list still goes


def test_an_expired_guest_game_not_yet_deleted_is_gone_everywhere(browser, clock):
    match_id = start(browser)
    assert match_id in text(browser.get("/"))
    # Its TTL passed a second ago (the guest's cookie still valid: set it, not the clock).
    past = clock() - timedelta(seconds=1)
    stored(match_id).update(actions=[MatchItem.expires_at.set(past)])
    entry = listed(guest_of(match_id), match_id)
    entry.update(actions=[PlayerMatchItem.expires_at.set(past)])
    assert store.load_match(match_id) is not None  # DynamoDB has not deleted it yet
    assert browser.get(f"/matches/{match_id}").status_code == 404
    assert browser.get(f"/matches/{match_id}/view").status_code == 404
    assert browser.get(f"/matches/{match_id}/since/0").status_code == 404
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}, 0).status_code == 404
    assert match_id not in text(browser.get("/"))
    assert stored(match_id).moves == 0  # the refused move wrote nothing


def test_a_worker_looking_at_an_expired_game_does_nothing(browser, clock):
    match_id = start(browser, clock="3m")
    clock.advance(KEPT + timedelta(seconds=1))
    assert not worker_look(match_id, stored(match_id).moves, clock())
    assert stored(match_id).state == "running"
