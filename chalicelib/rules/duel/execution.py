"""The execution, PP/RPP and the cat's revenge (RULES-DUEL §4.5)."""

from collections.abc import Mapping
from typing import Any

from .draws import Draws
from .errors import MoveError
from .reports import check_keys
from .state import Duel


def pp_offered(duel: Duel, target: int) -> bool:
    """§4.5: the madman alive, A's target a werewolf, werewolves + 1 ≥ the other living cards."""
    if duel.living_card_of("madman") is None or duel.cards[target] != "werewolf":
        return False
    wolves = sum(1 for c in duel.alive if duel.cards[c] == "werewolf")
    return wolves + 1 >= len(duel.alive) - wolves - 1


def execute_order(duel: Duel, move: Mapping[str, Any], draws: Draws) -> None:
    check_keys(move, ("do", "card"))
    card = move.get("card")
    if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= duel.board:
        raise MoveError(f"{card} は盤面のカードではありません")
    if card not in duel.alive:
        raise MoveError(f"#{card} はもう死んでいます")
    if duel.rules.pp:
        duel.pending_pp = {"card": card, "offered": pp_offered(duel, card)}
        duel.phase = "B:pp"
    else:
        execute(duel, card, None, draws)


def power_play(duel: Duel, move: Mapping[str, Any], draws: Draws) -> None:
    """B's answer after an execution with PP on: a pass, or a guess when offered."""
    check_keys(move, ("do", "guess", "target"))
    pending = duel.pending_pp
    assert pending is not None
    target: int = pending["card"]
    if "guess" not in move:
        raise MoveError('guess を指定してください(パスは "guess": null)')
    guess = move["guess"]
    if guess is None:
        if "target" in move:
            raise MoveError("パスのときは target を書きません")
        execute(duel, target, None, draws)
        return
    if not pending["offered"]:
        raise MoveError("いまはPPのチャンスではありません。パスしかできません")
    picked = move.get("target")
    for value, what in ((guess, "狂人の予想"), (picked, "吊り先")):
        if not isinstance(value, int) or isinstance(value, bool) or value not in duel.alive:
            raise MoveError(f"{what}は生きているカードから選んでください")
        if duel.cards[value] == "werewolf":
            raise MoveError(f"{what}は人狼以外のカードです")
    correct = duel.cards[guess] == "madman"
    duel.guesses.append({"day": duel.day, "guess": guess, "correct": correct})
    if not correct:  # the execution stands at no cost (§4.5)
        execute(duel, target, None, draws)
        return
    wolves = sum(1 for c in duel.alive if duel.cards[c] == "werewolf")
    others = len(duel.alive) - wolves - 1
    if wolves + 1 > others:
        pp = {"kind": "PP", "madman": guess, "winner": "B"}
    else:
        pp = {"kind": "RPP", "madman": guess, "winner": draws.option("rpp", ["A", "B"])}
    assert isinstance(picked, int)
    execute(duel, picked if pp["winner"] == "B" else target, pp, draws)


def execute(duel: Duel, card: int, pp: dict[str, Any] | None, draws: Draws) -> None:
    """The card dies; a cat takes a uniformly drawn other living card; then victory."""
    duel.pending_pp = None
    duel.alive.discard(card)
    duel.executions.append({"day": duel.day, "card": card})
    revenge = None
    if duel.cards[card] == "cat":
        revenge = draws.card("cat", duel.living())
        duel.alive.discard(revenge)
    duel.events.append(
        {"type": "execution", "day": duel.day, "card": card, "pp": pp, "revenge": revenge}
    )
    if not duel.check_victory("execution"):
        duel.phase = "A:night"
