"""Computer opponents (CPUと対戦) behind one interface: ``choose(view, legal, rng) -> move``.

A player sees only its own side's view (:func:`~.views.view`) and its legal moves
(:func:`~.legal.legal_moves`), never the true cards, and is pure and deterministic
given its RNG.

- :func:`deducer` (CPU-A) weighs the worlds (werewolf placements, and the fox's card)
  consistent with everything public and the masons it knows, by how likely B's observed
  choices are under each (:mod:`.worlds`). It asks the black seer (12B) and then the seer
  and medium out on day 1, then every other card its role by name (a careful deceiver's
  werewolves answer `none`; an incoherent one's claim roles that give them away),
  executes the card that leaves it the best chance to win over the days left
  (:func:`.worlds.after_execution`: a werewolf or the fox, never the last werewolf while
  the fox may live; sparing the likely real seer and medium), gives each seer claimer
  two candidates — the other claimers while it is open which is real, the likely fox
  (the real seer's divination kills it), the most uncertain cards — and sends the hunter
  to the likeliest real seer.
- :func:`deceiver` (CPU-B) has the madman fake the seer — a blind black in the
  black-seer-only request, else white reports (a werewolf when the madman is spent);
  frames humans with the madman's black when A's public candidates make it safe; answers
  `none` when named; has a werewolf seer claimer call black the card that survived its
  attack (likely the fox, whose win is B's loss too); reads which seer claimer is its
  madman and always guesses at a PP offer (a wrong guess costs nothing); and attacks the
  likeliest real information role where A's guards (public orders, the auto-guard
  priorities) are least likely to be, sparing cards that survived its attacks (the fox,
  or guarded) and cat claimers.
- :func:`random_player`: a random legal move, for either side.
"""

import random
from collections.abc import Callable, Mapping
from typing import Any

from .legal import Legal
from .roles import BLACK, WHITE
from .worlds import Beliefs, beliefs

# Tuned against each other and against random play with the simulator (simulate.py).
INFO_LOSS = 0.25  # executing a claimer that is the real seer/medium loses what it tells
CROSS = 1.0  # a seer claimer divining another whose realness is open
FOX_HUNT = 2.0  # a seer claimer divining a likely fox: the real seer's divination kills it
# The best cards as each seer claimer's candidates: two measured stronger than one in std9
# and 12B (the real seer draws one; a werewolf faking the seer must choose between them).
SEER_CANDIDATES = 2
FRAME_RISK = 0.25  # the madman frames when its target is a werewolf less often than this

Player = Callable[[Mapping[str, Any], Legal, random.Random], dict[str, Any]]


def random_player(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    return legal.random_move(rng)


def _best(scores: Mapping[int, float], rng: random.Random) -> int:
    """The highest score; ties broken by the RNG."""
    top = max(scores.values())
    return rng.choice(sorted(c for c, s in scores.items() if s >= top - 1e-9))


# ----- CPU-A: the deducer -----


def deducer(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    turn = legal.turn
    if turn == "A:day":
        return _a_day(view, legal, rng)
    if turn == "A:night":
        return _a_night(view, legal, rng)
    raise ValueError("いまは A の手番ではありません")


def _a_day(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    wanted = [r for r in ("seer", "medium") if r in o["roles"]]
    new_roles = {r for _, r in o["new_pairs"]}
    if o["black_seer_co"]:
        return {"do": "black_seer_co"}
    if wanted and new_roles & set(wanted):
        return {"do": "co", "roles": [r for r in wanted if r in new_roles]}
    # Once: a werewolf that claims a role when named gives itself away (worlds.py reads a
    # role named after its CO request as a fake); a `none` binds it as no real holder.
    if o["nameable"] and not any(e["type"] == "named" for e in view["events"]):
        return {"do": "named", "cards": o["nameable"]}
    known = beliefs(view)
    masons = set(view.get("masons", []))
    # Executing the likely real seer or medium also loses what it would tell.
    info = {
        int(c): known.real.get(int(c), 0.0)
        for c, claim in view["claims"].items()
        if claim["role"] in ("seer", "medium")
    }
    scores = {
        c: known.execute[c] + 0.01 * known.wolf[c] - INFO_LOSS * info.get(c, 0.0)
        for c in o["execute"]
        if c not in masons
    }
    return {"do": "execute", "card": _best(scores or {c: 0.0 for c in o["execute"]}, rng)}


def _trusted(view: Mapping[str, Any], known: Beliefs, role: str) -> list[int]:
    """Living claimers of ``role``, the likeliest real first."""
    claimers = [int(c) for c, claim in view["claims"].items() if claim["role"] == role]
    living = [c for c in claimers if c in view["alive"]]
    return sorted(living, key=lambda c: (-known.real.get(c, 0.0), known.wolf[c], c))


def _a_night(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    known = beliefs(view)
    masons = set(view.get("masons", []))
    move: dict[str, Any] = {"do": "night", "divine": [], "guard": []}
    cross = {c: known.real[c] * (1 - known.real[c]) for c in o["seers"]}
    for seer in o["seers"]:
        claim = view["claims"][str(seer)]
        seen = {r["target"] for r in claim.get("nights", [])}
        if claim.get("oracle"):
            seen.add(claim["oracle"]["target"])
        # The most uncertain card is the one a result tells most about.
        scores = {
            c: known.wolf[c] * (1 - known.wolf[c])
            + CROSS * cross.get(c, 0.0)
            + FOX_HUNT * known.fox[c]
            + 0.01 * known.wolf[c]
            for c in legal.living
            if c != seer and c not in masons and c not in seen
        }
        if not scores:
            scores = {c: 0.0 for c in legal.living if c != seer}
        ranked = sorted(scores, key=lambda c: (-scores[c], c))
        move["divine"].append({"card": seer, "to": ranked[:SEER_CANDIDATES]})
    protect = _trusted(view, known, "seer") or _trusted(view, known, "medium")
    for hunter in o["hunters"]:
        banned = o["forbidden"].get(hunter)
        targets = [c for c in protect if c not in (hunter, banned)]
        if not targets:
            targets = [
                c
                for c in sorted(legal.living, key=lambda c: known.wolf[c])
                if c not in (hunter, banned)
            ][:1]
        move["guard"].append({"card": hunter, "to": targets[:1]})
    if o["latent_divine"]:
        scores = {
            c: known.wolf[c] * (1 - known.wolf[c]) + known.fox[c]
            for c in legal.living
            if c not in masons and view["claims"].get(str(c), {}).get("role") != "seer"
        }
        if scores:
            move["latent_divine"] = [_best(scores, rng)]
    if o["latent_guard"] and protect:
        move["latent_guard"] = {"to": protect[:1]}
    return move


# ----- CPU-B: the deceiver -----


def deceiver(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    turn = legal.turn
    if turn == "B:answer":
        return _b_answer(view, legal, rng)
    if turn == "B:pp":
        return _b_pp(view, legal, rng)
    if turn == "B:night":
        return _b_night(view, legal, rng)
    raise ValueError("いまは B の手番ではありません")


def _safe_first_day(legal: Legal, black_only: bool = False) -> str:
    return BLACK if black_only else WHITE


def _b_answer(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    question = o["question"]
    wolves = set(o["wolves"])
    if question["do"] == "release":
        return {"do": "answer", "land": [{"card": c, "as": "cat"} for c in o["gidra_wolves"]]}
    if question["do"] == "named":
        return {
            "do": "answer",
            "claims": [{"card": c, "role": "none"} for c in question["cards"] if c in wolves],
        }
    request = question["request"]
    if request["black_only"]:
        if not o["madman"]:
            return {"do": "answer", "claims": []}  # a werewolf's black would expose its own
        # The madman's blind black: its drawn target is a human four times in five (framed),
        # and a real seer that comes out only with a black looks no different.
        return {"do": "answer", "claims": [{"card": "madman", "role": "seer", "oracle": BLACK}]}
    if "seer" not in request["roles"]:
        return {"do": "answer", "claims": []}
    nights = len(o["nights_alive"])
    if o["madman"]:
        entry: dict[str, Any] = {
            "card": "madman",
            "role": "seer",
            "oracle": WHITE,
            "nights": [WHITE] * nights,
        }
        # No werewolf contests the medium: a second medium claimer marks a werewolf or the
        # fox, and either way the village learns where to look.
        return {"do": "answer", "claims": [entry]}
    pairs = {(c, r) for c, r in question["pairs"]}
    fakers = [c for c in o["wolves"] if (c, "seer") in pairs]
    if not fakers:
        return {"do": "answer", "claims": []}
    card = rng.choice(fakers)
    humans = [c for c in range(1, legal.board + 1) if c not in wolves and c != card]
    fake: dict[str, Any] = {
        "card": card,
        "role": "seer",
        "oracle": {"target": rng.choice(humans), "result": WHITE},
        "nights": [
            {"target": rng.choice([c for c in alive if c not in wolves] or alive), "result": WHITE}
            for alive in o["nights_alive"]
        ],
    }
    return {"do": "answer", "claims": [fake]}


def _madman_odds(view: Mapping[str, Any], living: list[int]) -> dict[int, float]:
    """How likely each living non-werewolf is the madman, as B reads the seer claims.

    The deceiver sends the madman to fake the seer with white results, so a non-werewolf
    seer claimer calling a werewolf white is the madman, one calling a werewolf black is
    the real seer (a fox's colors are drawn: it may do either, rarely)."""
    wolves = set(view["wolves"])
    odds = dict.fromkeys(living, 1.0)
    if not view["madman_used"]:
        return odds
    for c, claim in view["claims"].items():
        card = int(c)
        if card not in odds:
            continue
        if claim["role"] != "seer":
            odds[card] = 0.3 if claim["role"] != "none" else 0.7
            continue
        results = claim.get("nights", []) + ([claim["oracle"]] if claim.get("oracle") else [])
        on_wolves = [r["result"] for r in results if r["target"] in wolves]
        if BLACK in on_wolves:
            odds[card] = 0.05
        elif WHITE in on_wolves:
            odds[card] = 40.0
        else:
            odds[card] = 6.0
    return odds


def _b_pp(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    if not o["offered"]:
        return {"do": "pp", "guess": None}
    # A wrong guess costs nothing (§4.5): always guess, the likeliest madman.
    odds = _madman_odds(view, o["non_wolves"])
    guess = _best({c: w + 0.01 * rng.random() for c, w in odds.items()}, rng)
    # B's target: the likeliest real seer, else any other human.
    targets = {c: 1.0 / odds[c] for c in o["non_wolves"] if c != guess}
    if not targets:
        return {"do": "pp", "guess": guess, "target": guess}
    return {"do": "pp", "guess": guess, "target": _best(targets, rng)}


def _guard_odds(view: Mapping[str, Any], legal: Legal) -> dict[int, float]:
    """How likely each card is guarded tonight by a real hunter, from public orders (§6.2)."""
    orders = view["events"][-1]
    odds: dict[int, float] = {}

    def spread(to: list[int], weights: list[int], share: float) -> None:
        total = sum(weights)
        for c, w in zip(to, weights, strict=True):
            odds[c] = odds.get(c, 0.0) + share * w / total

    # A claimer's order guards only if that claimer is the real hunter.
    for entry in orders["guard"]:
        spread(entry["to"], entry["weights"], 0.5 / max(1, len(orders["guard"])))
    latent = orders["latent_guard"]
    if not view["whole_hunter"]:
        if isinstance(latent, dict):
            spread(latent["to"], latent["weights"], 0.6)
        elif orders["guard"]:
            for entry in orders["guard"]:
                spread(entry["to"], entry["weights"], 0.6 / len(orders["guard"]))
        else:
            claims = view["claims"]
            for role in ("seer", "medium"):
                living = [
                    int(c)
                    for c, k in claims.items()
                    if k["role"] == role and int(c) in view["alive"]
                ]
                if len(living) == 1:
                    odds[living[0]] = odds.get(living[0], 0.0) + 0.6
                    break
    return odds


def _survivors(view: Mapping[str, Any]) -> set[int]:
    """Cards B attacked that are still alive: the fox, or guarded that night."""
    return {a["target"] for a in view["attacks"] if a["target"] in view["alive"]}


def _b_night(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    o = legal.options
    wolves = set(view["wolves"])
    claims = {int(c): k for c, k in view["claims"].items()}
    mad = _madman_odds(view, o["attack"])
    seers = [c for c in o["attack"] if claims.get(c, {}).get("role") == "seer"]
    mad_total = sum(mad[c] for c in seers) or 1.0
    value: dict[int, float] = {}
    for c in o["attack"]:
        claim = claims.get(c)
        role = claim["role"] if claim else None
        if role == "seer":
            # Worth the most when it is the real seer, nothing when it is our madman.
            value[c] = 0.5 + 4.0 * (1 - mad[c] / mad_total) if len(seers) > 1 else 4.0
        elif role == "medium":
            value[c] = 2.5
        elif role == "hunter":
            value[c] = 2.0
        elif role in ("cat", "gidra"):
            value[c] = 0.1  # a bitten cat takes a werewolf
        else:
            value[c] = 1.0 + 0.1 * rng.random()
    # A card attacked before on a peaceful morning is the fox or was guarded: try others.
    survived = _survivors(view)
    for c in survived:
        if c in value:
            value[c] *= 0.2
    odds = _guard_odds(view, legal)
    scores = {c: value[c] * (1 - min(0.95, odds.get(c, 0.0))) for c in o["attack"]}
    attack = _best(scores, rng)
    divine = []
    for card, to in sorted(o["divine"].items()):
        humans = [c for c in to if c not in wolves and c != attack]
        # A card that survived our attack is likely the fox, whose win is our loss too:
        # framed black, it is the one the village executes.
        foxes = sorted(c for c in humans if c in survived)
        if foxes:
            divine.append({"card": card, "target": foxes[0], "result": BLACK})
        elif humans:
            divine.append({"card": card, "target": rng.choice(humans), "result": BLACK})
        else:
            divine.append({"card": card, "target": rng.choice(to), "result": WHITE})
    return {
        "do": "night",
        "attack": attack,
        "divine": divine,
        "medium": [{"card": c, "result": _medium_lie(view)} for c in o["medium"]],
        "guard": [{"card": c, "target": rng.choice(to)} for c, to in sorted(o["guard"].items())],
        "madman": {"divine": _madman_color(view, mad, attack), "medium": WHITE},
    }


def _medium_lie(view: Mapping[str, Any]) -> str:
    """A werewolf medium's result on today's execution: the opposite of the truth."""
    executed = [e for e in view["events"] if e["type"] == "execution"][-1]["card"]
    return WHITE if executed in view["wolves"] else BLACK


def _madman_color(view: Mapping[str, Any], mad: Mapping[int, float], attack: int) -> str:
    """Frame a human: black when the madman's target (among A's public candidates for
    whichever seer claimer it is) is very likely not a werewolf, else a safe white."""
    wolves = set(view["wolves"])
    seers = {int(c) for c, k in view["claims"].items() if k["role"] == "seer"}
    orders = view["events"][-1]
    risk = 0.0
    total = 0.0
    for entry in orders["divine"]:
        card = entry["card"]
        if card in wolves or card not in mad:
            continue
        odds = mad[card]
        to = [c for c in entry["to"] if c != attack]  # the attacked card comes out white
        if to:
            # A werewolf would be exposed; a seer claimer answers back with a white.
            exposed = sum(c in wolves or c in seers for c in to)
            risk += odds * exposed / len(entry["to"])
        total += odds
    return BLACK if total and risk / total < FRAME_RISK else WHITE


PLAYERS: dict[str, Player] = {"cpu": deducer, "random": random_player}
B_PLAYERS: dict[str, Player] = {"cpu": deceiver, "random": random_player}
