"""CPU-B, the deceiver (人狼陣営のCPU), at three strengths.

「普通」 and 「強い」 have the madman fake the seer — a blind black in the black-seer-only
request, else white reports —; answer `none` when named; and attack the likeliest real
information role. 「普通」 also has a werewolf fake the seer once the madman is spent; where
the first day allows a black it opens boldly (a werewolf beside the madman's seer claim, or
alone once the madman is spent, calls a human black at once, which a reading village sees
through: decision 97); it frames humans with black results where A's candidates allow,
always spares the real seer while the fox may live, never tries a PP, and takes A's guard
orders at their word: it never bites a card A tells a hunter (claimer or latent) to guard,
as if every order held.

「強い」 keeps its werewolves hidden (a werewolf seer beside the madman's claim would leave
A one of three seer claimers to find a werewolf among), guesses the madman at every PP offer
(a wrong guess costs nothing), and reads its own side's evidence: B knows every werewolf,
so a seer claimer's results tell B whether it can be the real seer (a black on a
non-werewolf or a white on a werewolf: it is the madman or the fox); it never attacks nor
frames the card it reads as its madman and attacks where A's guards (the public orders, the
auto-guard priorities) are least likely to be, weighing whether each order can hold (a
hunter claimer may be a fake; the latent hunter may be missing or dead).
With a fox in the deck it weighs where the fox is (:func:`.worlds.fox_odds`: the public
record, whether it ever sent its madman, the cards that survived its bites), since a fox
win is B's loss too: it spares that card its bites, bites it instead of a human whose death
would reach parity while the fox lives, has a werewolf seer claimer call it black, and on
half the nights spares the real seer (only its divination kills the fox).

「入門」 plays as a beginner does, legally and plausibly: its werewolves seldom dare to fake
the seer when asked (one time in ten) and a faking one seldom dares a black (on any card),
a named werewolf sometimes claims a role, it attacks a claimer or anyone at random and
never tries a PP.
"""

import random
from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct

from .legal import Legal, fake_reports
from .roles import BLACK, COLORS, WHITE
from .worlds import fox_odds


class Style(Struct, frozen=True):
    """How a deceiver of one strength plays."""

    evidence: bool  # reads the seer claims against its werewolves (who is its madman)
    # How likely A's public guard orders hold, as this deceiver reads them (it bites where
    # they are least likely to be): an order to a hunter claimer guards only if that claimer
    # is the real hunter; one to the latent hunter only if it is on the board, alive and
    # unclaimed. 「普通」 takes every order at its word (1.0: it never bites where A says it
    # guards); 「強い」 weighs them (decision 30).
    claimed_guard: float
    latent_guard: float
    frame: bool  # frames humans with black results when it is safe
    # How often, on a night while the fox may live, the real seer is worth less to bite than
    # the medium (×SPARED: only its divination kills the fox, whose win is B's loss too).
    spare_seer: float = 0.0
    pp: bool = True  # guesses its madman at every PP offer (a wrong guess costs nothing)
    wolf_fake: float = 1.0  # how often a werewolf fakes the seer once the madman is spent
    fox: bool = False  # reads where the fox is: bites it before a parity it would win, frames it
    # 「普通」's bold opener, where the first day allows a black: how often a werewolf joins
    # the madman's seer claim with a black first-day call on a human, and how often a
    # werewolf seer alone (the madman spent) calls one. It frames a human at once, but a
    # reading village sees a third seer claimer, or a black no real seer could give
    # beside the madman's, and looks for a werewolf among them (decision 97).
    black_opener: float = 0.0
    black_alone: float = 0.0


STRONG = Style(
    evidence=True,
    claimed_guard=0.5,
    latent_guard=0.6,
    frame=True,
    spare_seer=0.5,
    wolf_fake=0.0,
    fox=True,
)
NORMAL = Style(
    evidence=False,
    claimed_guard=1.0,
    latent_guard=1.0,
    frame=True,
    spare_seer=1.0,
    pp=False,
    black_opener=0.6,
    black_alone=0.25,
)
MADMAN = 40.0  # the odds of a seer claimer whose results the real seer could not give
FRAME_RISK = 0.25  # the madman frames when its target is a werewolf less often than this
VALUE = {"seer": 4.0, "medium": 2.5, "hunter": 2.0}  # a real holder's worth to bite
SPARED = 0.6  # the real seer's worth, spared for the fox: below the medium's (2.5 / 4)
FOX_WASTE = 0.8  # how much less a card is worth biting, by its chance to be the fox
FOX_ALIVE = 0.3  # bite the likeliest fox before a parity when the fox lives this likely
FOX_FRAME = 0.4  # a werewolf seer claimer calls black the card this likely the fox


def _best(scores: Mapping[int, float], rng: random.Random) -> int:
    top = max(scores.values())
    return rng.choice(sorted(c for c, s in scores.items() if s >= top - 1e-9))


def player(style: Style) -> Callable[[Mapping[str, Any], Legal, random.Random], dict[str, Any]]:
    def play(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
        if legal.turn == "B:answer":
            return _answer(view, legal, rng, style)
        if legal.turn == "B:pp":
            return _pp(view, legal, rng, style)
        if legal.turn == "B:night":
            return _night(view, legal, rng, style)
        raise ValueError("いまは B の手番ではありません")

    return play


def _answer(
    view: Mapping[str, Any], legal: Legal, rng: random.Random, style: Style
) -> dict[str, Any]:
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
    claims: list[dict[str, Any]] = []
    if o["madman"]:
        # No werewolf contests the medium: a second medium claimer marks a werewolf or the
        # fox, and either way the village learns where to look.
        claims.append(
            {"card": "madman", "role": "seer", "oracle": WHITE, "nights": [WHITE] * nights}
        )
    # A werewolf fakes the seer: beside the madman only as 「普通」's black opener, alone
    # (the madman spent) as often as the style fakes.
    opener = _chance(rng, style.black_opener if claims else style.black_alone, o)
    if claims and not opener:
        return {"do": "answer", "claims": claims}
    pairs = {(c, r) for c, r in question["pairs"]}
    fakers = [c for c in o["wolves"] if (c, "seer") in pairs]
    if not fakers or (not claims and rng.random() >= style.wolf_fake):
        return {"do": "answer", "claims": claims}
    card = rng.choice(fakers)
    humans = [c for c in range(1, legal.board + 1) if c not in wolves and c != card]
    fake: dict[str, Any] = {
        "card": card,
        "role": "seer",
        "oracle": {"target": rng.choice(humans), "result": BLACK if opener else WHITE},
        "nights": [
            {"target": rng.choice([c for c in alive if c not in wolves] or alive), "result": WHITE}
            for alive in o["nights_alive"]
        ],
    }
    return {"do": "answer", "claims": [*claims, fake]}


def _chance(rng: random.Random, p: float, o: Mapping[str, Any]) -> bool:
    """A black opener, drawn only where the first day allows a black (no draw otherwise,
    so a style without openers plays the same moves as before)."""
    return p > 0 and not o["white_first_day"] and rng.random() < p


def madman_odds(view: Mapping[str, Any], living: list[int], evidence: bool) -> dict[int, float]:
    """How likely each living non-werewolf is the madman, as B reads the claims.

    B knows every werewolf, so it can check each seer claimer's results: a black on a
    non-werewolf or a white on a werewolf cannot come from the real seer (the madman or the
    fox said it); a black on a werewolf most likely did. Without ``evidence`` only a white
    on a werewolf is read."""
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
        false = [r for r in results if (r["result"] == BLACK) != (r["target"] in wolves)]
        on_wolves = [r["result"] for r in results if r["target"] in wolves]
        if evidence and false:
            odds[card] = MADMAN
        elif BLACK in on_wolves:
            odds[card] = 0.05
        elif WHITE in on_wolves:
            odds[card] = 40.0
        else:
            odds[card] = 6.0
    return odds


def _pp(view: Mapping[str, Any], legal: Legal, rng: random.Random, style: Style) -> dict[str, Any]:
    o = legal.options
    if not o["offered"] or not style.pp:
        return {"do": "pp", "guess": None}
    # A wrong guess costs nothing (§4.5): always guess, the likeliest madman.
    odds = madman_odds(view, o["non_wolves"], style.evidence)
    guess = _best({c: w + 0.01 * rng.random() for c, w in odds.items()}, rng)
    # B's target: the likeliest real seer, else any other human.
    targets = {c: 1.0 / odds[c] for c in o["non_wolves"] if c != guess}
    if not targets:
        return {"do": "pp", "guess": guess, "target": guess}
    return {"do": "pp", "guess": guess, "target": _best(targets, rng)}


def _guard_odds(view: Mapping[str, Any], style: Style) -> dict[int, float]:
    """How likely each card is guarded tonight by a real hunter, from public orders (§6.2)."""
    orders = view["events"][-1]
    odds: dict[int, float] = {}

    def spread(to: list[int], weights: list[int], share: float) -> None:
        total = sum(weights)
        for c, w in zip(to, weights, strict=True):
            odds[c] = odds.get(c, 0.0) + share * w / total

    # A claimer's order guards only if that claimer is the real hunter.
    for entry in orders["guard"]:
        spread(entry["to"], entry["weights"], style.claimed_guard / max(1, len(orders["guard"])))
    latent = orders["latent_guard"]
    if not view["whole_hunter"]:
        if isinstance(latent, dict):
            spread(latent["to"], latent["weights"], style.latent_guard)
        elif orders["guard"]:
            for entry in orders["guard"]:
                spread(entry["to"], entry["weights"], style.latent_guard / len(orders["guard"]))
        else:
            claims = view["claims"]
            for role in ("seer", "medium"):
                living = [
                    int(c)
                    for c, k in claims.items()
                    if k["role"] == role and int(c) in view["alive"]
                ]
                if len(living) == 1:
                    odds[living[0]] = odds.get(living[0], 0.0) + style.latent_guard
                    break
    return odds


def _fox_cursed(view: Mapping[str, Any]) -> bool:
    """A night death B did not bite is the fox cursed by the real seer (or a cat's revenge)."""
    bitten = {a["night"]: a["target"] for a in view["attacks"]}
    return any(
        c != bitten.get(e["day"] - 1) and c not in view["wolves"]
        for e in view["events"]
        if e["type"] == "morning"
        for c in e["dead"]
    )


def _survivors(view: Mapping[str, Any]) -> set[int]:
    """Cards B attacked that are still alive: the fox, or guarded that night."""
    return {a["target"] for a in view["attacks"] if a["target"] in view["alive"]}


def _night(
    view: Mapping[str, Any], legal: Legal, rng: random.Random, style: Style
) -> dict[str, Any]:
    o = legal.options
    wolves = set(view["wolves"])
    claims = {int(c): k for c, k in view["claims"].items()}
    mad = madman_odds(view, o["attack"], style.evidence)
    seers = [c for c in o["attack"] if claims.get(c, {}).get("role") == "seer"]
    mad_total = sum(mad[c] for c in seers) or 1.0
    fox_may_live = view["rules"]["deck"].get("fox", 0) > 0 and not _fox_cursed(view)
    spared = SPARED if fox_may_live and rng.random() < style.spare_seer else 1.0
    value: dict[int, float] = {}
    for c in o["attack"]:
        claim = claims.get(c)
        role = claim["role"] if claim else None
        if role == "seer":
            # Worth the most when it is the real seer, nothing when it is our madman; less
            # while the fox may live, since only the real seer's divination kills it.
            seer = VALUE["seer"] * spared
            value[c] = 0.5 + seer * (1 - mad[c] / mad_total) if len(seers) > 1 else seer
            if style.evidence and mad[c] >= MADMAN:
                value[c] = 0.05  # not the real seer: our madman, or the fox (bites nothing)
        elif role == "medium":
            value[c] = VALUE["medium"]
        elif role == "hunter":
            value[c] = VALUE["hunter"]
        elif role in ("cat", "gidra"):
            value[c] = 0.1  # a bitten cat takes a werewolf
        else:
            value[c] = 1.0 + 0.1 * rng.random()
    # A card attacked before on a peaceful morning is the fox or was guarded: try others.
    survived = _survivors(view)
    for c in survived:
        if c in value:
            value[c] *= 0.2
    fox = fox_odds(view) if style.fox else {}
    for c in value:
        value[c] *= 1 - FOX_WASTE * fox.get(c, 0.0)  # a bite on the fox kills nobody
    odds = _guard_odds(view, style)
    scores = {c: value[c] * (1 - min(0.95, odds.get(c, 0.0))) for c in o["attack"]}
    attack = _best(scores, rng)
    living_fox = {c: fox.get(c, 0.0) for c in o["attack"]}
    parity = len(wolves & set(legal.living)) >= len(o["attack"]) - 2
    if parity and sum(living_fox.values()) >= FOX_ALIVE:
        # Biting a human now reaches parity, which a living fox wins: bite the likeliest fox
        # instead (a human bitten by mistake is still a kill).
        attack = _best(living_fox, rng)
    divine = []
    for card, to in sorted(o["divine"].items()):
        humans = [c for c in to if c not in wolves and c != attack]
        if style.evidence:  # never frame our own madman (a white on it is harmless)
            humans = [c for c in humans if mad.get(c, 1.0) < MADMAN]
        # A card that survived our attack is likely the fox, whose win is our loss too:
        # framed black, it is the one the village executes.
        foxes = sorted(c for c in humans if c in survived)
        likely = {c: fox.get(c, 0.0) for c in humans}
        if likely and max(likely.values()) >= FOX_FRAME:
            divine.append({"card": card, "target": _best(likely, rng), "result": BLACK})
        elif foxes and style.frame:
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
        "madman": {
            "divine": _madman_color(view, mad, attack) if style.frame else WHITE,
            "medium": WHITE,
        },
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


# ----- 「入門」 -----

NOVICE_FAKE = 0.1  # how seldom a beginner's werewolf dares to fake the seer when asked
NOVICE_BITE = 0.5  # how often a beginner bites a claimer, else anyone at random
NOVICE_BLACK = 0.1  # a beginner's fake seer seldom dares a black (on any card, its own too)


def _novice_color(rng: random.Random) -> str:
    return BLACK if rng.random() < NOVICE_BLACK else WHITE


def novice(view: Mapping[str, Any], legal: Legal, rng: random.Random) -> dict[str, Any]:
    """A beginner's B: eager werewolf fakes with random blacks, random attacks, no PP."""
    o = legal.options
    if legal.turn == "B:answer":
        question = o["question"]
        if question["do"] == "release":
            return {"do": "answer", "land": [{"card": c, "as": "cat"} for c in o["gidra_wolves"]]}
        if question["do"] == "named":
            claims = []
            for c in question["cards"]:
                if c in o["wolves"]:
                    role = rng.choice(["none", "none", *o["claimable"]])
                    claims.append(fake_reports(legal, c, role, rng))
            return {"do": "answer", "claims": claims}
        request = question["request"]
        if request["black_only"] or "seer" not in request["roles"]:
            return {"do": "answer", "claims": []}
        pairs = {(c, r) for c, r in question["pairs"]}
        fakers = [c for c in o["wolves"] if (c, "seer") in pairs]
        if fakers and rng.random() < NOVICE_FAKE:
            return {
                "do": "answer",
                "claims": [fake_reports(legal, rng.choice(fakers), "seer", rng)],
            }
        return {"do": "answer", "claims": []}
    if legal.turn == "B:pp":
        return {"do": "pp", "guess": None}
    if legal.turn == "B:night":
        claimed = [c for c in o["attack"] if str(c) in view["claims"]]
        attack = rng.choice(claimed if claimed and rng.random() < NOVICE_BITE else o["attack"])
        return {
            "do": "night",
            "attack": attack,
            "divine": [
                {"card": c, "target": rng.choice(to), "result": _novice_color(rng)}
                for c, to in sorted(o["divine"].items())
            ],
            "medium": [{"card": c, "result": rng.choice(COLORS)} for c in o["medium"]],
            "guard": [
                {"card": c, "target": rng.choice(to)} for c, to in sorted(o["guard"].items())
            ],
        }
    raise ValueError("いまは B の手番ではありません")
