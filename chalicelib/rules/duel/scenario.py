"""Scenario runner of the duel rules (RULES-DUEL §9).

``python -m chalicelib.scenario --rules duel`` hands each JSON line to :func:`run`.
"""

import random
from collections.abc import Mapping
from typing import Any

from ..answers import MALFORMED, answer
from .deck import Rules, custom, preset
from .draws import Draws
from .errors import DuelError, SetupError
from .moves import play
from .state import Duel
from .views import review

# §9: "reads one JSON object per line (blank lines skipped)".
SKIP_BLANK_LINES = True


def run(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Plays one scenario; an invalid input or move gives ``{"id": ..., "error": message}``."""
    return answer(scenario, _play, DuelError, (*MALFORMED, IndexError))


def rules_of(scenario: Mapping[str, Any]) -> Rules:
    if ("preset" in scenario) == ("custom" in scenario):
        raise SetupError("preset と custom のどちらか一方を指定してください")
    if "preset" in scenario:
        return preset(scenario["preset"])
    return custom(scenario["custom"])


def _play(scenario: Mapping[str, Any]) -> dict[str, Any]:
    seed = scenario.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("seed は整数です")
    rules = rules_of(scenario)
    pins = scenario.get("draws", {})
    if not isinstance(pins, Mapping):
        raise SetupError("draws は種類ごとのリストのオブジェクトです")
    draws = Draws(random.Random(seed), pins)
    wolves = scenario.get("wolves", "random")
    if wolves == "random":
        wolves = None
    elif not isinstance(wolves, list):
        raise SetupError('wolves はカード番号のリストか "random" です')
    duel = Duel.setup(rules, draws, wolves=wolves, cards=scenario.get("cards"))
    moves = scenario.get("moves", [])
    if not isinstance(moves, list):
        raise SetupError("moves はリストです")
    for n, move in enumerate(moves, start=1):
        if not isinstance(move, Mapping) or "by" not in move:
            raise SetupError(f"{n}手目: 手は by と do を持つオブジェクトです")
        body = {k: v for k, v in move.items() if k != "by"}
        try:
            play(duel, move["by"], body, draws)
        except DuelError as error:
            raise type(error)(f"{n}手目: {error}") from error
    return output(scenario.get("id"), duel)


def output(id_: Any, duel: Duel) -> dict[str, Any]:
    """Every output field of §9, in order."""
    return {
        "id": id_,
        "rules": duel.rules.to_json(),
        "board": duel.board,
        "cards": list(duel.cards),
        "a_view": {"masons": duel.masons},
        "b_view": {"wolves": duel.wolves, "guesses": [dict(g) for g in duel.guesses]},
        "public": duel.to_json()["events"],
        "review": review(duel),
        "next": None if duel.phase == "end" else duel.phase,
        "ending": dict(duel.ending) if duel.ending else None,
    }
