"""The rules of duel werewolf (2人で遊ぶ人狼ゲーム), RULES-DUEL §1–§8, as a pure library.

Typical use::

    rng = random.Random(seed)
    duel = Duel.setup(preset("std9"), Draws(rng))
    duel.phase                                   # "A:day": whose move it is
    play(duel, "A", {"do": "co", "roles": ["seer"]}, rng)
    play(duel, "B", {"do": "answer", "claims": []}, rng)
    view(duel, "A"), view(duel, "B")             # what each side sees (§8)
    legal_moves(duel, "B").random_move(rng)      # a random legal move

The moves are the plain-JSON shapes of RULES-DUEL §9; refusals are
:class:`DuelError` (a ``ValueError``) with a Japanese sentence.
"""

from .deck import PRESETS, Rules, custom, preset
from .draws import Draws
from .errors import DrawError, DuelError, MoveError, SetupError, TurnError
from .moves import play
from .state import Duel
from .views import review, view

__all__ = [
    "PRESETS",
    "DrawError",
    "Draws",
    "Duel",
    "DuelError",
    "MoveError",
    "Rules",
    "SetupError",
    "TurnError",
    "custom",
    "play",
    "preset",
    "review",
    "view",
]
