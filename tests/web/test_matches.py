"""Games played move by move through the web: a game against the computer from the top page,
its page, its moves (forms and structured), the live question, and their refusals."""

import json
import random
import re

import pytest

from chalicelib.rules.duel import Duel
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.storage.repository import load_account
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.matches import match_item, move_items

MATCH_URL = re.compile(r"/matches/([A-Za-z0-9_-]{16})$")


def start(browser, preset="std9", side="A", strength="normal", clock="none", opponent="cpu") -> str:
    browser.get("/")
    form = {"rules": "duel", "preset": preset, "side": side, "strength": strength}
    response = browser.post("/matches", {**form, "clock": clock, "opponent": opponent})
    assert response.status_code == 303, text(response)
    found = MATCH_URL.search(response.headers["Location"])
    assert found
    return found.group(1)


def stored(match_id: str):
    return match_item(match_id)


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


# ----- the platform's promises: one move once, in turn; not in the lounge; many at once -----


def moves_of(match_id: str) -> list:
    return move_items(match_id)


def test_a_double_tap_applies_a_move_once(browser):
    match_id = start(browser)
    form = {"moves": "0", "do": "co", "role.seer": "1", "scope": "whole"}
    first = browser.post(f"/matches/{match_id}/moves", form)
    second = browser.post(f"/matches/{match_id}/moves", form)
    assert first.headers["Location"] == f"/matches/{match_id}"
    assert second.headers["Location"] == f"/matches/{match_id}?stale=1"
    played = moves_of(match_id)
    assert [m.move["do"] for m in played] == ["co", "answer"]  # the CPU answered, once
    assert "ページが古くなっていた" in text(browser.get(second.headers["Location"]))


def test_a_stale_page_never_plays_out_of_turn(browser):
    match_id = start(browser)
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    # The page showed 0 moves: its execution is refused, the game unchanged.
    response = play_json(browser, match_id, {"do": "execute", "card": 1}, moves=0)
    assert response.headers["Location"].endswith("?stale=1")
    assert stored(match_id).moves == 2


def test_a_refused_move_is_a_page_with_the_sentence_and_nothing_written(browser):
    match_id = start(browser)
    response = play_json(browser, match_id, {"do": "execute", "card": 99})
    assert response.status_code == 400
    assert "盤面のカードではありません" in alert(response)
    assert stored(match_id).moves == 0 and moves_of(match_id) == []


def test_only_the_games_player_sees_it(browser, new_browser):
    match_id = start(browser)
    other = new_browser()
    other.get("/")
    for path in (f"/matches/{match_id}", f"/matches/{match_id}/view"):
        assert other.get(path).status_code == 403
    response = other.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign"})
    assert response.status_code == 403
    assert stored(match_id).moves == 0


def test_resigning_is_a_numbered_move_and_ends_the_game(browser, clock):
    make_account("bob", clock())
    browser.login("bob")
    match_id = start(browser)
    asked = browser.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign"})
    assert "投了します" in text(asked)  # confirmed once
    assert stored(match_id).moves == 0
    done = browser.post(
        f"/matches/{match_id}/moves", {"moves": "0", "do": "resign", "confirm": "1"}
    )
    assert done.status_code == 303
    [move] = moves_of(match_id)
    assert (move.number, move.side, move.move) == (1, "A", {"do": "resign"})
    assert stored(match_id).state == "ended"
    assert "あなたの負け" in text(browser.get(f"/matches/{match_id}"))
    # Not a departure: no ID lock on the account.
    assert load_account("bob").lock_until is None


def test_games_against_the_cpu_are_never_in_the_lounge_and_an_account_sits_in_many(browser, clock):
    make_account("carol", clock())
    browser.login("carol")
    ids = [start(browser) for _ in range(3)]
    assert all(stored(i).state == "running" for i in ids)
    assert all(stored(i).gsi1pk is None for i in ids)  # not in the index the lounge reads
    # The lounge's sections (its villages) never list them; only the player's own list does.
    lounge = text(browser.get("/")).split('id="vs-cpu"', 1)[1]
    assert not any(i in lounge for i in ids)
    assert load_account("carol").holds == {}  # village holds untouched


def test_the_top_page_lists_this_browsers_games_and_nobody_elses(browser, new_browser, clock):
    guest_game = start(browser, preset="12B", side="B")
    page = text(browser.get("/"))
    assert "あなたの対局" in page and f"/matches/{guest_game}" in page
    assert "2人で遊ぶ人狼・12B" in page
    make_account("dave", clock())
    browser.login("dave")  # the guest's games stay this browser's after a login
    account_game = start(browser)
    page = text(browser.get("/"))
    assert f"/matches/{guest_game}" in page and f"/matches/{account_game}" in page
    other = new_browser()
    page = text(other.get("/"))
    assert "あなたの対局" not in page and guest_game not in page


# ----- the forms: every move kind of RULES-DUEL §9 from a page -----


def game_of(match_id: str) -> Duel:
    return Duel.from_json(stored(match_id).game)


def post_move(browser, match_id: str, form: dict):
    form = {"moves": str(stored(match_id).moves), **form}
    response = browser.post(f"/matches/{match_id}/moves", form)
    assert response.status_code == 303, alert(response)
    return moves_of(match_id)


def test_a_plays_each_day_and_night_move_kind_from_forms(browser):
    match_id = start(browser, preset="12A")
    played = post_move(
        browser,
        match_id,
        {"do": "co", "role.seer": "1", "scope": "range", "card.1": "1", "card.2": "1"},
    )
    assert played[0].move == {"do": "co", "roles": ["seer"], "cards": [1, 2]}
    duel = game_of(match_id)
    named = duel.unclaimed()[:2]
    form = {"do": "named", "gidra": "1", **{f"card.{c}": "1" for c in named}}
    played = post_move(browser, match_id, form)
    assert played[2].move == {"do": "named", "cards": named, "gidra": True}
    target = game_of(match_id).living()[-1]
    confirm = browser.post(
        f"/matches/{match_id}/moves",
        {"moves": str(stored(match_id).moves), "do": "execute", "card": str(target)},
    )
    assert f"#{target} を処刑します" in text(confirm)
    played = post_move(browser, match_id, {"do": "execute", "card": str(target), "confirm": "1"})
    assert played[4].move == {"do": "execute", "card": target}
    duel = game_of(match_id)
    assert duel.phase == "A:night"  # 12A cannot end at day 1's execution
    form = {"do": "night", "latent_guard": "to"}
    for s in duel.claimers("seer"):
        form[f"divine.{s}.{next(c for c in duel.living() if c != s)}"] = "1"
    for h in duel.claimers("hunter", "gidra"):
        others = [c for c in duel.living() if c != h]
        form[f"guard.{h}.{others[0]}"] = "1"
        form[f"guard.{h}.{others[1]}"] = "3"
    form[f"latent_guard.{duel.living()[0]}"] = "2"
    played = post_move(browser, match_id, form)
    night = played[5].move
    assert night["do"] == "night" and night["latent_guard"] == {
        "to": [duel.living()[0]],
        "weights": [2],
    }


def test_a_asks_the_black_seer_only_request_from_its_form_in_12b(browser):
    match_id = start(browser, preset="12B")
    assert 'id="form-black-seer"' in text(browser.get(f"/matches/{match_id}"))
    played = post_move(browser, match_id, {"do": "black_seer_co"})
    assert played[0].move == {"do": "black_seer_co"}
    assert 'id="form-black-seer"' not in text(browser.get(f"/matches/{match_id}"))  # once


def test_a_random_side_seats_the_person_on_one_side_and_the_cpu_on_the_other(browser):
    sides = set()
    for _ in range(20):  # both sides come up (all 20 alike: once in half a million runs)
        match_id = start(browser, side="random")
        players = stored(match_id).players.as_dict()
        assert "cpu" in players.values() and len(set(players.values())) == 2
        sides.add(person_side(match_id))
    assert sides == {"A", "B"}


def test_b_answers_claims_with_fake_reports_and_plays_its_night_from_forms(browser):
    match_id = start(browser, preset="std9", side="B")
    duel = game_of(match_id)
    assert duel.phase == "B:answer"  # the CPU asked first
    question = duel.question
    wolf = next(w for w in duel.wolves if [w, "seer"] in question.get("pairs", []))
    form = {
        "do": "answer",
        f"claim.{wolf}": "seer",
        f"oracle_target.{wolf}": str(next(c for c in range(1, 10) if c != wolf)),
        f"oracle_result.{wolf}": "human",
    }
    played = post_move(browser, match_id, form)
    answer = played[1].move
    assert answer["claims"][0]["card"] == wolf and answer["claims"][0]["role"] == "seer"
    rng = random.Random(3)
    for _ in range(200):
        duel = game_of(match_id)
        if duel.phase in ("B:night", "end"):
            break
        play_json(browser, match_id, random_legal(match_id, rng))
    assert duel.phase == "B:night"  # no std9 game ends before its first night
    attack = next(c for c in duel.living() if c not in duel.wolves)
    form = {"do": "night", "attack": str(attack)}
    orders = duel.orders[-1]
    for entry in orders["divine"]:
        if entry["card"] in duel.wolves:
            form[f"divine_target.{entry['card']}"] = str(entry["to"][0])
            form[f"divine_result.{entry['card']}"] = "wolf"
    for entry in orders["guard"]:
        if entry["card"] in duel.wolves:
            form[f"guard_target.{entry['card']}"] = str(entry["to"][0])
    for w in duel.claimers("medium"):
        if w in duel.wolves:
            form[f"medium_result.{w}"] = "human"
    played = post_move(browser, match_id, form)
    mine = [m for m in played if m.side == "B" and m.move["do"] == "night"][-1]
    assert mine.move["attack"] == attack


def test_b_is_asked_after_every_execution_in_a_pp_game(browser):
    match_id = start(browser, preset="std9", side="B")
    rng = random.Random(11)
    for _ in range(300):
        duel = game_of(match_id)
        if duel.phase in ("B:pp", "end"):
            break
        play_json(browser, match_id, random_legal(match_id, rng))
    assert duel.phase == "B:pp"  # every execution of a PP game waits for B (§8)
    page = text(browser.get(f"/matches/{match_id}"))
    assert "処刑のあとの確認" in page
    played = post_move(browser, match_id, {"do": "pp", "guess": ""})
    assert [m.move for m in played if m.move["do"] == "pp"][-1] == {"do": "pp", "guess": None}


# ----- the live page -----


def poll(browser, match_id: str, since: int) -> dict:
    response = browser.get(f"/matches/{match_id}/since/{since}")
    assert response.status_code == 200
    return json.loads(text(response))


def test_the_poll_says_whether_anything_is_new_and_a_fallen_flag_is_new(browser, clock):
    from datetime import timedelta

    match_id = start(browser, clock="3m")
    assert poll(browser, match_id, 0) == {"new": False, "moves": 0, "state": "running", "chats": 0}
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert poll(browser, match_id, 0)["new"] is True  # a page showing move 0 reloads
    assert poll(browser, match_id, 2)["new"] is False
    clock.advance(timedelta(seconds=200))  # the flag falls (3 min + 20 s, the CPU's time free)
    assert poll(browser, match_id, 2)["new"] is True
    page = text(browser.get(f"/matches/{match_id}"))  # the reload ends the game on time
    assert "時間切れ" in page and "あなたの負け" in page
    assert stored(match_id).state == "ended"


def test_the_page_loads_the_live_script_and_does_not_refresh_on_the_players_own_move(browser):
    match_id = start(browser)
    page = text(browser.get(f"/matches/{match_id}"))
    assert re.search(r'<script src="/static/live\.[0-9a-f]{12}\.js" defer>', page)
    assert 'http-equiv="refresh"' not in page  # the player's own move: nothing to wait for
    assert f'data-poll="/matches/{match_id}/since/0"' in page


# ----- a private game: reached only by its link, played by two people -----


def test_a_private_game_is_joined_by_its_link_once_and_played_live_by_two_people(
    browser, new_browser, clock
):
    from datetime import timedelta

    match_id = start(browser, preset="std9", side="B", clock="3m", opponent="invite")
    page = text(browser.get(f"/matches/{match_id}"))
    assert "招待中・相手を待っています" in page and f"/matches/{match_id}" in page
    assert 'http-equiv="refresh"' in page  # B waits for A's first move
    assert stored(match_id).flag_at is None  # no clock runs before both sit
    friend = new_browser()
    invitation = text(friend.get(f"/matches/{match_id}"))
    assert "対局への招待" in invitation and "A(村人陣営" in invitation
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    assert stored(match_id).players.as_dict()["A"].startswith("g:")
    assert stored(match_id).flag_at == clock() + timedelta(seconds=200)  # A's clock runs
    third = new_browser()
    assert third.get(f"/matches/{match_id}").status_code == 403  # the seat is taken
    assert third.post(f"/matches/{match_id}/join").status_code == 409
    # A asks; B's open page learns it from the poll and answers; A's page waits for B.
    assert play_json(friend, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert poll(browser, match_id, 0)["new"] is True
    assert 'http-equiv="refresh"' in text(friend.get(f"/matches/{match_id}"))
    assert play_json(browser, match_id, {"do": "answer", "claims": []}).status_code == 303
    assert [m.side for m in moves_of(match_id)] == ["A", "B"]  # no computer in it
    # Out of turn: B cannot ask.
    response = play_json(browser, match_id, {"do": "co", "roles": ["medium"]})
    assert response.status_code == 409 and "相手の番" in alert(response)
    # Never in the lounge, and nobody else's list.
    assert match_id not in text(third.get("/"))
    rng = random.Random(21)
    for _ in range(400):
        item = stored(match_id)
        if item.state == "ended":
            break
        duel = Duel.from_json(item.game)
        side = duel.phase[0]
        player = browser if side == "B" else friend
        move = random_player({}, legal_moves(duel, side), rng)
        assert play_json(player, match_id, move).status_code == 303
    assert stored(match_id).state == "ended"
    for player in (browser, friend):
        assert "感想戦" in text(player.get(f"/matches/{match_id}"))


def test_an_invited_person_cannot_join_their_own_game(browser):
    match_id = start(browser, opponent="invite")
    response = browser.post(f"/matches/{match_id}/join")
    assert response.status_code == 409
    assert stored(match_id).players.as_dict()["B"] == "open"


def test_a_browser_that_invited_as_a_guest_cannot_take_the_other_seat_as_its_account(
    browser, clock
):
    """Logging in keeps the guest id in the cookie: the browser plays the invitation's seat
    as that guest, so its account may not sit on the other side (one person, both sides)."""
    match_id = start(browser, opponent="invite")
    make_account("twofaced", clock())
    browser.login("twofaced")
    response = browser.post(f"/matches/{match_id}/join")
    assert response.status_code == 409
    assert "自分の対局には参加できません" in text(response)
    assert stored(match_id).players.as_dict()["B"] == "open"


def test_a_visitor_acting_in_a_game_with_a_waiting_seat_is_refused_not_an_error(
    browser, new_browser
):
    """The invitation is the page's answer to a visitor; a move, the view or a chat is 403."""
    match_id = start(browser, opponent="invite")
    visitor = new_browser()
    visitor.get("/")
    assert visitor.get(f"/matches/{match_id}/view").status_code == 403
    response = visitor.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign"})
    assert response.status_code == 403
    assert visitor.post(f"/matches/{match_id}/chat", {"text": "やあ"}).status_code == 403
    assert stored(match_id).moves == 0


@pytest.mark.parametrize(
    "sent",
    [
        "[" * 5000,  # deep enough to exhaust the parser's recursion
        "[" * 5000 + "]" * 5000,
        '{"do":' * 900 + '"resign"' + "}" * 900,  # short of the length bound, deep all the same
        '{"do": "co", "roles": [' + '"seer", ' * 2000 + '"seer"]}',  # too long to be a move
    ],
)
def test_a_move_nested_or_long_beyond_any_move_is_a_400_with_a_sentence(browser, sent):
    match_id = start(browser)
    response = browser.post(f"/matches/{match_id}/moves", {"moves": "0", "move": sent})
    assert response.status_code == 400, text(response)[:300]
    assert alert(response) == "手の形式が正しくありません"
    assert stored(match_id).moves == 0
