"""今日の盤面パズル: generated days have exactly one winning execution (decision 76),
recomputed here independently of the generator's judgment, and a date always gives the
same puzzle.

The recomputation shares only the rules' test of a placement (`puzzle.possible`, checked
sound on its own below: the real placement always passes it); it enumerates every placement
itself and judges every execution by playing it through the engine in a full deal of each
world, every B reply to a PP (each madman place A cannot rule out, each guess and target,
both RPP draws).
"""

import json
import random
from datetime import date, timedelta
from itertools import combinations

import pytest

from chalicelib.rules.duel import Draws, Duel, play
from chalicelib.rules.duel.cpu import choose
from chalicelib.rules.duel.deck import preset
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rules.duel.puzzle import LIVING, Puzzle, generate, possible, solve
from chalicelib.rules.duel.views import view
from chalicelib.services.puzzles import seed_of
from tests import puzzle_days

DAYS = [date(2026, 12, 1) + timedelta(days=n) for n in range(30)]


def brute_force_worlds(a_view: dict) -> list[tuple[frozenset[int], int | None]]:
    """Every (werewolves, fox) placement over the whole board that the rules allow."""
    deck = a_view["rules"]["deck"]
    board = range(1, a_view["board"] + 1)
    found = []
    for wolves in combinations(board, deck["werewolf"]):
        foxes = [None] if not deck.get("fox") else [c for c in board if c not in wolves]
        for fox in foxes:
            if possible(a_view, frozenset(wolves), fox):
                found.append((frozenset(wolves), fox))
    return found


def deals(duel: Duel, wolves: frozenset[int], fox: int | None) -> list[list[str | None]]:
    """Full deals of a world for the engine: A's masons where A sees them, the madman on any
    other card (or on none alive: dead, missing), the rest villagers (no cat in the deck)."""
    masons = set(duel.masons)
    base: list[str | None] = [
        "werewolf" if c in wolves else "fox" if c == fox else "mason" if c in masons else "villager"
        for c in range(duel.board + 1)
    ]
    base[0] = "villager" if duel.rules.missing else None
    deals_ = [base]
    if duel.rules.pp:  # where the madman is matters only to a PP (§4.5)
        for c in range(duel.board + 1):
            if base[c] == "villager":
                deals_.append([*base[:c], "madman", *base[c + 1 :]])
    return deals_


def endings(state: dict, cards: list[str | None], card: int) -> set[str | None]:
    """Every way executing ``card`` can end at once in this deal, over all B's PP replies."""
    duel = Duel.from_json(state)
    duel.cards = list(cards)
    play(duel, "A", {"do": "execute", "card": card}, Draws(random.Random(0)))
    if duel.phase != "B:pp":
        return {duel.ending["winner"] if duel.ending else None}
    replies = [{"do": "pp", "guess": None}]
    if legal_moves(duel, "B").options["offered"]:
        others = [c for c in duel.living() if duel.cards[c] != "werewolf"]
        replies += [{"do": "pp", "guess": g, "target": t} for g in others for t in others]
    out: set[str | None] = set()
    for reply in replies:
        for rpp in ("A", "B"):
            after = Duel.from_json(duel.to_json())
            play(after, "B", reply, Draws(random.Random(0), {"rpp": [rpp]}))
            out.add(after.ending["winner"] if after.ending else None)
    return out


def check_unique(puzzle: Puzzle) -> None:
    a_view = puzzle.a_view()
    duel = Duel.from_json(puzzle.state)
    assert duel.phase == "A:day" and len(a_view["alive"]) == LIVING
    worlds = brute_force_worlds(a_view)
    true_world = (frozenset(duel.wolves), duel.card_of("fox"))
    assert true_world in worlds  # the real deal fits what A sees
    wins, losses = [], []
    for card in a_view["alive"]:
        seen = set()
        for wolves, fox in worlds:
            for cards in deals(duel, wolves, fox):
                seen |= endings(puzzle.state, cards, card)
        if seen == {"village"}:
            wins.append(card)
        if seen & {"wolves", "fox"}:
            losses.append(card)
    assert wins == [puzzle.answer]
    assert sorted(losses) == sorted(c for c in a_view["alive"] if c != puzzle.answer)


@pytest.mark.parametrize("day", DAYS, ids=str)
def test_each_of_30_generated_days_has_exactly_one_winning_execution(day: date) -> None:
    puzzle = Puzzle.from_json(puzzle_days.puzzle_of(day))
    check_unique(puzzle)
    # What the puzzle stores is what the generator's judgment says, and it round-trips.
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
    assert solve(puzzle.a_view()) == (puzzle.answer, puzzle.worlds, puzzle.verdicts)


def test_the_same_date_gives_the_same_puzzle() -> None:
    """The 30 days were generated in another process: a date seeds the same puzzle anywhere."""
    day = min(DAYS, key=lambda d: puzzle_days.puzzle_of(d)["tried"])  # the quickest to make
    assert generate(seed_of(day)).to_json() == puzzle_days.puzzle_of(day)
    assert len({json.dumps(puzzle_days.puzzle_of(d)["state"]) for d in DAYS}) == len(DAYS)


def test_the_puzzle_view_is_a_s_view() -> None:
    puzzle = Puzzle.from_json(puzzle_days.puzzle_of(DAYS[0]))
    assert puzzle.a_view() == view(Duel.from_json(puzzle.state), "A")
    assert "cards" not in puzzle.a_view() and "wolves" not in puzzle.a_view()


@pytest.mark.parametrize("rules_name", ["17A", "12B", "std9", "10A"])
def test_the_real_placement_is_always_possible(rules_name: str) -> None:
    """Soundness of the worlds: at every A's day of CPU games of every strength, the real
    werewolves and fox pass `possible` (a refused real placement would make a wrong answer)."""
    positions = 0
    for seed in range(12):
        rng = random.Random(seed)
        duel = Duel.setup(preset(rules_name), Draws(rng))
        rngs = {"A": random.Random(seed * 2 + 1), "B": random.Random(seed * 2 + 2)}
        strength = ("beginner", "normal", "strong")[seed % 3]
        while duel.phase != "end":
            side = duel.phase[0]
            if duel.phase == "A:day":
                positions += 1
                a_view = view(duel, "A")
                assert possible(a_view, frozenset(duel.wolves), duel.card_of("fox")), seed
            play(
                duel,
                side,
                choose(view(duel, side), legal_moves(duel, side), rngs[side], strength),
                rng,
            )
    assert positions > 50
