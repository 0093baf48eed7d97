"""The computer opponent behind one adapter: a side's view, its legal options, a strength.

Every strength plays the engine's CPUs (``deducer`` for A, ``deceiver`` for B) until the
levels of 入門/普通/強い land (issue 22, branch ``duelcpu``): wiring them is the one line of
``PLAYERS``. The strength is stored with the game, so a game keeps the level it was started
with.
"""

import random
from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel.cpu import Player, deceiver, deducer
from chalicelib.rules.duel.legal import Legal

STRENGTHS = ("intro", "normal", "strong")

# strength -> (the player for A, the player for B)
PLAYERS: dict[str, tuple[Player, Player]] = {s: (deducer, deceiver) for s in STRENGTHS}


def choose(view: Mapping[str, Any], legal: Legal, strength: str, rng: random.Random) -> dict:
    for_a, for_b = PLAYERS[strength]
    return (for_a if legal.side == "A" else for_b)(view, legal, rng)
