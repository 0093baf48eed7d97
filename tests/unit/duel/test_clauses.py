"""One or more unit tests per clause of RULES-DUEL §1–§8, each named after its clause.

The rule book (../shared/RULES-DUEL.md) is the reference. Games are dealt by hand
(``cards``) and chance is pinned with ``draws`` (§9) so every test is deterministic;
statistical checks use many fixed seeds and generous tolerances.
"""

from collections import Counter

import pytest

from chalicelib.rules.duel import SetupError, custom, preset
from chalicelib.rules.duel.roles import color_of, is_human
from tests.support.duels import A17, NO_CLAIMS, PASS, A, B, error, events, game

SEEDS = range(200)

# ----- §1 cards -----


def test_s1_only_a_werewolf_is_judged_black() -> None:
    assert color_of("werewolf") == "wolf"
    for role in ("villager", "seer", "medium", "hunter", "mason", "cat", "madman", "fox"):
        assert color_of(role) == "human"


def test_s1_colors_are_the_tokens_human_and_wolf_in_and_out() -> None:
    # Line 24 of the rule book: `human` = 白, `wolf` = 黒. The runner writes them and reads them.
    fake = {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}}
    moves = [A("co", roles=["seer"]), B("answer", claims=[fake]), A("execute", card=7), PASS]
    night = [A("night", divine=[{"card": 1, "to": [4]}, {"card": 4, "to": [8]}])]
    lie = {"card": 4, "target": 8, "result": "wolf"}
    out = game([*moves, *night, B("night", attack=9, divine=[lie])], draws={"oracle": [8]})
    (morning,) = events(out, "morning")
    assert {d["card"]: d["result"] for d in morning["divine"]} == {1: "wolf", 4: "wolf"}
    assert out["review"]["oracle"] == {"target": 8, "result": "human"}
    old = {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "white"}}
    assert "human(白)か wolf(黒)" in error([A("co", roles=["seer"]), B("answer", claims=[old])])


def test_s1_humans_count_the_madman_but_not_the_fox() -> None:
    assert is_human("madman")
    assert not is_human("fox")
    assert not is_human("werewolf")


# ----- §2 presets and custom -----

PRESET_TABLE = {
    "std9": ({"villager": 3, "seer": 1, "medium": 1, "hunter": 1, "werewolf": 2, "madman": 1}, 9),
    "10A": ({"villager": 4, "seer": 1, "medium": 1, "hunter": 1, "werewolf": 2, "madman": 1}, 9),
    "12A": (
        {"villager": 4, "seer": 1, "medium": 1, "hunter": 1, "cat": 1, "werewolf": 3, "madman": 1},
        11,
    ),
    "12B": (
        {"villager": 5, "seer": 1, "medium": 1, "hunter": 1, "werewolf": 2, "madman": 1, "fox": 1},
        11,
    ),
    "17A": (
        {
            "villager": 7,
            "seer": 1,
            "medium": 1,
            "hunter": 1,
            "mason": 2,
            "werewolf": 3,
            "madman": 1,
            "fox": 1,
        },
        16,
    ),
}
PRESET_SWITCHES = {
    "std9": ("white", False, False, True, False),
    "10A": ("white", False, False, False, True),
    "12A": ("black", False, True, False, True),
    "12B": ("black", True, False, False, True),
    "17A": ("black", False, False, False, True),
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_s2_each_preset_deck_board_and_switches(name: str) -> None:
    deck, board = PRESET_TABLE[name]
    out = game(preset=name, cards=None, seed=5)
    first_day, black_seer_co, gidra, pp, missing = PRESET_SWITCHES[name]
    assert out["rules"] == {
        "preset": name,
        "deck": deck,
        "first_day": first_day,
        "black_seer_co": black_seer_co,
        "consecutive_guard": True,
        "gidra": gidra,
        "pp": pp,
        "missing": missing,
    }
    assert out["board"] == board
    dealt = Counter(r for r in out["cards"] if r is not None)
    assert dealt == Counter(deck)
    assert (out["cards"][0] is not None) == missing


def test_s2_pp_only_in_std9_and_consecutive_guard_in_every_preset() -> None:
    assert [n for n in PRESET_TABLE if preset(n).pp] == ["std9"]
    assert all(preset(n).consecutive_guard for n in PRESET_TABLE)


def test_s2_custom_defaults() -> None:
    rules = custom({"deck": {"villager": 3, "werewolf": 1, "seer": 1}})
    assert rules.to_json() == {
        "preset": None,
        "deck": {"villager": 3, "seer": 1, "werewolf": 1},
        "first_day": "white",
        "black_seer_co": False,
        "consecutive_guard": True,
        "gidra": False,
        "pp": False,
        "missing": False,
    }


@pytest.mark.parametrize(
    "spec",
    [
        {"deck": {"villager": 4}},  # no werewolf
        {"deck": {"villager": 12, "werewolf": 4}},  # four werewolves
        {"deck": {"villager": 4, "werewolf": 1, "seer": 2}},  # two seers
        {"deck": {"villager": 4, "werewolf": 1, "mason": 1}},  # one mason
        {"deck": {"villager": 2, "werewolf": 1}},  # 3 cards
        {"deck": {"villager": 19, "werewolf": 2}},  # 21 cards
        {"deck": {"villager": 2, "werewolf": 2, "fox": 1}},  # humans 2 ≤ werewolves 2
        {"deck": {"villager": 3, "werewolf": 2}, "missing": True},  # board humans 2 ≤ 2
        {"deck": {"mason": 2, "cat": 1, "werewolf": 1, "fox": 1}, "missing": True},
        {"deck": {"villager": 4, "werewolf": 1}, "black_seer_co": True},  # needs a seer, black
        {"deck": {"villager": 4, "werewolf": 1, "seer": 1}, "black_seer_co": True},  # white
        {"deck": {"villager": 4, "werewolf": 1, "hunter": 1}, "gidra": True},  # needs a cat
        {"deck": {"villager": 4, "werewolf": 1}, "pp": True},  # needs a madman
        {"deck": {"villager": 4, "werewolf": 1}, "colour": "human"},  # unknown key
        {"deck": {"villager": 4, "werewolf": 1, "wizard": 1}},  # unknown role
        {"deck": {"villager": 4, "werewolf": 1}, "first_day": "grey"},
    ],
)
def test_s2_custom_limits_are_refused(spec: dict[str, object]) -> None:
    with pytest.raises(SetupError):
        custom(spec)


def test_s2_custom_at_the_limits_is_accepted() -> None:
    custom({"deck": {"villager": 3, "werewolf": 1, "fox": 1}})  # 5 cards
    custom(
        {
            "deck": {
                "villager": 12,
                "werewolf": 3,
                "seer": 1,
                "medium": 1,
                "hunter": 1,
                "madman": 1,
                "cat": 1,
            },
            "gidra": True,
            "pp": True,
            "missing": True,
        }
    )
    custom({"deck": {"villager": 2, "mason": 2, "werewolf": 1}, "missing": True})


# ----- §3 setup -----


def test_s3_1_placement_by_hand_and_at_random() -> None:
    out = game(preset="10A", cards=None, wolves=[2, 9])
    assert out["b_view"]["wolves"] == [2, 9]
    seen = Counter()
    for seed in SEEDS:
        wolves = game(preset="std9", cards=None, seed=seed)["b_view"]["wolves"]
        assert len(wolves) == 2
        seen.update(wolves)
    assert set(seen) == set(range(1, 10))


def test_s3_2_first_victim_is_never_werewolf_fox_cat_or_mason() -> None:
    victims: Counter[str] = Counter()
    for name in ("12A", "17A", "12B"):
        for seed in range(100):
            victims[game(preset=name, cards=None, seed=seed)["cards"][0]] += 1
    assert not {"werewolf", "fox", "cat", "mason"} & set(victims)
    assert {"villager", "seer", "medium", "hunter", "madman"} <= set(victims)


def test_s3_2_first_victim_is_uniform_over_eligible_cards() -> None:
    victims = Counter(game(preset="10A", cards=None, seed=s)["cards"][0] for s in range(800))
    # 10A: 8 eligible cards, 4 of them villagers.
    assert 0.4 < victims["villager"] / 800 < 0.6
    assert 0.07 < victims["seer"] / 800 < 0.19


def test_s3_2_first_victim_announced_as_public_event() -> None:
    out = game(preset="10A", cards=None)
    assert out["public"][0] == {"type": "first_victim", "day": 1, "card": 0}
    assert events(game(), "first_victim") == []


def test_s3_3_white_oracle_never_names_seer_fox_or_werewolf() -> None:
    for seed in SEEDS:
        out = game(preset="std9", cards=None, seed=seed)
        oracle = out["review"]["oracle"]
        assert out["cards"][oracle["target"]] not in ("seer", "fox", "werewolf")
        assert oracle["result"] == "human"


def test_s3_3_black_oracle_may_name_a_werewolf_never_seer_or_fox() -> None:
    results = Counter()
    for seed in SEEDS:
        out = game(preset="12B", cards=None, seed=seed)
        oracle = out["review"]["oracle"]
        if oracle is None:
            continue  # the seer is missing
        assert out["cards"][oracle["target"]] not in ("seer", "fox")
        assert oracle["result"] == color_of(out["cards"][oracle["target"]])
        results[oracle["result"]] += 1
    assert results["wolf"] > 0 and results["human"] > 0


def test_s3_3_no_oracle_without_a_seer_on_the_board() -> None:
    cards = ["seer", "villager", "medium", "hunter", "werewolf", "werewolf", "madman", "villager"]
    out = game(preset="10A", cards=[*cards, "villager", "villager"])
    assert out["review"]["oracle"] is None


def test_s3_4_fox_mode_is_one_of_latent_seer_medium() -> None:
    modes = Counter(game(preset="12B", cards=None, seed=s)["review"]["fox_mode"] for s in SEEDS)
    modes.pop(None, None)
    assert set(modes) == {"latent", "seer", "medium"}
    assert game(preset="std9")["review"]["fox_mode"] is None


def test_s3_5_a_knows_the_masons_b_the_werewolves() -> None:
    out = game(preset="17A")
    assert out["a_view"] == {"masons": [8, 9]}
    assert out["b_view"] == {"wolves": [4, 5, 6], "guesses": []}


# ----- §4.1 CO request -----


def test_s4_1_real_holders_and_fakes_come_out_at_once() -> None:
    out = game(
        [
            A("co", roles=["seer", "medium"]),
            B(
                "answer",
                claims=[
                    {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}},
                    {"card": "madman", "role": "medium"},
                ],
            ),
        ],
        draws={"oracle": [7]},
    )
    (co,) = events(out, "co")
    assert co["request"] == {
        "roles": ["seer", "medium"],
        "cards": None,
        "auto": False,
        "black_only": False,
    }
    assert co["claims"] == [
        {"card": 1, "role": "seer", "oracle": {"target": 7, "result": "human"}, "nights": []},
        {"card": 2, "role": "medium", "results": []},
        {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}, "nights": []},
        {"card": 6, "role": "medium", "results": []},
    ]
    assert out["next"] == "A:day"


def test_s4_1_real_holder_outside_the_range_stays_latent() -> None:
    out = game([A("co", roles=["seer"], cards=[2, 3]), NO_CLAIMS])
    assert events(out, "co")[0]["claims"] == []
    assert events(out, "co")[0]["request"]["cards"] == [2, 3]
    out = game(
        [A("co", roles=["seer"], cards=[2, 3]), NO_CLAIMS, A("co", roles=["seer"]), NO_CLAIMS]
    )
    assert [c["card"] for c in events(out, "co")[1]["claims"]] == [1]


def test_s4_1_a_pair_is_asked_once_and_a_request_without_new_pair_is_refused() -> None:
    moves = [A("co", roles=["seer"], cards=[3, 7]), NO_CLAIMS]
    assert "新しく聞ける" in error([*moves, A("co", roles=["seer"], cards=[7, 3])])
    game([*moves, A("co", roles=["seer", "medium"], cards=[3, 7]), NO_CLAIMS])


def test_s4_1_fakes_only_for_requested_roles_in_new_pairs() -> None:
    moves = [A("co", roles=["seer"], cards=[2, 3])]
    fake = {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}}
    assert "聞かれていません" in error([*moves, B("answer", claims=[fake])])
    medium = {"card": 4, "role": "medium"}
    assert error([A("co", roles=["seer"]), B("answer", claims=[medium])])
    assert "人狼ではありません" in error(
        [A("co", roles=["seer"]), B("answer", claims=[{**fake, "card": 7}])]
    )


def test_s4_1_only_requestable_roles_and_gidra_replaces_hunter() -> None:
    assert error([A("co", roles=["cat"])])
    assert error([A("co", roles=["hunter"])], preset="12A", cards=None)
    out = game([A("co", roles=["gidra"]), NO_CLAIMS], preset="12A")
    assert events(out, "co")[0]["claims"] == [
        {"card": 3, "role": "gidra"},
        {"card": 8, "role": "gidra"},
    ]


def test_s4_1_fox_comes_out_in_its_mode() -> None:
    out = game(
        [A("co", roles=["seer"]), NO_CLAIMS],
        preset="12B",
        draws={"fox_mode": ["seer"], "oracle": [9], "fox": [3, "wolf"]},
    )
    claims = events(out, "co")[0]["claims"]
    assert {
        "card": 7,
        "role": "seer",
        "oracle": {"target": 3, "result": "wolf"},
        "nights": [],
    } in claims
    out = game([A("co", roles=["seer"]), NO_CLAIMS], preset="12B", draws={"fox_mode": ["medium"]})
    assert [c["card"] for c in events(out, "co")[0]["claims"]] == [1]


def test_s4_1_madman_claims_only_if_alive_and_new_pair_and_only_once() -> None:
    # Out of range: no effect, but the one use is spent.
    moves = [
        A("co", roles=["medium"], cards=[7]),
        B("answer", claims=[{"card": "madman", "role": "medium"}]),
    ]
    out = game(moves)
    assert events(out, "co")[0]["claims"] == []
    assert "1回だけ" in error(
        [
            *moves,
            A("co", roles=["medium"]),
            B("answer", claims=[{"card": "madman", "role": "medium"}]),
        ]
    )


def test_s4_1_a_claimed_card_never_claims_again() -> None:
    moves = [A("named", cards=[7]), NO_CLAIMS]
    assert "すでに名乗り出ています" in error([*moves, A("co", roles=["seer"], cards=[7])])
    assert "すでに名乗り出ています" in error([*moves, A("named", cards=[7])])


# ----- §4.2 black-seer-only request -----


def test_s4_2_only_a_black_seer_comes_out() -> None:
    out = game(
        [A("black_seer_co"), NO_CLAIMS], preset="12B", draws={"oracle": [4], "fox_mode": ["medium"]}
    )
    (co,) = events(out, "co")
    assert co["request"] == {"roles": ["seer"], "cards": None, "auto": False, "black_only": True}
    assert co["claims"] == [
        {"card": 1, "role": "seer", "oracle": {"target": 4, "result": "wolf"}, "nights": []}
    ]


def test_s4_2_white_seer_stays_latent_and_nobody_came_out() -> None:
    out = game(
        [A("black_seer_co"), NO_CLAIMS], preset="12B", draws={"oracle": [9], "fox_mode": ["latent"]}
    )
    assert events(out, "co")[0]["claims"] == []
    # Marks no pair: the seer still answers a later request.
    out = game(
        [A("black_seer_co"), NO_CLAIMS, A("co", roles=["seer"]), NO_CLAIMS],
        preset="12B",
        draws={"oracle": [9], "fox_mode": ["latent"]},
    )
    assert [c["card"] for c in events(out, "co")[1]["claims"]] == [1]


def test_s4_2_fakes_must_report_black() -> None:
    fake = {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}}
    assert error(
        [A("black_seer_co"), B("answer", claims=[fake])], preset="12B", cards=None, wolves=[4, 5]
    )
    out = game(
        [
            A("black_seer_co"),
            B("answer", claims=[{**fake, "oracle": {"target": 9, "result": "wolf"}}]),
        ],
        preset="12B",
        draws={"oracle": [9], "fox_mode": ["latent"]},
    )
    assert [c["card"] for c in events(out, "co")[0]["claims"]] == [4]


def test_s4_2_fox_in_seer_mode_only_with_a_black_result() -> None:
    out = game(
        [A("black_seer_co"), NO_CLAIMS],
        preset="12B",
        draws={"oracle": [9], "fox_mode": ["seer"], "fox": [2, "wolf"]},
    )
    assert events(out, "co")[0]["claims"] == [
        {"card": 7, "role": "seer", "oracle": {"target": 2, "result": "wolf"}, "nights": []}
    ]


def test_s4_2_once_on_day_1_before_any_seer_pair() -> None:
    moves = [A("black_seer_co"), NO_CLAIMS]
    assert "1回だけ" in error([*moves, *moves], preset="12B", cards=None)
    assert error(
        [A("co", roles=["seer"], cards=[2]), NO_CLAIMS, A("black_seer_co")],
        preset="12B",
        cards=None,
    )
    assert error([A("black_seer_co")])  # not in std9


def test_s4_2_madman_turned_white_on_a_mason_stays_latent() -> None:
    spec = {
        "deck": {"villager": 3, "werewolf": 1, "seer": 1, "madman": 1, "mason": 2},
        "first_day": "black",
        "black_seer_co": True,
    }
    cards = [
        None,
        "seer",
        "werewolf",
        "madman",
        "mason",
        "mason",
        "villager",
        "villager",
        "villager",
    ]
    moves = [
        A("black_seer_co"),
        B("answer", claims=[{"card": "madman", "role": "seer", "oracle": "wolf"}]),
    ]
    out = game(moves, custom=spec, cards=cards, draws={"oracle": [6], "madman": [4]})
    assert events(out, "co")[0]["claims"] == []
    out = game(moves, custom=spec, cards=cards, draws={"oracle": [6], "madman": [7]})
    assert events(out, "co")[0]["claims"] == [
        {"card": 3, "role": "seer", "oracle": {"target": 7, "result": "wolf"}, "nights": []}
    ]


# ----- §4.3 named CO -----


def test_s4_3_named_cards_answer_at_once() -> None:
    out = game(
        [A("named", cards=[7, 4, 1, 2]), B("answer", claims=[{"card": 4, "role": "none"}])],
        draws={"oracle": [8]},
    )
    (named,) = events(out, "named")
    assert named["cards"] == [1, 2, 4, 7]
    assert named["gidra"] is False
    assert named["answers"] == [
        {"card": 1, "role": "seer", "oracle": {"target": 8, "result": "human"}, "nights": []},
        {"card": 2, "role": "medium", "results": []},
        {"card": 4, "role": "none"},
        {"card": 7, "role": "none"},
    ]


def test_s4_3_every_named_werewolf_needs_an_answer() -> None:
    assert "答えがありません" in error(
        [A("named", cards=[4, 5]), B("answer", claims=[{"card": 4, "role": "none"}])]
    )
    assert "指名されていません" in error(
        [A("named", cards=[7]), B("answer", claims=[{"card": 4, "role": "none"}])]
    )


def test_s4_3_masons_cannot_be_named() -> None:
    assert "共有者" in error([A("named", cards=[8])], preset="17A", cards=A17)


def test_s4_3_werewolf_may_claim_a_claimable_role_but_not_gidra_without_tick() -> None:
    out = game([A("named", cards=[4]), B("answer", claims=[{"card": 4, "role": "hunter"}])])
    assert events(out, "named")[0]["answers"] == [{"card": 4, "role": "hunter", "guards": []}]
    assert error([A("named", cards=[4]), B("answer", claims=[{"card": 4, "role": "cat"}])])
    assert error([A("named", cards=[4]), B("answer", claims=[{"card": 4, "role": "gidra"}])])


def test_s4_3_gidra_tick_real_hunter_and_cat_answer_gidra() -> None:
    out = game(
        [
            A("named", cards=[3, 8, 4], gidra=True),
            B("answer", claims=[{"card": 4, "role": "gidra"}]),
        ],
        preset="12A",
    )
    assert events(out, "named")[0]["answers"] == [
        {"card": 3, "role": "gidra"},
        {"card": 4, "role": "gidra"},
        {"card": 8, "role": "gidra"},
    ]
    out = game([A("named", cards=[3, 8]), NO_CLAIMS], preset="12A")
    assert events(out, "named")[0]["answers"] == [
        {"card": 3, "role": "hunter", "guards": []},
        {"card": 8, "role": "cat"},
    ]
    assert error([A("named", cards=[3], gidra=True)])  # no gidra in std9


def test_s4_3_fox_names_its_mode_or_none() -> None:
    out = game([A("named", cards=[7]), NO_CLAIMS], preset="12B", draws={"fox_mode": ["latent"]})
    assert events(out, "named")[0]["answers"] == [{"card": 7, "role": "none"}]
    out = game([A("named", cards=[7]), NO_CLAIMS], preset="12B", draws={"fox_mode": ["medium"]})
    assert events(out, "named")[0]["answers"] == [{"card": 7, "role": "medium", "results": []}]


def test_s4_3_madman_answer_is_conditional_and_a_none_answer_spends_nothing() -> None:
    madman = {"card": "madman", "role": "medium"}
    out = game([A("named", cards=[6]), B("answer", claims=[madman])])
    assert events(out, "named")[0]["answers"] == [{"card": 6, "role": "medium", "results": []}]
    out = game([A("named", cards=[6]), NO_CLAIMS])
    assert events(out, "named")[0]["answers"] == [{"card": 6, "role": "none"}]
    # A none answer does not count; a role answer counts even when the madman was not named.
    game(
        [
            A("named", cards=[7]),
            B("answer", claims=[{"card": "madman", "role": "none"}]),
            A("co", roles=["medium"]),
            B("answer", claims=[madman]),
        ]
    )
    assert "1回だけ" in error(
        [
            A("named", cards=[7]),
            B("answer", claims=[madman]),
            A("co", roles=["medium"]),
            B("answer", claims=[madman]),
        ]
    )


# ----- §4.4 gidra release -----

GIDRA_DAY_1 = [
    A("co", roles=["gidra"]),
    B("answer", claims=[{"card": 4, "role": "gidra"}, {"card": "madman", "role": "gidra"}]),
]


def test_s4_4_release_lands_every_gidra_claimer_with_histories() -> None:
    moves = [
        *GIDRA_DAY_1,
        A("execute", card=9),
        A(
            "night",
            guard=[
                {"card": 3, "to": [1]},
                {"card": 4, "to": [2]},
                {"card": 7, "to": [10, 11], "weights": [1, 3]},
                {"card": 8, "to": [1]},
            ],
        ),
        B("night", attack=10),
        A("release"),
        B(
            "answer",
            land=[{"card": 4, "as": "hunter", "guards": [2]}, {"card": "madman", "as": "hunter"}],
        ),
    ]
    out = game(moves, preset="12A", draws={"madman": [11]})
    (release,) = events(out, "release")
    assert release == {
        "type": "release",
        "day": 2,
        "lands": [
            {"card": 3, "role": "hunter", "guards": [{"night": 1, "target": 1}]},
            {"card": 4, "role": "hunter", "guards": [{"night": 1, "target": 2}]},
            {"card": 7, "role": "hunter", "guards": [{"night": 1, "target": 11}]},
            {"card": 8, "role": "cat"},
        ],
    }
    # A fabricated guard outside that night's order is refused.
    bad = [*moves[:-1], B("answer", land=[{"card": 4, "as": "hunter", "guards": [1]}])]
    assert "候補" in error(bad, preset="12A", cards=game([], preset="12A")["cards"])


def test_s4_4_madman_lands_as_cat_by_default_and_every_wolf_needs_a_landing() -> None:
    out = game(
        [*GIDRA_DAY_1, A("release"), B("answer", land=[{"card": 4, "as": "cat"}])], preset="12A"
    )
    assert [c["role"] for c in events(out, "release")[0]["lands"]] == [
        "hunter",
        "cat",
        "cat",
        "cat",
    ]
    assert "着地がありません" in error(
        [*GIDRA_DAY_1, A("release"), B("answer", land=[])],
        preset="12A",
        cards=game([], preset="12A")["cards"],
    )


def test_s4_4_release_needs_a_living_gidra_claimer() -> None:
    assert "ギドラCO者" in error([A("release")], preset="12A", cards=None)


# ----- §4.5 execution, PP/RPP, the cat -----

TO_FIVE = [  # std9 down to 4 5 6 7 8 alive, day 3
    A("execute", card=1),
    PASS,
    A("night"),
    B("night", attack=2),
    A("execute", card=3),
    PASS,
    A("night"),
    B("night", attack=9),
]


def test_s4_5_pp_when_werewolves_and_madman_outnumber_the_rest() -> None:
    out = game([*TO_FIVE, A("execute", card=4), B("pp", guess=6, target=7)])
    execution = events(out, "execution")[-1]
    assert execution == {
        "type": "execution",
        "day": 3,
        "card": 7,
        "pp": {"kind": "PP", "madman": 6, "winner": "B"},
        "revenge": None,
    }
    assert out["b_view"]["guesses"] == [{"day": 3, "guess": 6, "correct": True}]
    assert out["ending"] == {"winner": "wolves", "day": 3, "at": "execution"}


def test_s4_5_wrong_guess_costs_nothing_and_is_secret_to_a() -> None:
    out = game([*TO_FIVE, A("execute", card=4), B("pp", guess=7, target=8)])
    assert events(out, "execution")[-1]["card"] == 4
    assert events(out, "execution")[-1]["pp"] is None
    assert out["b_view"]["guesses"] == [{"day": 3, "guess": 7, "correct": False}]
    assert "guess" not in str(out["public"])


def test_s4_5_rpp_on_a_tie_draws_whose_target_dies() -> None:
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
    for winner, dead in (("B", 1), ("A", 4)):
        out = game(moves, draws={"guard": [1, 2], "rpp": [winner]})
        assert events(out, "morning")[-1]["dead"] == []  # GJ on 2
        execution = events(out, "execution")[-1]
        assert execution["card"] == dead
        assert execution["pp"] == {"kind": "RPP", "madman": 6, "winner": winner}


def test_s4_5_pp_only_when_offered_else_b_can_only_pass() -> None:
    assert "パスしかできません" in error([A("execute", card=4), B("pp", guess=6, target=7)])
    assert error([*TO_FIVE, A("execute", card=7), B("pp", guess=6, target=8)])  # not a werewolf
    assert error([*TO_FIVE, A("execute", card=4), B("pp", guess=5, target=8)])  # guess a werewolf
    out = game([A("execute", card=4)])
    assert out["next"] == "B:pp"  # every execution waits for B with PP on


def test_s4_5_no_pp_step_without_pp() -> None:
    out = game([A("execute", card=4)], preset="10A", cards=None, wolves=[4, 5])
    assert out["next"] == "A:night"
    assert events(out, "execution")[0]["pp"] is None


def test_s4_5_no_question_after_the_execution() -> None:
    assert "番" in error([A("execute", card=7), A("co", roles=["seer"])])
    assert error([A("execute", card=7), PASS, A("co", roles=["seer"])])


def test_s4_5_executed_cat_takes_a_drawn_living_card() -> None:
    out = game([A("execute", card=8)], preset="12A", draws={"cat": [9]})
    assert events(out, "execution")[0]["revenge"] == 9
    with pytest.raises(AssertionError):
        game(
            [A("execute", card=8)], preset="12A", draws={"cat": [8]}
        )  # the cat itself: off support


def test_s4_5_cat_revenge_is_uniform_over_other_living_cards() -> None:
    seen = Counter(
        events(game([A("execute", card=8)], preset="12A", seed=s), "execution")[0]["revenge"]
        for s in range(400)
    )
    assert set(seen) == set(range(1, 12)) - {8}
