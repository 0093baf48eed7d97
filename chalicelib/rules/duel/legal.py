"""Which moves are legal now (the platform's question), described for one side.

A :class:`Legal` holds only what that side may know (public record, masons for A,
werewolves and the PP offer for B); the CPUs choose from it, and
:meth:`Legal.random_move` draws a random legal move (the random legal player).
"""

import random
from typing import Any

from msgspec import Struct, field

from .night import known_last_guard, latent_guard_open
from .reports import guard_order
from .roles import BLACK, COLORS, GJ_CO_EXTRAS, WHITE
from .state import Duel, copy_json


class Legal(Struct, frozen=True):
    """The options of ``turn`` for ``side``; empty ``turn`` when it is not this side's move."""

    side: str
    turn: str | None
    board: int
    day: int
    living: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def random_move(self, rng: random.Random) -> dict[str, Any]:
        """A random legal move of this turn."""
        if self.turn is None:
            raise ValueError("いまはこの側の手番ではありません")
        return RANDOM[self.turn](self, rng)


def legal_moves(duel: Duel, side: str) -> Legal:
    turn = None if duel.phase == "end" or duel.phase[0] != side else duel.phase
    living = tuple(duel.living())
    options: dict[str, Any] = {}
    if turn == "A:day":
        unclaimed = duel.unclaimed()
        requestable = duel.rules.requestable()
        options = {
            "roles": requestable,
            "unclaimed": unclaimed,
            "new_pairs": [
                [c, r] for c in unclaimed for r in requestable if (c, r) not in duel.asked
            ],
            "nameable": [c for c in unclaimed if duel.cards[c] != "mason"],
            "gidra": duel.rules.gidra,
            "black_seer_co": (
                duel.rules.black_seer_co
                and not duel.black_seer_done
                and duel.day == 1
                and not any(r == "seer" for _, r in duel.asked)
            ),
            "release": bool(duel.claimers("gidra")),
            "execute": list(living),
        }
    elif turn == "B:answer":
        assert duel.question is not None
        wolves = [c for c in duel.wolves if c in duel.alive]
        options = {
            "question": dict(duel.question),
            "wolves": wolves,
            "madman": not duel.madman_used,
            "unclaimed": duel.unclaimed(),
            "white_first_day": duel.rules.first_day == "white",
            "claimable": duel.rules.claimable(),
            "nights_alive": [list(n) for n in duel.nights_alive],
            "guard_orders": {
                c: [guard_order(duel, n, c) for n in range(1, duel.day)] for c in wolves
            },
            "executions": len(duel.executions),
            "gidra_wolves": [c for c in duel.claimers("gidra") if c in wolves],
        }
    elif turn == "B:pp":
        assert duel.pending_pp is not None
        options = {
            "offered": bool(duel.pending_pp["offered"]),
            "non_wolves": [c for c in living if duel.cards[c] != "werewolf"],
        }
    elif turn == "A:night":
        hunters = duel.claimers("hunter", "gidra")
        options = {
            "seers": duel.claimers("seer"),
            "hunters": hunters,
            "forbidden": {
                c: known_last_guard(duel, c) for c in hunters if not duel.rules.consecutive_guard
            },
            "latent_divine": duel.rules.has("seer") and not duel.whole_seer,
            "latent_guard": latent_guard_open(duel),
            "same": duel.rules.consecutive_guard and duel.day >= 2,
            "gj_extras": [r for r in GJ_CO_EXTRAS if duel.rules.has(r)],
        }
    elif turn == "B:night":
        wolf_set = set(duel.wolves)
        orders = duel.orders[-1]
        options = {
            "attack": [c for c in living if c not in wolf_set],
            "divine": {e["card"]: e["to"] for e in orders["divine"] if e["card"] in wolf_set},
            "medium": [c for c in duel.claimers("medium") if c in wolf_set],
            "guard": {
                e["card"]: e["to"]
                for e in orders["guard"]
                if e["card"] in wolf_set and duel.claims[e["card"]]["role"] == "hunter"
            },
        }
    # Deep copies: a chooser that edits its options must not edit the game.
    return Legal(side, turn, duel.board, duel.day, living, copy_json(options))


# ----- fake reports (shared by the random player and the deceiver) -----


def fake_reports(
    legal: Legal, card: int, role: str, rng: random.Random, black_only: bool = False
) -> dict[str, Any]:
    """Random reports a werewolf claiming ``role`` must supply (§5)."""
    o = legal.options
    entry: dict[str, Any] = {"card": card, "role": role}
    if role == "seer":
        color = BLACK if black_only else (WHITE if o["white_first_day"] else rng.choice(COLORS))
        target = rng.choice([c for c in range(1, legal.board + 1) if c != card])
        entry["oracle"] = {"target": target, "result": color}
        entry["nights"] = [
            {"target": rng.choice([c for c in alive if c != card]), "result": rng.choice(COLORS)}
            for alive in o["nights_alive"]
        ]
    elif role == "medium":
        entry["results"] = [rng.choice(COLORS) for _ in range(o["executions"])]
    elif role == "hunter":
        entry["guards"] = fake_guards(legal, card, rng)
    return entry


def fake_guards(legal: Legal, card: int, rng: random.Random) -> list[int]:
    guards = []
    for n, alive in enumerate(legal.options["nights_alive"]):
        order = legal.options["guard_orders"][card][n]
        guards.append(rng.choice(order[0] if order else [c for c in alive if c != card]))
    return guards


def madman_entry(
    legal: Legal, role: str, rng: random.Random, black_only: bool = False
) -> dict[str, Any]:
    o = legal.options
    entry: dict[str, Any] = {"card": "madman", "role": role}
    if role == "seer":
        entry["oracle"] = (
            BLACK if black_only else (WHITE if o["white_first_day"] else rng.choice(COLORS))
        )
        entry["nights"] = [rng.choice(COLORS) for _ in o["nights_alive"]]
    elif role == "medium":
        entry["results"] = [rng.choice(COLORS) for _ in range(o["executions"])]
    return entry


# ----- the random legal player -----

QUESTION_RATE = 0.3
FAKE_RATE = 0.3


def _subset(items: list[Any], rng: random.Random, most: int = 3) -> list[Any]:
    return rng.sample(items, rng.randint(1, min(most, len(items))))


def _random_day(legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    if rng.random() < QUESTION_RATE:
        kinds = []
        if o["new_pairs"]:
            kinds.append("co")
        if o["nameable"]:
            kinds.append("named")
        if o["black_seer_co"]:
            kinds.append("black_seer_co")
        if o["release"]:
            kinds.append("release")
        if kinds:
            kind = rng.choice(kinds)
            if kind == "co":
                card, role = rng.choice(o["new_pairs"])
                roles = sorted({role, *_subset(o["roles"], rng)}, key=o["roles"].index)
                if rng.random() < 0.5:
                    return {"do": "co", "roles": roles}
                cards = sorted({card, *_subset(o["unclaimed"], rng)})
                return {"do": "co", "roles": roles, "cards": cards}
            if kind == "named":
                move: dict[str, Any] = {"do": "named", "cards": sorted(_subset(o["nameable"], rng))}
                if o["gidra"]:
                    move["gidra"] = rng.random() < 0.5
                return move
            return {"do": kind}
    return {"do": "execute", "card": rng.choice(o["execute"])}


def _random_answer(legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    question = o["question"]
    if question["do"] == "release":
        lands: list[dict[str, Any]] = []
        for card in o["gidra_wolves"]:
            if rng.random() < 0.5:
                lands.append(
                    {"card": card, "as": "hunter", "guards": fake_guards(legal, card, rng)}
                )
            else:
                lands.append({"card": card, "as": "cat"})
        if rng.random() < 0.5:
            lands.append({"card": "madman", "as": rng.choice(["hunter", "cat"])})
        return {"do": "answer", "land": lands}
    claims: list[dict[str, Any]] = []
    if question["do"] == "named":
        allowed = ["none", *o["claimable"], *(["gidra"] if question["gidra"] else [])]
        for card in question["cards"]:
            if card in o["wolves"]:
                claims.append(fake_reports(legal, card, rng.choice(allowed), rng))
        if o["madman"] and rng.random() < FAKE_RATE:
            claims.append(madman_entry(legal, rng.choice(allowed), rng))
        return {"do": "answer", "claims": claims}
    request = question["request"]
    if request["black_only"]:
        for card in o["wolves"]:
            if card in o["unclaimed"] and rng.random() < FAKE_RATE / 2:
                claims.append(fake_reports(legal, card, "seer", rng, black_only=True))
        if o["madman"] and rng.random() < FAKE_RATE / 2:
            claims.append(madman_entry(legal, "seer", rng, black_only=True))
        return {"do": "answer", "claims": claims}
    pairs = {(c, r) for c, r in question["pairs"]}
    for card in o["wolves"]:
        roles = [r for r in request["roles"] if (card, r) in pairs]
        if roles and rng.random() < FAKE_RATE:
            claims.append(fake_reports(legal, card, rng.choice(roles), rng))
    if o["madman"] and rng.random() < FAKE_RATE:
        claims.append(madman_entry(legal, rng.choice(request["roles"]), rng))
    return {"do": "answer", "claims": claims}


def _random_pp(legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    if o["offered"] and rng.random() < 0.5:
        return {
            "do": "pp",
            "guess": rng.choice(o["non_wolves"]),
            "target": rng.choice(o["non_wolves"]),
        }
    return {"do": "pp", "guess": None}


def _random_a_night(legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    move: dict[str, Any] = {"do": "night", "divine": [], "guard": []}
    for card in o["seers"]:
        others = [c for c in legal.living if c != card]
        move["divine"].append({"card": card, "to": _subset(others, rng, 2)})
    for card in o["hunters"]:
        banned = o["forbidden"].get(card)
        others = [c for c in legal.living if c not in (card, banned)]
        to = _subset(others, rng, 2)
        move["guard"].append({"card": card, "to": to, "weights": [rng.randint(1, 5) for _ in to]})
    if o["latent_divine"] and rng.random() < 0.3:
        move["latent_divine"] = _subset(list(legal.living), rng, 2)
    if o["latent_guard"] and rng.random() < 0.3:
        if o["same"] and rng.random() < 0.3:
            move["latent_guard"] = "same"
        else:
            move["latent_guard"] = {"to": _subset(list(legal.living), rng, 2)}
    if o["latent_guard"] and rng.random() < 0.2:
        extras = [r for r in o["gj_extras"] if rng.random() < 0.5]
        move["gj_co"] = {"card": rng.choice(legal.living), "roles": extras}
    return move


def _random_b_night(legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    return {
        "do": "night",
        "attack": rng.choice(o["attack"]),
        "divine": [
            {"card": c, "target": rng.choice(to), "result": rng.choice(COLORS)}
            for c, to in sorted(o["divine"].items())
        ],
        "medium": [{"card": c, "result": rng.choice(COLORS)} for c in o["medium"]],
        "guard": [{"card": c, "target": rng.choice(to)} for c, to in sorted(o["guard"].items())],
        "madman": {"divine": rng.choice(COLORS), "medium": rng.choice(COLORS)},
    }


RANDOM = {
    "A:day": _random_day,
    "B:answer": _random_answer,
    "B:pp": _random_pp,
    "A:night": _random_a_night,
    "B:night": _random_b_night,
}
