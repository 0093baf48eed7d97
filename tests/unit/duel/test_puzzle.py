"""今日の盤面パズル: generated days are mid-game positions where exactly one execution wins
for A with best play (decisions 76, 85–87), checked here independently of the generator's
search, and a date always gives the same puzzle.

The check shares only the rules' test of a placement (`puzzle.possible`, checked sound on its
own below: the real placement always passes it) and the engine (its execution and §7). It
enumerates every placement itself, deals each world in full, and
- plays the stored line of the answer in every world against every night the rules allow
  (and more: nobody dies, any living human dies, a living fox is cursed beside), world by world
  with no grouping of worlds: the line, which reads only the deaths A sees, must reach a village
  win in each, and answer every night it meets;
- for each other card plays its execution in the real deal (a world surely possible): it ends
  the game for the werewolves or the fox at once, or B's attack on the real hunter (who never
  guards itself; on another human once the hunter is dead) brings parity the next morning.
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
from chalicelib.rules.duel.puzzle import (
    DECKS,
    LIVING,
    Puzzle,
    World,
    generate,
    possible,
    refutation,
    solve,
    truth,
    winning_line,
)
from chalicelib.rules.duel.views import view
from chalicelib.services.puzzles import seed_of
from tests.support import puzzle_days

DAYS = [date(2026, 12, 1) + timedelta(days=n) for n in range(30)]
LOSSES = ("wolves", "fox")


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


def deal(duel: Duel, wolves: frozenset[int], fox: int | None) -> list[str | None]:
    """A full deal of a world for §7: A's masons where A sees them, the rest humans (which
    human holds which ability does not change who wins)."""
    masons = set(duel.masons)
    cards: list[str | None] = [
        "werewolf" if c in wolves else "fox" if c == fox else "mason" if c in masons else "villager"
        for c in range(duel.board + 1)
    ]
    cards[0] = "villager" if duel.rules.missing else None
    return cards


def nights(duel: Duel) -> list[list[int]]:
    """Every death list a night can show here, and more (the module's docstring)."""
    living = duel.living()
    humans = [c for c in living if duel.cards[c] not in ("werewolf", "fox")]
    kills: list[list[int]] = [[], *([h] for h in humans)]
    fox = duel.living_card_of("fox")
    return kills + ([sorted([*kill, fox]) for kill in kills] if fox is not None else [])


def line_endings(duel: Duel, line: dict, day: int) -> set[str]:
    """Every end the line reaches in this deal; "unanswered" when it meets a night it has no
    next execution for, "none" when it runs out with the game going."""
    if day > 0:  # after the first (played through the engine), an execution is a death and §7
        duel.alive.discard(line["execute"])
    winner = duel.winner()
    if winner is not None:
        return {winner}
    out: set[str] = set()
    for dead in nights(duel):
        after = Duel.from_json(duel.to_json())
        after.alive -= set(dead)
        winner = after.winner()
        then = next((n["then"] for n in line["nights"] if n["dead"] == dead), None)
        if winner is not None:
            out.add(winner)
        elif then is None:
            out.add("unanswered" if line["nights"] else "none")
        else:
            out |= line_endings(after, then, day + 1)
    return out


def loses_by_the_next_morning(duel: Duel, card: int) -> bool:
    """Executing ``card`` in the real deal ends the game for B's side at once, or B's attack on
    the real hunter (else on the first living human) ends it at the next morning."""
    play(duel, "A", {"do": "execute", "card": card}, Draws(random.Random(0)))
    if duel.phase == "end":
        return duel.ending is not None and duel.ending["winner"] in LOSSES
    humans = [c for c in duel.living() if duel.cards[c] not in ("werewolf", "fox")]
    hunter = duel.living_card_of("hunter")
    duel.alive.discard(hunter if hunter is not None else humans[0])
    return duel.winner() in LOSSES


def check_unique(puzzle: Puzzle) -> None:
    a_view = puzzle.a_view()
    real = Duel.from_json(puzzle.state)
    assert real.phase == "A:day" and len(a_view["alive"]) > LIVING  # mid-game
    worlds = brute_force_worlds(a_view)
    assert (frozenset(real.wolves), real.card_of("fox")) in worlds  # the real deal fits
    assert puzzle.line["execute"] == puzzle.answer and puzzle.line["nights"]
    for wolves, fox in worlds:
        duel = Duel.from_json(puzzle.state)
        duel.cards = deal(duel, wolves, fox)
        play(duel, "A", {"do": "execute", "card": puzzle.answer}, Draws(random.Random(0)))
        assert duel.phase != "end", (wolves, fox)  # at least one more day to play, every world
        assert line_endings(duel, puzzle.line, 0) == {"village"}, (wolves, fox)
    for card in a_view["alive"]:
        if card != puzzle.answer:
            assert loses_by_the_next_morning(Duel.from_json(puzzle.state), card), card


@pytest.mark.parametrize("day", DAYS, ids=str)
def test_each_of_30_generated_days_has_exactly_one_winning_execution(day: date) -> None:
    puzzle = Puzzle.from_json(puzzle_days.puzzle_of(day))
    check_unique(puzzle)
    # What the puzzle stores is what the generator's judgment says, and it round-trips.
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
    real = truth(Duel.from_json(puzzle.state))
    assert solve(puzzle.a_view(), real) == (
        puzzle.answer,
        puzzle.worlds,
        puzzle.verdicts,
        puzzle.line,
    )


def test_the_same_date_gives_the_same_puzzle() -> None:
    """The 30 days were generated in another process: a date seeds the same puzzle anywhere."""
    day = min(DAYS, key=lambda d: puzzle_days.puzzle_of(d)["tried"])  # the quickest to make
    assert generate(seed_of(day)).to_json() == puzzle_days.puzzle_of(day)
    assert len({json.dumps(puzzle_days.puzzle_of(d)["state"]) for d in DAYS}) == len(DAYS)


def test_the_puzzle_view_is_a_s_view() -> None:
    puzzle = Puzzle.from_json(puzzle_days.puzzle_of(DAYS[0]))
    assert puzzle.a_view() == view(Duel.from_json(puzzle.state), "A")
    assert "cards" not in puzzle.a_view() and "wolves" not in puzzle.a_view()


@pytest.mark.parametrize("rules_name", ["17A", "12B", "std9", "10A", *DECKS])
def test_the_real_placement_is_always_possible(rules_name: str) -> None:
    """Soundness of the worlds: at every A's day of CPU games of every strength, the real
    werewolves and fox pass `possible` (a refused real placement would make a wrong answer)."""
    positions = 0
    for seed in range(12):
        rng = random.Random(seed)
        duel = Duel.setup(DECKS.get(rules_name) or preset(rules_name), Draws(rng))
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


def test_the_check_refuses_another_answer_and_a_line_that_stops_short() -> None:
    """The independent check is not vacuous: every other card as the answer, or the line cut
    after its first execution, fails it."""
    puzzle = Puzzle.from_json(puzzle_days.puzzle_of(DAYS[0]))
    for card in puzzle.a_view()["alive"]:
        if card != puzzle.answer:
            wrong = Puzzle.from_json({**puzzle.to_json(), "answer": card})
            with pytest.raises(AssertionError):
                check_unique(wrong)
    cut = {**puzzle.line, "nights": [{**puzzle.line["nights"][0], "then": None}]}
    with pytest.raises(AssertionError):
        check_unique(Puzzle.from_json({**puzzle.to_json(), "line": cut}))


# ----- the search on small hand-made positions (decision 85) -----


def worlds_of(*placements: tuple[tuple[int, ...], int | None]) -> tuple[World, ...]:
    return tuple(World(wolves, fox) for wolves, fox in placements)


def test_the_fox_first_then_the_last_werewolf_is_the_only_win_when_a_knows_both() -> None:
    seen = {"alive": [1, 2, 3, 4, 5]}  # werewolf #1, fox #2, three humans
    worlds = worlds_of(((1,), 2))
    line = winning_line(seen, worlds, 2)
    assert line is not None and line["execute"] == 2
    assert all(night["then"]["execute"] == 1 for night in line["nights"])
    assert winning_line(seen, worlds, 1) is None  # the fox is left alone: it wins
    assert winning_line(seen, worlds, 3) is None  # the next morning brings parity
    assert refutation(seen, worlds, 1) is not None and refutation(seen, worlds, 3) is not None
    assert refutation(seen, worlds, 2) is None


def test_a_werewolf_a_cannot_tell_apart_after_the_night_is_no_win() -> None:
    seen = {"alive": [1, 2, 3, 4, 5]}  # the fox #2, the werewolf #1 or #3
    assert winning_line(seen, worlds_of(((1,), 2), ((3,), 2)), 2) is None


def test_what_the_game_going_on_tells_a_is_used() -> None:
    """One werewolf, #1 or #2, five cards alive: executing #1 wins at once or tells A it was
    #2 (the game went on), with a card to spare for the night."""
    line = winning_line({"alive": [1, 2, 3, 4, 5]}, worlds_of(((1,), None), ((2,), None)), 1)
    assert line is not None
    assert {night["then"]["execute"] for night in line["nights"]} == {2}
