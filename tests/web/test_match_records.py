"""戦績・実績 (issue 25, decisions 66–69): each account's aggregate of its ended games (by side,
preset and opponent), its ratings (openskill, ranked games only) and their history, and its
achievements, written once with the game's end whatever ended it (a move, 投了, a flag, a
fox win); the records page reads them."""

import random
from datetime import timedelta

from chalicelib.rules.duel import Draws, Duel, play, preset
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rulesets.duel.ruleset import DUEL
from chalicelib.services import matches, records
from chalicelib.storage import records as stored_records
from chalicelib.storage.db import transaction
from chalicelib.storage.models import MatchItem, RecordItem
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.duels import B12, STD9
from tests.support.mail import mail_text, sent_messages
from tests.support.matches import worker_look
from tests.web.test_match_ranked import both_move, ranked_game
from tests.web.test_matches import MATCH_URL, play_json, random_legal, start, stored


def record(account: str) -> dict:
    return stored_records.load(account, "duel").data


def resign(player, match_id: str):
    player.get(f"/matches/{match_id}")
    return player.post(
        f"/matches/{match_id}/moves",
        {"moves": str(stored(match_id).moves), "do": "resign", "confirm": "1"},
    )


def two_accounts(browser, new_browser, clock, ranked: str = "", control: str = "3m"):
    make_account("alice", clock())
    make_account("bob", clock())
    browser.login("alice")
    browser.get("/")
    form = {"rules": "duel", "preset": "std9", "side": "A", "strength": "normal"}
    response = browser.post(
        "/matches", {**form, "clock": control, "opponent": "invite", "ranked": ranked}
    )
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    bob = new_browser()
    bob.login("bob")
    bob.get(f"/matches/{match_id}")
    assert bob.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, bob


def duel_after(name: str, cards, moves, draws=None) -> Duel:
    """A hand-dealt game after ``moves`` ((side, move) pairs), as the §9 runner plays it."""
    chance = Draws(random.Random(0), draws or {})
    duel = Duel.setup(preset(name), chance, cards=cards)
    for side, move in moves:
        play(duel, side, move, chance)
    return duel


PASS = ("B", {"do": "pp", "guess": None})
NIGHT = ("A", {"do": "night"})


def b_night(attack: int):
    return ("B", {"do": "night", "attack": attack})


# ----- every kind of end, counted once -----


def test_resigning_is_a_loss_for_the_resigner_and_a_win_for_the_other(browser, new_browser, clock):
    match_id, _bob = two_accounts(browser, new_browser, clock)
    assert resign(browser, match_id).status_code == 303
    alice, bob = record("alice"), record("bob")
    assert alice["all"] == {"games": 1, "losses": 1}
    assert alice["sides"] == {"A": {"games": 1, "losses": 1}}
    assert alice["presets"] == {"std9": {"games": 1, "losses": 1}}
    assert alice["opponents"] == {"a:bob": {"games": 1, "losses": 1}}
    assert bob["sides"] == {"B": {"games": 1, "wins": 1}}
    assert bob["opponents"] == {"a:alice": {"games": 1, "wins": 1}}
    assert "ratings" not in alice and "ranked" not in alice  # not a ranked game
    assert list(bob["achievements"]) == ["win:B"]
    assert stored_records.history("alice", "duel", 10) == []


def test_a_flag_fallen_with_nobody_looking_is_a_loss_counted_once_against_the_cpus_strength(
    browser, clock
):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, clock="3m", strength="strong")
    seen = [matches.load(match_id), matches.load(match_id)]  # two looks read it at once
    clock.advance(timedelta(seconds=201))
    assert worker_look(match_id, 0, clock())
    assert worker_look(match_id, 0, clock()) is False
    for match in seen:  # a duplicate tick with what it read before the end: refused
        assert matches.end_if_due(match, clock()) is False
    assert record("alice")["all"] == {"games": 1, "losses": 1}
    assert record("alice")["opponents"] == {"cpu:strong": {"games": 1, "losses": 1}}


def test_a_game_played_to_its_end_counts_its_outcome(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    match_id = start(browser, side="B", strength="beginner")
    rng = random.Random(3)
    while stored(match_id).state != "ended":
        response = play_json(browser, match_id, random_legal(match_id, rng))
        assert response.status_code == 303, alert(response)
    outcome = DUEL.outcome(Duel.from_json(stored(match_id).game), "B")
    key = "wins" if outcome == "win" else "losses"
    assert record("alice")["sides"] == {"B": {"games": 1, key: 1}}
    assert record("alice")["opponents"] == {"cpu:beginner": {"games": 1, key: 1}}


def test_a_fox_win_is_a_loss_for_both_and_a_draw_for_the_ratings(browser, new_browser, clock):
    match_id, _bob = ranked_game(browser, new_browser, clock, preset_="12B")
    # One execution from the end: the fox (#7) alive, one werewolf (#5) left.
    duel = duel_after(
        "12B",
        B12,
        [("A", {"do": "execute", "card": 4}), NIGHT, b_night(8)],
        {"guard": [2], "fox_mode": ["latent"]},
    )
    item = stored(match_id)
    # The game as both sides played it to here (not aborted at its end).
    item.update(actions=[MatchItem.game.set(duel.to_json()), MatchItem.movers.set({"A", "B"})])
    browser.get(f"/matches/{match_id}")
    response = browser.post(
        f"/matches/{match_id}/moves",
        {"moves": str(item.moves), "do": "execute", "card": "5", "confirm": "1"},
    )
    assert response.status_code == 303, alert(response)
    assert Duel.from_json(stored(match_id).game).ending["winner"] == "fox"
    assert record("alice")["sides"] == {"A": {"games": 1, "losses": 1}}
    assert record("bob")["sides"] == {"B": {"games": 1, "losses": 1}}
    for account in ("alice", "bob"):  # even ratings, a draw: no mean moves
        mu, sigma = record(account)["ratings"]["all"]
        assert mu == records.MU and sigma < records.SIGMA
        [entry] = stored_records.history(account, "duel", 10)
        assert entry.result == "draw"
    assert "ranked_win" not in record("alice")["achievements"]


def test_games_without_an_account_write_no_record_and_a_guest_is_filed_as_one(
    browser, new_browser, clock
):
    match_id = start(browser)  # a guest against the CPU
    resign(browser, match_id)
    assert list(RecordItem.scan()) == []
    guest_game = bob_joins_a_guest(browser, new_browser, clock)
    resign(browser, guest_game)
    assert record("bob")["opponents"] == {"guest": {"games": 1, "wins": 1}}
    assert [r.account_id for r in RecordItem.scan()] == ["bob"]


def bob_joins_a_guest(browser, new_browser, clock) -> str:
    """A guest (``browser``) invites; bob, signed in, takes the seat."""
    make_account("bob", clock())
    bob = new_browser()
    bob.login("bob")
    match_id = start(browser, opponent="invite")
    bob.get(f"/matches/{match_id}")
    assert bob.post(f"/matches/{match_id}/join").status_code == 303
    return match_id


def test_a_game_left_unfinished_counts_nothing(browser, clock):
    make_account("bob", clock())
    browser.login("bob")
    match_id = start(browser)  # against the CPU, no clock: only bob's moves can end it
    clock.advance(timedelta(days=31))  # bob left it
    assert worker_look(match_id, 0, clock()) is False
    assert stored(match_id).state == "running"
    assert record("bob") == {}  # never ended: nothing counted


def test_two_ends_of_one_accounts_games_at_once_are_both_counted(
    browser, new_browser, clock, monkeypatch
):
    """The second end read alice's record before the first end wrote it: its transaction is
    refused on the record's version, and it is made again from a fresh read."""
    make_account("alice", clock())
    browser.login("alice")
    first, second = start(browser, clock="3m"), start(browser, clock="3m")
    stale = stored_records.load_all(["alice"], "duel")
    reads = []
    real = stored_records.load_all

    def load_all(accounts, rules):
        reads.extend(accounts)
        return stale if len(reads) == 2 else real(accounts, rules)

    monkeypatch.setattr(stored_records, "load_all", load_all)
    clock.advance(timedelta(seconds=201))
    assert matches.end_if_due(matches.load(first), clock())
    assert matches.end_if_due(matches.load(second), clock())
    assert len(reads) == 3  # the second end read alice's record twice
    assert record("alice")["all"] == {"games": 2, "losses": 2}


# ----- ratings -----


def test_a_ranked_end_rates_both_players_overall_and_by_side_once(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock)
    both_move(match_id, {"A": browser, "B": bob}, clock, random.Random(1))
    assert resign(bob, match_id).status_code == 303  # alice (A) wins
    model = records.model()
    [[win], [loss]] = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    alice, bob_record = record("alice"), record("bob")
    assert alice["ratings"] == {"all": [win.mu, win.sigma], "A": [win.mu, win.sigma]}
    assert bob_record["ratings"] == {"all": [loss.mu, loss.sigma], "B": [loss.mu, loss.sigma]}
    assert alice["ranked"] == {"games": 1, "wins": 1}
    [entry] = stored_records.history("alice", "duel", 10)
    assert (entry.match_id, entry.side, entry.result, entry.opponent) == (
        match_id,
        "A",
        "win",
        "a:bob",
    )
    assert entry.ratings["before"] == {"all": None, "A": None}
    assert "ranked_win" in alice["achievements"]
    # A second game: the ratings go on from the first, the history grows.
    second, bob = ranked_game_again(browser, bob, clock)
    both_move(second, {"A": browser, "B": bob}, clock, random.Random(2))
    assert resign(browser, second).status_code == 303  # alice resigns: bob wins
    assert record("alice")["ratings"]["all"][0] < win.mu
    history = stored_records.history("alice", "duel", 10)
    assert [h.match_id for h in history] == [second, match_id]
    assert history[0].ratings["before"]["all"] == win.mu


# ----- aborted: a ranked game one side never played (decision 150) -----


def test_a_ranked_game_resigned_before_any_move_is_aborted_unrated_and_uncounted(
    browser, new_browser, clock
):
    match_id, bob = ranked_game(browser, new_browser, clock)
    page = text(browser.get(f"/matches/{match_id}"))
    assert "中止する</button>" in page and "投了する</button>" not in page
    asked = browser.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign"})
    assert "対局を中止します。" in text(asked)  # asked once more, in its own words
    mailed = len(sent_messages())
    assert resign(browser, match_id).status_code == 303
    [end] = sent_messages()[mailed:]  # bob, who was not on the page, is told
    said = mail_text(end).replace("\n", "")  # wrapped at 78 octets
    assert "対局は中止になりました" in said and "あなたの勝ち" not in said
    assert stored(match_id).state == "ended" and stored(match_id).aborted is True
    assert record("alice") == {} and record("bob") == {}  # no count, rating or achievement
    assert stored_records.history("alice", "duel", 10) == []
    for player in (browser, bob):
        shown = text(player.get(f"/matches/{match_id}"))
        assert "<h2>中止</h2>" in shown
        assert "あなたの勝ち" not in shown and "あなたの負け" not in shown


def test_a_ranked_game_ended_before_the_second_side_s_first_move_is_aborted(
    browser, new_browser, clock
):
    rng = random.Random(7)
    """A moved, B never did: B's resignation aborts the game, and so would B's flag."""
    match_id, bob = ranked_game(browser, new_browser, clock)
    move = random_player({}, legal_moves(Duel.from_json(stored(match_id).game), "A"), rng)
    assert play_json(browser, match_id, move).status_code == 303
    assert set(stored(match_id).movers) == {"A"}
    assert "中止する</button>" in text(bob.get(f"/matches/{match_id}"))
    assert resign(bob, match_id).status_code == 303
    assert stored(match_id).aborted is True
    assert record("alice") == {} and record("bob") == {}


def test_a_ranked_game_lost_on_time_before_the_first_move_is_aborted(browser, new_browser, clock):
    match_id, _bob = ranked_game(browser, new_browser, clock)
    clock.advance(timedelta(minutes=10))
    assert worker_look(match_id, 0, clock())
    assert stored(match_id).aborted is True
    assert record("alice") == {} and record("bob") == {}


def test_a_ranked_game_both_sides_moved_in_is_rated_when_it_ends(browser, new_browser, clock):
    rng = random.Random(7)
    match_id, bob = ranked_game(browser, new_browser, clock)
    both_move(match_id, {"A": browser, "B": bob}, clock, rng)
    assert "投了する</button>" in text(bob.get(f"/matches/{match_id}"))
    assert resign(bob, match_id).status_code == 303
    assert not stored(match_id).aborted
    assert record("alice")["ranked"] == {"games": 1, "wins": 1}
    assert record("alice")["ratings"]["all"][0] > records.MU
    assert "ranked_win" in record("alice")["achievements"]


def test_the_same_two_accounts_ranked_games_are_rated_twice_a_day_at_most(
    browser, new_browser, clock
):
    """Four games bob loses to alice in a day: the first two move the ratings, the next two
    count as games played and move nothing; a day after the first, a game counts again."""
    rng = random.Random(7)
    match_id, bob = ranked_game(browser, new_browser, clock)
    ratings = []
    for n in range(5):
        if n:
            if n == 4:
                clock.advance(timedelta(days=1))
            match_id, bob = ranked_game_again(browser, bob, clock)
        both_move(match_id, {"A": browser, "B": bob}, clock, rng)
        assert resign(bob, match_id).status_code == 303
        ratings.append(record("alice")["ratings"]["all"][0])
    assert ratings[0] < ratings[1] == ratings[2] == ratings[3] < ratings[4]
    assert record("alice")["ranked"] == {"games": 5, "wins": 5}
    assert len(stored_records.history("alice", "duel", 10)) == 3
    assert len(stored_records.history("bob", "duel", 10)) == 3


def ranked_game_again(browser, bob, clock):
    browser.get("/")
    form = {"rules": "duel", "preset": "std9", "side": "A", "strength": "normal"}
    clock.advance(timedelta(minutes=1))
    response = browser.post(
        "/matches", {**form, "clock": "3m", "opponent": "invite", "ranked": "1"}
    )
    match_id = MATCH_URL.search(response.headers["Location"]).group(1)
    bob.get(f"/matches/{match_id}")
    assert bob.post(f"/matches/{match_id}/join").status_code == 303
    return match_id, bob


# ----- achievements: each earned by its own game -----


def ended(game, side_player="a:alice", side="A", **extra) -> records.Ended:
    other = "B" if side == "A" else "A"
    fields = {
        "rules": DUEL,
        "match_id": extra.pop("match_id", "m" * 16),
        "players": {side: side_player, other: extra.pop("other", "cpu")},
        "preset": "std9",
        "strength": "normal",
        "ranked": False,
        "correspondence": False,
        "game": game,
        "at": extra.pop("at"),
    }
    return records.Ended(**{**fields, **extra})


def commit(e: records.Ended) -> dict:
    with transaction() as t:
        stored_records.write(t, records.ending(e))
    return record("alice")


EXECUTE_5 = [("A", {"do": "execute", "card": 5}), PASS]


def a_win() -> Duel:
    return duel_after(
        "std9",
        STD9,
        [*[("A", {"do": "execute", "card": 4}), PASS, NIGHT, b_night(9)], *EXECUTE_5],
    )


def forfeit(side: str) -> Duel:
    return DUEL.forfeit(duel_after("std9", STD9, []), side, "time")


def test_feat_first_win_as_a_and_as_b(clock):
    make_account("alice", clock())
    assert "win:A" not in commit(ended(forfeit("A"), at=clock())).get("achievements", {})
    assert list(commit(ended(a_win(), at=clock()))["achievements"]) == ["win:A"]
    earned = commit(ended(forfeit("A"), side="B", at=clock()))["achievements"]
    assert set(earned) == {"win:A", "win:B"}


def test_feat_a_pp_won(clock):
    make_account("alice", clock())
    to_five = [
        ("A", {"do": "execute", "card": 1}),
        PASS,
        NIGHT,
        b_night(2),
        ("A", {"do": "execute", "card": 3}),
        PASS,
        NIGHT,
        b_night(9),
        ("A", {"do": "execute", "card": 4}),
    ]
    pp = duel_after("std9", STD9, [*to_five, ("B", {"do": "pp", "guess": 6, "target": 7})])
    assert pp.ending["winner"] == "wolves"
    assert "pp_won" in commit(ended(pp, side="B", at=clock()))["achievements"]
    make_account("carol", clock())
    won_otherwise = forfeit("A")  # B won, but by no PP
    with transaction() as t:
        stored_records.write(t, records.ending(ended(won_otherwise, "a:carol", "B", at=clock())))
    assert "pp_won" not in stored_records.load("carol", "duel").data["achievements"]


def test_feat_12b_won_as_a_without_losing_the_seer(clock):
    make_account("alice", clock())
    draws = {"guard": [2], "fox_mode": ["latent"], "seer": [7]}  # the seer curses the fox

    def win(attack: int) -> Duel:
        duel = duel_after(
            "12B",
            B12,
            [("A", {"do": "execute", "card": 4}), NIGHT, b_night(attack), EXECUTE_5[0]],
            draws,
        )
        assert duel.ending["winner"] == "village"
        return duel

    lost_seer = commit(ended(win(attack=1), preset="12B", at=clock()))
    assert "seer_kept_12b" not in lost_seer["achievements"]
    kept = commit(ended(win(attack=8), preset="12B", at=clock()))
    assert "seer_kept_12b" in kept["achievements"]


def test_feat_ten_correspondence_games_finished(clock):
    make_account("alice", clock())
    for _ in range(9):
        data = commit(ended(forfeit("A"), correspondence=True, at=clock()))
        assert "correspondence_10" not in data.get("achievements", {})
    data = commit(ended(forfeit("A"), correspondence=True, at=clock()))
    assert data["correspondence"] == 10 and "correspondence_10" in data["achievements"]


def test_feat_first_ranked_win(clock):
    make_account("alice", clock())
    make_account("bob", clock())
    unranked = commit(ended(a_win(), other="a:bob", at=clock()))
    assert "ranked_win" not in unranked["achievements"]
    ranked = commit(ended(a_win(), other="a:bob", ranked=True, at=clock()))
    assert "ranked_win" in ranked["achievements"]


def test_feat_a_win_against_the_strongest_cpu(clock):
    make_account("alice", clock())
    assert "strongest_cpu" not in commit(ended(a_win(), at=clock()))["achievements"]
    data = commit(ended(a_win(), strength="strong", at=clock()))
    assert "strongest_cpu" in data["achievements"]


def test_feat_a_win_in_every_preset(clock):
    make_account("alice", clock())
    names = ["std9", "10A", "12A", "12B", "17A"]
    for name in names:
        data = commit(ended(a_win(), preset=name, at=clock()))
        assert ("every_preset" in data["achievements"]) == (name == names[-1])


def test_an_achievement_keeps_the_time_it_was_first_earned(clock):
    make_account("alice", clock())
    first = clock()
    commit(ended(a_win(), at=first))
    clock.advance(timedelta(days=1))
    data = commit(ended(a_win(), at=clock()))
    assert records.key_time(data["achievements"]["win:A"]) == first


# ----- the page -----


def test_the_records_page_shows_the_logged_in_accounts_records_only(browser, new_browser, clock):
    match_id, bob = ranked_game(browser, new_browser, clock)
    both_move(match_id, {"A": browser, "B": bob}, clock, random.Random(1))
    resign(bob, match_id)
    page = text(browser.get("/account/records", account="bob"))
    assert "戦績・実績" in page and "alice さん" in page and "bob さん" not in page
    assert "1局 1勝 0敗" in page
    assert "ランク戦 1局 1勝 0敗" in page
    win_mu = round(record("alice")["ratings"]["all"][0])
    assert f"総合: <strong>{win_mu}</strong>" in page
    assert f"/matches/{match_id}" in page  # the history links the game
    assert f'<td>{win_mu} <span class="muted">(+{win_mu - 1500})</span>' in page
    assert "★ はじめての勝利・A(村人陣営・推理する側)" in page
    assert "★ ランク戦はじめての勝利" in page
    assert "☆ PPで勝利(未達成)" in page
    assert 'id="puzzle"' not in page  # the puzzle's block shows only with its counts
    bob_page = text(bob.get("/account/records"))
    assert "bob さん" in bob_page and "1局 0勝 1敗" in bob_page
    assert "/account/records" in text(browser.get("/account"))
    assert "/account/records" in text(browser.get(f"/matches/{match_id}"))


def test_the_records_page_asks_a_visitor_to_log_in(new_browser):
    response = new_browser().get("/account/records")
    assert response.status_code == 401 and "ログインしてください" in alert(response)


def test_the_records_page_is_one_get_and_one_query(browser, clock, monkeypatch):
    make_account("alice", clock())
    browser.login("alice")
    calls = []
    real_load, real_history = stored_records.load, stored_records.history
    monkeypatch.setattr(
        stored_records, "load", lambda *a, **k: calls.append("get") or real_load(*a, **k)
    )
    monkeypatch.setattr(
        stored_records, "history", lambda *a, **k: calls.append("query") or real_history(*a, **k)
    )
    assert browser.get("/account/records").status_code == 200
    assert calls == ["get", "query"]
