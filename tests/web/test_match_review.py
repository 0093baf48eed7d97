"""感想戦 (issue 25, decisions duel 70–75): an ended game replayed move by move through the
engine, everything revealed, both sides' views at each position; a what-if from any position
against the CPU; only the game's players, only after the end."""

import random
from datetime import timedelta
from urllib.parse import urlparse

import pytest

from chalicelib.links import match_url
from chalicelib.rules.duel import Draws, Duel, play, preset, view
from chalicelib.rules.duel.cpu import player, random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rulesets.duel import computer
from chalicelib.services import matches, reviews
from chalicelib.services.errors import Conflict
from chalicelib.storage import matches as store
from chalicelib.storage import records as stored_records
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.matches import match_item, move_items
from tests.web.test_matches import MATCH_URL, play_json, random_legal, start, stored

PLAYERS = {"random": random_player, "beginner": player("beginner"), "strong": player("strong")}


def simulated(clock, preset_name: str, seed: int, a: str, b: str, wolves=None, person="g:me"):
    """A game the simulator's players play through the engine alone, stored as a game the
    person played as A against the CPU: its id and the engine's state after each move."""
    chance = random.Random(seed)
    duel = Duel.setup(preset(preset_name), Draws(random.Random(f"{seed}:0")), wolves=wolves)
    states = [duel.to_json()]
    moves = []
    for n in range(1, 2000):
        if duel.phase == "end":
            break
        side = duel.phase[0]
        move = PLAYERS[a if side == "A" else b](view(duel, side), legal_moves(duel, side), chance)
        play(duel, side, move, random.Random(f"{seed}:{n}"))
        states.append(duel.to_json())
        moves.append(store.NewMove(side, move, clock()))
    match_id = f"sim{seed:013d}"
    side = "B" if wolves else "A"
    players = {side: person, "AB".replace(side, ""): "cpu"}
    new = store.NewMatch(
        match_id,
        "duel",
        seed=seed,
        game=duel.to_json(),
        players=players,
        setup={
            "preset": preset_name,
            "side": side,
            "strength": "normal",
            "placement": "hand" if wolves else "random",
            "clock": "none",
            "opponent": "cpu",
        },
        strength="normal",
        now=clock(),
        ended=True,
    )
    store.create_match(new, moves, {side: person}, matches.kept(players, clock()))
    return match_id, states


GAMES = [
    ("std9", 11, "random", "random", None),
    ("12A", 12, "strong", "beginner", None),
    ("12B", 13, "random", "strong", None),
    ("17A", 14, "beginner", "random", None),
    ("10A", 15, "random", "random", [2, 7]),  # B placed its werewolves by hand (§3.1)
]


@pytest.mark.parametrize(("preset_name", "seed", "a", "b", "wolves"), GAMES)
def test_the_replay_at_each_move_is_the_engines_state_and_each_view_the_engines_view(
    clock, preset_name, seed, a, b, wolves
):
    match_id, states = simulated(clock, preset_name, seed, a, b, wolves)
    match = matches.load(match_id)
    made = reviews.replay(match)
    assert len(made.steps) == len(states) - 1
    who = [match.players["B" if wolves else "A"]]
    for number, state in enumerate(states):
        assert made.at(number).to_json() == state
        shown = reviews.review(match, who, str(number))
        engine = Duel.from_json(state)
        for side in ("A", "B"):
            assert shown.context["panels"][side]["seen"] == view(engine, side)
        assert shown.context["truth"]["cards"] == engine.cards
        assert shown.context["truth"]["nights"] == engine.nights


def test_a_game_the_engine_cannot_replay_is_refused_in_japanese_not_a_500(clock):
    match_id, _ = simulated(clock, "std9", 41, "random", "random")
    other_deal = match_item(match_id)
    other_deal.update(actions=[type(other_deal).seed.set(42)])  # not its deal's chance
    with pytest.raises(Conflict, match="最初から並べ直せない"):
        reviews.review(matches.load(match_id), ["g:me"], "1")
    match_id, _ = simulated(clock, "std9", 43, "random", "random")
    [first, *_] = move_items(match_id)
    first.update(actions=[type(first).move.set({"do": "execute", "card": 99})])
    with pytest.raises(Conflict, match="今のルールでは並べ直せない"):
        reviews.review(matches.load(match_id), ["g:me"], "1")


def ended_against_cpu(browser, preset_name="std9", side="A", seed=3) -> str:
    match_id = start(browser, preset=preset_name, side=side)
    rng = random.Random(seed)
    for _ in range(600):
        if stored(match_id).state == "ended":
            return match_id
        response = play_json(browser, match_id, random_legal(match_id, rng))
        assert response.status_code == 303, alert(response)
    raise AssertionError("the game did not end")


def test_a_game_played_on_the_site_replays_to_its_stored_end(browser):
    """The live path (the person's moves, the CPU's replies with its own randomness) and
    the replay agree: every stored move replayed with its chance gives the stored game."""
    match_id = ended_against_cpu(browser, "12B", "B")
    match = matches.load(match_id)
    made = reviews.replay(match)
    assert made.at(len(made.steps)).to_json() == stored(match_id).game


def test_the_review_pages_step_through_the_game_without_javascript(browser):
    match_id = ended_against_cpu(browser)
    game = text(browser.get(f"/matches/{match_id}"))
    assert f'href="/matches/{match_id}/review?move=0"' in game  # the way in, once ended
    last = stored(match_id).moves
    page = browser.get(f"/matches/{match_id}/review")
    assert page.status_code == 200
    body = text(page)
    assert f"{last}手目 / {last}手" in body and "真相" in body
    assert body.count('class="truth"') == 9 * 3  # the truth board; at the end both views too
    assert 'id="view-A"' in body and 'id="view-B"' in body
    assert f'href="/matches/{match_id}/review?move={last - 1}"' in body  # 前
    assert f'href="/matches/{match_id}/review?move=0"' in body  # 最初
    first = text(browser.get(f"/matches/{match_id}/review?move=0"))
    assert "0手目" in first and "配られた直後" in first
    assert first.count('class="truth"') == 9  # only the truth board: no view had cards yet
    assert f'href="/matches/{match_id}/review?move=1"' in first  # 次
    second = text(browser.get(f"/matches/{match_id}/review?move=2"))
    assert "B(人狼陣営): 回答" in second or "B(人狼陣営): 夜" in second or "A(村人陣営)" in second


def test_the_review_shows_bs_secret_instructions(clock):
    match_id, _ = simulated(clock, "std9", 21, "random", "random")
    moves = move_items(match_id)
    night = next(m for m in moves if m.side == "B" and m.move["do"] == "night")
    shown = reviews.review(matches.load(match_id), ["g:me"], str(int(night.number)))
    line = shown.context["moves"][int(night.number) - 1][1]
    assert line.startswith("夜: 襲撃 #") and f"#{night.move['attack']}" in line


def test_a_game_in_progress_refuses_the_review_and_the_what_if(browser):
    match_id = start(browser)
    page = browser.get(f"/matches/{match_id}/review")
    assert page.status_code == 409
    body = text(page)
    assert "感想戦は対局が終わってから開けます" in body
    assert 'class="truth"' not in body and "真相" not in body
    assert f"/matches/{match_id}/review" not in text(browser.get(f"/matches/{match_id}"))
    what_if = browser.post(
        f"/matches/{match_id}/what-if", {"move": "0", "side": "A", "strength": "normal"}
    )
    assert what_if.status_code == 409 and "感想戦は対局が終わってから" in text(what_if)
    assert len(store.matches_of(stored(match_id).players["A"], 10)) == 1  # nothing new


def test_only_the_games_players_open_its_review(browser, new_browser, clock):
    match_id = ended_against_cpu(browser)
    stranger = new_browser()
    stranger.get("/")
    assert stranger.get(f"/matches/{match_id}/review").status_code == 403  # logged out
    make_account("carol", clock())
    stranger.login("carol")
    refused = stranger.get(f"/matches/{match_id}/review?move=1")
    assert refused.status_code == 403 and "この対局の対局者ではありません" in text(refused)
    post = stranger.post(
        f"/matches/{match_id}/what-if", {"move": "0", "side": "A", "strength": "normal"}
    )
    assert post.status_code == 403


def test_an_account_reviews_its_game_through_its_mail_link_on_another_phone(
    browser, new_browser, clock
):
    make_account("alice", clock())
    browser.login("alice")
    match_id = ended_against_cpu(browser)
    phone = new_browser()  # nobody logged in: the game's signed mail link lets alice in
    link = urlparse(match_url("alice", match_id, clock() + timedelta(days=1))).path
    assert phone.get(link).status_code == 303
    assert phone.get(f"/matches/{match_id}/review?move=3").status_code == 200
    other = ended_against_cpu(new_browser())  # another game: the link lends nothing there
    assert phone.get(f"/matches/{other}/review").status_code == 403


@pytest.mark.parametrize("move", ["-1", "abc", "１", "99999", "1.5", "", "9" * 5000])
def test_a_move_number_out_of_the_game_is_refused_in_japanese(browser, move):
    match_id = ended_against_cpu(browser)
    page = browser.get(f"/matches/{match_id}/review", move=move)
    assert page.status_code == 400 and "手数は 0 から" in text(page)


def test_the_what_if_post_needs_the_pages_csrf_token(browser):
    match_id = ended_against_cpu(browser)
    browser.get(f"/matches/{match_id}/review?move=0")
    form = {"move": "0", "side": "A", "strength": "normal", "csrf": "forged"}
    assert browser.post(f"/matches/{match_id}/what-if", form).status_code == 403
    assert browser.post(f"/matches/{match_id}/what-if", form, csrf=False).status_code == 403
    assert len(store.matches_of(stored(match_id).players["A"], 10)) == 1
    del form["csrf"]  # the page's own token: the same form is taken
    assert browser.post(f"/matches/{match_id}/what-if", form).status_code == 303
    assert len(store.matches_of(stored(match_id).players["A"], 10)) == 2


def what_if(browser, match_id: str, number: int, side="A", strength="normal"):
    browser.get(f"/matches/{match_id}/review?move={number}")
    return browser.post(
        f"/matches/{match_id}/what-if",
        {"move": str(number), "side": side, "strength": strength},
    )


def test_a_what_if_starts_from_the_exact_position_and_the_cpu_replies(clock, browser, monkeypatch):
    match_id, states = simulated(clock, "std9", 31, "random", "random", person=guest_of(browser))
    number = next(
        n for n, s in enumerate(states) if s["phase"] == "A:day" and n > 3
    )  # A to move: the new game is the position itself
    response = what_if(browser, match_id, number, side="A", strength="beginner")
    assert response.status_code == 303, alert(response)
    new_id = MATCH_URL.search(response.headers["Location"]).group(1)
    item = stored(new_id)
    assert item.game == states[number] and int(item.moves) == number
    assert item.strength == "beginner" and item.state == "running"
    assert item.setup.as_dict()["origin"] == match_id and item.setup.as_dict()["from"] == number
    assert item.seed == stored(match_id).seed and "ranked" not in item.setup.as_dict()
    page = text(browser.get(f"/matches/{new_id}"))
    assert f'href="/matches/{match_id}/review?move={number}"' in page  # the link back
    assert "あなたの番" in page and 'class="clocks"' not in page  # no clock runs
    # The CPU answers from its side's view only, with its own randomness.
    seen = []

    def spy(chooser):
        def chosen(side_view, legal, rng):
            seen.append((side_view, legal, rng))
            return chooser(side_view, legal, rng)

        return chosen

    for strength, (for_a, for_b) in list(computer.PLAYERS.items()):
        monkeypatch.setitem(computer.PLAYERS, strength, (spy(for_a), spy(for_b)))
    rng = random.Random(4)
    for _ in range(30):
        before = Duel.from_json(stored(new_id).game)
        if before.phase == "end":
            break
        count = len(seen)
        answered = play_json(browser, new_id, random_legal(new_id, rng))
        assert answered.status_code == 303, alert(answered)
        for side_view, legal, chance in seen[count:]:
            assert legal.side == "B" and isinstance(chance, random.SystemRandom)
            assert "cards" not in side_view and "masons" not in side_view
    assert seen  # the CPU replied
    assert int(stored(new_id).moves) > number + 1


def guest_of(browser) -> str:
    """The browser's guest id (a guest gets one with its first game)."""
    return stored(start(browser)).players.as_dict()["A"]


def test_a_what_if_where_the_cpu_moves_first_gets_its_replies_at_once(browser):
    match_id = ended_against_cpu(browser, "std9", "A", seed=9)
    made = reviews.replay(matches.load(match_id))
    number = next(n for n in range(len(made.steps)) if made.at(n).phase.startswith("B"))
    response = what_if(browser, match_id, number, side="A")
    new_id = MATCH_URL.search(response.headers["Location"]).group(1)
    item = stored(new_id)
    assert int(item.moves) > number  # the CPU (B) answered in the same request
    assert Duel.from_json(item.game).phase[0] == "A" or item.state == "ended"
    replayed = reviews.replay(matches.load(new_id))
    assert replayed.at(int(item.moves)).to_json() == item.game  # prelude + its own moves


def test_a_position_after_which_the_game_is_over_cannot_be_continued(browser):
    match_id = ended_against_cpu(browser)
    last = stored(match_id).moves
    page = text(browser.get(f"/matches/{match_id}/review?move={last}"))
    assert "続けられません" in page and "ここからCPUと続ける</button>" not in page
    response = what_if(browser, match_id, last)
    assert response.status_code == 409
    assert "この局面のあとは対局が終わっているため、続けられません" in text(response)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"side": "C", "strength": "normal"}, "続ける陣営を選んでください"),
        ({"side": "A", "strength": "god"}, "CPUの強さを選んでください"),
    ],
)
def test_a_what_if_with_odd_choices_is_refused_in_japanese(browser, form, message):
    match_id = ended_against_cpu(browser)
    browser.get(f"/matches/{match_id}/review?move=0")
    response = browser.post(f"/matches/{match_id}/what-if", {"move": "0", **form})
    assert response.status_code == 400 and message in text(response)


def test_a_what_if_game_is_its_owners_alone_and_reviewable_once_over(browser, new_browser):
    match_id = ended_against_cpu(browser, seed=12)
    response = what_if(browser, match_id, 0, side="B", strength="strong")
    new_id = MATCH_URL.search(response.headers["Location"]).group(1)
    assert new_browser().get(f"/matches/{new_id}").status_code == 403
    browser.get(f"/matches/{new_id}")
    assert (
        browser.post(
            f"/matches/{new_id}/moves",
            {"moves": str(stored(new_id).moves), "do": "resign", "confirm": "1"},
        ).status_code
        == 303
    )
    review = browser.get(f"/matches/{new_id}/review")
    assert review.status_code == 200
    body = text(review)
    assert f'href="/matches/{match_id}/review?move=0"' in body  # もしも: the link back
    assert "投了" in body


def test_a_game_lost_on_time_reviews_to_its_last_move(browser, clock):
    match_id = start(browser, clock="3m")
    play_json(browser, match_id, random_legal(match_id, random.Random(1)))
    clock.advance(timedelta(minutes=10))
    assert browser.get(f"/matches/{match_id}").status_code == 200  # the flag falls
    assert stored(match_id).state == "ended"
    page = browser.get(f"/matches/{match_id}/review")
    assert page.status_code == 200 and "時間切れ" in text(page)


@pytest.mark.parametrize("preset_name", ["std9", "12B"])
def test_no_review_page_reveals_anything_before_the_end(browser, new_browser, preset_name):
    """Between two people, at every move of the game, neither player's review nor what-if
    shows or makes anything; at the end both open it."""
    match_id = start(browser, preset=preset_name, side="A", opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    sides = {"A": browser, "B": friend}
    rng = random.Random(f"review-secrecy-{preset_name}")
    for _ in range(400):
        item = stored(match_id)
        if item.state == "ended":
            break
        for side, phone in sides.items():
            refused = phone.get(f"/matches/{match_id}/review", move=str(item.moves))
            body = text(refused)
            assert refused.status_code == 409 and "感想戦は対局が終わってから開けます" in body
            assert 'class="truth"' not in body and "真相" not in body and "人狼: #" not in body
            assert "/review" not in text(phone.get(f"/matches/{match_id}"))
            made = phone.post(
                f"/matches/{match_id}/what-if",
                {"move": str(item.moves), "side": side, "strength": "normal"},
            )
            assert made.status_code == 409
        duel = Duel.from_json(item.game)
        side = duel.phase[0]
        move = random_player({}, legal_moves(duel, side), rng)
        assert play_json(sides[side], match_id, move).status_code == 303
    assert stored(match_id).state == "ended"
    for phone in sides.values():
        assert phone.get(f"/matches/{match_id}/review").status_code == 200
        assert len(store.matches_of(stored(match_id).players["A"], 10)) == 1


def test_a_what_if_game_adds_nothing_to_the_records(browser, clock):
    """A what-if starts from a position chosen in hindsight: its end is no game won or lost."""
    make_account("alice", clock())
    browser.login("alice")
    match_id = ended_against_cpu(browser)
    counted = stored_records.load("alice", "duel").data
    assert counted["sides"]["A"]["games"] == 1
    response = what_if(browser, match_id, 1, side="A", strength="strong")
    new_id = MATCH_URL.search(response.headers["Location"]).group(1)
    rng = random.Random(5)
    while stored(new_id).state != "ended":
        answered = play_json(browser, new_id, random_legal(new_id, rng))
        assert answered.status_code == 303, alert(answered)
    assert stored_records.load("alice", "duel").data == counted
