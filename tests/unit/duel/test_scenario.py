"""The duel scenario runner's contract (RULES-DUEL §9), field by field, and its error line."""

import json
import subprocess
import sys
from typing import Any

import pytest

from chalicelib.rules.duel.scenario import run
from tests.support.duels import NO_CLAIMS, PASS, STD9, A, B, error, game

FIELDS = ["id", "rules", "board", "cards", "a_view", "b_view", "public", "review", "next", "ending"]


def test_s9_output_fields_in_order() -> None:
    out = game([])
    assert list(out) == FIELDS
    assert list(out["rules"]) == [
        "preset",
        "deck",
        "first_day",
        "black_seer_co",
        "consecutive_guard",
        "gidra",
        "pp",
        "missing",
    ]
    assert list(out["b_view"]) == ["wolves", "guesses"]
    assert list(out["review"]) == ["oracle", "fox_mode", "nights"]


@pytest.mark.parametrize("id_", [1, "x", None, {"a": [1]}])
def test_s9_id_is_echoed(id_: Any) -> None:
    assert run({"id": id_, "preset": "std9"})["id"] == id_
    assert run({"id": id_, "preset": "nope"})["id"] == id_


def test_s9_same_input_same_output_and_seed_defaults_to_0() -> None:
    scenario = {"id": 1, "preset": "12B", "moves": [{"by": "A", "do": "co", "roles": ["seer"]}]}
    assert run(scenario) == run(dict(scenario)) == run({**scenario, "seed": 0})
    outs = {json.dumps(run({**scenario, "seed": s})["cards"]) for s in range(10)}
    assert len(outs) > 1


def test_s9_exactly_one_of_preset_or_custom() -> None:
    assert error(preset="std9", custom={"deck": {"villager": 4, "werewolf": 1}})
    assert run({"id": 1})["error"]
    assert "配役" in run({"id": 1, "preset": "13Z"})["error"]


def test_s9_custom_keys_default_and_unknown_keys_are_errors() -> None:
    out = game(custom={"deck": {"villager": 4, "werewolf": 1, "seer": 0}})
    assert out["rules"]["deck"] == {"villager": 4, "werewolf": 1}  # no zero counts
    assert out["rules"]["preset"] is None
    assert out["board"] == 5
    assert "pp_on" in error(custom={"deck": {"villager": 4, "werewolf": 1}, "pp_on": True})


def test_s9_unknown_top_level_keys_are_ignored() -> None:
    assert "error" not in run({"id": 1, "preset": "std9", "comment": "hi"})


def test_s9_wolves_list_random_or_read_from_cards() -> None:
    assert game([], preset="std9", cards=None, wolves=[1, 9])["b_view"]["wolves"] == [1, 9]
    assert game([], preset="std9", cards=None, wolves="random")["b_view"]["wolves"]
    assert game([])["b_view"]["wolves"] == [4, 5]
    assert game([], wolves=[4, 5])["cards"] == STD9
    assert "一致" in error(cards=STD9, wolves=[1, 2])
    assert error(preset="std9", wolves=[1])
    assert error(preset="std9", wolves=[1, 1])
    assert error(preset="std9", wolves=[0, 1])
    assert error(preset="std9", wolves="some")


def test_s9_cards_must_match_the_deck() -> None:
    assert error(cards=["villager", *STD9[1:]])  # index 0 without missing
    assert error(cards=STD9[:-1])
    assert error(cards=[*STD9[:-1], "fox"])
    assert error(preset="10A", cards=[None, *STD9[1:]])
    assert error(
        preset="10A",
        cards=[
            "werewolf",
            "villager",
            *STD9[1:4],
            "werewolf",
            "madman",
            "villager",
            "villager",
            "villager",
        ],
    )


def test_s9_cards_index_0_is_the_first_victim_or_null() -> None:
    assert game([])["cards"][0] is None
    out = game([], preset="10A", cards=None, seed=3)
    assert out["cards"][0] is not None and len(out["cards"]) == 10


def test_s9_draws_pins_are_consumed_in_order_and_single_outcomes_consume_nothing() -> None:
    moves = [
        A("execute", card=7),
        PASS,
        A("night", latent_divine=[1, 8]),
        B("night", attack=9),
        A("execute", card=6),
        PASS,
        A("night"),
        B("night", attack=2),
    ]
    out = game(moves, draws={"seer": [3], "guard": [1, 1]})
    assert [n["seer"] for n in out["review"]["nights"]] == [8, 3]
    assert [n["guard"] for n in out["review"]["nights"]] == [1, 1]


def test_s9_exhausted_pins_fall_back_to_the_seed() -> None:
    moves = [A("execute", card=7), PASS, A("night"), B("night", attack=9)]
    out = game(moves, draws={"guard": []})
    assert out == game(moves)


def test_s9_pins_outside_the_support_and_unknown_kinds_are_errors() -> None:
    assert error(draws={"oracle": [4]})  # a werewolf in a white game
    assert error(draws={"oracle": [1]})  # the seer itself
    assert error(preset="12B", draws={"fox_mode": ["hunter"]})
    assert error(draws={"weather": ["rain"]})
    assert error(draws={"seer": 3})


def test_s9_rpp_pin_values() -> None:
    moves = [
        A("execute", card=7),
        PASS,
        A("night"),
        B("night", attack=8),
        A("execute", card=9),
        PASS,
        A("night"),
        B("night", attack=2),
        A("execute", card=4),
        B("pp", guess=6, target=1),
    ]
    assert "rpp" in error(moves, draws={"guard": [1, 2], "rpp": ["C"]})


@pytest.mark.parametrize(
    "moves, nxt",
    [
        ([], "A:day"),
        ([A("co", roles=["seer"])], "B:answer"),
        ([A("execute", card=7)], "B:pp"),
        ([A("execute", card=7), PASS], "A:night"),
        ([A("execute", card=7), PASS, A("night")], "B:night"),
        ([A("execute", card=7), PASS, A("night"), B("night", attack=9)], "A:day"),
    ],
)
def test_s9_next_and_moves_running_out_leave_the_game_where_it_is(
    moves: list[Any], nxt: str
) -> None:
    assert game(moves)["next"] == nxt


def test_s9_ending_and_next_null_once_ended() -> None:
    moves = [
        A("execute", card=4),
        PASS,
        A("night"),
        B("night", attack=9),
        A("execute", card=5),
        PASS,
    ]
    out = game(moves)
    assert out["next"] is None
    assert out["ending"] == {"winner": "village", "day": 2, "at": "execution"}


@pytest.mark.parametrize(
    "moves",
    [
        [B("answer", claims=[])],  # wrong turn
        [A("execute", card=7), A("execute", card=8)],  # wrong turn
        [{"do": "execute", "card": 7}],  # no `by`
        [{"by": "C", "do": "execute", "card": 7}],
        [A("execute", card=7, note="x")],  # extra key
        [A("execute", card=10)],  # illegal card
        [A("execute", card=0)],
        [A("execute", card="7")],
        [A("execute")],
        [A("co", roles=[])],  # empty list
        [A("co", roles=["seer"], cards=[])],
        [A("named", cards=[])],
        [A("dance")],
        [A("co", roles=["seer"]), B("answer", claims=[], land=[])],
        [A("execute", card=7), PASS, A("night", divine=[{"card": 1, "to": [2]}])],  # extra entry
        [A("execute", card=7), PASS, A("night", latent_divine=[])],  # empty candidates
        [A("execute", card=7), PASS, A("night", latent_guard={"to": [2], "weights": [0]})],
        [A("execute", card=7), PASS, A("night"), B("night", attack=4)],  # a werewolf
        [A("execute", card=7), PASS, A("night"), B("night")],  # no attack
        "not a list",
        ["not a move"],
    ],
)
def test_s9_invalid_moves_make_the_error_line(moves: Any) -> None:
    message = error(moves)
    assert isinstance(message, str) and message


def test_s9_public_events_in_order_with_cards_ascending() -> None:
    out = game(
        [
            A("co", roles=["seer"], cards=[9, 1, 4]),
            B(
                "answer",
                claims=[{"card": 4, "role": "seer", "oracle": {"target": 2, "result": "human"}}],
            ),
            A("named", cards=[8, 2]),
            NO_CLAIMS,
            A("execute", card=7),
            PASS,
            A("night", divine=[{"card": 4, "to": [9, 3]}, {"card": 1, "to": [9, 8]}]),
            B("night", attack=9, divine=[{"card": 4, "target": 3, "result": "wolf"}]),
        ]
    )
    assert [e["type"] for e in out["public"]] == ["co", "named", "execution", "orders", "morning"]
    assert out["public"][0]["request"]["cards"] == [1, 4, 9]
    assert [c["card"] for c in out["public"][0]["claims"]] == [1, 4]
    assert out["public"][1]["cards"] == [2, 8]
    orders = out["public"][3]
    assert [d["card"] for d in orders["divine"]] == [1, 4]
    assert orders["divine"][1]["to"] == [9, 3]  # A's input order
    assert [d["card"] for d in out["public"][4]["divine"]] == [1, 4]


def test_s9_review_nights_null_for_a_dead_or_missing_seer_and_hunter() -> None:
    out = game(
        [
            A("execute", card=1),
            PASS,
            A("night"),
            B("night", attack=3),
            A("execute", card=9),
            PASS,
            A("night"),
            B("night", attack=2),
        ]
    )
    first, second = out["review"]["nights"]
    assert first["seer"] is None and first["guard"] is not None
    assert second["seer"] is None and second["guard"] is None
    assert list(first) == ["night", "seer", "guard", "fizzled", "attack", "gj"]


def test_s9_command_line_answers_each_line_and_skips_blank_lines() -> None:
    lines = [{"id": 1, "preset": "std9"}, {"id": 2, "preset": "bad"}]
    text = json.dumps(lines[0]) + "\n\n" + json.dumps(lines[1]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "chalicelib.scenario", "--rules", "duel"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in outs] == [1, 2]
    assert list(outs[0]) == FIELDS
    assert set(outs[1]) == {"id", "error"}
