"""RULES-DUEL §8's last row for the review (感想戦): the true cards, the first-day truth, the fox
mode, the actual divinations, guards and GJs, shown after the end at any position of the game
(``views.hindsight``), never in a side's view before the end. B's PP offer and guesses:
``test_clauses_night.py::test_s8_the_pp_offer_is_told_to_b_only``."""

import random

from chalicelib.rules.duel import Draws, Duel, play, preset, view
from chalicelib.rules.duel.views import hindsight
from tests.support.duels import A17


def test_s8_the_review_shows_at_any_position_what_was_true_then() -> None:
    duel = Duel.setup(preset("17A"), Draws(random.Random(3), {"fox_mode": ["seer"]}), cards=A17)
    rng = random.Random(3)
    play(duel, "A", {"do": "execute", "card": 11}, rng)
    play(duel, "A", {"do": "night"}, rng)
    play(duel, "B", {"do": "night", "attack": 1}, Draws(rng, {"seer": [6], "guard": [2]}))
    truth = hindsight(duel)
    assert truth["cards"] == A17
    assert (truth["wolves"], truth["madman"], truth["fox"], truth["masons"]) == (
        [4, 5, 6],
        7,
        10,
        [8, 9],
    )
    assert truth["oracle"] == duel.oracle and truth["fox_mode"] == "seer"
    [night] = truth["nights"]
    assert (night["night"], night["seer"], night["guard"], night["attack"]) == (1, 6, 2, 1)
    assert night["gj"] is False
    assert truth["pp"] is None and truth["guesses"] == [] and truth["madman_used"] is False
    for side in "AB":  # the game goes on: no side's view has any of it
        seen = view(duel, side)
        assert "cards" not in seen and "review" not in seen and "madman_used" not in view(duel, "A")
