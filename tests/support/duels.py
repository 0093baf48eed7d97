"""Hand-built games for the duel tests, driven through the §9 runner and the engine."""

import random
from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel import Draws, Duel, play, preset
from chalicelib.rules.duel.scenario import run

# std9 dealt by hand: seer 1, medium 2, hunter 3, werewolves 4 and 5, madman 6, villagers 7–9.
STD9 = [
    None,
    "seer",
    "medium",
    "hunter",
    "werewolf",
    "werewolf",
    "madman",
    "villager",
    "villager",
    "villager",
]
# 12B: villager 0, seer 1, medium 2, hunter 3, werewolves 4 5, madman 6, fox 7, villagers 8–11.
B12 = [
    "villager", "seer", "medium", "hunter", "werewolf", "werewolf", "madman", "fox",
    "villager", "villager", "villager", "villager",
]  # fmt: skip
# 12A: villager 0, seer 1, medium 2, hunter 3, werewolves 4 5 6, madman 7, cat 8, villagers 9–11.
A12 = [
    "villager", "seer", "medium", "hunter", "werewolf", "werewolf", "werewolf", "madman", "cat",
    "villager", "villager", "villager",
]  # fmt: skip
# 17A: villager 0, seer 1, medium 2, hunter 3, werewolves 4-6, madman 7, masons 8 9, fox 10.
A17 = [
    "villager", "seer", "medium", "hunter", "werewolf", "werewolf", "werewolf", "madman", "mason",
    "mason", "fox", "villager", "villager", "villager", "villager", "villager", "villager",
]  # fmt: skip


def game(
    moves: list[Mapping[str, Any]] = (),  # type: ignore[assignment]
    preset: str = "std9",
    cards: list[str | None] | str | None = "by hand",
    draws: Mapping[str, list[Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    scenario: dict[str, Any] = {"id": "t", "moves": list(moves), **extra}
    if "custom" not in extra:
        scenario["preset"] = preset
    if cards == "by hand":
        hand = {"std9": STD9, "12B": B12, "12A": A12, "17A": A17}
        cards = None if "custom" in extra else hand.get(preset)
    if isinstance(cards, list):
        scenario["cards"] = cards
    if draws is not None:
        scenario["draws"] = dict(draws)
    out = run(scenario)
    assert "error" not in out, out["error"]
    return out


def error(moves: list[Mapping[str, Any]] = (), **kw: Any) -> str:  # type: ignore[assignment]
    scenario: dict[str, Any] = {"id": "e", "moves": list(moves), **kw}
    if "preset" not in kw and "custom" not in kw:
        scenario["preset"] = "std9"
        scenario.setdefault("cards", STD9)
    out = run(scenario)
    assert set(out) == {"id", "error"}, out
    return str(out["error"])


def events(out: Mapping[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in out["public"] if e["type"] == kind]


def A(do: str, **kw: Any) -> dict[str, Any]:
    return {"by": "A", "do": do, **kw}


def B(do: str, **kw: Any) -> dict[str, Any]:
    return {"by": "B", "do": do, **kw}


PASS = B("pp", guess=None)
NO_CLAIMS = B("answer", claims=[])


def quiet_night(attack: int, **orders: Any) -> list[dict[str, Any]]:
    return [A("night", **orders), B("night", attack=attack)]


# Every field of a Duel by who may see it (RULES-DUEL §8). A twin keeps what one side sees
# and redraws everything else, so nothing the side may not see is copied from the game.
PUBLIC_FIELDS = {
    "rules", "alive", "day", "phase", "claims", "asked", "whole_seer", "whole_hunter",
    "black_seer_done", "question", "executions", "orders", "nights_alive", "events", "ending",
}  # fmt: skip
# Hidden from A; B knows its own parts: the werewolves' cards, its madman instruction (spent
# or not), its PP guesses and offers, its attacks.
HIDDEN_FIELDS = {
    "cards", "oracle", "fox_mode", "fox_oracle", "madman_used", "guesses", "pending_pp", "nights",
}  # fmt: skip


def twin(duel: Duel, side: str, rng: random.Random) -> Duel:
    """The same public game, with every field ``side`` may not see drawn afresh."""
    assert set(Duel.__slots__) == PUBLIC_FIELDS | HIDDEN_FIELDS
    board = duel.board
    twin = Duel.from_json(duel.to_json())

    def card() -> int:
        return rng.randint(1, board)

    def color() -> str:
        return rng.choice(["human", "wolf"])

    # The deal: A knows the masons, B the werewolves; every other card (the first victim
    # included) is dealt again from a shuffled deck.
    known = duel.masons if side == "A" else duel.wolves
    hidden = [c for c in range(board + 1) if c not in known and duel.cards[c] is not None]
    roles = [duel.cards[c] for c in hidden]
    rng.shuffle(roles)
    for c, role in zip(hidden, roles, strict=True):
        twin.cards[c] = role
    twin.oracle = {"target": card(), "result": color()}
    twin.fox_mode = rng.choice([None, "latent", "seer", "medium"])
    twin.fox_oracle = rng.choice([None, {"target": card(), "result": color()}])
    for night in twin.nights:
        night.update(
            seer=rng.choice([None, card()]),
            guard=rng.choice([None, card()]),
            fizzled=rng.random() < 0.5,
            gj=rng.random() < 0.5,
        )
        if side == "A":
            night["attack"] = card()
    if side == "A":
        # B's secrets: its madman instruction, its PP guesses and whether it was offered one.
        twin.madman_used = rng.random() < 0.5
        twin.guesses = [
            {"day": rng.randint(1, duel.day), "guess": card(), "correct": rng.random() < 0.5}
            for _ in range(rng.randint(0, 2))
        ]
        if twin.pending_pp is not None:
            twin.pending_pp["offered"] = rng.random() < 0.5
    return twin


def new_duel(name: str = "std9", seed: int = 0, cards: list[str | None] | None = None) -> Duel:
    return Duel.setup(preset(name), Draws(random.Random(seed)), cards=cards)


__all__ = ["play"]
