"""Ranked games (ランク戦, issue 25, decisions 64, 65): made between two accounts with a clock; the
seed's 「考えた時間は伏せられます」 — B's answer to a request that includes the seer is not
shown before 20 seconds from the request, however fast it came, B's clock does not run
meanwhile and A's starts when the answer shows — on the live page, without JavaScript, in
the poll, the JSON view and the mail."""

import json
import random
import re
from datetime import timedelta
from urllib.parse import urlencode

import pytest

from chalicelib import effects
from chalicelib.rules.duel import Draws, Duel, preset
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rules.duel.questions import open_request
from chalicelib.rulesets.duel.ruleset import ANSWER_HOLD, DUEL
from chalicelib.services import matches
from chalicelib.services.unit import Unit
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.mail import sent_messages
from tests.support.matches import worker_look
from tests.web.test_gm_pages import CROSS_SITE
from tests.web.test_matches import MATCH_URL, moves_of, play_json, poll, stored
from tests.web.test_security import CSRF_REFUSAL

HOLD = timedelta(seconds=ANSWER_HOLD)


def create(browser, side="A", clock="3m", opponent="invite", preset_="std9", ranked="1"):
    browser.get("/")
    form = {"rules": "duel", "preset": preset_, "side": side, "strength": "normal"}
    return browser.post(
        "/matches", {**form, "clock": clock, "opponent": opponent, "ranked": ranked}
    )


def ranked_game(browser, new_browser, clock, control="3m", preset_="std9"):
    """alice (A) makes a ranked game, bob (B) takes its seat: (match id, bob's browser)."""
    make_account("alice", clock())
    make_account("bob", clock())
    browser.login("alice")
    response = create(browser, clock=control, preset_=preset_)
    assert response.status_code == 303, alert(response)
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    bob = new_browser()
    bob.login("bob")
    assert "ランク戦" in text(bob.get(f"/matches/{match_id}"))  # the invitation says so
    assert bob.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, bob


def both_move(match_id: str, players: dict, clock, rng: random.Random) -> None:
    """Random legal moves of whichever side is to move, until each side has made one (each
    after the hold a ranked answer may have, so that it is played at once): a game that
    then ends is rated, not aborted (decision 150)."""
    while set(stored(match_id).movers or ()) != {"A", "B"}:
        side = DUEL.to_move(Duel.from_json(stored(match_id).game))
        assert side is not None, "the game ended before both sides moved"
        clock.advance(timedelta(seconds=21))
        players[side].get(f"/matches/{match_id}")
        duel = Duel.from_json(stored(match_id).game)
        move = random_player({}, legal_moves(duel, side), rng)
        response = play_json(players[side], match_id, move)
        assert response.status_code == 303, alert(response)


def a_sees(browser, match_id: str, since: int) -> tuple[str, dict, dict]:
    """Everything A can reach of the game: its page (without the CSRF token), the poll, the
    view JSON."""
    page = re.sub(r'name="csrf" value="[^"]*"', "", text(browser.get(f"/matches/{match_id}")))
    view = json.loads(text(browser.get(f"/matches/{match_id}/view")))
    return page, poll(browser, match_id, since), view


# ----- making one -----


def test_a_ranked_game_is_made_only_by_an_account_against_a_person_with_a_clock(
    browser, new_browser, clock
):
    guest = new_browser()
    response = create(guest)
    assert response.status_code == 400 and "ログインしてから" in alert(response)
    make_account("alice", clock())
    browser.login("alice")
    assert "ランク戦にする" in text(browser.get("/"))
    response = create(browser, opponent="cpu")
    assert response.status_code == 400 and "人どうしの対局" in alert(response)
    response = create(browser, clock="none")
    assert response.status_code == 400 and "持ち時間を選んで" in alert(response)
    response = create(browser, opponent="room")
    assert response.status_code == 303
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    assert stored(match_id).setup.as_dict()["ranked"] is True
    assert "ランク戦" in text(browser.get(f"/matches/{match_id}"))
    listed = text(new_browser().get("/")).split('id="rooms"')[1].split("</section>")[0]
    assert match_id in listed and "ランク戦" in listed


def made_by_alice(browser, clock, **form) -> str:
    make_account("alice", clock())
    browser.login("alice")
    return MATCH_URL.search(create(browser, **form).headers["Location"]).group(1)


def test_a_guest_cannot_take_a_ranked_seat(browser, new_browser, clock):
    match_id = made_by_alice(browser, clock, opponent="room")
    guest = new_browser()
    page = text(guest.get(f"/matches/{match_id}"))
    assert "ログインして参加" in page and f"/matches/{match_id}/join" not in page
    response = guest.post(f"/matches/{match_id}/join")
    assert response.status_code == 403 and "ログインして" in alert(response)
    assert stored(match_id).players.as_dict()["B"] == "open"


def test_an_unranked_game_shows_an_answer_at_once(browser, new_browser, clock):
    match_id = made_by_alice(browser, clock, ranked="")
    bob = new_browser()
    bob.get(f"/matches/{match_id}")
    bob.post(f"/matches/{match_id}/join")
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    assert stored(match_id).hold_until is None
    assert play_json(bob, match_id, {"do": "answer", "claims": []}).status_code == 303
    assert stored(match_id).moves == 2


# ----- the 20-second hold -----


def test_ranked_the_answer_to_a_seer_request_shows_20_seconds_after_the_request(
    browser, new_browser, clock
):
    match_id, bob = ranked_game(browser, new_browser, clock)
    asked = clock()
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    item = stored(match_id)
    assert item.hold_until == asked + HOLD
    assert item.turn_since == asked + HOLD  # B's clock starts only then
    assert item.flag_at == asked + HOLD + timedelta(seconds=200)
    clock.advance(timedelta(seconds=5))
    bob_page = text(bob.get(f"/matches/{match_id}"))
    assert "A に公開されません" in bob_page and "持ち時間は減りません" in bob_page
    assert "回答する</button>" in bob_page
    before = a_sees(browser, match_id, 1)
    assert "要請から20秒たつまで" in before[0]
    cards = Duel.from_json(stored(match_id).game).cards
    wolf = cards.index("werewolf")  # a werewolf fakes the seer, with a white on a human
    human = next(c for c in range(1, len(cards)) if cards[c] not in ("werewolf", "seer"))
    oracle = {"target": human, "result": "human"}
    answer = {"do": "answer", "claims": [{"card": wolf, "role": "seer", "oracle": oracle}]}
    assert play_json(bob, match_id, answer).status_code == 303
    # Held: nothing A reaches changed, byte for byte (page, poll, view), and no move is in.
    assert a_sees(browser, match_id, 1) == before
    assert stored(match_id).moves == 1 and len(moves_of(match_id)) == 1
    bob_page = text(bob.get(f"/matches/{match_id}"))
    assert "あなたの回答は、あと15秒で A に公開されます" in bob_page
    # Held, B's answer is not yet a move: ending now would abort the game (decision 150).
    assert "回答する</button>" not in bob_page and "中止する</button>" in bob_page
    assert 'http-equiv="refresh"' in bob_page  # without JavaScript it waits for the showing
    clock.advance(timedelta(seconds=14))
    page, polled, view = a_sees(browser, match_id, 1)
    assert "あと1秒" in page and polled["new"] is False and view == before[2]
    clock.advance(timedelta(seconds=1))  # 20 s after the request
    assert poll(browser, match_id, 1)["new"] is True  # A's page reloads …
    page = text(browser.get(f"/matches/{match_id}"))  # … and the read shows the answer
    assert "あなたの番" in page and "占い師" in page
    item = stored(match_id)
    assert item.moves == 2 and item.held is None and item.hold_until is None
    assert item.banks.as_dict() == {"A": 180.0, "B": 180.0}  # B's 5 s were free
    assert item.turn_since == asked + HOLD  # A's clock runs from the answer's showing
    assert item.flag_at == asked + HOLD + timedelta(seconds=200)
    [_, shown] = moves_of(match_id)
    assert shown.side == "B" and shown.played_at == asked + HOLD


def test_ranked_bs_clock_runs_only_after_the_20_seconds(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer", "medium"]})
    clock.advance(timedelta(seconds=27))  # 20 free, then 7 of B's bank
    assert play_json(bob, match_id, {"do": "answer", "claims": []}).status_code == 303
    item = stored(match_id)
    assert item.moves == 2 and item.held is None  # after the hold: shown at once
    assert item.banks.as_dict() == {"A": 180.0, "B": 173.0}
    assert item.turn_since == clock()


def stay(player, match_id: str, clock, seconds: int) -> None:
    """``player`` keeps the game's page open (a load every 30 s) while ``seconds`` pass:
    in a live game between people the mover whose page is gone a minute loses (decision 82)."""
    for step in [30] * (seconds // 30) + [seconds % 30]:
        clock.advance(timedelta(seconds=step))
        player.get(f"/matches/{match_id}")


def test_ranked_b_flags_counting_from_the_end_of_the_hold(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    stay(bob, match_id, clock, int(HOLD.total_seconds()) + 199)
    assert stored(match_id).state == "running"
    assert "<h2>中止</h2>" not in text(browser.get(f"/matches/{match_id}"))
    clock.advance(timedelta(seconds=1))
    # B lost on time before its first move: the game is aborted (decision 150).
    assert "<h2>中止</h2>" in text(browser.get(f"/matches/{match_id}"))
    assert stored(match_id).state == "ended" and stored(match_id).aborted
    assert Duel.from_json(stored(match_id).game).ending["at"] == "time"


@pytest.mark.parametrize(
    "question",
    [{"do": "co", "roles": ["medium"]}, {"do": "named", "cards": [1, 2]}],
    ids=["medium-request", "named-co"],
)
def test_ranked_other_questions_are_answered_at_once(browser, new_browser, clock, question):
    match_id, bob = ranked_game(browser, new_browser, clock)
    assert play_json(browser, match_id, question).status_code == 303
    assert stored(match_id).hold_until is None
    answer = {"do": "answer", "claims": []}
    if question["do"] == "named":
        cards = Duel.from_json(stored(match_id).game).cards
        wolves = [c for c in question["cards"] if cards[c] == "werewolf"]
        answer["claims"] = [{"card": c, "role": "none"} for c in wolves]
    assert play_json(bob, match_id, answer).status_code == 303
    assert stored(match_id).moves == 2


def test_ranked_the_black_seer_only_request_is_held_too(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock, preset_="12B")
    assert play_json(browser, match_id, {"do": "black_seer_co"}).status_code == 303
    assert stored(match_id).hold_until == clock() + HOLD
    assert play_json(bob, match_id, {"do": "answer", "claims": []}).status_code == 303
    assert stored(match_id).moves == 1 and stored(match_id).held is not None


def test_ranked_holds_every_co_request_naming_the_seer_and_nothing_else():
    """The rule set's reading (decision 65): whole, range, automatic (GJ-CO) and black-only
    requests naming the seer; not a medium/hunter request, a named CO or a release."""

    def asked(roles, cards=None, auto=False):
        duel = Duel.setup(preset("std9"), Draws(random.Random(1)))
        open_request(duel, roles, cards, auto=auto)
        return DUEL.hold(duel)

    assert asked(["seer"]) == asked(["seer", "medium"], [1, 2]) == ANSWER_HOLD
    assert asked(["hunter", "seer"], auto=True) == ANSWER_HOLD
    assert asked(["medium"]) == asked(["hunter"], auto=True) == 0
    duel = Duel.setup(preset("std9"), Draws(random.Random(1)))
    assert DUEL.hold(duel) == 0  # A's day: nothing is due from B


def test_ranked_a_second_answer_while_held_is_refused(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    assert play_json(bob, match_id, {"do": "answer", "claims": []}).status_code == 303
    response = play_json(bob, match_id, {"do": "answer", "claims": []})
    assert response.status_code == 409 and "公開されるまで" in alert(response)
    assert stored(match_id).moves == 1


def test_ranked_resigning_while_an_answer_is_held_ends_the_game_without_it(
    browser, new_browser, clock
):
    match_id, bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    play_json(bob, match_id, {"do": "answer", "claims": []})
    response = browser.post(
        f"/matches/{match_id}/moves", {"moves": "1", "do": "resign", "confirm": "1"}
    )
    assert response.status_code == 303
    item = stored(match_id)
    assert item.state == "ended" and item.held is None
    assert [m.move["do"] for m in moves_of(match_id)] == ["co", "resign"]


def test_ranked_by_mail_the_turn_is_mailed_only_when_the_answer_shows(
    browser, new_browser, clock, monkeypatch
):
    """A correspondence game with nobody looking: the worker's look shows the held answer at
    the hold's end, and only then is A mailed the turn."""
    match_id, _bob = ranked_game(browser, new_browser, clock, control="day")
    mailed = len(sent_messages())
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    assert len(sent_messages()) == mailed + 1  # bob's turn
    clock.advance(timedelta(seconds=3))
    mailed = len(sent_messages())
    hold_until = stored(match_id).hold_until
    watched = []  # the worker's delayed looks asked for from here on
    monkeypatch.setattr(effects, "watch_clock", lambda _id, moves, at: watched.append((moves, at)))
    with effects.sent_after(Unit()) as unit:  # bob's answer, as his page sends it
        matches.move(
            unit.match(match_id), ["a:bob"], 1, {"do": "answer", "claims": []}, None, clock()
        )
    assert watched == [(1, hold_until)]  # a look at the hold's end
    assert len(sent_messages()) == mailed  # nothing told A
    clock.advance(timedelta(seconds=10))
    assert worker_look(match_id, 1, clock()) is False
    assert watched[-1] == (1, hold_until) and stored(match_id).moves == 1
    clock.advance(timedelta(seconds=7))
    worker_look(match_id, 1, clock())
    assert stored(match_id).moves == 2
    [turn] = sent_messages()[mailed:]
    assert "alice@example.jp" in turn.destinations
    worker_look(match_id, 1, clock())  # a duplicate message
    assert stored(match_id).moves == 2 and len(sent_messages()) == mailed + 1


def test_ranked_a_visitor_or_the_other_player_cannot_answer_for_b(browser, new_browser, clock):
    match_id, _bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    make_account("mallory", clock())
    mallory = new_browser()
    mallory.login("mallory")
    assert play_json(mallory, match_id, {"do": "answer", "claims": []}).status_code == 403
    response = play_json(browser, match_id, {"do": "answer", "claims": []})
    assert response.status_code == 409  # A is not B
    assert stored(match_id).held is None


def test_ranked_forged_or_cross_site_posts_make_nothing_and_hold_nothing(
    browser, new_browser, clock, client
):
    """A ranked game's creation and a held answer are refused without the session's CSRF
    token and from another site, and nothing is written."""
    match_id, bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    answer = {"moves": "1", "move": json.dumps({"do": "answer", "claims": []})}
    new_game = {"rules": "duel", "preset": "std9", "side": "A", "strength": "normal"}
    new_game |= {"clock": "3m", "opponent": "room", "ranked": "1"}
    for player, path, form in (
        (bob, f"/matches/{match_id}/moves", answer),
        (bob, "/matches", new_game),
    ):
        good = player.csrf
        for token in (None, "", "forged-token", good + "x"):
            data = dict(form) if token is None else {**form, "csrf": token}
            response = player.post(path, data, csrf=False)
            assert response.status_code == 403, (path, token)
            assert alert(response) == CSRF_REFUSAL
        body = urlencode({**form, "csrf": good}).encode()
        for hostile in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
            headers = player.headers(
                {"content-type": "application/x-www-form-urlencoded", **hostile}
            )
            response = client.http.post(path, headers=headers, body=body)
            assert response.status_code == 403, (path, hostile)
            assert alert(response) == CROSS_SITE
    assert stored(match_id).held is None and stored(match_id).moves == 1
    assert 'id="rooms"' not in text(new_browser().get("/"))  # no ranked room was made


def test_ranked_bs_minute_away_counts_from_the_end_of_the_hold(browser, new_browser, clock):
    """The 20 s are B's free time: its page's minute (decision 82), like its clock, starts
    when the hold ends."""
    match_id, _bob = ranked_game(browser, new_browser, clock)
    play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    clock.advance(HOLD + timedelta(seconds=59))
    browser.get(f"/matches/{match_id}")
    assert stored(match_id).state == "running"
    clock.advance(timedelta(seconds=2))
    # B gone before its first move: the game is aborted (decision 150).
    assert "<h2>中止</h2>" in text(browser.get(f"/matches/{match_id}"))
    assert stored(match_id).state == "ended" and stored(match_id).aborted
    assert Duel.from_json(stored(match_id).game).ending["at"] == "gone"
