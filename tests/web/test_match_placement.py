"""RULES-DUEL §3.1 placement: B puts the W werewolves by hand (手動配置) or at random
(完全ランダム). A person playing B who picks 手動配置 chooses the cards on a page of its own
before the game exists (decision 59); the engine's check of a placement is the refusal; the
placement is never stored outside the game (the setup kept with the game and the players'
lists omit it)."""

from chalicelib.rules.duel import Duel
from chalicelib.storage.keys import player_match_sk, player_pk
from chalicelib.storage.models import MatchItem, PlayerMatchItem
from tests.support.clients import alert, text
from tests.web.test_matches import MATCH_URL, stored

SETUP = {"rules": "duel", "preset": "std9", "strength": "normal", "clock": "none"}


def post(browser, **fields):
    browser.get("/")
    return browser.post("/matches", {**SETUP, "opponent": "cpu", **fields})


def games() -> list:
    return list(MatchItem.scan(MatchItem.sk == "META"))


def test_s3_1_the_top_page_offers_both_placements(browser):
    page = text(browser.get("/"))
    assert "人狼の配置" in page and "完全ランダム" in page and "手動配置" in page


def test_s3_1_b_places_the_werewolves_by_hand(browser):
    page = post(browser, side="B", placement="hand")
    assert page.status_code == 200 and games() == []  # no game before the placement
    body = text(page)
    assert "人狼の配置" in body and "2枚" in body
    assert body.count('name="wolf.') == 9  # every card of std9's board
    response = post(browser, side="B", placement="hand", **{"wolf.2": "1", "wolf.7": "1"})
    assert response.status_code == 303, alert(response)
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    duel = Duel.from_json(stored(match_id).game)
    assert duel.wolves == [2, 7]
    assert "人狼: #2・#7" in text(browser.get(f"/matches/{match_id}"))


def test_s3_1_a_placement_the_engine_refuses_comes_back_on_its_page(browser):
    one = post(browser, side="B", placement="hand", **{"wolf.4": "1"})
    assert one.status_code == 400 and "人狼は異なる2枚のカードに置いてください" in alert(one)
    assert 'name="wolf.4" value="1" checked' in text(one)  # what was ticked stays ticked
    off_board = post(browser, side="B", placement="hand", **{"wolf.4": "1", "wolf.10": "1"})
    assert off_board.status_code == 400 and "盤面のカードではありません" in alert(off_board)
    assert games() == []


def test_s3_1_only_b_places_werewolves(browser):
    response = post(browser, side="A", placement="hand", **{"wolf.2": "1", "wolf.7": "1"})
    assert response.status_code == 400 and "B(人狼陣営)" in alert(response)
    assert games() == []
    # A person playing A with 手動配置 chosen: the computer's B places at random.
    assert post(browser, side="A", placement="hand").status_code == 303


def test_s3_1_random_placement_starts_at_once(browser):
    response = post(browser, side="B", placement="random")
    assert response.status_code == 303
    assert len(Duel.from_json(games()[0].game).wolves) == 2


def test_s3_1_a_side_drawn_at_random_is_kept_on_the_placement_page(browser):
    for _ in range(40):  # the side is drawn: until it is B
        response = post(browser, side="random", placement="hand")
        if response.status_code == 200:
            break
    body = text(response)
    assert '<input type="hidden" name="side" value="B">' in body
    assert 'name="side" value="random"' not in body


def test_s3_1_the_placement_is_not_kept_beside_the_game(browser):
    response = post(browser, side="B", placement="hand", **{"wolf.1": "1", "wolf.5": "1"})
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    item = stored(match_id)
    assert "private" not in item.setup.as_dict() and item.setup.as_dict()["placement"] == "hand"
    player = item.players.as_dict()["B"]
    listed = PlayerMatchItem.get(player_pk(player), player_match_sk(item.created_at, match_id))
    assert "private" not in listed.setup.as_dict()


def test_s3_1_an_inviter_playing_b_places_before_the_invitation(browser, new_browser):
    response = browser.post(
        "/matches",
        {
            **SETUP,
            "opponent": "invite",
            "side": "B",
            "placement": "hand",
            "wolf.3": "1",
            "wolf.9": "1",
        },
    )
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    assert (
        "#3"
        not in text(friend.get(f"/matches/{match_id}")).split("あなただけが知っていること")[1][:80]
    )
    assert Duel.from_json(stored(match_id).game).wolves == [3, 9]
