"""Games played move by move through the web: a game against the computer from the top page,
its page, its moves (forms and structured), the live question, and their refusals."""

import json
import random
import re

import pytest

from chalicelib.rules.duel import Duel
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.storage import matches as store
from tests.web.conftest import alert, make_account, text

MATCH_URL = re.compile(r"/matches/([A-Za-z0-9_-]{16})$")


def start(browser, preset="std9", side="A", strength="normal", clock="none") -> str:
    browser.get("/")
    response = browser.post(
        "/matches",
        {"rules": "duel", "preset": preset, "side": side, "strength": strength, "clock": clock},
    )
    assert response.status_code == 303, text(response)
    found = MATCH_URL.search(response.headers["Location"])
    assert found
    return found.group(1)


def stored(match_id: str):
    item = store.load_match(match_id)
    assert item is not None
    return item


def play_json(browser, match_id: str, move: dict, moves: int | None = None):
    count = stored(match_id).moves if moves is None else moves
    return browser.post(
        f"/matches/{match_id}/moves", {"moves": str(count), "move": json.dumps(move)}
    )


def person_side(match_id: str) -> str:
    players = stored(match_id).players.as_dict()
    return next(side for side, who in players.items() if who != "cpu")


def random_legal(match_id: str, rng: random.Random) -> dict:
    """A random legal move of the person's side (the test reads the stored game: it is the
    test's view, not the player's)."""
    duel = Duel.from_json(stored(match_id).game)
    side = person_side(match_id)
    return random_player({}, legal_moves(duel, side), rng)


def test_the_top_page_offers_a_game_against_the_cpu(browser):
    page = text(browser.get("/"))
    assert "CPUと対戦" in page
    for words in ("スタンダード9人", "10A狩", "12A猫", "12B", "17A", "入門", "普通", "強い"):
        assert words in page


def test_a_guest_plays_a_whole_game_against_the_cpu(browser):
    match_id = start(browser)
    page = text(browser.get(f"/matches/{match_id}"))
    assert "あなたの番" in page and "CO要請" in page
    rng = random.Random(5)
    for _ in range(400):
        if stored(match_id).state == "ended":
            break
        response = play_json(browser, match_id, random_legal(match_id, rng))
        assert response.status_code == 303, alert(response)
    assert stored(match_id).state == "ended"
    page = text(browser.get(f"/matches/{match_id}"))
    assert "感想戦" in page and ("あなたの勝ち" in page or "あなたの負け" in page)


@pytest.mark.parametrize("preset", ["std9", "10A", "12A", "12B", "17A"])
@pytest.mark.parametrize("side", ["A", "B"])
def test_every_preset_and_side_plays_to_its_end(browser, preset, side):
    match_id = start(browser, preset=preset, side=side)
    assert person_side(match_id) == side
    rng = random.Random(f"{preset}{side}")
    for _ in range(600):
        if stored(match_id).state == "ended":
            break
        page = browser.get(f"/matches/{match_id}")
        assert page.status_code == 200
        response = play_json(browser, match_id, random_legal(match_id, rng))
        assert response.status_code == 303, alert(response)
    assert stored(match_id).state == "ended"


def test_a_signed_in_player_plays_as_their_account(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser)
    assert stored(match_id).players.as_dict()["A"] == "a:alice"
