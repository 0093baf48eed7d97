"""Who sees what (RULES-DUEL §8): each side's view, and the after-game review (感想戦).

This module is the one place that decides secrecy. A view is built from the public
record plus exactly the side's own knowledge; the true cards and the review join
only once the game is over.
"""

from typing import Any

from .state import Duel, copy_json


def review(duel: Duel) -> dict[str, Any]:
    """§9 `review`: the first-day truth, the fox mode and each night's actual draws."""
    return {
        "oracle": dict(duel.oracle) if duel.oracle else None,
        "fox_mode": duel.fox_mode,
        "nights": [dict(n) for n in duel.nights],
    }


def hindsight(duel: Duel) -> dict[str, Any]:
    """Everything true at this point of a game, for the review (感想戦) of a game that is
    over, shown at any of its positions: the true cards, the werewolves, masons, madman and
    fox, the first-day truth, the fox mode and its first-day result, each night's actual
    draws and attack, B's PP offer pending now, its guesses, whether its madman instruction
    is spent. Never for a game still being played (§8: "after the end")."""
    return {
        "cards": list(duel.cards),
        "wolves": duel.wolves,
        "masons": duel.masons,
        "madman": duel.card_of("madman"),
        "fox": duel.card_of("fox"),
        **review(duel),
        "fox_oracle": copy_json(duel.fox_oracle),
        "pp": copy_json(duel.pending_pp),
        "guesses": copy_json(duel.guesses),
        "madman_used": duel.madman_used,
    }


def public(duel: Duel) -> dict[str, Any]:
    """What both sides see."""
    return {
        "rules": duel.rules.to_json(),
        "board": duel.board,
        "day": duel.day,
        "next": None if duel.phase == "end" else duel.phase,
        "alive": duel.living(),
        "claims": {str(c): copy_json(claim) for c, claim in sorted(duel.claims.items())},
        "asked": [[c, r] for c, r in sorted(duel.asked)],
        "whole_seer": duel.whole_seer,
        "whole_hunter": duel.whole_hunter,
        "black_seer_done": duel.black_seer_done,
        "question": _public_question(duel),
        "events": copy_json(duel.events),
        "ending": copy_json(duel.ending),
    }


def _public_question(duel: Duel) -> dict[str, Any] | None:
    if duel.question is None:
        return None
    question: dict[str, Any] = copy_json(duel.question)
    return question


def view(duel: Duel, side: str) -> dict[str, Any]:
    """What ``side`` ("A" or "B") may know now (§8)."""
    seen = public(duel)
    if side == "A":
        seen["masons"] = duel.masons
    elif side == "B":
        seen["wolves"] = duel.wolves
        seen["guesses"] = copy_json(duel.guesses)
        seen["pp_offered"] = bool(duel.pending_pp and duel.pending_pp["offered"])
        # B's own instruction: spent even when it took no effect (§5), so A never learns it.
        seen["madman_used"] = duel.madman_used
        # B's own attacks: B chose them, A never sees them.
        seen["attacks"] = [{"night": n["night"], "target": n["attack"]} for n in duel.nights]
    else:
        raise ValueError('side は "A" か "B" です')
    seen["side"] = side
    if duel.phase == "end":
        seen["cards"] = list(duel.cards)
        seen["review"] = review(duel)
    return seen
