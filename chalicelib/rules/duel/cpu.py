"""Computer opponents (CPUと対戦): one entry point, ``choose(view, legal, rng, strength)``.

A CPU sees only its own side's view (:func:`~.views.view`) and its legal moves
(:func:`~.legal.legal_moves`), never the true cards; it gets deep copies of both, so
nothing it does can touch the game. It is pure and deterministic given its RNG. In the
product that RNG is the CPU's own secret randomness (:func:`secret_rng`), unrelated to the
game's seed; the simulator and the tests pass a seeded ``random.Random``.

The strengths (:data:`STRENGTHS`) are chosen when a game against the CPU starts: CPU-A is
:mod:`.deducer`, CPU-B :mod:`.deceiver`; :func:`random_player` is a random legal move.
"""

import random
from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from . import deceiver, deducer
from .legal import Legal
from .state import copy_json

Player = Callable[[Mapping[str, Any], Legal, random.Random], dict[str, Any]]

# Strength id → its label on pages, weakest first.
STRENGTHS: dict[str, str] = {"beginner": "入門", "normal": "普通", "strong": "強い"}

_PLAYERS: dict[str, dict[str, Player]] = {
    "A": {
        "beginner": deducer.novice,
        "normal": deducer.player(deducer.NORMAL),
        "strong": deducer.player(deducer.STRONG),
    },
    "B": {
        "beginner": deceiver.novice,
        "normal": deceiver.player(deceiver.NORMAL),
        "strong": deceiver.player(deceiver.STRONG),
    },
}


def choose(
    view: Mapping[str, Any], legal: Legal, rng: random.Random, strength: str = "strong"
) -> dict[str, Any]:
    """The CPU's move for ``legal.side`` at ``strength`` (a key of :data:`STRENGTHS`)."""
    if strength not in STRENGTHS:
        raise ValueError(f"CPUの強さは {'・'.join(STRENGTHS)} のどれかです")
    if legal.turn is None:
        raise ValueError("いまはこの側の手番ではありません")
    chooser = _PLAYERS[legal.side][strength]
    return chooser(copy_json(dict(view)), replace(legal, options=copy_json(legal.options)), rng)


def secret_rng() -> random.Random:
    """The product's CPU randomness: the operating system's, never derived from the game."""
    return random.SystemRandom()


def player(strength: str = "strong") -> Player:
    """``choose`` at one strength, as a player for either side (the simulator's shape)."""
    if strength not in STRENGTHS:
        raise ValueError(f"CPUの強さは {'・'.join(STRENGTHS)} のどれかです")

    def play(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
        return choose(view, legal, rng, strength)

    play.__name__ = f"cpu_{strength}"
    return play


def random_player(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    return legal.random_move(rng)
