"""One entry point for every move of either side (§9 move shapes), checked against the turn."""

import random
from collections.abc import Callable, Mapping
from typing import Any

from .draws import Draws
from .errors import MoveError, TurnError
from .execution import execute_order, power_play
from .night import b_night, order_night
from .questions import answer, ask_black_seer, ask_co, ask_named, ask_release
from .state import Duel

Handler = Callable[[Duel, Mapping[str, Any], Draws], None]


def _no_draws(handler: Callable[[Duel, Mapping[str, Any]], None]) -> Handler:
    return lambda duel, move, draws: handler(duel, move)


# Which moves each turn takes (§9): turn -> do -> handler.
TURNS: dict[str, dict[str, Handler]] = {
    "A:day": {
        "co": _no_draws(ask_co),
        "black_seer_co": _no_draws(ask_black_seer),
        "named": _no_draws(ask_named),
        "release": _no_draws(ask_release),
        "execute": execute_order,
    },
    "B:answer": {"answer": answer},
    "B:pp": {"pp": power_play},
    "A:night": {"night": _no_draws(order_night)},
    "B:night": {"night": b_night},
}

SIDE_TEXT = {"A": "A(村人陣営)", "B": "B(人狼陣営)"}


def play(duel: Duel, by: str, move: Mapping[str, Any], chance: random.Random | Draws) -> None:
    """Plays ``move`` for side ``by``; a refused move leaves the game unchanged."""
    draws = chance if isinstance(chance, Draws) else Draws(chance)
    if duel.phase == "end":
        raise TurnError("対局はもう終わっています")
    if by not in SIDE_TEXT:
        raise MoveError('by は "A" か "B" です')
    side = duel.phase[0]
    if by != side:
        raise TurnError(f"いまは{SIDE_TEXT[side]}の番です")
    if not isinstance(move, Mapping):
        raise MoveError("手はオブジェクトで指定してください")
    handlers = TURNS[duel.phase]
    do = move.get("do")
    if do not in handlers:
        raise MoveError(f"いまは「{do}」はできません({'・'.join(handlers)} のどれかです)")
    before = duel.to_json()
    try:
        handlers[do](duel, move, draws)
    except Exception:
        restored = Duel.from_json(before)
        for name in Duel.__struct_fields__:
            setattr(duel, name, getattr(restored, name))
        raise
