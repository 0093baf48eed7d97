"""Property tests of the duel engine over random games played by the random legal players.

Each game is drawn from a preset and one integer seed. Checked: every move the random
player draws from ``legal_moves`` is accepted; every game ends; the same seed plays the
same game; the state round-trips through JSON exactly at every step; and a side's view
and legal moves never depend on what RULES-DUEL §8 hides from that side.
"""

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.duel import PRESETS, DrawError, Draws, Duel, play, preset, view
from chalicelib.rules.duel.draws import KINDS
from chalicelib.rules.duel.legal import legal_moves
from tests.support.duels import twin

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
NAMES = st.sampled_from(sorted(PRESETS))
GAMES = settings(max_examples=60, deadline=None)
MAX_MOVES = 2000  # far above any game: at least one card dies per day


def random_game(name: str, seed: int, check: Any = None) -> Duel:
    rng = random.Random(seed)
    duel = Duel.setup(preset(name), Draws(rng))
    for _ in range(MAX_MOVES):
        if duel.phase == "end":
            return duel
        if check is not None:
            check(duel, rng)
        side = duel.phase[0]
        play(duel, side, legal_moves(duel, side).random_move(rng), rng)
    raise AssertionError("the game did not end")


@GAMES
@given(NAMES, SEEDS)
def test_every_game_ends_with_a_winner(name: str, seed: int) -> None:
    duel = random_game(name, seed)
    assert duel.ending is not None
    assert duel.ending["winner"] in ("village", "wolves", "fox")
    assert duel.winner() == duel.ending["winner"]
    assert view(duel, "A")["next"] is None


@settings(max_examples=25, deadline=None)
@given(NAMES, SEEDS)
def test_same_seed_same_game(name: str, seed: int) -> None:
    assert random_game(name, seed).to_json() == random_game(name, seed).to_json()


@settings(max_examples=25, deadline=None)
@given(NAMES, SEEDS)
def test_state_round_trips_through_json_at_every_step(name: str, seed: int) -> None:
    def check(duel: Duel, rng: random.Random) -> None:
        data = duel.to_json()
        text = json.dumps(data, sort_keys=True)
        again = Duel.from_json(json.loads(text))
        assert again.to_json() == data
        assert again == duel

    random_game(name, seed, check)


@settings(max_examples=40, deadline=None)
@given(NAMES, SEEDS)
def test_views_and_legal_moves_never_depend_on_what_is_hidden(name: str, seed: int) -> None:
    def check(duel: Duel, rng: random.Random) -> None:
        for side in "AB":
            double = twin(duel, side, random.Random(rng.random()))
            assert view(double, side) == view(duel, side)
            assert legal_moves(double, side) == legal_moves(duel, side)
        a = view(duel, "A")
        for secret in (
            "wolves",
            "guesses",
            "pp_offered",
            "attacks",
            "madman_used",
            "cards",
            "review",
        ):
            assert secret not in a
        b = view(duel, "B")
        for secret in ("masons", "cards", "review"):
            assert secret not in b

    random_game(name, seed, check)


@settings(max_examples=30, deadline=None)
@given(NAMES, SEEDS)
def test_a_refused_move_leaves_the_game_unchanged(name: str, seed: int) -> None:
    """Every pin is off the support, so a legal move that needs a draw fails midway."""

    def check(duel: Duel, rng: random.Random) -> None:
        before = duel.to_json()
        side = duel.phase[0]
        move = legal_moves(duel, side).random_move(random.Random(rng.random()))
        poisoned = Draws(random.Random(0), {kind: [-1] for kind in KINDS})
        copy = Duel.from_json(before)
        try:
            play(copy, side, move, poisoned)
        except DrawError:
            assert copy.to_json() == before

    random_game(name, seed, check)


@settings(max_examples=30, deadline=None)
@given(NAMES, SEEDS)
def test_rule_invariants_hold_throughout(name: str, seed: int) -> None:
    """No card claims twice; a `none` answer is never a real holder; the madman claims once."""

    def check(duel: Duel, rng: random.Random) -> None:
        claimed: list[int] = []
        madman_roles = 0
        for event in duel.events:
            for claim in event.get("claims", []) + event.get("answers", []):
                claimed.append(claim["card"])
                true = duel.cards[claim["card"]]
                if claim["role"] == "none":
                    assert true not in ("seer", "medium", "hunter", "cat")
                if true == "madman" and claim["role"] != "none":
                    madman_roles += 1
        assert len(claimed) == len(set(claimed))
        assert madman_roles <= 1
        assert duel.winner() is None

    random_game(name, seed, check)


def _scribble(value: Any) -> None:
    """Edits every list and dict inside ``value``, as a careless chooser might."""
    if isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append(-1)
    elif isinstance(value, tuple):
        for item in value:
            _scribble(item)


@settings(max_examples=30, deadline=None)
@given(NAMES, SEEDS)
def test_options_and_views_are_copies_editing_them_changes_nothing(name: str, seed: int) -> None:
    def check(duel: Duel, rng: random.Random) -> None:
        before = duel.to_json()
        for side in "AB":
            legal, seen = legal_moves(duel, side), view(duel, side)
            _scribble(legal.options)
            _scribble(seen)
        assert duel.to_json() == before

    random_game(name, seed, check)
