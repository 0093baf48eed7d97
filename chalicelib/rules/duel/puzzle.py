"""今日の盤面パズル: a mid-game position at A's execution where exactly one execution wins
for A with best play.

Generation is pure and deterministic given the injected RNG (the service seeds it from the
JST date, so everyone gets the same puzzle that day): it plays games between CPUs
(:data:`STRENGTH`, both sides), each from a seed drawn from the RNG, on the decks of
:data:`DECKS` in turn, and stops at the first position where A is about to execute (its
questions done), with more than three cards alive, that :func:`solve` accepts. The method
(decisions 76 and 85–87):

- **The worlds**: every placement of the werewolves (and of the fox) consistent with A's
  view — :func:`placements`, exhaustively, no sample; the search projects them on the living
  cards (the dead cards' roles change nothing later) and memoizes on that.
- **A win** (:func:`winning_line`): a strategy for A, from what A sees, that ends in a village
  win in every world against every B play and every draw. The search gives A executions
  only, chosen from the executions and the night's deaths it sees (no questions, no use of the
  reports): a strategy of fewer means is still a strategy, so a win found is a win. The night
  is an adversary's choice among more outcomes than the rules allow (any living card that is
  neither werewolf nor fox dies, or nobody, and a living fox may die besides), so a win over
  them is a win over the real ones.
- **A loss** (:func:`refutation`): a world in which the execution ends the game at once for
  the werewolves or the fox, or leaves the werewolves one short of the humans, so that the
  next night's attack on the real hunter (if alive: it never guards itself; else on any human)
  brings parity whatever A plays. One world and one B play beating every A strategy: no
  strategy wins, however A asks, orders or reads. The world that proves it is the real deal,
  surely possible (a placement :func:`possible` lets through need not be).
- A position is a puzzle when exactly one living card wins and every other loses in the real
  deal, and the answer's execution leaves the game going in every world (a day still to play).

Only decks without a cat, gidra or PP are used (a cat's revenge and a PP move a death A did
not choose, which the search does not model).
"""

import random
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations
from typing import Any

from msgspec import Struct

from . import cpu
from .deck import Rules, custom
from .draws import Draws
from .legal import legal_moves
from .moves import play
from .roles import BLACK
from .state import Duel
from .views import view

# The deck the puzzles are played on (decision 86): a custom 11-card deck with masons and a
# fox. The presets without a cat, gidra or PP yielded none on CPU games (17A and 12B none in
# 300 games each, 10A none in 40); this deck about one game in 150.
DECKS: dict[str, Rules] = {
    "puzzle11": custom(
        {
            "deck": {
                "villager": 3,
                "mason": 2,
                "werewolf": 2,
                "seer": 1,
                "medium": 1,
                "hunter": 1,
                "fox": 1,
            }
        }
    ),
}
STRENGTH = "normal"
MAX_GAMES = 3000  # far above what a day needs (about 150: `make bench`'s `puzzle`)
MAX_MOVES = 2000
LIVING = 3  # a puzzle has more living cards: the final day's three are not mid-game
MAX_LIVING = 8  # and at most this many (decision 86: what the search settles in time)

WIN, LOSS = "win", "loss"


class NoPuzzle(Exception):
    """No game within :data:`MAX_GAMES` reached a puzzle (never seen; the page says so)."""


class World(Struct, frozen=True):
    wolves: tuple[int, ...]
    fox: int | None

    def to_json(self) -> dict[str, Any]:
        return {"wolves": list(self.wolves), "fox": self.fox}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "World":
        return cls(tuple(data["wolves"]), data["fox"])


class Verdict(Struct, frozen=True):
    """What executing one card does: ``win`` with best play, or ``loss`` in ``world`` (ending
    ``winner`` at the ``execution`` or the next ``morning``)."""

    card: int
    result: str
    world: World | None = None
    winner: str | None = None
    at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "result": self.result,
            "world": self.world.to_json() if self.world else None,
            "winner": self.winner,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Verdict":
        world = World.from_json(data["world"]) if data["world"] else None
        return cls(data["card"], data["result"], world, data["winner"], data["at"])


class Puzzle(Struct, frozen=True):
    deck: str  # a key of DECKS
    seed: int  # the game's seed (engine and CPUs)
    tried: int  # games played before this one was found, this one included
    state: dict[str, Any]  # the whole game at the position: secret, shown only through `a_view`
    answer: int
    worlds: tuple[World, ...]
    verdicts: tuple[Verdict, ...]  # one per living card, ascending
    line: dict[str, Any]  # A's winning strategy from the answer (`winning_line`)

    def a_view(self) -> dict[str, Any]:
        """What A sees at the position (§8), the only thing a page may show before the end."""
        return view(Duel.from_json(self.state), "A")

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "seed": self.seed,
            "tried": self.tried,
            "state": self.state,
            "answer": self.answer,
            "worlds": [w.to_json() for w in self.worlds],
            "verdicts": [v.to_json() for v in self.verdicts],
            "line": self.line,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Puzzle":
        return cls(
            deck=data["deck"],
            seed=data["seed"],
            tried=data["tried"],
            state=data["state"],
            answer=data["answer"],
            worlds=tuple(World.from_json(w) for w in data["worlds"]),
            verdicts=tuple(Verdict.from_json(v) for v in data["verdicts"]),
            line=data["line"],
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
    return madman_claims <= int(deck.get("madman", 0))  # the one madman claims once at most


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


def truth(duel: Duel) -> World:
    """The real placement of a game (secret: only the generator and the checks read it)."""
    return World(tuple(duel.wolves), duel.card_of("fox"))


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


Placement = tuple[frozenset[int], int | None]  # the living werewolves, the living fox


def _ending(wolves: frozenset[int], fox: int | None, alive: frozenset[int]) -> str | None:
    """§7 on the living cards of a placement (``wolves`` and ``fox`` among ``alive``)."""
    humans = len(alive) - len(wolves) - (fox is not None)
    if not wolves:
        return "fox" if fox is not None else "village"
    if len(wolves) >= humans:
        return "fox" if fox is not None else "wolves"
    return None


def _executed(world: Placement, card: int) -> Placement:
    wolves, fox = world
    return wolves - {card}, None if fox == card else fox


def _nights(alive: frozenset[int], world: Placement) -> list[tuple[int, ...]]:
    """The deaths a night may show in this placement, more than the rules allow: nobody (a
    GJ, an attack on the fox), any living human, and a living fox (cursed) with either."""
    wolves, fox = world
    humans = sorted(alive - wolves - {fox})
    kills: list[tuple[int, ...]] = [(), *((d,) for d in humans)]
    if fox is None:
        return kills
    return kills + [tuple(sorted((*kill, fox))) for kill in kills]


class _Search:
    """The AND-OR search of A's executions over sets of placements A cannot tell apart,
    memoized on (living cards, placements projected on them)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[frozenset[int], frozenset[Placement]], dict[str, Any] | None] = {}

    def day(self, alive: frozenset[int], worlds: frozenset[Placement]) -> dict[str, Any] | None:
        key = (alive, worlds)
        if key not in self.memo:
            # The cards most often a werewolf or the fox first: the line shown reads naturally.
            order = sorted(alive, key=lambda c: (-sum(c in w or c == f for w, f in worlds), c))
            self.memo[key] = next(
                (line for c in order if (line := self.execute(alive, worlds, c))), None
            )
        return self.memo[key]

    def execute(
        self, alive: frozenset[int], worlds: frozenset[Placement], card: int
    ) -> dict[str, Any] | None:
        left = alive - {card}
        going = set()
        for world in worlds:
            after = _executed(world, card)
            ending = _ending(*after, left)
            if ending in ("wolves", "fox"):
                return None
            if ending is None:
                going.add(after)
        seen: dict[tuple[int, ...], set[Placement]] = {}
        for world in going:
            for dead in _nights(left, world):
                seen.setdefault(dead, set()).add(world)
        nights = []
        for dead in sorted(seen):
            morning = left - set(dead)
            worlds_then = frozenset(
                (wolves, None if fox in dead else fox) for wolves, fox in seen[dead]
            )
            if any(_ending(*w, morning) for w in worlds_then):
                return None  # without a cat no werewolf dies at night: any end is a loss
            then = self.day(morning, worlds_then)
            if then is None:
                return None
            nights.append({"dead": list(dead), "then": then})
        return {"execute": card, "nights": nights}


def _project(world: World, alive: frozenset[int]) -> Placement:
    """Only the living cards' roles matter to the rest of the game."""
    return frozenset(world.wolves) & alive, world.fox if world.fox in alive else None


def _living(worlds: Iterable[World], alive: frozenset[int]) -> frozenset[Placement]:
    return frozenset(_project(w, alive) for w in worlds)


def winning_line(
    a_view: Mapping[str, Any], worlds: tuple[World, ...], card: int
) -> dict[str, Any] | None:
    """A's winning strategy starting with executing ``card`` (``{"execute": c, "nights":
    [{"dead": [...], "then": <the next day's line>}, ...]}``), or None if the search has none."""
    alive = frozenset(a_view["alive"])
    return _Search().execute(alive, _living(worlds, alive), card)


def refutation(a_view: Mapping[str, Any], worlds: tuple[World, ...], card: int) -> Verdict | None:
    """A world where executing ``card`` loses whatever A plays next (the module's docstring),
    the ones losing at the execution first."""
    alive = frozenset(a_view["alive"])
    left = alive - {card}
    later = None
    for world in worlds:
        wolves, fox = _executed(_project(world, alive), card)
        ending = _ending(wolves, fox, left)
        if ending in ("wolves", "fox"):
            return Verdict(card, LOSS, world, ending, "execution")
        humans = len(left) - len(wolves) - (fox is not None)
        if ending is None and later is None and len(wolves) >= humans - 1:
            later = Verdict(card, LOSS, world, "fox" if fox is not None else "wolves", "morning")
    return later


def solve(
    a_view: Mapping[str, Any], truth: World
) -> tuple[int, tuple[World, ...], tuple[Verdict, ...], dict[str, Any]] | None:
    """The winning card, the worlds, every verdict and the winning line, when the position is a
    puzzle. ``truth`` is the real placement: each other card must lose in it, a world surely
    possible (the verdict shown cites the first placement :func:`possible` allows, one A cannot
    rule out)."""
    rules = a_view["rules"]
    if (
        rules["deck"].get("cat", 0)
        or rules["gidra"]
        or rules["pp"]
        or len(a_view["alive"]) <= LIVING
    ):
        return None
    worlds = placements(a_view)
    if not worlds:
        return None
    refuted = {c: refutation(a_view, worlds, c) for c in a_view["alive"]}
    open_ = [c for c, verdict in refuted.items() if verdict is None]
    if len(open_) != 1:
        return None
    answer = open_[0]
    if any(refutation(a_view, (truth,), c) is None for c in refuted if c != answer):
        return None
    line = winning_line(a_view, worlds, answer)
    if line is None or any(
        _ending(*_executed(w, answer), frozenset(a_view["alive"]) - {answer})
        for w in _living(worlds, frozenset(a_view["alive"]))
    ):
        return None
    judged = tuple(refuted[c] or Verdict(c, WIN) for c in a_view["alive"])
    return answer, worlds, judged, line


def candidates(deck: str, seed: int) -> Iterator[Duel]:
    """The positions of one CPU game where A is about to execute, mid-game (more than three
    and at most :data:`MAX_LIVING` cards alive)."""
    engine = random.Random(seed)
    rngs = {"A": random.Random(seed * 2 + 1), "B": random.Random(seed * 2 + 2)}
    duel = Duel.setup(DECKS[deck], Draws(engine))
    for _ in range(MAX_MOVES):
        if duel.phase == "end":
            return
        side = duel.phase[0]
        move = cpu.choose(view(duel, side), legal_moves(duel, side), rngs[side], STRENGTH)
        if move["do"] == "execute" and LIVING < len(duel.alive) <= MAX_LIVING:
            yield duel
        play(duel, side, move, engine)


def generate(rng: random.Random, max_games: int = MAX_GAMES) -> Puzzle:
    """The first puzzle of the games the RNG seeds (the same RNG state, the same puzzle)."""
    for tried in range(1, max_games + 1):
        deck = list(DECKS)[(tried - 1) % len(DECKS)]
        seed = rng.getrandbits(32)
        for duel in candidates(deck, seed):
            solved = solve(view(duel, "A"), truth(duel))
            if solved is not None:
                answer, worlds, judged, line = solved
                state = duel.to_json()
                return Puzzle(deck, seed, tried, state, answer, worlds, judged, line)
    raise NoPuzzle(f"{max_games} 局のなかにパズルになる局面がありませんでした")
