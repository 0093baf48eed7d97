"""One test per entry of docs/decisions-duel.md (readings where RULES-DUEL is silent)."""

import random

from chalicelib.rules.duel import Draws, Duel, play, preset, view
from tests.support.duels import NO_CLAIMS, PASS, A, B, error, events, game

NINE = {
    "deck": {"villager": 5, "werewolf": 1, "seer": 1, "medium": 1, "hunter": 1},
    "consecutive_guard": False,
}
NINE_CARDS = [None, "seer", "medium", "hunter", "werewolf", *["villager"] * 5]


def test_d1_a_whole_request_prints_cards_null() -> None:
    out = game([A("co", roles=["medium"]), NO_CLAIMS])
    assert events(out, "co")[0]["request"]["cards"] is None


def test_d2_the_black_seer_request_is_not_a_whole_seer_request() -> None:
    moves = [A("black_seer_co"), NO_CLAIMS, A("execute", card=8), A("night", latent_divine=[9])]
    game(moves, preset="12B", draws={"oracle": [9], "fox_mode": ["latent"]})


def test_d3_a_guard_order_may_not_name_the_claimer_itself() -> None:
    moves = [A("co", roles=["hunter"]), NO_CLAIMS, A("execute", card=7), PASS]
    assert "自分自身" in error([*moves, A("night", guard=[{"card": 3, "to": [3, 1]}])])


def test_d4_last_nights_target_is_the_drawn_one_even_when_it_fizzled() -> None:
    moves = [
        A("execute", card=5),
        A("night", latent_guard={"to": [7]}),
        B("night", attack=6),
        A("execute", card=8),
        A("night", latent_guard={"to": [7]}),
        B("night", attack=1),
        A("execute", card=9),
        A("night", latent_guard={"to": [7]}),
        B("night", attack=2),
    ]
    out = game(moves, custom=NINE, cards=NINE_CARDS)
    assert [(n["guard"], n["fizzled"]) for n in out["review"]["nights"]] == [
        (7, False),
        (7, True),
        (7, True),
    ]


def test_d5_latent_seer_candidates_naming_only_itself_fall_back_to_unguided() -> None:
    for seed in range(30):
        out = game(
            [A("execute", card=7), PASS, A("night", latent_divine=[1]), B("night", attack=9)],
            seed=seed,
        )
        target = out["review"]["nights"][0]["seer"]
        assert target not in (1, 7, out["review"]["oracle"]["target"])


def test_d6_a_gidra_claiming_hunter_follows_its_order() -> None:
    moves = [
        A("co", roles=["gidra"]),
        NO_CLAIMS,
        A("execute", card=9),
        A("night", guard=[{"card": 3, "to": [1, 2], "weights": [1, 9]}, {"card": 8, "to": [1]}]),
        B("night", attack=10),
    ]
    out = game(moves, preset="12A", draws={"guard": [2]})
    assert out["review"]["nights"][0]["guard"] == 2
    assert "引けるカード" in error(moves, preset="12A", cards=out["cards"], draws={"guard": [5]})


def test_d7_an_ending_at_the_morning_is_dated_by_that_morning() -> None:
    spec = {"deck": {"villager": 4, "werewolf": 1, "seer": 1}}
    cards = [None, "seer", "werewolf", "villager", "villager", "villager", "villager"]
    moves = [
        A("execute", card=3),
        A("night"),
        B("night", attack=4),
        A("execute", card=5),
        A("night"),
        B("night", attack=6),
    ]
    out = game(moves, custom=spec, cards=cards)
    assert out["ending"]["day"] == events(out, "morning")[-1]["day"] == 3


def test_d8_answers_may_leave_out_an_empty_claims_or_land_list() -> None:
    out = game([A("co", roles=["seer"]), B("answer")])
    assert out["next"] == "A:day"
    out = game([A("co", roles=["gidra"]), B("answer"), A("release"), B("answer")], preset="12A")
    assert [c["role"] for c in events(out, "release")[0]["lands"]] == ["hunter", "cat"]


def test_d9_a_named_werewolf_may_answer_any_claimable_role_with_the_gidra_tick() -> None:
    moves = [A("named", cards=[4], gidra=True), B("answer", claims=[{"card": 4, "role": "cat"}])]
    assert events(game(moves, preset="12A"), "named")[0]["answers"] == [{"card": 4, "role": "cat"}]


def test_d10_unused_pins_are_ignored() -> None:
    game([], draws={"fox_mode": ["seer"], "cat": [3], "rpp": ["A"]})


def test_d11_the_pp_target_may_be_any_living_non_werewolf_even_the_madman() -> None:
    moves = [
        A("execute", card=1),
        PASS,
        A("night"),
        B("night", attack=2),
        A("execute", card=3),
        PASS,
        A("night"),
        B("night", attack=9),
        A("execute", card=4),
        B("pp", guess=6, target=6),
    ]
    out = game(moves)
    assert events(out, "execution")[-1]["card"] == 6


def test_d12_a_madman_instruction_when_the_madman_is_dead_or_missing_spends_the_use() -> None:
    madman = {"card": "madman", "role": "medium", "results": ["human"]}
    moves = [A("execute", card=6), PASS, A("night"), B("night", attack=9)]
    out = game([*moves, A("co", roles=["medium"]), B("answer", claims=[madman])])
    assert [c["card"] for c in events(out, "co")[0]["claims"]] == [2]
    assert "1回だけ" in error(
        [
            *moves,
            A("co", roles=["medium"]),
            B("answer", claims=[madman]),
            A("named", cards=[7]),
            B("answer", claims=[madman]),
        ]
    )


def test_d13_a_landed_hunter_gets_guard_orders_and_gj_reports_a_landed_cat_none() -> None:
    moves = [
        A("co", roles=["gidra"]),
        NO_CLAIMS,
        A("release"),
        B("answer", land=[]),
        A("execute", card=9),
        A("night", guard=[{"card": 3, "to": [1]}]),
        B("night", attack=1),
    ]
    out = game(moves, preset="12A")
    assert events(out, "morning")[0]["guard"] == [{"card": 3, "target": 1}]
    assert error(
        [*moves[:-2], A("night", guard=[{"card": 3, "to": [1]}, {"card": 8, "to": [2]}])],
        preset="12A",
        cards=out["cards"],
    )


def test_d14_setup_without_pins_is_reproducible_from_the_seed() -> None:
    a = game([], preset="17A", cards=None, seed=11)
    b = game([], preset="17A", cards=None, seed=11)
    assert a == b


def test_d15_b_sees_its_own_attacks_a_never_does() -> None:
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)), cards=game([])["cards"])
    rng = random.Random(0)
    for by, move in (
        ("A", {"do": "execute", "card": 7}),
        ("B", {"do": "pp", "guess": None}),
        ("A", {"do": "night"}),
        ("B", {"do": "night", "attack": 9}),
    ):
        play(duel, by, move, rng)
    assert view(duel, "B")["attacks"] == [{"night": 1, "target": 9}]
    assert "attacks" not in view(duel, "A")


def test_d16_results_speak_human_and_wolf_the_first_day_switch_white_and_black() -> None:
    out = game([], preset="12B", cards=None, seed=3)
    assert out["rules"]["first_day"] == "black"
    assert out["review"]["oracle"]["result"] in ("human", "wolf")
    medium = B("answer", claims=[{"card": "madman", "role": "medium"}])
    night = B("night", attack=9, madman={"divine": "white"})
    moves = [A("co", roles=["medium"]), medium, A("execute", card=7), PASS, A("night"), night]
    assert "human(白)か wolf(黒)" in error(moves)


def test_d17_whether_the_madman_is_spent_is_b_s_secret() -> None:
    # An instruction with no effect spends the madman (decision 12): A must not learn it.
    madman = {"card": "madman", "role": "medium", "results": []}
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)), cards=game([])["cards"])
    rng = random.Random(0)
    play(duel, "A", {"do": "co", "roles": ["seer"], "cards": [1]}, rng)
    play(duel, "B", {"do": "answer", "claims": []}, rng)
    before = view(duel, "A")
    play(duel, "A", {"do": "co", "roles": ["medium"], "cards": [7]}, rng)
    play(duel, "B", {"do": "answer", "claims": [madman]}, rng)  # 6 is out of range: no effect
    assert duel.madman_used and view(duel, "B")["madman_used"]
    assert "madman_used" not in view(duel, "A") and "madman_used" not in before
