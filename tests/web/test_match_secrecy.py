"""RULES-DUEL §8 through every route that serves a game: over random games of every preset and
side, no page, JSON answer, poll or mail shows a side what §8 keeps from it before the end; the
computer opponent sees only its side's view and its own randomness."""

import json
import random
import re

import pytest

from chalicelib.rules.duel import Duel, view
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rulesets.duel import computer
from chalicelib.rulesets.duel.ruleset import DUEL, SUBJECTS
from tests.support.clients import text
from tests.web.test_matches import person_side, play_json, random_legal, start, stored

# What only the other side (or the review after the end) may know, by what shows it.
HIDDEN_KEYS = {"A": {"wolves", "guesses", "attacks", "pp_offered"}, "B": {"masons"}}
AFTER_END_KEYS = {"cards", "review"}
KNOWN_CLASS = re.compile(r'class="duel-card[^"]*known-(\w+)"[^>]*id="card-(\d+)"')


def check_served(browser, match_id: str, side: str) -> None:
    item = stored(match_id)
    duel = Duel.from_json(item.game)
    ended = duel.phase == "end"
    # The JSON answer is exactly the side's view (§8), nothing else.
    answer = json.loads(text(browser.get(f"/matches/{match_id}/view")))
    assert answer["view"] == json.loads(json.dumps(view(duel, side)))
    assert set(answer) == {"moves", "side", "view"}
    assert not HIDDEN_KEYS[side] & set(answer["view"])
    if not ended:
        assert not AFTER_END_KEYS & set(answer["view"])
    # The poll says only how many moves and chat messages, and whether the game runs.
    poll = json.loads(text(browser.get(f"/matches/{match_id}/since/0")))
    assert set(poll) == {"new", "moves", "state", "chats"}
    # The page marks exactly the side's own knowledge, and the truth only after the end.
    page = text(browser.get(f"/matches/{match_id}"))
    marked = {(kind, int(card)) for kind, card in KNOWN_CLASS.findall(page)}
    own = {("mason", c) for c in duel.masons} if side == "A" else set()
    own |= {("werewolf", c) for c in duel.wolves} if side == "B" else set()
    assert marked == own
    if not ended:
        assert 'class="truth"' not in page and 'id="review"' not in page
        assert "感想戦" not in page and "妖狐の作戦" not in page
    if side == "A":
        assert "夜の襲撃" not in page and "狂人予想" not in page and "人狼: #" not in page
    else:
        assert "共有者: #" not in page
    if ended:
        assert 'id="review"' in page
        for c in range(1, duel.board + 1):
            assert f'id="card-{c}"' in page
        # The shared record (decision 62): what both see after the end, no side's own secrets.
        record = DUEL.record(duel)
        assert not (HIDDEN_KEYS["A"] | {"guesses"}) & set(record["seen"])
        assert all(card["known"] is None for card in record["board"])
    # A player's mail (decision 56) says the game, the side, the day, whose turn, the result:
    # read from the side's view, nothing of the cards.
    for kind in SUBJECTS:
        said = DUEL.notice(duel, side, kind)
        assert set(said.context) == {"title", "side_label", "day", "turn", "ending"}
        assert (said.context["ending"] is None) == (not ended)
        assert said.context["day"] == view(duel, side)["day"]


@pytest.mark.parametrize("preset", ["std9", "10A", "12A", "12B", "17A"])
@pytest.mark.parametrize("side", ["A", "B"])
def test_no_route_shows_a_side_what_section_8_hides_from_it(browser, preset, side):
    match_id = start(browser, preset=preset, side=side)
    rng = random.Random(f"secrecy-{preset}-{side}")
    for _ in range(400):
        check_served(browser, match_id, side)
        if stored(match_id).state == "ended":
            break
        play_json(browser, match_id, random_legal(match_id, rng))
    assert stored(match_id).state == "ended"
    check_served(browser, match_id, side)


@pytest.mark.parametrize("preset", ["12A", "17A"])
def test_two_people_each_see_only_their_sides_view(browser, new_browser, preset):
    match_id = start(browser, preset=preset, side="A", opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    rng = random.Random(f"two-{preset}")
    for _ in range(400):
        check_served(browser, match_id, "A")
        check_served(friend, match_id, "B")
        item = stored(match_id)
        if item.state == "ended":
            break
        duel = Duel.from_json(item.game)
        side = duel.phase[0]
        move = random_player({}, legal_moves(duel, side), rng)
        play_json(browser if side == "A" else friend, match_id, move)
    assert stored(match_id).state == "ended"


def test_the_computer_sees_only_its_sides_view_and_its_own_randomness(browser, monkeypatch):
    seen = []

    def spy(strength_players):
        def player(side_view, legal, rng):
            seen.append((side_view, legal, rng))
            return strength_players(side_view, legal, rng)

        return player

    for strength, (for_a, for_b) in list(computer.PLAYERS.items()):
        monkeypatch.setitem(computer.PLAYERS, strength, (spy(for_a), spy(for_b)))
    match_id = start(browser, preset="17A", side="A")
    rng = random.Random(8)
    for _ in range(6):
        before = Duel.from_json(stored(match_id).game)
        count = len(seen)
        play_json(browser, match_id, random_legal(match_id, rng))
        for side_view, legal, chance in seen[count:]:
            assert isinstance(chance, random.SystemRandom)  # never the game's seed
            assert legal.side == "B"
            assert "masons" not in side_view and "cards" not in side_view
            assert side_view["wolves"] == before.wolves
    assert seen and person_side(match_id) == "A"
