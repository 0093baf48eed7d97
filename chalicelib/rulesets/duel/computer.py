"""The computer opponent behind one adapter: a side's view, its legal options, a strength.

The engine's CPUs (``rules.duel.cpu``) at the three levels 入門/普通/強い; the strength is
stored with the game, so a game keeps the level it was started with.
"""

import random
from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel import cpu
from chalicelib.rules.duel.cpu import Player
from chalicelib.rules.duel.legal import Legal

STRENGTHS = tuple(cpu.STRENGTHS)  # beginner, normal, strong

# strength -> (the player for A, the player for B); ``cpu.player`` hands each a deep copy of
# the view and the options.
PLAYERS: dict[str, tuple[Player, Player]] = {s: (cpu.player(s), cpu.player(s)) for s in STRENGTHS}


def choose(view: Mapping[str, Any], legal: Legal, strength: str, rng: random.Random) -> dict:
    for_a, for_b = PLAYERS[strength]
    return (for_a if legal.side == "A" else for_b)(view, legal, rng)
