"""Clause tests of RULES-DUEL §5 (claims and late reports), §6 (the night), §7 (victory)
and §8 (who sees what). Games are dealt by hand and chance is pinned (§9 ``draws``)."""

import random
from collections import Counter
from typing import Any

import pytest

from chalicelib.rules.duel import Draws, Duel, custom, play, preset, view
from chalicelib.rules.duel.views import hindsight
from tests.support.duels import A17, NO_CLAIMS, PASS, A, B, error, events, game

SEVEN = {  # a small custom deck without consecutive guard
    "deck": {"villager": 3, "werewolf": 1, "seer": 1, "medium": 1, "hunter": 1},
    "consecutive_guard": False,
}
SEVEN_CARDS = [None, "seer", "medium", "hunter", "werewolf", "villager", "villager", "villager"]


def seer_fake(card: int, nights: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    claim: dict[str, Any] = {
        "card": card,
        "role": "seer",
        "oracle": {"target": 9, "result": "human"},
    }
    if nights is not None:
        claim["nights"] = nights
    return {**claim, **kw}


# Day 1 of std9: 7 executed; night 1: the latent seer divines 8, 9 is attacked, guard on 2.
DAY_2 = [
    A("execute", card=7),
    PASS,
    A("night", latent_divine=[8]),
    B("night", attack=9),
]
DAY_2_DRAWS = {"oracle": [6], "guard": [2]}

# ----- §5 claims and reports -----


def test_s5_a_late_seer_reports_every_night_it_divined() -> None:
    out = game(
        [
            *DAY_2,
            A("co", roles=["seer"]),
            B("answer", claims=[seer_fake(4, [{"target": 1, "result": "wolf"}])]),
        ],
        draws=DAY_2_DRAWS,
    )
    assert events(out, "co")[0]["claims"] == [
        {
            "card": 1,
            "role": "seer",
            "oracle": {"target": 6, "result": "human"},
            "nights": [{"night": 1, "target": 8, "result": "human"}],
        },
        {
            "card": 4,
            "role": "seer",
            "oracle": {"target": 9, "result": "human"},
            "nights": [{"night": 1, "target": 1, "result": "wolf"}],
        },
    ]


@pytest.mark.parametrize(
    "nights, words",
    [
        ([], "1件必要"),
        ([{"target": 7, "result": "human"}], "生きていた"),  # 7 was executed on day 1
        ([{"target": 4, "result": "human"}], "自分以外"),
        ([{"target": 8, "result": "grey"}], "human(白)か wolf(黒)"),
        ([{"target": 8, "result": "human", "why": "x"}], "target, result"),
    ],
)
def test_s5_werewolf_reports_are_checked(nights: list[dict[str, Any]], words: str) -> None:
    moves = [*DAY_2, A("co", roles=["seer"]), B("answer", claims=[seer_fake(4, nights)])]
    assert words in error(moves, draws=DAY_2_DRAWS)


def test_s5_first_day_results_are_white_in_white_games() -> None:
    black = seer_fake(4, oracle={"target": 9, "result": "wolf"})
    assert "初日白" in error([A("co", roles=["seer"]), B("answer", claims=[black])])
    madman = {"card": "madman", "role": "seer", "oracle": "wolf"}
    assert "初日白" in error([A("co", roles=["seer"]), B("answer", claims=[madman])])


def test_s5_late_medium_and_hunter_report_every_execution_and_night() -> None:
    medium = {"card": 4, "role": "medium", "results": ["wolf"]}
    out = game(
        [*DAY_2, A("co", roles=["medium", "hunter"]), B("answer", claims=[medium])],
        draws=DAY_2_DRAWS,
    )
    assert events(out, "co")[0]["claims"] == [
        {"card": 2, "role": "medium", "results": [{"day": 1, "target": 7, "result": "human"}]},
        {"card": 3, "role": "hunter", "guards": [{"night": 1, "target": 2}]},
        {"card": 4, "role": "medium", "results": [{"day": 1, "target": 7, "result": "wolf"}]},
    ]


def test_s5_madman_targets_are_drawn_and_constrained() -> None:
    madman = {"card": "madman", "role": "seer", "oracle": "human", "nights": ["wolf"]}
    # Night-1 target drawn = 9, the card attacked that night: white despite B's black.
    out = game(
        [*DAY_2, A("co", roles=["seer"], cards=[6]), B("answer", claims=[madman])],
        draws={**DAY_2_DRAWS, "madman": [5, 9]},
    )
    assert events(out, "co")[0]["claims"] == [
        {
            "card": 6,
            "role": "seer",
            "oracle": {"target": 5, "result": "human"},
            "nights": [{"night": 1, "target": 9, "result": "human"}],
        }
    ]
    # A free target takes B's color.
    out = game(
        [*DAY_2, A("co", roles=["seer"], cards=[6]), B("answer", claims=[madman])],
        draws={**DAY_2_DRAWS, "madman": [5, 4]},
    )
    assert events(out, "co")[0]["claims"][0]["nights"] == [
        {"night": 1, "target": 4, "result": "wolf"}
    ]


def test_s5_madman_gives_a_card_it_divined_the_same_color_again() -> None:
    moves = [
        A("co", roles=["seer"], cards=[6]),
        B("answer", claims=[{"card": "madman", "role": "seer", "oracle": "human"}]),
        A("execute", card=9),
        PASS,
        A("night", divine=[{"card": 6, "to": [7]}]),
        B("night", attack=8, madman={"divine": "wolf"}),
    ]
    out = game(moves, draws={"madman": [7], "guard": [2]})
    assert events(out, "morning")[0]["divine"] == [{"card": 6, "target": 7, "result": "human"}]


def test_s5_madman_and_fox_results_on_a_mason_are_white() -> None:
    madman = {"card": "madman", "role": "seer", "oracle": "wolf"}
    out = game(
        [A("co", roles=["seer"], cards=[7]), B("answer", claims=[madman])],
        preset="17A",
        draws={"madman": [8]},
    )
    assert events(out, "co")[0]["claims"] == [
        {"card": 7, "role": "seer", "oracle": {"target": 8, "result": "human"}, "nights": []}
    ]
    out = game(
        [A("co", roles=["seer"]), NO_CLAIMS], preset="17A", draws={"fox_mode": ["seer"], "fox": [9]}
    )
    assert {
        "card": 10,
        "role": "seer",
        "oracle": {"target": 9, "result": "human"},
        "nights": [],
    } in (events(out, "co")[0]["claims"])


def test_s5_fox_free_colors_are_black_with_p() -> None:
    blacks = 0
    for seed in range(600):
        out = game(
            [A("co", roles=["seer"]), NO_CLAIMS],
            preset="12B",
            seed=seed,
            draws={"fox_mode": ["seer"]},
        )
        fox = next(c for c in events(out, "co")[0]["claims"] if c["card"] == 7)
        blacks += fox["oracle"]["result"] == "wolf"
    assert 0.15 < blacks / 600 < 0.30  # p = W/(M−2) = 2/9


def test_s5_fox_pins_must_be_in_support() -> None:
    assert "引けるカード" in error(
        [A("co", roles=["seer"]), NO_CLAIMS],
        preset="12B",
        cards=game([], preset="12B")["cards"],
        draws={"fox_mode": ["seer"], "fox": [7]},
    )


# ----- §6.1 orders -----


def test_s6_1_every_living_claimer_gets_one_order() -> None:
    moves = [A("co", roles=["seer"]), NO_CLAIMS, A("execute", card=7), PASS]
    assert "占い指示がありません" in error([*moves, A("night")])
    extra = [{"card": 1, "to": [8]}, {"card": 8, "to": [9]}]
    assert "対象ではありません" in error([*moves, A("night", divine=extra)])
    assert "1枚以上" in error([*moves, A("night", divine=[{"card": 1, "to": []}])])
    assert "自分自身" in error([*moves, A("night", divine=[{"card": 1, "to": [1]}])])
    assert "死んでいます" in error([*moves, A("night", divine=[{"card": 1, "to": [7]}])])


def test_s6_1_orders_are_public_with_weights_filled() -> None:
    moves = [
        A("co", roles=["hunter"]),
        NO_CLAIMS,
        A("execute", card=7),
        PASS,
        A("night", guard=[{"card": 3, "to": [2, 1]}], latent_divine=[8, 6]),
    ]
    out = game(moves)
    assert events(out, "orders") == [
        {
            "type": "orders",
            "day": 1,
            "divine": [],
            "guard": [{"card": 3, "to": [2, 1], "weights": [1, 1]}],
            "latent_divine": [8, 6],
            "latent_guard": None,
            "gj_co": None,
        }
    ]
    assert out["next"] == "B:night"


def test_s6_1_latent_orders_only_until_a_whole_request() -> None:
    day = [A("execute", card=7), PASS]
    game([A("co", roles=["seer"], cards=[2, 3]), NO_CLAIMS, *day, A("night", latent_divine=[8])])
    assert error(
        [A("co", roles=["seer"], cards=[1]), NO_CLAIMS, *day, A("night", latent_divine=[8])]
    )
    hunter = [A("co", roles=["hunter"]), NO_CLAIMS, *day]
    assert error([*hunter, A("night", guard=[{"card": 3, "to": [1]}], latent_guard={"to": [1]})])
    assert error([*hunter, A("night", guard=[{"card": 3, "to": [1]}], gj_co={"card": 1})])


def test_s6_1_same_from_night_2_with_consecutive_guard_only() -> None:
    assert "2晩目" in error([A("execute", card=7), PASS, A("night", latent_guard="same")])
    moves = [A("execute", card=5), A("night", latent_guard="same")]
    assert "連続護衛" in error(moves, custom=SEVEN, cards=SEVEN_CARDS)


def test_s6_1_gj_co_names_extra_roles_only() -> None:
    day = [A("execute", card=7), PASS]
    assert error([*day, A("night", gj_co={"card": 1, "roles": ["hunter"]})])
    assert error([*day, A("night", gj_co={"card": 1, "roles": ["seer", "seer"]})])
    out = game([*day, A("night", gj_co={"card": 1, "roles": ["medium", "seer"]})])
    assert events(out, "orders")[0]["gj_co"] == {"card": 1, "roles": ["seer", "medium", "hunter"]}
    out = game([A("execute", card=9), A("night", gj_co={"card": 1})], preset="12A")
    assert events(out, "orders")[0]["gj_co"] == {"card": 1, "roles": ["gidra"]}


def test_s6_1_without_consecutive_guard_a_known_last_target_is_refused() -> None:
    moves = [
        A("co", roles=["hunter"]),
        NO_CLAIMS,
        A("execute", card=5),
        A("night", guard=[{"card": 3, "to": [1]}]),
        B("night", attack=6),
        A("execute", card=7),
    ]
    assert "昨夜と同じ" in error(
        [*moves, A("night", guard=[{"card": 3, "to": [1, 2]}])], custom=SEVEN, cards=SEVEN_CARDS
    )
    game([*moves, A("night", guard=[{"card": 3, "to": [2]}])], custom=SEVEN, cards=SEVEN_CARDS)


# ----- §6.2 the real seer's and hunter's draws -----


def test_s6_2_latent_seer_divines_among_candidates_other_than_itself() -> None:
    out = game([A("execute", card=7), PASS, A("night", latent_divine=[1, 8]), B("night", attack=9)])
    assert out["review"]["nights"][0]["seer"] == 8


def test_s6_2_unguided_seer_avoids_cards_it_already_divined() -> None:
    for seed in range(60):
        out = game([A("execute", card=7), PASS, A("night"), B("night", attack=9)], seed=seed)
        target = out["review"]["nights"][0]["seer"]
        assert target not in (1, 7, out["review"]["oracle"]["target"])


def test_s6_2_claimed_seer_draws_among_its_candidates() -> None:
    moves = [A("co", roles=["seer"]), NO_CLAIMS, A("execute", card=7), PASS]
    night = [A("night", divine=[{"card": 1, "to": [8, 9]}]), B("night", attack=2)]
    assert game([*moves, *night], draws={"seer": [9]})["review"]["nights"][0]["seer"] == 9
    assert "引けるカード" in error([*moves, *night], draws={"seer": [6]})


def _first_guard(moves: list[dict[str, Any]], **kw: Any) -> int:
    return int(game(moves, **kw)["review"]["nights"][0]["guard"])


def test_s6_2_auto_guard_1_the_single_seer_claimer() -> None:
    moves = [A("co", roles=["seer"]), NO_CLAIMS, A("execute", card=7), PASS]
    assert (
        _first_guard([*moves, A("night", divine=[{"card": 1, "to": [8]}]), B("night", attack=9)])
        == 1
    )


def test_s6_2_auto_guard_2_the_single_medium_claimer() -> None:
    fake = seer_fake(4)
    moves = [
        A("co", roles=["seer", "medium"]),
        B("answer", claims=[fake]),
        A("execute", card=7),
        PASS,
    ]
    night = A("night", divine=[{"card": 1, "to": [8]}, {"card": 4, "to": [8]}])
    b_night = B("night", attack=9, divine=[{"card": 4, "target": 8, "result": "human"}])
    assert _first_guard([*moves, night, b_night]) == 2


def test_s6_2_auto_guard_3_uniform_among_living_others() -> None:
    seen = Counter(
        _first_guard([A("execute", card=7), PASS, A("night"), B("night", attack=9)], seed=s)
        for s in range(300)
    )
    assert set(seen) == {1, 2, 4, 5, 6, 8, 9}


def test_s6_2_auto_guard_follows_the_hunter_claimers_orders_by_weight() -> None:
    moves = [
        A("co", roles=["hunter"], cards=[4, 7]),
        B("answer", claims=[{"card": 4, "role": "hunter"}]),
        A("execute", card=7),
        PASS,
        A("night", guard=[{"card": 4, "to": [8, 9], "weights": [1, 3]}]),
        B("night", attack=2, guard=[{"card": 4, "target": 8}]),
    ]
    seen = Counter(_first_guard(moves, seed=s) for s in range(400))
    assert set(seen) == {8, 9}
    assert 0.65 < seen[9] / 400 < 0.85


def test_s6_2_latent_hunter_order_without_itself_and_same() -> None:
    moves = [
        A("execute", card=7),
        PASS,
        A("night", latent_guard={"to": [3, 8]}),
        B("night", attack=9),
    ]
    assert _first_guard(moves) == 8
    moves += [A("execute", card=6), PASS, A("night", latent_guard="same"), B("night", attack=8)]
    out = game(moves)
    assert out["review"]["nights"][1]["guard"] == 8
    assert out["review"]["nights"][1]["gj"] is True


def test_s6_2_without_consecutive_guard_a_repeated_latent_target_fizzles() -> None:
    moves = [
        A("execute", card=5),
        A("night", latent_guard={"to": [7]}),
        B("night", attack=6),
        A("execute", card=2),
        A("night", latent_guard={"to": [7]}),
        B("night", attack=7),
    ]
    out = game(moves, custom=SEVEN, cards=SEVEN_CARDS)
    night = out["review"]["nights"][1]
    assert (night["guard"], night["fizzled"], night["attack"], night["gj"]) == (7, True, 7, False)
    assert events(out, "morning")[1]["dead"] == [7]


# ----- §6.3 resolution and the morning -----


def test_s6_3_1_the_real_seer_curses_the_fox() -> None:
    out = game(
        [A("execute", card=8), A("night", latent_divine=[7]), B("night", attack=9)],
        preset="12B",
        draws={"guard": [2]},
    )
    assert events(out, "morning")[0]["dead"] == [7, 9]


def test_s6_3_2_attack_on_the_fox_kills_nobody_and_gj() -> None:
    out = game(
        [A("execute", card=8), A("night"), B("night", attack=7)], preset="12B", draws={"guard": [2]}
    )
    assert events(out, "morning")[0]["dead"] == []
    assert out["review"]["nights"][0]["gj"] is False
    out = game([A("execute", card=7), PASS, A("night"), B("night", attack=2)], draws={"guard": [2]})
    assert events(out, "morning")[0]["dead"] == []
    assert out["review"]["nights"][0]["gj"] is True


def test_s6_3_2_a_bitten_cat_takes_a_living_werewolf() -> None:
    out = game(
        [A("execute", card=9), A("night"), B("night", attack=8)],
        preset="12A",
        draws={"guard": [1], "cat": [5]},
    )
    assert events(out, "morning")[0]["dead"] == [5, 8]


def test_s6_3_3_morning_reports_claimers_and_guards_only_when_peaceful() -> None:
    moves = [
        A("co", roles=["medium", "hunter"]),
        B("answer", claims=[{"card": 4, "role": "medium"}]),
        A("execute", card=5),
        PASS,
        A("night", guard=[{"card": 3, "to": [7]}]),
    ]
    out = game([*moves, B("night", attack=7, medium=[{"card": 4, "result": "human"}])])
    assert events(out, "morning")[0] == {
        "type": "morning",
        "day": 2,
        "dead": [],
        "divine": [],
        "medium": [
            {"card": 2, "target": 5, "result": "wolf"},
            {"card": 4, "target": 5, "result": "human"},
        ],
        "guard": [{"card": 3, "target": 7}],
    }
    out = game([*moves, B("night", attack=8, medium=[{"card": 4, "result": "human"}])])
    assert events(out, "morning")[0]["dead"] == [8]
    assert events(out, "morning")[0]["guard"] == []


def test_s6_3_3_a_latent_hunters_gj_is_never_shown() -> None:
    out = game([A("execute", card=7), PASS, A("night"), B("night", attack=2)], draws={"guard": [2]})
    assert events(out, "morning")[0]["guard"] == []
    assert out["next"] == "A:day"


def test_s6_3_5_gj_co_opens_the_next_day_with_an_automatic_request() -> None:
    moves = [
        A("execute", card=9),
        PASS,
        A("night", latent_guard={"to": [1]}, gj_co={"card": 1, "roles": ["seer"]}),
        B("night", attack=1),
    ]
    out = game(moves, draws={"oracle": [7], "seer": [8]})
    assert out["next"] == "B:answer"
    out = game([*moves, NO_CLAIMS], draws={"oracle": [7], "seer": [8]})
    (co,) = events(out, "co")
    assert co["day"] == 2
    assert co["request"] == {
        "roles": ["seer", "hunter"],
        "cards": None,
        "auto": True,
        "black_only": False,
    }
    assert co["claims"] == [
        {
            "card": 1,
            "role": "seer",
            "oracle": {"target": 7, "result": "human"},
            "nights": [{"night": 1, "target": 8, "result": "human"}],
        },
        {"card": 3, "role": "hunter", "guards": [{"night": 1, "target": 1}]},
    ]
    # Another target: no request.
    out = game([*moves[:-1], B("night", attack=2)], draws={"oracle": [7], "seer": [8]})
    assert out["next"] == "A:day"


# ----- §7 victory -----


def test_s7_1_village_wins_when_no_werewolf_lives() -> None:
    out = game(
        [A("execute", card=4), PASS, A("night"), B("night", attack=9), A("execute", card=5), PASS]
    )
    assert out["ending"] == {"winner": "village", "day": 2, "at": "execution"}
    assert out["next"] is None


def test_s7_2_wolves_win_at_parity_at_the_morning() -> None:
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
    assert out["ending"] == {"winner": "wolves", "day": 3, "at": "morning"}


def test_s7_the_fox_alive_at_the_end_wins() -> None:
    moves = [A("execute", card=4), A("night"), B("night", attack=8), A("execute", card=5)]
    out = game(moves, preset="12B", draws={"guard": [2], "fox_mode": ["latent"]})
    assert out["ending"] == {"winner": "fox", "day": 2, "at": "execution"}


def test_s7_no_move_after_the_end() -> None:
    moves = [
        A("execute", card=4),
        PASS,
        A("night"),
        B("night", attack=9),
        A("execute", card=5),
        PASS,
    ]
    assert "終わっています" in error([*moves, A("execute", card=1)])


# ----- §8 who sees what -----


def test_s8_each_side_sees_the_public_record_and_its_own_knowledge() -> None:
    duel = Duel.setup(preset("17A"), Draws(random.Random(1)), cards=A17)
    a, b = view(duel, "A"), view(duel, "B")
    assert a["masons"] == [8, 9] and "wolves" not in a and "cards" not in a and "review" not in a
    assert b["wolves"] == [4, 5, 6] and "masons" not in b and "cards" not in b and "review" not in b
    assert a["events"] == b["events"]


def test_s8_the_pp_offer_is_told_to_b_only() -> None:
    duel = Duel.setup(
        custom({"deck": {"villager": 2, "werewolf": 1, "madman": 1, "seer": 1}, "pp": True}),
        Draws(random.Random(0)),
        cards=[None, "seer", "werewolf", "madman", "villager", "villager"],
    )
    rng = random.Random(0)
    play(duel, "A", {"do": "execute", "card": 2}, rng)
    assert view(duel, "B")["pp_offered"] is False  # werewolves + 1 = 2 < 3 others
    play(duel, "B", {"do": "pp", "guess": None}, rng)
    assert duel.ending == {"winner": "village", "day": 1, "at": "execution"}
    duel = Duel.setup(duel.rules, Draws(random.Random(0)), cards=duel.cards)
    for by, move in (
        ("A", {"do": "execute", "card": 4}),
        ("B", {"do": "pp", "guess": None}),
        ("A", {"do": "night"}),
        ("B", {"do": "night", "attack": 5}),
        ("A", {"do": "execute", "card": 2}),
    ):
        play(duel, by, move, rng)
    assert view(duel, "B")["pp_offered"] is True  # 2 ≥ 1: the offer tells B the madman lives
    assert "pp_offered" not in view(duel, "A")
    assert view(duel, "A")["next"] == "B:pp"
    # The review (感想戦) shows the offer after the end, and B's wrong guess (§4.5).
    assert hindsight(duel)["pp"] == {"card": 2, "offered": True}
    play(duel, "B", {"do": "pp", "guess": 1, "target": 1}, rng)
    assert hindsight(duel)["guesses"] == [{"day": 2, "guess": 1, "correct": False}]
    assert "guesses" not in view(duel, "A")


def test_s8_after_the_end_both_see_the_true_cards_and_the_review() -> None:
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)), cards=game([])["cards"])
    rng = random.Random(0)
    for by, move in (("A", {"do": "execute", "card": 4}), ("B", {"do": "pp", "guess": None})):
        play(duel, by, move, rng)
    play(duel, "A", {"do": "night"}, rng)
    play(duel, "B", {"do": "night", "attack": 9}, rng)
    play(duel, "A", {"do": "execute", "card": 5}, rng)
    play(duel, "B", {"do": "pp", "guess": None}, rng)
    for side in "AB":
        seen = view(duel, side)
        assert seen["cards"] == duel.cards and seen["review"]["nights"]
