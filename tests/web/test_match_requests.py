"""Issue 22's budget, the ending move included (decision duel 102): every move of a game played
move by move is at most 3 DynamoDB requests — the session and the game in one read, the
accounts' records in one more when the move ends the game, and the transaction — and the
records and ratings an end writes stay right when two games of one account end at once."""

import json
import random
from datetime import timedelta

import pytest

from benchmarks.requests import counting
from chalicelib import effects
from chalicelib.services import matches, records
from chalicelib.storage import matches as store
from chalicelib.storage import outbox as mailbox
from chalicelib.storage import records as stored_records
from tests.support.accounts import make_account
from tests.web.test_match_mail import two_people
from tests.web.test_match_ranked import both_move, create, ranked_game
from tests.web.test_match_records import record
from tests.web.test_matches import MATCH_URL, play_json, random_legal, start, stored


def test_every_move_of_a_signed_in_game_against_the_cpu_is_at_most_three_requests(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser)
    rng = random.Random(7)
    counted = []
    for _ in range(400):
        if stored(match_id).state == "ended":
            break
        move, moves = random_legal(match_id, rng), stored(match_id).moves
        with counting() as calls:
            assert play_json(browser, match_id, move, moves).status_code == 303
        counted.append(dict(calls))
    assert stored(match_id).state == "ended"
    assert max(sum(calls.values()) for calls in counted) <= 3, counted
    # A move: the session and the game in one batch read, then the transaction.
    assert all(calls == {"BatchGetItem": 1, "TransactWriteItems": 1} for calls in counted[:-1]), (
        counted
    )
    # The ending move also reads the account's record (one batch read): still 3.
    assert counted[-1] == {"BatchGetItem": 2, "TransactWriteItems": 1}, counted[-1]
    assert record("alice")["all"]["games"] == 1


def resigned(player, match_id: str):
    """投了 from the page, counted: the DynamoDB requests of the POST alone."""
    player.get(f"/matches/{match_id}")
    form = {"moves": str(stored(match_id).moves), "do": "resign", "confirm": "1"}
    with counting() as calls:
        assert player.post(f"/matches/{match_id}/moves", form).status_code == 303
    return calls


def test_resigning_a_signed_in_game_against_the_cpu_is_three_requests(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser)
    calls = resigned(browser, match_id)
    assert calls == {"BatchGetItem": 2, "TransactWriteItems": 1}, calls
    assert record("alice")["all"] == {"games": 1, "losses": 1}


def test_a_session_read_with_the_game_still_refuses_a_logged_out_cookie(
    browser, new_browser, clock
):
    """The session item read in the game's batch decides as its own read did: a cookie copied
    before its logout neither sees the game nor moves in it."""
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser)
    browser.get(f"/matches/{match_id}")
    copy = new_browser()
    copy.cookie, copy.csrf = browser.cookie, browser.csrf
    browser.post("/logout")
    assert copy.get(f"/matches/{match_id}").status_code == 403
    form = {"moves": str(stored(match_id).moves), "do": "resign", "confirm": "1"}
    assert copy.post(f"/matches/{match_id}/moves", form).status_code == 403
    assert stored(match_id).state == "running"


def test_the_move_that_ends_a_ranked_game_reads_both_records_in_one_request(
    browser, new_browser, clock, monkeypatch
):
    match_id, bob = ranked_game(browser, new_browser, clock)
    both_move(match_id, {"A": browser, "B": bob}, clock, random.Random(1))  # not aborted
    handed: list[str] = []  # deployed, one SQS message to the mail workers: not DynamoDB's
    monkeypatch.setattr(
        effects, "hand_over_mail", lambda owed, unit=None: handed.extend(h.owner for h in owed)
    )
    calls = resigned(bob, match_id)
    assert calls == {"BatchGetItem": 2, "TransactWriteItems": 1}, calls
    assert handed == [mailbox.match_mail(match_id)]  # alice's mail of the end, owed
    assert record("alice")["ranked"] == {"games": 1, "wins": 1}
    assert record("bob")["ranked"] == {"games": 1, "losses": 1}


def test_a_move_in_a_live_game_between_people_writes_no_sign_of_life_besides_itself(
    browser, new_browser, clock, monkeypatch
):
    """The mover's page was last seen 20 s ago, so any request of theirs writes their sign of
    life (decision 82) — but a move that is written hands the turn over: no write of its own,
    the ending move too. A move refused still counts as a sign of life."""
    match_id, _bob = two_people(browser, new_browser, clock, control="3m")
    monkeypatch.setattr(effects, "hand_over_mail", lambda owed, unit=None: None)
    browser.get(f"/matches/{match_id}")
    clock.advance(timedelta(seconds=20))
    stale = {"moves": "5", "move": json.dumps({"do": "resign"})}
    assert "stale=1" in browser.post(f"/matches/{match_id}/moves", stale).headers["Location"]
    assert store.load_match(match_id).presence == store.Presence("A", clock())
    clock.advance(timedelta(seconds=20))
    form = {"moves": "0", "move": json.dumps({"do": "resign"})}
    with counting() as calls:
        assert browser.post(f"/matches/{match_id}/moves", form).status_code == 303
    assert calls == {"BatchGetItem": 2, "TransactWriteItems": 1}, calls
    assert stored(match_id).state == "ended"
    assert record("alice")["all"] == {"games": 1, "losses": 1}


def _resigned_by(match_id: str, player: str, clock) -> None:
    match = matches.load(match_id)
    matches.move(match, [player], match.moves, {"do": "resign"}, None, clock())


@pytest.mark.parametrize("interrupted", ["first", "second"])
def test_two_ranked_games_of_one_account_ending_at_once_count_and_rate_both(
    browser, new_browser, clock, monkeypatch, interrupted
):
    """One end has read alice's and bob's records when the other game's end writes them: its
    transaction is refused on the records' versions and made again from a fresh read, so
    both games count and the ratings go on from each other, in either order."""
    # Played by mail (a day a move): nobody loses for leaving the page while the other ends.
    first, bob = ranked_game(browser, new_browser, clock, control="day")  # bob resigns
    response = create(browser, clock="day")
    second = MATCH_URL.search(response.headers["Location"]).group(1)  # alice resigns
    bob.get(f"/matches/{second}")
    assert bob.post(f"/matches/{second}/join").status_code == 303
    for game in (first, second):  # played by both: rated at their end (decision 150)
        both_move(game, {"A": browser, "B": bob}, clock, random.Random(3))
    resigner = {first: "a:bob", second: "a:alice"}
    outer, inner = (first, second) if interrupted == "first" else (second, first)
    real = stored_records.load_all
    reads: list[str] = []

    def load_all(accounts, rules):
        read = real(accounts, rules)
        reads.append("read")
        if len(reads) == 1:  # the other game ends between this read and this write
            _resigned_by(inner, resigner[inner], clock)
        return read

    monkeypatch.setattr(stored_records, "load_all", load_all)
    _resigned_by(outer, resigner[outer], clock)
    assert len(reads) == 3  # the outer end, the inner end, the outer end again
    assert stored(first).state == stored(second).state == "ended"
    alice, bob_record = record("alice"), record("bob")
    assert alice["ranked"] == {"games": 2, "wins": 1, "losses": 1}
    assert bob_record["ranked"] == {"games": 2, "wins": 1, "losses": 1}
    # The ratings as if the inner game had ended first, then the outer from its ratings.
    model = records.model()
    rated = {"a": model.rating(), "b": model.rating()}
    for game in (inner, outer):
        ranks = [2.0, 1.0] if resigner[game] == "a:alice" else [1.0, 2.0]
        [[rated["a"]], [rated["b"]]] = model.rate([[rated["a"]], [rated["b"]]], ranks=ranks)
    for ratings, key, mine in ((alice["ratings"], "A", "a"), (bob_record["ratings"], "B", "b")):
        assert ratings["all"] == ratings[key] == [rated[mine].mu, rated[mine].sigma]
    history = stored_records.history("alice", "duel", 10)
    assert sorted(h.match_id for h in history) == sorted([first, second])
    by_game = {h.match_id: h for h in history}
    assert by_game[inner].ratings["before"]["all"] is None
    assert by_game[outer].ratings["before"]["all"] == by_game[inner].ratings["all"][0]
