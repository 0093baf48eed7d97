"""The computer opponents: legal and deterministic, and blind to what their side cannot see.

Their strength is a benchmark (``make bench``, benchmarks/duel.py), never a timed test.
"""

import io
import json
import random
from contextlib import redirect_stdout

import pytest

from chalicelib.rules.duel import PRESETS, Draws, Duel, play, preset, view
from chalicelib.rules.duel.cpu import deceiver, deducer, random_player
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rules.duel.simulate import main, play_game

from .test_properties import _twin

MATCHUPS = [(deducer, deceiver), (deducer, random_player), (random_player, deceiver)]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_cpus_only_pick_legal_moves_and_every_game_ends(name: str) -> None:
    for seed in range(6):
        for a, b in MATCHUPS:
            ending = play_game(name, a, b, seed)  # play() refuses any illegal move
            assert ending["winner"] in ("village", "wolves", "fox")


@pytest.mark.parametrize("name", ["std9", "12A", "17A"])
def test_cpus_are_deterministic_given_the_seed(name: str) -> None:
    assert play_game(name, deducer, deceiver, 7) == play_game(name, deducer, deceiver, 7)

    def moves(seed: int) -> list[str]:
        rng = random.Random(seed)
        duel = Duel.setup(preset(name), Draws(rng))
        made = []
        while duel.phase != "end":
            side = duel.phase[0]
            cpu = deducer if side == "A" else deceiver
            move = cpu(view(duel, side), legal_moves(duel, side), random.Random(len(made)))
            made.append(json.dumps(move, sort_keys=True))
            play(duel, side, move, rng)
        return made

    assert moves(3) == moves(3)


@pytest.mark.parametrize("name", ["std9", "12B", "12A"])
def test_cpus_never_depend_on_what_their_side_cannot_see(name: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        duel = Duel.setup(preset(name), Draws(rng))
        while duel.phase != "end":
            side = duel.phase[0]
            cpu = deducer if side == "A" else deceiver
            twin = _twin(duel, side, random.Random(seed))
            move = cpu(view(duel, side), legal_moves(duel, side), random.Random(1))
            assert cpu(view(twin, side), legal_moves(twin, side), random.Random(1)) == move
            play(duel, side, move, rng)


def test_a_cpu_refuses_to_move_out_of_turn() -> None:
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)))
    with pytest.raises(ValueError):
        deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(0))


def test_simulator_prints_json_last() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--preset", "std9", "--games", "3"]) == 0
    report = json.loads(out.getvalue().splitlines()[-1])
    (std9,) = report["duel"]
    assert set(std9) >= {"cpu_vs_cpu", "cpu_vs_random", "random_vs_cpu", "cpu_move_ms"}
    assert std9["cpu_move_ms"]["p95"] >= 0
