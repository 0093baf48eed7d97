"""The classic scenario runner's contract (issue #12): ``python -m chalicelib.scenario --rules
classic``, field by field, and its error line for every invalid case the issue lists.

Most tests call :func:`chalicelib.rules.classic.scenario.run`; a few run the modules as
subprocesses from the repository root.
"""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chalicelib.rules.classic.scenario import run

from .helpers import JAPANESE

ROOT = Path(__file__).resolve().parents[3]

ROLES_9 = {
    "p1": "seer",
    "p2": "medium",
    "p3": "werewolf",
    "p4": "werewolf",
    "p5": "madman",
    "p6": "villager",
    "p7": "villager",
    "p8": "villager",
    "p9": "villager",
    "npc": "villager",
}
ROLES_13 = {
    "p1": "seer",
    "p2": "medium",
    "p3": "hunter",
    "p4": "mason",
    "p5": "villager",
    "p6": "werewolf",
    "p7": "werewolf",
    "p8": "madman",
    "p9": "fox",
    "p10": "villager",
    "p11": "villager",
    "p12": "villager",
    "p13": "villager",
    "npc": "mason",
}
TIE_ROUND = {"p1": "p6", "p2": "p6", "p3": "p7", "p4": "p7", "p5": "p1"}
TIE_ROUND |= {"p6": "p1", "p7": "p2", "p8": "p2", "p9": "p3"}
# p1 and p6 tied for most.
TIE2 = {"p1": "p6", "p2": "p6", "p3": "p1", "p4": "p1", "p5": "p7"}
TIE2 |= {"p6": "p8", "p7": "p9", "p8": "p2", "p9": "p3"}
P6_ROUND = {"p1": "p6", "p2": "p6", "p3": "p6", "p4": "p7", "p5": "p1"}
P6_ROUND |= {"p6": "p1", "p7": "p2", "p9": "p3"}

# The issue's example, made concrete: a tie, a sudden death, then p6's execution.
C1: dict[str, Any] = {
    "id": "c1",
    "seed": 7,
    "players": 9,
    "roles": ROLES_9,
    "options": {"tie": "bbs", "npc_villager": False},
    "turns": [
        {"night": {"p1": {"divine": "p3"}}},
        {
            "rounds": [TIE_ROUND, P6_ROUND, P6_ROUND],
            "night": {"p4": {"attack": "p8"}, "p3": {"attack": "p9"}, "p1": {"divine": "p5"}},
        },
    ],
}

C1_OUT = {
    "id": "c1",
    "roles": ROLES_9,
    "cast": {"seer": 1, "medium": 1, "werewolf": 2, "madman": 1, "villager": 5},
    "partners": {"p3": ["p4"], "p4": ["p3"]},
    "turns": [
        {
            "day": 1,
            "rounds": [],
            "executed": None,
            "night": {
                "attack": "npc",
                "divination": {"target": "p3", "result": "wolf"},
                "guard": None,
                "gj": False,
            },
            "deaths": {"npc": "attack"},
            "news": {"p1": {"divination": {"target": "p3", "result": "wolf"}}},
            "found_dead": ["npc"],
        },
        {
            "day": 2,
            "rounds": [
                {"round": 1, "votes": TIE_ROUND, "sudden": [], "outcome": "tie"},
                {"round": 2, "votes": P6_ROUND, "sudden": ["p8"], "outcome": "sudden"},
                {"round": 2, "votes": P6_ROUND, "sudden": [], "outcome": "executed"},
            ],
            "executed": "p6",
            "night": {
                "attack": "p9",
                "divination": {"target": "p5", "result": "human"},
                "guard": None,
                "gj": False,
            },
            "deaths": {"p8": "sudden", "p6": "execution", "p9": "attack"},
            "news": {
                "p1": {"divination": {"target": "p5", "result": "human"}},
                "p2": {"medium": {"target": "p6", "result": "human"}},
            },
            "found_dead": ["p9"],
        },
    ],
    "ending": None,
}


def scenario(**changes: Any) -> dict[str, Any]:
    base = copy.deepcopy(C1)
    base.update(changes)
    return base


def day2(*rounds: dict[str, str], night: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """C1 with day 2 replaced."""
    turn: dict[str, Any] = {"rounds": list(rounds)}
    if night is not None:
        turn["night"] = night
    return scenario(turns=[{"night": {}}, turn], **kw)


def error(out: dict[str, Any]) -> str:
    assert list(out) == ["id", "error"], out
    assert JAPANESE.search(out["error"]), out
    return str(out["error"])


# ----- the output, field by field -----


def test_the_issue_example_gives_the_documented_answer_exactly():
    out = run(C1)
    assert out == C1_OUT
    assert list(out) == ["id", "roles", "cast", "partners", "turns", "ending"]
    for turn in out["turns"]:
        assert list(turn) == ["day", "rounds", "executed", "night", "deaths", "news", "found_dead"]
        assert list(turn["night"]) == ["attack", "divination", "guard", "gj"]
    assert list(out["turns"][1]["deaths"]) == ["p8", "p6", "p9"]  # in the order they died


def test_the_same_input_always_gives_the_same_output():
    dealt = {k: v for k, v in C1.items() if k != "roles"} | {"turns": [{}, {"rounds": []}]}
    assert run(dealt) == run(copy.deepcopy(dealt))
    outs = {json.dumps(run(dealt | {"seed": seed})["roles"]) for seed in range(12)}
    assert len(outs) > 1  # the deal depends on the seed


def test_roles_absent_are_dealt_from_the_seed_and_seed_defaults_to_0():
    dealt = {k: v for k, v in C1.items() if k not in ("roles", "seed")} | {"turns": []}
    out = run(dealt)
    assert list(out["roles"]) == [f"p{i}" for i in range(1, 10)] + ["npc"]
    assert out["roles"] == run(dealt | {"seed": 0})["roles"]
    assert out["roles"]["npc"] not in ("werewolf", "fox", "seer")
    villager_npc = run(dealt | {"options": {"npc_villager": True}, "seed": 3})
    assert villager_npc["roles"]["npc"] == "villager"


def test_cast_lists_the_deck_in_the_rule_books_order_and_partners_name_the_scapegoat():
    out = run(scenario(players=13, roles=ROLES_13, turns=[]))
    assert list(out["cast"].items()) == [
        ("seer", 1),
        ("medium", 1),
        ("hunter", 1),
        ("mason", 2),
        ("werewolf", 2),
        ("madman", 1),
        ("fox", 1),
        ("villager", 5),
    ]
    assert out["partners"] == {"p4": ["npc"], "p6": ["p7"], "p7": ["p6"]}
    assert out["turns"] == [] and out["ending"] is None and "stopped" not in out
    lone = run(
        scenario(
            players=4,
            turns=[],
            roles={
                "p1": "seer",
                "p2": "werewolf",
                "p3": "villager",
                "p4": "villager",
                "npc": "villager",
            },
        )
    )
    assert lone["partners"] == {"p2": []}


def test_stopped_when_the_rounds_run_out_before_the_vote_is_decided():
    out = run(day2(TIE_ROUND))
    assert out["stopped"] is True
    assert list(out)[-1] == "stopped"
    turn = out["turns"][1]
    assert turn["rounds"] == [{"round": 1, "votes": TIE_ROUND, "sudden": [], "outcome": "tie"}]
    assert turn["executed"] is None and turn["night"] is None
    assert turn["news"] == {} and "found_dead" not in turn
    # Turns after a stop are ignored, even invalid ones.
    more = run(day2(TIE_ROUND) | {"turns": [{}, {"rounds": [TIE_ROUND]}, {"bogus": 1}]})
    assert len(more["turns"]) == 2 and more["stopped"] is True


def test_a_missing_rounds_list_stops_at_once_and_a_missing_night_is_empty():
    assert run(scenario(turns=[{}, {}]))["stopped"] is True
    out = run(day2(P6_ROUND | {"p8": "p6"}))
    night = out["turns"][1]["night"]
    assert night["attack"] in ("p1", "p2", "p5", "p7", "p8", "p9")  # a default attack
    assert night["divination"] is not None


def test_rounds_left_over_after_an_execution_are_ignored():
    out = run(day2(P6_ROUND | {"p8": "p6"}, {"p1": "p1", "zz": "npc"}))
    assert out["turns"][1]["executed"] == "p6"
    assert len(out["turns"][1]["rounds"]) == 1


def test_turns_left_over_after_an_ending_are_ignored_and_ending_day_is_the_deciding_day():
    roles4 = {"p1": "seer", "p2": "werewolf", "p3": "villager", "p4": "villager"}
    base = {"id": "e", "players": 4, "roles": roles4 | {"npc": "villager"}}
    by_vote = run(
        base
        | {
            "turns": [
                {},
                {"rounds": [{"p1": "p2", "p2": "p1", "p3": "p2", "p4": "p2"}]},
                {"bogus": True},
            ]
        }
    )
    assert by_vote["ending"] == {"winner": "village", "day": 2}
    day = by_vote["turns"][1]
    assert day["night"] is None and "found_dead" not in day and day["news"] == {}
    assert day["deaths"] == {"p2": "execution"}
    by_night = run(
        base
        | {
            "turns": [
                {},
                {
                    "rounds": [{"p1": "p3", "p2": "p3", "p3": "p1", "p4": "p3"}],
                    "night": {"p2": {"attack": "p1"}},
                },
            ]
        }
    )
    assert by_night["ending"] == {"winner": "wolves", "day": 3}
    assert by_night["turns"][1]["found_dead"] == ["p1"]


def test_outcomes_sudden_executed_tie_draw_and_a_random_tie_is_executed():
    out = run(day2(*[TIE_ROUND] * 6))
    assert [r["outcome"] for r in out["turns"][1]["rounds"]] == ["tie"] * 5 + ["draw"]
    assert [r["round"] for r in out["turns"][1]["rounds"]] == [1, 2, 3, 4, 5, 6]
    assert out["ending"] == {"winner": "draw", "day": 2}
    rand = run(day2(TIE_ROUND, options={"tie": "random"}))
    [only] = rand["turns"][1]["rounds"]
    assert only["outcome"] == "executed" and rand["turns"][1]["executed"] in (
        "p1",
        "p2",
        "p6",
        "p7",
    )


def test_a_runoff_that_opens_with_a_single_candidate_executes_it_at_once_without_input():
    runoff = {"tie": "runoff", "npc_villager": False}
    round4 = {"p1": "p6"} | {v: "p1" for v in ("p2", "p3", "p4", "p5", "p7", "p8", "p9")}
    out = run(day2(TIE2, TIE2, TIE2, round4, options=runoff))
    rounds = out["turns"][1]["rounds"]
    # p1 and p6 were tied in round 3; p6 did not vote in round 4 and died.
    assert rounds[3] == {"round": 4, "votes": round4, "sudden": ["p6"], "outcome": "sudden"}
    assert rounds[4] == {"round": 4, "votes": {}, "sudden": [], "outcome": "executed"}
    assert out["turns"][1]["executed"] == "p1"
    deaths = list(out["turns"][1]["deaths"].items())
    assert deaths[:2] == [("p6", "sudden"), ("p1", "execution")]
    assert deaths[2][1] == "attack"  # the night's default attack


def test_a_runoff_with_no_living_candidate_takes_the_next_round_as_a_full_vote():
    runoff = {"tie": "runoff", "npc_villager": False}
    others = {v: "p1" for v in ("p2", "p3", "p4", "p5", "p7", "p8", "p9")}
    full = {"p2": "p3", "p3": "p2", "p4": "p2", "p5": "p2", "p7": "p2", "p8": "p2", "p9": "p2"}
    out = run(day2(TIE2, TIE2, TIE2, others, full, options=runoff))
    rounds = out["turns"][1]["rounds"]
    assert rounds[3]["sudden"] == ["p1", "p6"]
    assert rounds[4] == {"round": 4, "votes": full, "sudden": [], "outcome": "executed"}
    assert out["turns"][1]["executed"] == "p2"


def test_night_fields_guard_gj_curse_and_news_attacked():
    base = scenario(players=13, roles=ROLES_13)
    everyone = {f"p{i}": "p13" for i in range(1, 13)} | {"p13": "p12"}
    gj = run(
        base
        | {
            "turns": [
                {},
                {
                    "rounds": [everyone],
                    "night": {
                        "p6": {"attack": "p10"},
                        "p3": {"guard": "p10"},
                        "p1": {"divine": "p9"},
                    },
                },
            ]
        }
    )
    turn = gj["turns"][1]
    assert turn["night"] == {
        "attack": "p10",
        "divination": {"target": "p9", "result": "human"},
        "guard": "p10",
        "gj": True,
    }
    assert turn["deaths"] == {"p13": "execution", "p9": "curse"}
    assert turn["news"] == {
        "p1": {"divination": {"target": "p9", "result": "human"}},
        "p2": {"medium": {"target": "p13", "result": "human"}},
        "p3": {"gj": True},
    }
    assert turn["found_dead"] == ["p9"]
    fox = run(
        base
        | {
            "turns": [
                {},
                {"rounds": [everyone], "night": {"p6": {"attack": "p9"}, "p1": {"divine": "p2"}}},
            ]
        }
    )
    assert fox["turns"][1]["news"]["p9"] == {"attacked": True}
    assert fox["turns"][1]["found_dead"] == []


def test_the_last_werewolf_key_whose_attack_counts_is_the_attack():
    out = run(
        day2(P6_ROUND | {"p8": "p6"}, night={"p3": {"attack": "p7"}, "p4": {"attack": "p6"}})
    )  # p6 was executed: p4's does not count
    assert out["turns"][1]["night"]["attack"] == "p7"
    out = run(day2(P6_ROUND | {"p8": "p6"}, night={"p4": {"attack": "p8"}, "p3": {"attack": "p7"}}))
    assert out["turns"][1]["night"]["attack"] == "p7"


def test_a_choice_whose_actor_died_that_day_is_not_an_error_and_does_not_count():
    p1_out = {"p1": "p6"} | {v: "p1" for v in ("p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9")}
    out = run(day2(p1_out, night={"p1": {"divine": "p3"}, "p3": {"attack": "p7"}}))
    turn = out["turns"][1]
    assert turn["executed"] == "p1" and turn["night"]["divination"] is None
    assert "p1" not in turn["news"]


# ----- the error line -----

P1_ROUND = {"p1": "p6"} | {v: "p1" for v in ("p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9")}
P7_ROUND = {"p7": "p2"} | {v: "p7" for v in ("p2", "p3", "p4", "p5", "p6", "p8")}

INVALID = {
    "a vote by a dead player": day2(P6_ROUND | {"p8": "p6", "npc": "p6"}),
    "a vote for a dead player": day2(P6_ROUND | {"p8": "npc"}),
    "a vote for oneself": day2(P6_ROUND | {"p8": "p8"}),
    "a vote by a player who died suddenly this day": day2(P6_ROUND, P6_ROUND | {"p8": "p6"}),
    "a run-off vote for a non-candidate": day2(
        TIE2, TIE2, TIE2, TIE2 | {"p2": "p3"}, options={"tie": "runoff"}
    ),
    "an ability of the wrong role": scenario(turns=[{"night": {"p2": {"divine": "p3"}}}]),
    "an attack on night 1": scenario(turns=[{"night": {"p3": {"attack": "p6"}}}]),
    "an attack on night 1 on the scapegoat": scenario(turns=[{"night": {"p3": {"attack": "npc"}}}]),
    "a guard on night 1": scenario(
        players=13, roles=ROLES_13, turns=[{"night": {"p3": {"guard": "p1"}}}]
    ),
    "a self target": scenario(turns=[{"night": {"p1": {"divine": "p1"}}}]),
    "an attack on a werewolf": day2(P6_ROUND | {"p8": "p6"}, night={"p3": {"attack": "p4"}}),
    "a choice by a player dead at the start of the day": scenario(
        turns=[
            {},
            {"rounds": [P1_ROUND], "night": {"p3": {"attack": "p9"}}},
            {"rounds": [P7_ROUND], "night": {"p1": {"divine": "p3"}}},
        ]
    ),
    "npc as an actor": scenario(turns=[{"night": {"npc": {"divine": "p3"}}}]),
    "rounds on day 1": scenario(turns=[{"rounds": [], "night": {}}]),
    "an unknown top-level key": scenario(extra=1),
    "an unknown turn key": scenario(turns=[{}, {"votes": []}]),
    "an unknown option": scenario(options={"tie": "bbs", "pace": "long"}),
    "an unknown tie rule": scenario(options={"tie": "coin"}),
    "a non-boolean npc_villager": scenario(options={"npc_villager": "yes"}),
    "an unknown choice key": scenario(turns=[{"night": {"p1": {"pray": "p3"}}}]),
    "an unknown voter": day2(P6_ROUND | {"p8": "p6", "p10": "p6"}),
    "an unknown target": scenario(turns=[{"night": {"p1": {"divine": "p99"}}}]),
    "an unknown actor": scenario(turns=[{"night": {"x": {"divine": "p3"}}}]),
    "a deck that does not match": scenario(roles=ROLES_9 | {"p5": "villager"}),
    "a scapegoat werewolf": scenario(roles=ROLES_9 | {"p3": "villager", "npc": "werewolf"}),
    "a scapegoat seer": scenario(roles=ROLES_9 | {"p1": "villager", "npc": "seer"}),
    "npc_villager with a scapegoat madman": scenario(
        roles=ROLES_9 | {"p5": "villager", "npc": "madman"}, options={"npc_villager": True}
    ),
    "a role for a missing character": scenario(
        roles={k: v for k, v in ROLES_9.items() if k != "p9"}
    ),
    "an unknown role": scenario(roles=ROLES_9 | {"p9": "witch"}),
    "roles that are not an object": scenario(roles=None),
    "too few players": {"id": "c1", "players": 3, "turns": []},
    "too many players": {"id": "c1", "players": 17, "turns": []},
    "a non-integer seed": scenario(seed="7"),
    "a missing turns": {"id": "c1", "players": 9},
}


# The sentence each case must give (so that no case passes by failing for another reason).
REFUSALS = {
    "a vote by a dead player": "身代わり君は投票しません",
    "a vote for a dead player": "死んだ人には投票できません",
    "a vote for oneself": "自分自身には投票できません",
    "a vote by a player who died suddenly this day": "死んだ人は投票できません",
    "a run-off vote for a non-candidate": "決選投票では候補者（p1・p6）にしか投票できません",
    "an ability of the wrong role": "占いは占い師だけが行えます",
    "an attack on night 1": "襲撃先は2日目の夜から選べます",
    "an attack on night 1 on the scapegoat": "襲撃先は2日目の夜から選べます",
    "a guard on night 1": "護衛は2日目の夜からです",
    "a self target": "自分自身は占えません",
    "an attack on a werewolf": "人狼は襲撃できません",
    "a choice by a player dead at the start of the day": "死んだ占い師は占えません",
    "npc as an actor": "身代わり君は行動しません",
    "rounds on day 1": "1日目には投票がありません",
    "an unknown top-level key": "「extra」という項目はありません",
    "an unknown turn key": "「votes」という項目はありません",
    "an unknown option": "「pace」という村の設定はありません",
    "an unknown tie rule": "tie は random・bbs・runoff のいずれかです",
    "a non-boolean npc_villager": "npc_villager は true か false です",
    "an unknown choice key": "「pray」という行動はありません",
    "an unknown voter": "「p10」というキャラクターはいません",
    "an unknown target": "「p99」というキャラクターはいません",
    "an unknown actor": "「x」というキャラクターはいません",
    "a deck that does not match": "9人村の配役と一致しません",
    "a scapegoat werewolf": "身代わり君は人狼・妖狐・占い師にはなれません",
    "a scapegoat seer": "身代わり君は人狼・妖狐・占い師にはなれません",
    "npc_villager with a scapegoat madman": "身代わり君は村人でなければなりません",
    "a role for a missing character": "p9 の役職がありません",
    "an unknown role": "「witch」という役職はありません",
    "roles that are not an object": "roles はキャラクターから役職へのオブジェクトです",
    "too few players": "プレイヤーは4人から16人までです",
    "too many players": "プレイヤーは4人から16人までです",
    "a non-integer seed": "seed は整数です",
    "a missing turns": "「turns」がありません",
}


@pytest.mark.parametrize("case", list(INVALID))
def test_an_invalid_line_gives_the_error_line(case):
    line = copy.deepcopy(INVALID[case])
    out = run(line)
    assert REFUSALS[case] in error(out)
    assert out["id"] == "c1"


# ----- the command -----


def run_module(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_the_command_writes_one_line_per_input_line_in_order_and_exits_0():
    lines = [json.dumps(C1), "not json", json.dumps(scenario(id="c2", extra=1))]
    done = run_module(["chalicelib.scenario", "--rules", "classic"], "\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert outs[0] == C1_OUT
    assert outs[1]["id"] is None and "error" in outs[1]
    assert outs[2]["id"] == "c2" and "error" in outs[2]
    assert len(outs) == 3


def test_the_command_without_rules_still_plays_mobius():
    done = run_module(["chalicelib.scenario"], json.dumps({"id": "m", "days": []}) + "\n")
    assert done.returncode == 0
    assert "sides" in json.loads(done.stdout)


def test_the_simulator_reports_every_team_and_ends_with_one_json_object():
    args = ["chalicelib.simulate", "--rules", "classic", "--players", "13", "--games", "30"]
    done = run_module([*args, "--seed", "4"], "")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert set(report["win_rate"]) == {"village", "wolves", "fox", "draw"}
    assert sum(report["win_rate"].values()) == pytest.approx(1)
    assert report["games"] == 30 and report["players"] == 13
    assert {"mean_ending_day", "sudden_deaths", "games_per_second"} <= set(report)
