"""The deducer's reasoning (CPU-A): which werewolf placements fit everything public.

A world here is a set of werewolf cards. Each is checked against the public record
and A's own knowledge (masons), and weighed by how likely B's observed choices are
under it: a werewolf claimer means B chose to fake, a non-werewolf claimer must be
the real holder (its reports true) or the madman or the fox. The fewer and likelier
the fakes a world needs, the heavier it is; and B bites as it would knowing the world's
werewolves (once the results tell it which claimer is real, it spares its madman and
bites the real one if unguarded). Only a view is read, never the cards.
CPU-B weighs the same worlds with its werewolves known to read where the fox is
(:func:`fox_odds`).
"""

from collections.abc import Mapping
from functools import cache
from itertools import combinations
from typing import Any

from msgspec import Struct

from .roles import BLACK

# How likely B is to have a werewolf fake a claim: a deceiver whose claims can all be read
# without a werewolf fake is taken to keep its werewolves hidden (WOLF_HIDDEN); one whose
# claims need a werewolf fake in every world, to fake with them (WOLF_FAKE). Whether the
# madman's one claim is spent is B's secret (an instruction without effect spends it too):
# a world may hold one non-werewolf fake (the madman's claim) or none, whichever fits.
WOLF_FAKE = 0.15
WOLF_HIDDEN = 0.065
MADMAN_FAKE = 0.5  # how likely B had the madman claim, in a world that needs it
COIN = 0.5  # a color B chose, seen without knowing B's plan
# The madman sent to a black-seer-only request (a blind black that frames a human four
# times in five): as likely as any fake, since the real seer comes out there only on a
# black first-day result.
BLACK_ONLY_FAKE = 1.0
# How likely a night with no death is: B attacked the fox (a claimer, or not), or a GJ.
PEACE_ON_FOX_CLAIMER, PEACE_ON_FOX, PEACE_BY_GJ = 1.0, 0.5, 0.1
# A real holder never asked (or missing): the chance the role is the first victim.
MISSING = 0.15
CURSED_ALONE = 0.3  # the fox cursed on a night with no other death
# B knows its werewolves, so in a world where it could tell the real seer (or medium) from
# the fakes by their results, a bite on its madman is unlikely, and so is a night it bit
# another card while the real one was alive and unguarded (:func:`_bites`).
BITTEN_MADMAN = 0.2
SPARED_REAL = 0.5
MAX_WORLDS = 600  # above this (17A only), a deterministic stride sample of the placements


class Beliefs(Struct, frozen=True):
    wolf: dict[int, float]  # P(card is a werewolf)
    fox: dict[int, float]  # P(card is the fox)
    real: dict[int, float]  # P(claimer is the real holder of its claimed role)
    execute: dict[int, float]  # A's chance to win after executing each living card (0…1)
    worlds: int  # worlds with positive weight


# The rest of the game after an execution, as a chance for A to win (:func:`after_execution`):
# each day A executes a card it needs (a werewolf or the fox; the fox while it lives and one
# werewolf is left) with probability SKILL × needed / living, else a human; each night B
# kills a human except with PEACE (a GJ or the fox attacked), and the real seer curses a
# living fox with CURSE.
SKILL, PEACE, CURSE = 1.5, 0.1, 0.1


def _reports_true(
    f: Mapping[str, Any], claim: Mapping[str, Any], wolves: frozenset[int], fox: int | None
) -> bool:
    """Could this claimer be the real holder: every result true, and for a seer the fox
    never its first-day target (§3.3) and cursed the night it was divined (§6.3)."""
    results = claim.get("nights", []) + claim.get("results", [])
    oracle = claim.get("oracle")
    if oracle:
        if oracle["target"] == fox:
            return False
        results = [oracle, *results]
    if not all((r["result"] == BLACK) == (r["target"] in wolves) for r in results):
        return False
    if fox is not None:
        for r in claim.get("nights", []):
            if r["target"] == fox and fox not in f["dead_by_night"].get(r["night"], ()):
                return False
    return True


def _results(claim: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    oracle = claim.get("oracle")
    results: list[Mapping[str, Any]] = [oracle] if oracle else []
    results.extend(claim.get("nights", []))
    results.extend(claim.get("results", []))
    return results


def _chosen_colors(claim: Mapping[str, Any]) -> float:
    """How likely B's chosen colors are, a priori: a fair coin each."""
    return float(COIN ** len(_results(claim)))


def _fake(f: Mapping[str, Any], card: int) -> float:
    """How likely the madman's claim by ``card`` is: its colors, and a rare black-only one."""
    weight = _chosen_colors(f["claims"][card])
    return weight * BLACK_ONLY_FAKE if card in f["black_only"] else weight


def _chosen_colors_of(f: Mapping[str, Any], claimers: list[int], real: int | None) -> float:
    """The fakes among ``claimers`` when ``real`` is the real one."""
    weight = 1.0
    for c in claimers:
        if c != real:
            weight *= _fake(f, c)
    return weight


def _known_before(f: Mapping[str, Any], card: int, night: int) -> list[Mapping[str, Any]]:
    """``card``'s results public when night ``night`` began (its first-day one only if it
    had come out by then)."""
    if f["came_out"].get(card, night + 1) > night:
        return []
    claim = f["claims"][card]
    known = [r for r in claim.get("nights", []) if r["night"] < night]
    known += [r for r in claim.get("results", []) if r["day"] <= night]
    return [claim["oracle"], *known] if claim.get("oracle") else known


def _lied(f: Mapping[str, Any], card: int, night: int, wolves: frozenset[int]) -> bool:
    """A result public by ``night`` that is false here (a black on a human, a white on a
    werewolf): B, which knows its werewolves, sees this claimer is no real one."""
    results = _known_before(f, card, night)
    return any((r["result"] == BLACK) != (r["target"] in wolves) for r in results)


def _hit(f: Mapping[str, Any], card: int, night: int, wolves: frozenset[int]) -> bool:
    """A black on a werewolf public by ``night``: B reads the claimer as the real seer."""
    results = _known_before(f, card, night)
    return any(r["result"] == BLACK and r["target"] in wolves for r in results)


def _bites(
    f: Mapping[str, Any], claimers: list[int], real: int | None, wolves: frozenset[int]
) -> float:
    """How likely B's bites are when ``real`` is the real one of these claimers. B knows its
    werewolves, so it can tell the real one from the others once one of them lied (a black
    on a human, a white on a werewolf) or the real one called a werewolf black: from then
    on it does not bite its madman (BITTEN_MADMAN), and it bites the real one unless A
    guards it (SPARED_REAL for each night it bit another instead)."""
    weight = 1.0
    for night, bitten in f["bites"]:
        if bitten == real:
            continue
        if real is None:
            if bitten in claimers and _lied(f, bitten, night, wolves):
                weight *= BITTEN_MADMAN
            continue
        if not (
            _hit(f, real, night, wolves)
            or any(_lied(f, c, night, wolves) for c in claimers if c != real)
        ):
            continue
        if bitten in claimers:
            weight *= BITTEN_MADMAN
        elif not (
            real in f["dead_before"].get(night, ())
            or real in f["guarded"].get(night, ())
            or f["came_out"].get(real, night + 1) > night
        ):
            weight *= SPARED_REAL
    return weight


def _drawn_colors(claim: Mapping[str, Any], p: float) -> float:
    weight = 1.0
    for r in _results(claim):
        weight *= p if r["result"] == BLACK else 1 - p
    return weight


def _facts(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the weighing needs, read once from the view."""
    deck = view["rules"]["deck"]
    events = view["events"]
    night_dead = [e["dead"] for e in events if e["type"] == "morning" and e["dead"]]
    dead_by_night = {e["day"] - 1: set(e["dead"]) for e in events if e["type"] == "morning"}
    # Who was already dead when each night began, and the nights that ended with no death.
    gone: set[int] = set()
    dead_before: dict[int, set[int]] = {}
    peaceful: list[int] = []
    for e in events:
        if e["type"] == "execution":
            gone |= {e["card"]} | ({e["revenge"]} if e["revenge"] is not None else set())
        elif e["type"] == "orders":
            dead_before[e["day"]] = set(gone)
        elif e["type"] == "morning":
            gone |= set(e["dead"])
            if not e["dead"]:
                peaceful.append(e["day"] - 1)
    not_wolf: set[int] = set(view.get("masons", []))
    for e in events:
        if e["type"] == "execution":
            if e["revenge"] is not None:
                not_wolf.add(e["card"])  # only a cat takes revenge
            if e["pp"]:
                not_wolf.add(e["pp"]["madman"])
    claims = {int(c): claim for c, claim in view["claims"].items()}
    black_only = {
        c["card"]
        for e in events
        if e["type"] == "co" and e["request"]["black_only"]
        for c in e["claims"]
    }
    # The fox is never a mason, the cat, the madman, nor a hunter/cat/gidra claimer.
    not_fox = {c for c, claim in claims.items() if claim["role"] in ("hunter", "cat", "gidra")}
    asked = {(c, r) for c, r in view["asked"]}
    # A role named after a CO request asked the card for it: the real holder (or the fox
    # in that mode) would have come out then, so this one is a fake (§4.1, §4.3).
    silent = {
        a["card"]
        for e in events
        if e["type"] == "named"
        for a in e["answers"]
        if (a["card"], a["role"]) in asked
    }
    # A card dead at night n is the attack's victim, or the fox cursed by the real seer
    # that night: the seer claimers that divined it then (§6.3).
    night_of = {c: e["day"] - 1 for e in events if e["type"] == "morning" for c in e["dead"]}
    cursers = {
        c: [
            s
            for s, claim in claims.items()
            if claim["role"] == "seer"
            and any(r["night"] == n and r["target"] == c for r in claim.get("nights", []))
        ]
        for c, n in night_of.items()
    }
    # When each claimer came out (its reports public from that day), and each night's one
    # death, the werewolves' bite (two deaths: a bite and a curse, not told apart).
    came_out = {
        c["card"]: e["day"]
        for e in events
        if e["type"] in ("co", "named")
        for c in e.get("claims", e.get("answers", []))
    }
    bites = [(n, next(iter(dead))) for n, dead in dead_by_night.items() if len(dead) == 1]
    guarded: dict[int, set[int]] = {}
    for e in events:
        if e["type"] == "orders":
            latent = e["latent_guard"]
            cards = {c for g in e["guard"] for c in g["to"]}
            if isinstance(latent, dict):
                cards |= set(latent["to"])
            elif latent == "same":
                cards |= set(range(1, view["board"] + 1))
            guarded[e["day"]] = cards
    return {
        "deck": deck,
        "board": view["board"],
        "came_out": came_out,
        "bites": bites,
        "guarded": guarded,
        "alive": set(view["alive"]),
        "night_dead": night_dead,
        "dead_by_night": dead_by_night,
        "dead_before": dead_before,
        "peaceful": peaceful,
        "not_wolf": not_wolf,
        "not_fox": not_fox,
        "black_only": black_only,
        "claims": claims,
        "asked": asked,
        "silent": silent,
        "whole_seer": view["whole_seer"],
        "night_of": night_of,
        "cursers": cursers,
        "missing": view["rules"]["missing"],
        "fox_black": deck.get("werewolf", 0) / max(1, view["board"] - 2),
        "fox_modes": ["latent"] + [r for r in ("seer", "medium") if deck.get(r, 0)],
        # The cards the madman may be once the werewolves and the fox are placed (the
        # first victim included: it is never a werewolf nor the fox).
        "madman_slots": view["board"]
        + bool(view["rules"]["missing"])
        - deck.get("werewolf", 0)
        - deck.get("fox", 0)
        - deck.get("mason", 0),
    }


def _weight(
    f: Mapping[str, Any], wolves: frozenset[int], fox: int | None, madman: bool | None = None
) -> tuple[float, dict[int, float], int]:
    """The world's weight but for its werewolf fakes, per non-werewolf claimer its share of
    being real, and how many werewolves fake a claim in it (each weighs the fake rate).

    ``madman`` is what B knows of its one madman instruction (A reads it as None: either):
    False, never given, so no world holds a non-werewolf fake; True, given, so a world
    without that fake is one where it took no effect (the madman missing or dead)."""
    alive = f["alive"]
    living_wolves = len(alive & wolves)
    fox_alive = fox is not None and fox in alive
    if living_wolves == 0 or living_wolves >= len(alive) - living_wolves - fox_alive:
        return 0.0, {}, 0
    has_cat = f["deck"].get("cat", 0) > 0
    for dead in f["night_dead"]:
        hit = len(wolves.intersection(dead))
        if hit and (not has_cat or hit > 1 or len(dead) < 2):
            return 0.0, {}, 0
        # Without a cat two deaths in one night are the attack and the cursed fox.
        if len(dead) >= 2 and not has_cat and fox not in dead:
            return 0.0, {}, 0
    weight = 1.0
    if fox is not None and fox not in f["claims"]:
        # An unclaimed fox is latent, or in a mode it was never asked about.
        modes = [m for m in f["fox_modes"] if m == "latent" or (fox, m) not in f["asked"]]
        weight *= len(modes) / len(f["fox_modes"])
    elif fox is not None and f["claims"][fox]["role"] == "none":
        weight *= 1 / len(f["fox_modes"])  # a named fox says none only when latent
    if fox is not None:
        # A night with no death: a GJ, or an attack on the fox (likelier on a claimer B hunts).
        for night in f["peaceful"]:
            if fox in f["dead_before"].get(night, ()):
                weight *= PEACE_BY_GJ
            elif f["claims"].get(fox, {}).get("role") in ("seer", "medium"):
                weight *= PEACE_ON_FOX_CLAIMER
            else:
                weight *= PEACE_ON_FOX
    # A fox dead at night was cursed: the real seer divined it that night, one of the
    # claimers that did unless the seer may be latent; alone, the attack hit the fox or a GJ.
    cursed_by: list[int] | None = None
    if fox is not None and fox in f["night_of"]:
        cursed_by = f["cursers"][fox]
        if not cursed_by and f["whole_seer"]:
            return 0.0, {}, 0
        if f["dead_by_night"][f["night_of"][fox]] == {fox}:
            weight *= CURSED_ALONE
    fakes = 0
    wolf_fakes = 0
    real: dict[int, float] = {}
    by_role: dict[str, list[int]] = {}
    for card, claim in f["claims"].items():
        role = claim["role"]
        if card == fox:
            if role in ("hunter", "cat", "gidra") or card in f["silent"]:
                return 0.0, {}, 0
            if role != "none":  # its mode, and its colors drawn with p (§5)
                weight *= _drawn_colors(claim, f["fox_black"]) / len(f["fox_modes"])
            continue
        if role == "none":
            continue
        if card in wolves:
            # A werewolf picks its own target: a black-only frame is as natural as any fake.
            weight *= _chosen_colors(claim)
            wolf_fakes += 1
            continue
        by_role.setdefault(role, []).append(card)
    deck = f["deck"]
    for role in ("seer", "medium", "hunter", "cat", "gidra"):
        claimers = by_role.get(role, [])
        if role == "gidra":
            slots = (deck.get("hunter", 0) > 0) + (deck.get("cat", 0) > 0)
            fakes += max(0, len(claimers) - slots)
            for c in claimers:
                real[c] = 1.0
            continue
        in_deck = deck.get(role, 0) > 0
        true = [
            c
            for c in claimers
            if c not in f["silent"]
            and (role in ("hunter", "cat") or _reports_true(f, f["claims"][c], wolves, fox))
        ]
        if role == "seer" and cursed_by and f["whole_seer"]:
            true = [c for c in true if c in cursed_by]
            if not true:
                return 0.0, {}, 0
        if in_deck and true:
            fakes += len(claimers) - 1
            # Which one is real: each choice makes the others the madman's (B's colors).
            shares = {
                c: _chosen_colors_of(f, claimers, c) * _bites(f, claimers, c, wolves) for c in true
            }
            weight *= sum(shares.values())
            for c in true:
                real[c] = shares[c] / sum(shares.values())
        else:
            fakes += len(claimers)
            weight *= _chosen_colors_of(f, claimers, None) * _bites(f, claimers, None, wolves)
            if in_deck and role in ("seer", "medium"):
                # The real holder has not come out: it must be one never asked, or missing.
                hidden = [
                    c
                    for c in range(1, f["board"] + 1)
                    if c not in f["claims"]
                    and c not in wolves
                    and c != fox
                    and (c, role) not in f["asked"]
                ]
                if not hidden:
                    if not f["missing"]:
                        return 0.0, {}, 0
                    weight *= MISSING
    if fakes > 1 or (fakes and madman is False):  # the madman claims once, if asked to
        return 0.0, {}, 0
    if madman is None and fakes:  # B had the madman claim, and it is this card of its slots
        weight *= MADMAN_FAKE / max(1, f["madman_slots"])
    elif madman and not fakes:  # B's instruction took no effect
        weight /= max(1, f["madman_slots"])
    return weight, real, wolf_fakes


def _worlds(f: Mapping[str, Any]) -> list[tuple[frozenset[int], int | None]]:
    board = f["board"]
    cards = [c for c in range(1, board + 1) if c not in f["not_wolf"]]
    placements = [frozenset(p) for p in combinations(cards, f["deck"].get("werewolf", 0))]
    if not f["deck"].get("fox", 0):
        worlds: list[tuple[frozenset[int], int | None]] = [(w, None) for w in placements]
    else:
        foxes = [c for c in range(1, board + 1) if c not in f["not_wolf"] and c not in f["not_fox"]]
        worlds = [(w, x) for w in placements for x in foxes if x not in w]
    if len(worlds) > MAX_WORLDS:  # a deterministic, evenly spread sample
        stride = len(worlds) / MAX_WORLDS
        worlds = [worlds[int(i * stride)] for i in range(MAX_WORLDS)]
    return worlds


def beliefs(view: Mapping[str, Any]) -> Beliefs:
    """Per card: P(werewolf), P(fox), P(real) and the value of executing it."""
    f = _facts(view)
    board = f["board"]
    alive = f["alive"]
    wolf = dict.fromkeys(range(1, board + 1), 0.0)
    fox_p = dict.fromkeys(range(1, board + 1), 0.0)
    execute = dict.fromkeys(sorted(alive), 0.0)
    real = dict.fromkeys(f["claims"], 0.0)
    total = 0.0
    count = 0
    weighed = [(w, x, *_weight(f, w, x)) for w, x in _worlds(f)]
    weighed = [world for world in weighed if world[2] > 0]
    # A deceiver whose claims all fit without a werewolf fake keeps its werewolves hidden.
    rate = WOLF_FAKE if weighed and min(k for *_, k in weighed) > 0 else WOLF_HIDDEN
    for wolves, fox, weight, shares, wolf_fakes in weighed:
        weight *= rate**wolf_fakes
        count += 1
        total += weight
        for c in wolves:
            wolf[c] += weight
        if fox is not None:
            fox_p[fox] += weight
        for c, share in shares.items():
            real[c] += weight * share
        living_wolves = len(alive & wolves)
        fox_alive = fox is not None and fox in alive
        humans = len(alive) - living_wolves - fox_alive
        for c in execute:
            if c in wolves:
                value = after_execution(living_wolves - 1, fox_alive, humans)
            elif c == fox:
                value = after_execution(living_wolves, False, humans)
            else:
                value = after_execution(living_wolves, fox_alive, humans - 1)
            execute[c] += weight * value
    if total <= 0:  # nothing fits (a reading the weighing does not cover): know nothing
        half = {c: 0.5 for c in wolf}
        return Beliefs(half, dict(half), {c: 0.5 for c in real}, dict.fromkeys(execute, 0.5), 0)
    return Beliefs(
        {c: w / total for c, w in wolf.items()},
        {c: w / total for c, w in fox_p.items()},
        {c: w / total for c, w in real.items()},
        {c: w / total for c, w in execute.items()},
        count,
    )


def fox_odds(view: Mapping[str, Any]) -> dict[int, float]:
    """B's reading (it knows its werewolves): P(each card is the fox), from the public
    record weighed as A weighs it, whether B ever had the madman claim, and B's own attacks
    (a bitten card alive after a peaceful night is the fox or was guarded; a night death B
    did not bite is the fox cursed). Empty without a fox in the deck."""
    if not view["rules"]["deck"].get("fox", 0):
        return {}
    f = _facts(view)
    wolves = frozenset(view["wolves"])
    bitten = {a["night"]: a["target"] for a in view["attacks"]}
    odds: dict[int, float] = {}
    for fox in range(1, f["board"] + 1):
        if fox in wolves or fox in f["not_wolf"] or fox in f["not_fox"]:
            continue
        weight, _, wolf_fakes = _weight(f, wolves, fox, view["madman_used"])
        weight *= WOLF_FAKE**wolf_fakes  # the same for every card: B knows its werewolves
        for night, dead in f["dead_by_night"].items():
            target = bitten.get(night)
            if target is None:
                continue
            if target not in dead:
                weight *= 1.0 if target == fox else PEACE_BY_GJ  # the fox, or a GJ
            if any(c != target for c in dead) and fox not in dead:
                weight = 0.0  # a death B did not bite is the cursed fox
        odds[fox] = weight
    total = sum(odds.values())
    return {c: w / total for c, w in odds.items()} if total > 0 else {}


def _ended(wolves: int, fox: bool, humans: int) -> float | None:
    """A's result if the game is over (§7): won only with no werewolf and no fox left."""
    if wolves == 0:
        return 0.0 if fox else 1.0
    if wolves >= humans:
        return 0.0
    return None


@cache
def after_execution(wolves: int, fox: bool, humans: int) -> float:
    """A's chance to win once the day's execution leaves these alive (the model above).

    Counting the days left is what a fixed value per role missed: a human executed near
    parity loses at once, the last werewolf executed before the fox hands the fox the game,
    and the fox is worth executing early only while there is time to find both werewolves."""
    ended = _ended(wolves, fox, humans)
    if ended is not None:
        return ended
    total = 0.0
    curses = ((True, CURSE), (False, 1 - CURSE)) if fox else ((False, 1.0),)
    for died, p_died in ((1, 1 - PEACE), (0, PEACE)):
        for cursed, p_cursed in curses:
            left_fox, left_humans = fox and not cursed, humans - died
            ended = _ended(wolves, left_fox, left_humans)
            chance = _day(wolves, left_fox, left_humans) if ended is None else ended
            total += p_died * p_cursed * chance
    return total


@cache
def _day(wolves: int, fox: bool, humans: int) -> float:
    last = fox and wolves == 1  # only the fox will do: the last werewolf would end it for the fox
    needed = 1 if last else wolves + fox
    hit_rate = min(0.95, SKILL * needed / (wolves + fox + humans))
    if last:
        hit = after_execution(wolves, False, humans)
    elif fox:
        # A werewolf or the fox, as likely as each other.
        on_wolf = after_execution(wolves - 1, True, humans)
        hit = (wolves * on_wolf + after_execution(wolves, False, humans)) / (wolves + 1)
    else:
        hit = after_execution(wolves - 1, False, humans)
    return hit_rate * hit + (1 - hit_rate) * after_execution(wolves, fox, humans - 1)
