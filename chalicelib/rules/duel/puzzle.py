"""今日の盤面パズル: a position at A's execution where exactly one execution wins.

Generation is pure and deterministic given the injected RNG (the service seeds it from the
JST date, so everyone gets the same puzzle that day): it plays games between CPUs
(:data:`STRENGTH`, both sides), each from a seed drawn from the RNG, on the presets of
:data:`PRESETS` in turn, and stops at the first position where A is about to execute (its
questions done) that :func:`solve` accepts. The method (decision 76):

- **The worlds**: every placement of the werewolves (and of the fox) consistent with A's
  view — :func:`.worlds.consistent_worlds`, exhaustively, no sample.
- **Best play**: an execution *wins* when it ends the game at once with a village win in
  every world, whatever B answers (a PP or RPP B might be offered counts against it: the
  madman may be any living card A cannot rule out). It *loses* when in some world it ends
  the game at once for the werewolves or the fox, with nothing left to B or to chance. A
  position is a puzzle when exactly one living card wins and every other loses: then the
  uniqueness holds for the whole rest of the game, since a lost game is lost whatever
  either side plays later.

Only decks without a cat are used (a cat's revenge is drawn, so an execution of a possible
cat neither surely wins nor surely loses). Without a cat, "every other card loses at once"
needs the werewolves to reach the humans when a human is executed, and "one card surely
wins" needs one living werewolf and no living fox in every world: so a puzzle always has
three living cards, and the generator checks only such positions (:func:`candidates`).
"""

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from . import cpu
from .deck import preset
from .draws import Draws
from .legal import legal_moves
from .moves import play
from .roles import BLACK
from .state import Duel
from .views import view

# 17A only: of the presets without a cat it yields a puzzle most often for its time (on CPU
# games: 17A about one game in 150, 12B and 10A none in 40, std9 never: its PP leaves the
# last werewolf's execution to a living madman A cannot rule out).
PRESETS = ("17A",)
STRENGTH = "normal"
MAX_GAMES = 1000  # far above what a day needs (measured: `make bench`'s `puzzle`)
MAX_MOVES = 2000
LIVING = 3  # the only size a puzzle can have (see above)

WIN, LOSS, OPEN = "win", "loss", "open"


class NoPuzzle(Exception):
    """No game within :data:`MAX_GAMES` reached a puzzle (never seen; the page says so)."""


@dataclass(frozen=True, slots=True)
class World:
    wolves: tuple[int, ...]
    fox: int | None

    def to_json(self) -> dict[str, Any]:
        return {"wolves": list(self.wolves), "fox": self.fox}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "World":
        return cls(tuple(data["wolves"]), data["fox"])


@dataclass(frozen=True, slots=True)
class Verdict:
    """What executing one card does: ``win`` in every world, ``loss`` in ``world``
    (ending ``winner``), else ``open``."""

    card: int
    result: str
    world: World | None = None
    winner: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "result": self.result,
            "world": self.world.to_json() if self.world else None,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Verdict":
        world = World.from_json(data["world"]) if data["world"] else None
        return cls(data["card"], data["result"], world, data["winner"])


@dataclass(frozen=True, slots=True)
class Puzzle:
    preset: str
    seed: int  # the game's seed (engine and CPUs)
    tried: int  # games played before this one was found, this one included
    state: dict[str, Any]  # the whole game at the position: secret, shown only through `a_view`
    answer: int
    worlds: tuple[World, ...]
    verdicts: tuple[Verdict, ...]  # one per living card, ascending

    def a_view(self) -> dict[str, Any]:
        """What A sees at the position (§8), the only thing a page may show before the end."""
        return view(Duel.from_json(self.state), "A")

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "seed": self.seed,
            "tried": self.tried,
            "state": self.state,
            "answer": self.answer,
            "worlds": [w.to_json() for w in self.worlds],
            "verdicts": [v.to_json() for v in self.verdicts],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Puzzle":
        return cls(
            preset=data["preset"],
            seed=data["seed"],
            tried=data["tried"],
            state=data["state"],
            answer=data["answer"],
            worlds=tuple(World.from_json(w) for w in data["worlds"]),
            verdicts=tuple(Verdict.from_json(v) for v in data["verdicts"]),
        )


def possible(a_view: Mapping[str, Any], wolves: frozenset[int], fox: int | None) -> bool:
    """Whether the rules alone allow this placement behind A's view (no weighing of B's
    likely choices): a placement refused here is impossible, so the real one is always kept
    (decision 76). For decks without a cat or gidra (the only ones :func:`solve` takes)."""
    masons = set(a_view.get("masons", []))
    if wolves & masons or fox in masons or (fox is not None and fox in wolves):
        return False  # A knows its masons (§3.5)
    alive = set(a_view["alive"])
    living_wolves = len(alive & wolves)
    fox_alive = fox is not None and fox in alive
    if living_wolves == 0 or living_wolves >= len(alive) - living_wolves - fox_alive:
        return False  # the game would be over (§7)
    events = a_view["events"]
    for e in events:
        if e["type"] != "morning":
            continue
        if set(e["dead"]) & wolves:
            return False  # without a cat a werewolf dies only by execution (§6.3)
        if len(e["dead"]) > 1 and fox not in e["dead"]:
            return False  # the attack kills one; a second death is the cursed fox (§6.3)
    for e in events:
        if e["type"] == "execution" and e["pp"] and e["pp"]["madman"] in wolves | {fox}:
            return False  # a PP names the madman (§4.5)
    claims = {int(c): claim for c, claim in a_view["claims"].items()}
    if fox is not None and fox in claims and claims[fox]["role"] not in ("seer", "medium", "none"):
        return False  # the fox claims only its mode (§3.4, §4)
    asked = {(c, r) for c, r in a_view["asked"]}
    deck = a_view["rules"]["deck"]
    madman_claims = 0  # claimers that can only be the madman: it claims once at most (§5)
    for role in ("seer", "medium", "hunter"):
        holders = [
            c for c, claim in claims.items() if claim["role"] == role and c not in wolves | {fox}
        ]
        real = any(_true_reports(a_view, claims[c], wolves, fox) for c in holders)
        madman_claims += len(holders) - real
        # Without a real claimer, the real holder is missing, or a card never asked for the
        # role (asked, it would have come out: §4.1; it names no other role, §4.3).
        hidden = a_view["rules"]["missing"] or any(
            c not in claims and c not in wolves and c != fox and c not in masons
            for c in range(1, a_view["board"] + 1)
            if (c, role) not in asked
        )
        if deck.get(role, 0) and not real and not hidden:
            return False
    return madman_claims <= 1


def _true_reports(
    a_view: Mapping[str, Any], claim: Mapping[str, Any], wolves: frozenset[int], fox: int | None
) -> bool:
    """Could this claim be the real holder's: every color true (§5, §6.3); a seer's first-day
    target never the fox (§3.3), and a fox it divined cursed that night (§6.3)."""
    oracle = claim.get("oracle")
    if oracle and oracle["target"] == fox:
        return False
    results = ([oracle] if oracle else []) + claim.get("nights", []) + claim.get("results", [])
    if any((r["result"] == BLACK) != (r["target"] in wolves) for r in results):
        return False
    died = {e["day"] - 1: set(e["dead"]) for e in a_view["events"] if e["type"] == "morning"}
    return all(
        r["target"] != fox or fox in died.get(r["night"], ()) for r in claim.get("nights", [])
    )


def placements(a_view: Mapping[str, Any]) -> tuple[World, ...]:
    """Every placement of the werewolves (and the fox) that :func:`possible` allows."""
    deck = a_view["rules"]["deck"]
    board = range(1, a_view["board"] + 1)
    foxes: list[int | None] = list(board) if deck.get("fox", 0) else [None]
    return tuple(
        World(wolves, fox)
        for wolves in combinations(board, deck.get("werewolf", 0))
        for fox in foxes
        if possible(a_view, frozenset(wolves), fox)
    )


def ending_after(a_view: Mapping[str, Any], world: World, card: int) -> str | None:
    """The game's end right after executing ``card`` in ``world``: ``village``, ``wolves``,
    ``fox``, ``pp`` (B may be offered a PP/RPP and turn it) or None (it goes on)."""
    alive = set(a_view["alive"])
    wolves = set(world.wolves)
    living_wolves = len(alive & wolves)
    if card in wolves and a_view["rules"]["pp"]:
        # §4.5: offered when the madman lives and werewolves + 1 ≥ the other living cards.
        masons = set(a_view.get("masons", []))
        madman_may_live = any(c not in wolves and c != world.fox and c not in masons for c in alive)
        if madman_may_live and living_wolves + 1 >= len(alive) - living_wolves - 1:
            return "pp"
    left = alive - {card}
    left_wolves = len(left & wolves)
    fox = world.fox is not None and world.fox in left
    humans = len(left) - left_wolves - fox
    if left_wolves == 0:
        return "fox" if fox else "village"
    if left_wolves >= humans:
        return "fox" if fox else "wolves"
    return None


def verdicts(a_view: Mapping[str, Any], worlds: tuple[World, ...]) -> tuple[Verdict, ...]:
    """Each living card's verdict over ``worlds`` (the method of the module's docstring)."""
    out = []
    for card in a_view["alive"]:
        endings = [(w, ending_after(a_view, w, card)) for w in worlds]
        lost = [(w, e) for w, e in endings if e in ("wolves", "fox")]
        if worlds and all(e == "village" for _, e in endings):
            out.append(Verdict(card, WIN))
        elif lost:
            out.append(Verdict(card, LOSS, lost[0][0], lost[0][1]))
        else:
            out.append(Verdict(card, OPEN))
    return tuple(out)


def solve(a_view: Mapping[str, Any]) -> tuple[int, tuple[World, ...], tuple[Verdict, ...]] | None:
    """The winning card, the worlds and every verdict, when the position is a puzzle."""
    if a_view["rules"]["deck"].get("cat", 0) or len(a_view["alive"]) != LIVING:
        return None
    worlds = placements(a_view)
    judged = verdicts(a_view, worlds)
    winners = [v.card for v in judged if v.result == WIN]
    if len(winners) != 1 or any(v.result == OPEN for v in judged):
        return None
    return winners[0], worlds, judged


def candidates(rules_name: str, seed: int) -> Iterator[Duel]:
    """The positions of one CPU game where A is about to execute with three cards alive."""
    engine = random.Random(seed)
    rngs = {"A": random.Random(seed * 2 + 1), "B": random.Random(seed * 2 + 2)}
    duel = Duel.setup(preset(rules_name), Draws(engine))
    for _ in range(MAX_MOVES):
        if duel.phase == "end":
            return
        side = duel.phase[0]
        move = cpu.choose(view(duel, side), legal_moves(duel, side), rngs[side], STRENGTH)
        if move["do"] == "execute" and len(duel.alive) == LIVING:
            yield duel
        play(duel, side, move, engine)


def generate(rng: random.Random, max_games: int = MAX_GAMES) -> Puzzle:
    """The first puzzle of the games the RNG seeds (the same RNG state, the same puzzle)."""
    for tried in range(1, max_games + 1):
        rules_name = PRESETS[(tried - 1) % len(PRESETS)]
        seed = rng.getrandbits(32)
        for duel in candidates(rules_name, seed):
            solved = solve(view(duel, "A"))
            if solved is not None:
                answer, worlds, judged = solved
                return Puzzle(rules_name, seed, tried, duel.to_json(), answer, worlds, judged)
    raise NoPuzzle(f"{max_games} 局のなかにパズルになる局面がありませんでした")
