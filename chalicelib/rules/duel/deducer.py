"""CPU-A, the deducer (村人陣営のCPU), at three strengths.

「普通」 and 「強い」 weigh the worlds (werewolf placements, and the fox's card) consistent
with everything public and the masons A knows, by how likely B's observed choices are
under each (:mod:`.worlds`): they ask the seer and medium out on day 1 (「強い」 in 12B may
first ask the black seer alone), then — 「強い」 only — ask the other cards their role by
name (a careful deceiver's werewolves answer `none`; an incoherent one's claim roles that
give them away), execute the card that leaves A the best chance to win over the days left
(:func:`.worlds.after_execution`: a werewolf or the fox, never the last werewolf while the
fox may live; sparing the likely real seer and medium), give each seer claimer its best
candidates (「強い」 three, 「普通」 one) — the other claimers while it is open which is
real, the likely fox (the real seer's divination kills it), the most uncertain cards — and
send the hunter to the likeliest real seer. 「強い」 varies its plan where the choices are
near-equal in value (which question first, when to name the cards and which, which of
near-equal executions and candidates), so that its script cannot be read off a game or two.

「入門」 plays as a beginner does, legally and plausibly: it asks the seer and medium out,
believes every black it hears (whoever called it), executes that card or else any card
but a mason at random (a claimer as soon as anyone), and gives plain one-card orders.
"""

import random
from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from .legal import Legal
from .roles import BLACK
from .worlds import Beliefs, beliefs


class Style(Struct, frozen=True):
    """How a deducer of one strength plays."""

    sweep: bool  # names the unclaimed cards (day 1 or 2, all or in two halves)
    vary: bool  # varies near-equal candidates
    # How often each variant of the day-1 plan is played (0: never).
    skip_black_seer: float  # 12B: the seer and medium at once, not the black seer first
    seer_first: float  # the seer alone, the medium once the seers are out
    names_later: float  # the names on day 2, after a night's reports
    halves: float  # the names in two halves
    slack: float  # executions within this chance to win of the best are near-equal
    candidates: int  # candidates per seer claimer
    info_loss: float  # executing a claimer that is the real seer/medium loses what it tells
    fox_hunt: float  # a seer claimer divining a likely fox: the real seer's divination kills it


# Tuned against the deceiver and random play with the simulator (simulate.py).
STRONG = Style(
    sweep=True,
    vary=True,
    skip_black_seer=0.0,  # measured: 9 pp fewer village wins in 12B, not near-equal
    seer_first=0.3,
    names_later=0.2,
    halves=0.35,
    slack=0.01,
    candidates=3,  # measured in 12B: +4 pp village and −3 pp fox wins against 2
    info_loss=0.25,
    fox_hunt=2.0,
)
NORMAL = replace(
    STRONG,
    sweep=False,
    skip_black_seer=1.0,  # the costly variant (decision 23): one of 普通's weaknesses
    slack=0.08,
    candidates=1,
    info_loss=0.0,
    fox_hunt=0.0,
)
CROSS = 1.0  # a seer claimer divining another whose realness is open
NEAR = 0.9  # a candidate scoring this share of another's is near-equal to it


def _best(scores: Mapping[int, float], rng: random.Random, slack: float = 1e-9) -> int:
    """One of the highest scores (within ``slack`` of the top), drawn by the RNG."""
    top = max(scores.values())
    return rng.choice(sorted(c for c, s in scores.items() if s >= top - slack))


def player(style: Style) -> Callable[[Mapping[str, Any], Legal, random.Random], dict[str, Any]]:
    def play(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
        if legal.turn == "A:day":
            return _day(view, legal, rng, style)
        if legal.turn == "A:night":
            return _night(view, legal, rng, style)
        raise ValueError("いまは A の手番ではありません")

    return play


def _question(
    view: Mapping[str, Any], o: Mapping[str, Any], rng: random.Random, style: Style
) -> dict[str, Any] | None:
    """The next of day 1's (or 2's) questions, or None when it is time to execute."""
    wanted = [r for r in ("seer", "medium") if r in o["roles"]]
    new_roles = {r for _, r in o["new_pairs"]}
    events = view["events"]
    # In 12B: the black seer alone first, or the seer and medium at once (near-equal).
    first = not any(e["type"] in ("co", "named") for e in events)
    if o["black_seer_co"] and first and rng.random() >= style.skip_black_seer:
        return {"do": "black_seer_co"}
    if wanted and new_roles & set(wanted):
        roles = [r for r in wanted if r in new_roles]
        if len(roles) == 2 and rng.random() < style.seer_first:
            roles = roles[:1]  # the seer first, the medium once the seers are out
        return {"do": "co", "roles": roles}
    named = [e for e in events if e["type"] == "named"]
    if not style.sweep or not o["nameable"] or len(named) >= 2:
        return None
    if named:
        return {"do": "named", "cards": o["nameable"]}  # the second half
    # Name every unclaimed card once: on day 1 or on day 2 (after a night's reports), at
    # once or in two halves (the second half answering after the first).
    if view["day"] > 2 or (view["day"] == 1 and rng.random() < style.names_later):
        return None
    left = o["nameable"]
    if len(left) >= 6 and rng.random() < style.halves:
        return {"do": "named", "cards": sorted(rng.sample(left, len(left) // 2))}
    return {"do": "named", "cards": left}


def _day(view: Mapping[str, Any], legal: Legal, rng: random.Random, style: Style) -> dict[str, Any]:
    o = legal.options
    question = _question(view, o, rng, style)
    if question is not None:
        return question
    known = beliefs(view)
    masons = set(view.get("masons", []))
    # Executing the likely real seer or medium also loses what it would tell.
    info = {
        int(c): known.real.get(int(c), 0.0)
        for c, claim in view["claims"].items()
        if claim["role"] in ("seer", "medium")
    }
    scores = {
        c: known.execute[c] + 0.01 * known.wolf[c] - style.info_loss * info.get(c, 0.0)
        for c in o["execute"]
        if c not in masons
    }
    card = _best(scores or {c: 0.0 for c in o["execute"]}, rng, style.slack)
    return {"do": "execute", "card": card}


def _trusted(view: Mapping[str, Any], known: Beliefs, role: str) -> list[int]:
    """Living claimers of ``role``, the likeliest real first."""
    claimers = [int(c) for c, claim in view["claims"].items() if claim["role"] == role]
    living = [c for c in claimers if c in view["alive"]]
    return sorted(living, key=lambda c: (-known.real.get(c, 0.0), known.wolf[c], c))


def _night(
    view: Mapping[str, Any], legal: Legal, rng: random.Random, style: Style
) -> dict[str, Any]:
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
            + style.fox_hunt * known.fox[c]
            + 0.01 * known.wolf[c]
            for c in legal.living
            if c != seer and c not in masons and c not in seen
        }
        if not scores:
            scores = {c: 0.0 for c in legal.living if c != seer}
        ranked = sorted(scores, key=lambda c: (-scores[c], c))
        pool = ranked[: style.candidates]
        near = ranked[style.candidates : style.candidates + 1]
        if style.vary and near and scores[near[0]] >= NEAR * scores[pool[-1]]:
            # The next card is near-equal with the last of the best: either may be named.
            pool = [*pool[:-1], rng.choice([pool[-1], near[0]])]
        move["divine"].append({"card": seer, "to": pool})
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


# ----- 「入門」 -----


def novice(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    """A beginner's A: believes every black, else executes an unclaimed card at random."""
    o = legal.options
    claims = view["claims"]
    masons = set(view.get("masons", []))
    if legal.turn == "A:day":
        wanted = [r for r in ("seer", "medium") if r in o["roles"]]
        if wanted and {r for _, r in o["new_pairs"]} & set(wanted) and view["day"] == 1:
            return {"do": "co", "roles": wanted}
        blacks: dict[int, int] = {}
        for claim in claims.values():
            if claim["role"] != "seer":
                continue
            results = [claim["oracle"], *claim.get("nights", [])] if claim.get("oracle") else []
            for r in results:
                if r["result"] == BLACK and r["target"] in o["execute"]:
                    blacks[r["target"]] = blacks.get(r["target"], 0) + 1
        if blacks:
            return {"do": "execute", "card": _best({c: float(n) for c, n in blacks.items()}, rng)}
        # Without a black, anyone but a mason: a claimer is as suspect as the rest.
        plain = [c for c in o["execute"] if c not in masons]
        return {"do": "execute", "card": rng.choice(plain or o["execute"])}
    if legal.turn == "A:night":
        move: dict[str, Any] = {"do": "night", "divine": [], "guard": []}
        for seer in o["seers"]:
            others = [c for c in legal.living if c != seer and str(c) not in claims]
            pool = others or [c for c in legal.living if c != seer]
            move["divine"].append({"card": seer, "to": [rng.choice(pool)]})
        seers = [c for c in o["seers"]]
        for hunter in o["hunters"]:
            banned = o["forbidden"].get(hunter)
            pool = [c for c in seers if c not in (hunter, banned)] or [
                c for c in legal.living if c not in (hunter, banned)
            ]
            move["guard"].append({"card": hunter, "to": [rng.choice(pool)]})
        return move
    raise ValueError("いまは A の手番ではありません")
