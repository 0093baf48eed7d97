"""The scenario runner's contract (issue #2): ``python -m chalicelib.scenario``.

Most tests call the Mobius runner's :func:`run` on one scenario; a few run the
module (and the simulator) as a subprocess from the repository root.
"""

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.mobius.scenario import run

ROOT = Path(__file__).resolve().parents[2]

SLOTS = (
    "seer_a",
    "seer_b",
    "medium_a",
    "medium_b",
    "guard_a",
    "guard_b",
    "empath_a",
    "empath_b",
    "commoner_a",
    "commoner_b",
    "commoner_c",
    "commoner_d",
    "assassin",
)
PARTNERS = {
    "empath_a": "empath_b",
    "empath_b": "empath_a",
    "commoner_a": "commoner_b",
    "commoner_b": "commoner_a",
    "commoner_c": "commoner_d",
    "commoner_d": "commoner_c",
}
KEYS = (
    "pray",
    "divine",
    "guard",
    "assassinate",
    "attack",
    "attacker",
    "dm",
    "victory",
    "resign",
    "force",
)
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
OUTPUT_KEYS = {"id", "sides", "random_divination", "empathy", "mornings", "ending"}
MORNING_KEYS = {"day", "judged", "attack", "assassination", "deaths", "results", "dms", "killers"}

# The sides of most tests. Oni: medium_b, commoner_a, commoner_c; madman: commoner_d.
SIDES = {"medium_b": "oni", "commoner_a": "oni", "commoner_c": "oni", "commoner_d": "madman"}
ONI_SIDE = ("medium_b", "commoner_a", "commoner_c", "commoner_d")
HUMANS = tuple(s for s in SLOTS if s not in ONI_SIDE)


def scenario(days=(), **extra) -> dict[str, Any]:
    return {"id": "t", "seed": 7, "sides": SIDES, "days": list(days), **extra}


def day(actions: Mapping[str, Mapping[str, Any]], **extra) -> dict[str, Any]:
    return {"actions": {slot: dict(choice) for slot, choice in actions.items()}, **extra}


def merge(*parts: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for part in parts:
        for slot, choice in part.items():
            merged.setdefault(slot, {}).update(choice)
    return merged


def all_pray(target: str, alive=SLOTS, other: str | None = None) -> dict[str, dict[str, str]]:
    """Every living character prays for ``target``; ``target`` prays for ``other``."""
    prayers = {slot: {"pray": target} for slot in alive if slot != target}
    other = other or next(s for s in alive if s != target)
    prayers[target] = {"pray": other}
    return prayers


def oni_vote(attack: str, attacker: str, voters=ONI_SIDE) -> dict[str, dict[str, str]]:
    return {slot: {"attack": attack, "attacker": attacker} for slot in voters}


def ok(data: Mapping[str, Any]) -> dict[str, Any]:
    out = run(data)
    assert "error" not in out, out
    return out


def refused(data: Mapping[str, Any]) -> str:
    out = run(data)
    assert set(out) == {"id", "error"}, out
    assert out["id"] == data["id"]
    assert isinstance(out["error"], str)
    assert JAPANESE.search(out["error"]), out["error"]
    return out["error"]


def verdict(sides: Mapping[str, str], slot: str) -> str:
    return "oni" if sides[slot] == "oni" else "human"


def run_module(module: str, *args: str, stdin: str = "", env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


# ----- the command line -----


def test_module_writes_one_line_per_input_line_in_order_and_exits_0():
    lines = [
        scenario(id="first", days=[day(all_pray("empath_a"))]),
        {"id": 2, "seed": 1},
        scenario(id="bad", days=[day({"seer_a": {"guard": "seer_b"}})]),
        {"id": "fourth", "seed": 99, "days": [{"actions": {}}, {"actions": {}}]},
        scenario(id="last", days=[day({s: {"victory": s} for s in ONI_SIDE[:3]})]),
    ]
    stdin = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    done = run_module("chalicelib.scenario", stdin=stdin)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == len(lines)
    parsed = [json.loads(line) for line in out]
    assert [p["id"] for p in parsed] == ["first", 2, "bad", "fourth", "last"]
    assert parsed == [run(line) for line in lines]
    assert set(parsed[2]) == {"id", "error"}
    assert parsed[4]["ending"] == {"winner": "oni", "by": "victory_declaration", "day": 1}

    backwards = "".join(json.dumps(line) + "\n" for line in reversed(lines))
    again = run_module("chalicelib.scenario", stdin=backwards)
    assert again.returncode == 0
    assert [json.loads(line) for line in again.stdout.splitlines()] == parsed[::-1]


def test_module_output_does_not_depend_on_hash_seed():
    lines = [{"id": n, "seed": n, "days": [{"actions": {}}] * 6} for n in range(5)]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = run_module("chalicelib.scenario", stdin=stdin, env=env)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(lines)


def test_module_answers_a_line_that_is_not_json_and_goes_on():
    stdin = "this is not json\n" + json.dumps({"id": "after", "seed": 1}) + "\n"
    done = run_module("chalicelib.scenario", stdin=stdin)
    assert done.returncode == 0
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 2
    assert "error" in out[0]
    assert out[1]["id"] == "after"
    assert "error" not in out[1]


def test_module_answers_a_blank_line_too():
    stdin = json.dumps({"id": "a", "seed": 1}) + "\n\n" + json.dumps({"id": "b", "seed": 2}) + "\n"
    done = run_module("chalicelib.scenario", stdin=stdin)
    assert done.returncode == 0
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", None, "b"]
    assert set(out[1]) == {"id", "error"}


def test_unknown_vacant_slot_is_an_error():
    out = run({"id": "v", "seed": 1, "vacant": ["nobody"]})
    assert set(out) == {"id", "error"}
    assert "nobody" in out["error"]


def test_simulator_prints_a_json_summary_last():
    done = run_module("chalicelib.simulate", "--games", "20", "--seed", "3")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(report["win_rate"]) == {"human", "oni"}
    assert all(0 <= rate <= 1 for rate in report["win_rate"].values())
    assert sum(report["win_rate"].values()) == pytest.approx(1)
    days = report["ending_day"]
    assert days
    assert all(1 <= int(d) <= 14 for d in days)
    assert sum(days.values()) == 20
    assert report["games_per_second"] > 0
    again = run_module("chalicelib.simulate", "--games", "20", "--seed", "3")
    report_again = json.loads(again.stdout.strip().splitlines()[-1])
    assert report_again["win_rate"] == report["win_rate"]
    assert report_again["ending_day"] == days


# ----- the output line -----


def check_shape(out: Mapping[str, Any]) -> None:
    """Every field of the output line, as the contract writes it."""
    assert set(out) == OUTPUT_KEYS
    sides = out["sides"]
    assert set(sides) == set(SLOTS)
    assert Counter(sides.values()) == {"human": 9, "oni": 3, "madman": 1}

    assert set(out["random_divination"]) == {"seer_a", "seer_b"}
    for seer, seen in out["random_divination"].items():
        assert set(seen) == {"target", "result"}
        assert seen["target"] in SLOTS
        assert seen["target"] != seer
        assert seen["result"] == verdict(sides, seen["target"])
        if sides[seer] == "human":
            assert seen["result"] == "human"

    assert set(out["empathy"]) <= {"empath_a", "empath_b"}
    for empath, seen in out["empathy"].items():
        assert seen == verdict(sides, PARTNERS[empath])

    for n, morning in enumerate(out["mornings"]):
        assert set(morning) == MORNING_KEYS
        assert morning["day"] == n + 2
        assert morning["judged"] in SLOTS
        attack = morning["attack"]
        assert attack is None or (
            set(attack) == {"target", "attacker"}
            and attack["target"] in SLOTS
            and sides[attack["attacker"]] == "oni"
        )
        assassination = morning["assassination"]
        assert assassination is None or (
            set(assassination) == {"target"} and assassination["target"] in SLOTS
        )
        assert morning["deaths"][morning["judged"]] == "ash"
        assert set(morning["deaths"].values()) <= {"ash", "corpse"}
        assert Counter(morning["deaths"].values())["ash"] == 1
        for slot, result in morning["results"].items():
            assert slot in SLOTS
            assert set(result) == {"target", "verdict"}
            assert result["verdict"] in ("human", "oni", "unknown")
        for reader, dm in morning["dms"].items():
            assert set(dm) == {"from", "names"}
            assert dm["from"] == PARTNERS[reader]
            assert dm["names"] in SLOTS
            assert dm["names"] != dm["from"]
        for dead, killer in morning["killers"].items():
            assert dead in morning["deaths"]
            assert killer in SLOTS

    ending = out["ending"]
    assert ending is None or (
        set(ending) == {"winner", "by", "day"}
        and ending["winner"] in ("human", "oni")
        and ending["by"] in ("elimination", "victory_declaration", "resignation")
        and isinstance(ending["day"], int)
    )


def test_contract_example_line():
    example = {
        "id": "any",
        "seed": 42,
        "sides": {"seer_a": "oni", "guard_b": "oni", "assassin": "oni", "empath_b": "madman"},
        "dead": ["medium_a"],
        "vacant": ["commoner_d"],
        "days": [
            {
                "actions": {
                    "seer_b": {"pray": "medium_b", "divine": "guard_b"},
                    "guard_b": {"attack": "seer_b", "attacker": "guard_b"},
                },
                "declared_at": "day",
            }
        ],
    }
    out = ok(example)
    check_shape(out)
    assert out["id"] == "any"
    assert out["sides"] == {s: example["sides"].get(s, "human") for s in SLOTS}
    assert out["empathy"] == {"empath_a": "human", "empath_b": "human"}  # the madman looks human
    [morning] = out["mornings"]
    assert morning["day"] == 2
    assert morning["judged"] == "medium_b"  # the only prayer
    assert morning["attack"] == {"target": "seer_b", "attacker": "guard_b"}  # the only votes
    assert morning["deaths"]["seer_b"] == "corpse"
    assert morning["killers"]["seer_b"] == "guard_b"
    assert "seer_b" not in morning["results"]  # the seer died
    assert "medium_a" not in morning["results"]  # dead since day 1
    assert "medium_a" not in morning["deaths"]
    assert out["ending"] is None


def test_a_whole_game_morning_by_morning():
    night1 = merge(
        all_pray("empath_a", other="seer_a"),
        oni_vote(attack="commoner_b", attacker="commoner_a"),
        {
            "assassin": {"assassinate": "medium_b"},
            "seer_a": {"divine": "commoner_c"},
            "seer_b": {"divine": "commoner_b"},
            "guard_a": {"guard": "seer_a"},
        },
    )
    alive2 = [s for s in SLOTS if s not in ("empath_a", "commoner_b", "medium_b")]
    night2 = merge(
        all_pray("seer_b", alive2, other="medium_a"),
        oni_vote(attack="medium_a", attacker="commoner_c"),  # the dead medium_b votes too
        {
            "guard_a": {"guard": "medium_a"},
            "guard_b": {"guard": "medium_a"},
            "commoner_c": {"dm": "assassin"},
            "seer_a": {"divine": "commoner_d"},
        },
    )
    alive3 = ["seer_a", "medium_a", "empath_b", "commoner_a", "commoner_d", "assassin"]
    night3 = merge(
        all_pray("commoner_a", alive3, other="seer_a"),
        {"commoner_a": {"attack": "assassin", "attacker": "commoner_a"}},
    )
    ignored = {"nobody": {"bogus": "seer_a"}}  # after the ending: never read
    out = ok(scenario([day(night1), day(night2), day(night3), day(ignored)]))
    check_shape(out)
    assert out["empathy"] == {"empath_a": "human", "empath_b": "human"}
    assert out["mornings"] == [
        {
            "day": 2,
            "judged": "empath_a",
            "attack": {"target": "commoner_b", "attacker": "commoner_a"},
            "assassination": {"target": "medium_b"},
            "deaths": {"empath_a": "ash", "commoner_b": "corpse", "medium_b": "corpse"},
            "results": {
                "seer_a": {"target": "commoner_c", "verdict": "oni"},
                "seer_b": {"target": "commoner_b", "verdict": "unknown"},
                "medium_a": {"target": "empath_a", "verdict": "human"},
                "assassin": {"target": "medium_b", "verdict": "oni"},
            },
            "dms": {"commoner_a": {"from": "commoner_b", "names": "commoner_a"}},
            "killers": {"commoner_b": "commoner_a", "medium_b": "assassin"},
        },
        {
            "day": 3,
            "judged": "seer_b",
            "attack": {"target": "medium_a", "attacker": "commoner_c"},
            "assassination": None,
            "deaths": {
                "seer_b": "ash",
                "commoner_c": "corpse",
                "guard_a": "corpse",
                "guard_b": "corpse",
            },
            "results": {
                "seer_a": {"target": "commoner_d", "verdict": "human"},
                "medium_a": {"target": "seer_b", "verdict": "human"},
            },
            "dms": {"commoner_d": {"from": "commoner_c", "names": "assassin"}},
            "killers": {"guard_a": "commoner_c", "guard_b": "commoner_c"},
        },
        {
            "day": 4,
            "judged": "commoner_a",
            "attack": {"target": "assassin", "attacker": "commoner_a"},
            "assassination": None,
            "deaths": {"commoner_a": "ash", "assassin": "corpse"},
            "results": {"medium_a": {"target": "commoner_a", "verdict": "oni"}},
            "dms": {},
            "killers": {"assassin": "commoner_a"},
        },
    ]
    assert out["ending"] == {"winner": "human", "by": "elimination", "day": 4}


def test_id_is_echoed_as_given():
    for given_id in ("any", 17, None, "日本語"):
        assert ok({"id": given_id, "seed": 1})["id"] == given_id
        assert run({"id": given_id, "seed": 1, "days": [{"actions": {"x": {}}}]})["id"] == given_id


def test_no_days_gives_day_one_only():
    out = ok({"id": "quiet", "seed": 5})
    check_shape(out)
    assert out["mornings"] == []
    assert out["ending"] is None
    assert set(out["empathy"]) == {"empath_a", "empath_b"}


# ----- sides -----


def test_given_sides_are_kept_and_unlisted_slots_are_human():
    given_sides = {"seer_a": "oni", "guard_b": "oni", "assassin": "oni", "empath_b": "madman"}
    for seed in range(5):
        out = ok({"id": "s", "seed": seed, "sides": given_sides})
        assert out["sides"] == {s: given_sides.get(s, "human") for s in SLOTS}
    explicit = {**given_sides, "seer_b": "human"}
    assert ok({"id": "s", "seed": 1, "sides": explicit})["sides"]["seer_b"] == "human"


def test_absent_sides_are_drawn_from_the_seed():
    drawn = [ok({"id": "d", "seed": seed})["sides"] for seed in range(30)]
    for sides in drawn:
        assert Counter(sides.values()) == {"human": 9, "oni": 3, "madman": 1}
    assert drawn == [ok({"id": "d", "seed": seed})["sides"] for seed in range(30)]
    assert len({json.dumps(sides, sort_keys=True) for sides in drawn}) > 20
    oni_slots = Counter(slot for sides in drawn for slot, side in sides.items() if side == "oni")
    assert len(oni_slots) > 6  # not always the same slots


@pytest.mark.parametrize(
    "bad_sides",
    [
        {"seer_a": "oni", "seer_b": "oni", "empath_b": "madman"},  # 2 oni
        {
            "seer_a": "oni",
            "seer_b": "oni",
            "medium_a": "oni",
            "medium_b": "oni",
            "guard_a": "madman",
        },
        {"seer_a": "oni", "seer_b": "oni", "medium_a": "oni"},  # no madman
        {"seer_a": "oni", "seer_b": "oni", "medium_a": "oni", "guard_a": "wolf"},
        {"seer_a": "oni", "seer_b": "oni", "medium_a": "oni", "villager": "madman"},
    ],
)
def test_sides_that_are_not_3_oni_and_1_madman_are_refused(bad_sides):
    refused({"id": "bad sides", "seed": 1, "sides": bad_sides})


def test_random_divination_of_a_human_seer_is_never_an_oni():
    for seed in range(40):
        out = ok({"id": "r", "seed": seed})
        check_shape(out)
        for seer, seen in out["random_divination"].items():
            if out["sides"][seer] == "human":
                assert out["sides"][seen["target"]] != "oni"


def test_random_divination_of_an_oni_side_seer_can_be_an_oni():
    sides = {"seer_a": "oni", "seer_b": "madman", "medium_a": "oni", "guard_a": "oni"}
    results = {
        ok({"id": "r", "seed": seed, "sides": sides})["random_divination"][seer]["result"]
        for seed in range(60)
        for seer in ("seer_a", "seer_b")
    }
    assert results == {"human", "oni"}


def test_empathy_shows_the_madman_as_human():
    sides = {"seer_a": "oni", "seer_b": "oni", "medium_a": "oni", "empath_b": "madman"}
    assert ok({"id": "e", "seed": 1, "sides": sides})["empathy"] == {
        "empath_a": "human",
        "empath_b": "human",
    }
    sides = {"empath_a": "oni", "seer_b": "oni", "medium_a": "oni", "empath_b": "madman"}
    assert ok({"id": "e", "seed": 1, "sides": sides})["empathy"] == {
        "empath_a": "human",
        "empath_b": "oni",
    }


# ----- dead and vacant -----


def test_empathy_lists_only_empaths_alive_when_day_1_starts():
    assert set(ok(scenario(dead=["empath_a"]))["empathy"]) == {"empath_b"}
    assert ok(scenario(dead=["empath_a", "empath_b"]))["empathy"] == {}
    later = ok(scenario([day(all_pray("empath_a"))]))  # dies on night 1: still listed
    assert set(later["empathy"]) == {"empath_a", "empath_b"}
    assert set(ok(scenario(vacant=["empath_a"]))["empathy"]) == {"empath_a", "empath_b"}


def test_the_dead_at_start_never_die_again_and_learn_nothing():
    dead = ["medium_a", "seer_b", "guard_a"]
    alive = [s for s in SLOTS if s not in dead]
    for seed in range(10):
        out = ok(
            {"id": "d", "seed": seed, "sides": SIDES, "dead": dead, "days": [{"actions": {}}] * 5}
        )
        check_shape(out)
        for morning in out["mornings"]:
            assert not set(dead) & set(morning["deaths"])
            assert not set(dead) & set(morning["results"])
            assert morning["judged"] in alive
    assert ok(scenario([day(all_pray("seer_a", alive))], dead=dead))["mornings"][0]["judged"] == (
        "seer_a"
    )


def test_dead_oni_side_members_still_vote_the_attack():
    dead = ["commoner_a", "commoner_c", "commoner_d"]  # only medium_b is alive on the oni side
    votes = oni_vote(attack="guard_b", attacker="medium_b", voters=dead)
    for seed in range(10):
        out = ok({**scenario([day(votes)], dead=dead), "seed": seed})
        assert out["mornings"][0]["attack"] == {"target": "guard_b", "attacker": "medium_b"}


def test_all_oni_dead_at_start_means_no_attack_and_a_human_win():
    out = ok(scenario([day({})], dead=["medium_b", "commoner_a", "commoner_c"]))
    check_shape(out)
    [morning] = out["mornings"]
    assert morning["attack"] is None
    assert out["ending"] == {"winner": "human", "by": "elimination", "day": 2}


def test_choices_of_vacant_slots_are_ignored_even_when_invalid():
    vacant = ["seer_a", "commoner_b", "guard_a"]
    actions = {
        "seer_a": {"guard": "seer_a", "attack": "medium_b", "assassinate": "seer_a"},
        "commoner_b": {"dm": "commoner_b", "force": "seer_b", "victory": "seer_b"},
        "guard_a": {"pray": "medium_a", "guard": "medium_a"},
    }
    check_shape(ok(scenario([day(actions)], vacant=vacant)))
    both = scenario([day({"seer_b": {"divine": "seer_a"}})], vacant=["seer_b"], dead=["seer_b"])
    check_shape(ok(both))


def test_a_vacant_seer_learns_nothing():
    actions = {"seer_a": {"divine": "medium_b"}, "seer_b": {"divine": "medium_b"}}
    morning = ok(scenario([day(actions)], vacant=["seer_a"]))["mornings"][0]
    assert "seer_a" not in morning["results"]
    if "seer_b" not in morning["deaths"]:
        assert morning["results"]["seer_b"]["target"] == "medium_b"


def test_prayers_of_vacant_slots_do_not_count():
    vacant = ["seer_a", "seer_b", "medium_a", "guard_a", "guard_b"]
    actions = merge(
        {slot: {"pray": "empath_a"} for slot in vacant},
        {"commoner_b": {"pray": "empath_b"}},
    )
    for seed in range(5):
        out = ok({**scenario([day(actions)], vacant=vacant), "seed": seed})
        assert out["mornings"][0]["judged"] == "empath_b"


def test_attack_votes_of_vacant_slots_do_not_count():
    votes = oni_vote(attack="commoner_d", attacker="medium_b")  # the madman, by medium_b
    for seed in range(20):
        out = ok({**scenario([day(votes)], vacant=list(ONI_SIDE)), "seed": seed})
        attack = out["mornings"][0]["attack"]
        assert out["sides"][attack["target"]] == "human"  # all undecided: a living human


def test_declarations_of_vacant_slots_do_not_count():
    actions = {slot: {"victory": slot} for slot in ONI_SIDE[:3]}
    out = ok(scenario([day(actions)], vacant=["medium_b"]))
    assert out["ending"] is None
    assert len(out["mornings"]) == 1


# ----- declarations and the end of the line -----


@pytest.mark.parametrize(
    ("key", "winner", "by"),
    [("victory", "oni", "victory_declaration"), ("resign", "human", "resignation")],
)
@pytest.mark.parametrize(("declared_at", "shift"), [(None, 0), ("day", 0), ("night", 1)])
def test_declaration_ends_the_game_without_resolving_the_night(key, winner, by, declared_at, shift):
    first = day(merge(all_pray("empath_a"), oni_vote("commoner_b", "commoner_a")))
    picks = {"medium_b": "seer_a", "commoner_a": "seer_b", "commoner_c": "commoner_c"}
    command = day({slot: {key: pick} for slot, pick in picks.items()})
    if declared_at is not None:
        command["declared_at"] = declared_at
    after = day({"seer_a": {"pray": "seer_b"}})

    on_day_1 = ok(scenario([command, after]))
    assert on_day_1["mornings"] == []
    assert on_day_1["ending"] == {"winner": winner, "by": by, "day": 1 + shift}

    on_day_2 = ok(scenario([first, command, after]))
    assert len(on_day_2["mornings"]) == 1
    assert on_day_2["mornings"] == ok(scenario([first]))["mornings"]
    assert on_day_2["ending"] == {"winner": winner, "by": by, "day": 2 + shift}


def test_dead_oni_side_members_declare_too():
    dead = ["medium_b", "commoner_a", "commoner_d"]
    actions = {slot: {"resign": "seer_a"} for slot in dead}
    out = ok(scenario([day(actions)], dead=dead))
    assert out["ending"] == {"winner": "human", "by": "resignation", "day": 1}


def test_fewer_than_3_or_split_declarations_do_not_end_the_game():
    two = {"medium_b": {"victory": "seer_a"}, "commoner_a": {"victory": "seer_a"}}
    split = merge(two, {"commoner_c": {"resign": "seer_a"}, "commoner_d": {"resign": "seer_a"}})
    for actions in (two, split):
        out = ok(scenario([day(actions)]))
        assert out["ending"] is None
        assert len(out["mornings"]) == 1


def test_days_after_an_ending_are_ignored():
    garbage = day({"nobody": {"pray": "seer_a"}, "seer_a": {"nonsense": "x"}})
    declared = day({slot: {"victory": "seer_a"} for slot in ONI_SIDE[1:]})
    out = ok(scenario([declared, garbage, garbage]))
    assert out["ending"] == {"winner": "oni", "by": "victory_declaration", "day": 1}
    assert out["mornings"] == []

    oni_left = ["medium_b"]
    dead = ["commoner_a", "commoner_c"]
    win = day(all_pray(oni_left[0], [s for s in SLOTS if s not in dead]))
    out = ok(scenario([win, garbage, day({})], dead=dead))
    assert out["ending"] == {"winner": "human", "by": "elimination", "day": 2}
    assert len(out["mornings"]) == 1


def test_oni_win_by_elimination():
    # Left alive: 2 humans, the madman and 1 oni. A human judged and one attacked: oni ≥ humans.
    alive = ["seer_a", "seer_b", "commoner_d", "commoner_a"]
    dead = [s for s in SLOTS if s not in alive]
    actions = merge(
        {s: {"pray": "seer_a"} for s in alive if s != "seer_a"},
        {"seer_a": {"pray": "seer_b"}},
        oni_vote("seer_b", "commoner_a"),
    )
    out = ok(scenario([day(actions), day({})], dead=dead))
    assert out["mornings"][0]["deaths"] == {"seer_a": "ash", "seer_b": "corpse"}
    assert out["ending"] == {"winner": "oni", "by": "elimination", "day": 2}


# ----- a few rules through the runner -----


def test_tie_goes_to_the_humans_choice_when_humans_equal_the_oni_side():
    # 2 humans, the madman and 1 oni alive (2-1-1): a 2-2 tie goes to the humans' choice.
    alive = ["seer_a", "guard_a", "commoner_d", "commoner_a"]
    dead = [s for s in SLOTS if s not in alive]
    actions = merge(
        {"seer_a": {"pray": "commoner_a"}, "guard_a": {"pray": "commoner_a"}},
        {"commoner_d": {"pray": "seer_a"}, "commoner_a": {"pray": "seer_a"}},
        oni_vote("guard_a", "commoner_a"),
    )
    for seed in range(20):
        out = ok({**scenario([day(actions)], dead=dead), "seed": seed})
        assert out["mornings"][0]["judged"] == "commoner_a"


def test_forced_judgment_replaces_the_prayers():
    forced = {slot: {"force": "guard_b"} for slot in ("medium_b", "commoner_a", "commoner_d")}
    actions = merge(all_pray("seer_a"), forced)
    out = ok(scenario([day(actions)]))
    assert out["mornings"][0]["judged"] == "guard_b"
    assert out["mornings"][0]["deaths"]["guard_b"] == "ash"
    two = {slot: {"force": "guard_b"} for slot in ("medium_b", "commoner_a")}
    assert ok(scenario([day(merge(all_pray("seer_a"), two))]))["mornings"][0]["judged"] == (
        "seer_a"
    )


def test_assassination_passes_when_the_assassin_is_the_attacker():
    sides = {"assassin": "oni", "commoner_a": "oni", "commoner_c": "oni", "commoner_d": "madman"}
    voters = ("assassin", "commoner_a", "commoner_c", "commoner_d")
    first = merge(
        all_pray("empath_a"),
        oni_vote("seer_b", "assassin", voters),
        {"assassin": {"assassinate": "medium_a"}},
    )
    alive = [s for s in SLOTS if s not in ("empath_a", "seer_b")]
    second = merge(
        all_pray("empath_b", alive),
        oni_vote("guard_a", "commoner_a", voters),
        {"assassin": {"assassinate": "medium_a"}},
    )
    out = ok({**scenario([day(first), day(second)]), "sides": sides})
    one, two = out["mornings"]
    assert one["assassination"] is None
    assert "medium_a" not in one["deaths"]
    assert two["assassination"] == {"target": "medium_a"}
    assert two["deaths"]["medium_a"] == "corpse"
    assert two["killers"]["medium_a"] == "assassin"
    assert two["results"]["assassin"] == {"target": "medium_a", "verdict": "human"}


def test_guarded_self_attack_kills_the_oni_and_the_guard():
    actions = merge(
        all_pray("empath_a"),
        oni_vote("commoner_a", "commoner_a"),
        {"guard_b": {"guard": "commoner_a"}},
    )
    morning = ok(scenario([day(actions)]))["mornings"][0]
    assert morning["deaths"] == {"empath_a": "ash", "commoner_a": "corpse", "guard_b": "corpse"}
    assert morning["killers"] == {"guard_b": "commoner_a"}
    assert morning["dms"] == {}  # oni commoner_a set no fake DM


def test_choices_that_look_odd_but_are_valid():
    dead = ["commoner_c", "seer_b"]
    actions = {
        "commoner_a": {"attack": "commoner_a", "attacker": "commoner_a", "dm": "seer_b"},
        "commoner_c": {"attack": "medium_b", "force": "guard_a", "dm": "commoner_d"},  # dead
        "commoner_d": {"victory": "commoner_d", "attacker": "medium_b", "pray": "commoner_a"},
        "medium_b": {"resign": "seer_b", "pray": "medium_a"},
        "seer_a": {k: None for k in KEYS},  # null is undecided, for every key
    }
    check_shape(ok(scenario([day(actions)], dead=dead)))


def test_a_choice_is_checked_against_the_day_it_is_made():
    first = day(all_pray("empath_a"))
    again = day({"seer_a": {"pray": "empath_a"}})  # empath_a was judged on night 1
    refused(scenario([first, again]))
    ok(scenario([again]))


# ----- refusals: one per kind of invalid choice -----

ERRORS = {
    # wrong job
    "divine by a medium": ({"medium_a": {"divine": "seer_a"}}, {}),
    "guard by a seer": ({"seer_a": {"guard": "medium_a"}}, {}),
    "assassinate by a guard": ({"guard_a": {"assassinate": "medium_a"}}, {}),
    "dm by an oni that is no commoner": ({"medium_b": {"dm": "seer_a"}}, {}),
    # wrong side
    "attack by a human": ({"seer_a": {"attack": "medium_b"}}, {}),
    "attacker by a human": ({"seer_a": {"attacker": "commoner_a"}}, {}),
    "victory by a human": ({"seer_a": {"victory": "seer_a"}}, {}),
    "resign by a human": ({"assassin": {"resign": "seer_a"}}, {}),
    "force by a human": ({"seer_a": {"force": "medium_a"}}, {}),
    # a dead actor
    "pray by the dead": ({"medium_a": {"pray": "seer_b"}}, {"dead": ["medium_a"]}),
    "divine by a dead seer": ({"seer_a": {"divine": "seer_b"}}, {"dead": ["seer_a"]}),
    "guard by a dead guard": ({"guard_a": {"guard": "seer_b"}}, {"dead": ["guard_a"]}),
    "assassinate by a dead assassin": (
        {"assassin": {"assassinate": "seer_b"}},
        {"dead": ["assassin"]},
    ),
    "pray by a dead oni": ({"medium_b": {"pray": "seer_b"}}, {"dead": ["medium_b"]}),
    # a dead target
    "pray for the dead": ({"seer_b": {"pray": "empath_a"}}, {"dead": ["empath_a"]}),
    "divine the dead": ({"seer_b": {"divine": "empath_a"}}, {"dead": ["empath_a"]}),
    "guard the dead": ({"guard_b": {"guard": "empath_a"}}, {"dead": ["empath_a"]}),
    "assassinate the dead": ({"assassin": {"assassinate": "empath_a"}}, {"dead": ["empath_a"]}),
    "attack the dead": ({"commoner_a": {"attack": "empath_a"}}, {"dead": ["empath_a"]}),
    # self
    "pray for self": ({"seer_b": {"pray": "seer_b"}}, {}),
    "divine self": ({"seer_b": {"divine": "seer_b"}}, {}),
    "guard self": ({"guard_b": {"guard": "guard_b"}}, {}),
    "assassinate self": ({"assassin": {"assassinate": "assassin"}}, {}),
    # DMs
    "dm by a human commoner": ({"commoner_b": {"dm": "commoner_a"}}, {}),
    "dm naming its writer": ({"commoner_a": {"dm": "commoner_a"}}, {}),
    "dm by the madman naming itself": ({"commoner_d": {"dm": "commoner_d"}}, {}),
    # forced judgment
    "force on an oni": ({"commoner_a": {"force": "medium_b"}}, {}),
    "force on the madman": ({"commoner_a": {"force": "commoner_d"}}, {}),
    "force on a dead human": ({"commoner_a": {"force": "empath_a"}}, {"dead": ["empath_a"]}),
    # attacker
    "attacker is the madman": ({"commoner_a": {"attacker": "commoner_d"}}, {}),
    "attacker is a human": ({"commoner_a": {"attacker": "seer_a"}}, {}),
    "attacker is a dead oni": ({"commoner_a": {"attacker": "medium_b"}}, {"dead": ["medium_b"]}),
    # unknown key or slot
    "unknown key": ({"seer_a": {"vote": "seer_b"}}, {}),
    "unknown target slot": ({"seer_a": {"pray": "villager"}}, {}),
    "unknown actor slot": ({"villager": {"pray": "seer_a"}}, {}),
    "unknown slot in dead": ({}, {"dead": ["villager"]}),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_invalid_choice_makes_the_whole_line_an_error(name):
    actions, extra = ERRORS[name]
    line = scenario([day(actions)], **extra)
    line["id"] = name
    refused(line)


@pytest.mark.parametrize("night", [0, 1])
def test_error_on_a_later_day_still_replaces_the_whole_line(night):
    days = [day(all_pray("empath_a"))] * night + [day({"seer_a": {"guard": "seer_b"}})]
    refused(scenario(days))


def test_second_assassination_is_refused():
    first = merge(
        all_pray("empath_a"),
        oni_vote("seer_b", "commoner_a"),
        {"assassin": {"assassinate": "medium_b"}},
    )
    out = ok(scenario([day(first)]))
    assert out["mornings"][0]["assassination"] == {"target": "medium_b"}
    assert "assassin" not in out["mornings"][0]["deaths"]
    second = {"assassin": {"assassinate": "commoner_a"}}
    refused(scenario([day(first), day(second)]))


# ----- determinism and random games -----


def rule_targets(actor, key, sides, alive, used) -> list[str]:
    """The valid targets of RULES §3 (independent of the engine)."""
    job = actor.split("_")[0]
    oni_side = sides[actor] != "human"
    living_others = [s for s in SLOTS if s in alive and s != actor]
    table = {
        "pray": living_others if actor in alive else [],
        "divine": living_others if job == "seer" and actor in alive else [],
        "guard": living_others if job == "guard" and actor in alive else [],
        "assassinate": living_others if job == "assassin" and actor in alive and not used else [],
        "attack": [s for s in SLOTS if s in alive],
        "attacker": [s for s in SLOTS if s in alive and sides[s] == "oni"],
        "dm": [s for s in SLOTS if s != actor] if job == "commoner" else [],
        "victory": list(SLOTS),
        "resign": list(SLOTS),
        "force": [s for s in SLOTS if s in alive and sides[s] == "human"],
    }
    if key in ("attack", "attacker", "dm", "victory", "resign", "force") and not oni_side:
        return []
    return table[key]


def random_day(rng: random.Random, sides, alive, used, vacant) -> dict[str, Any]:
    actions: dict[str, dict[str, Any]] = {}
    for actor in SLOTS:
        if actor in vacant:
            # Anything at all, valid or not: ignored.
            actions[actor] = {rng.choice(KEYS): rng.choice(SLOTS) for _ in range(3)}
            continue
        choice: dict[str, Any] = {}
        for key in KEYS:
            if key in ("victory", "resign"):
                continue
            targets = rule_targets(actor, key, sides, alive, used)
            if rng.random() < 0.1:
                choice[key] = None
            elif targets and rng.random() < 0.75:
                choice[key] = rng.choice(targets)
        if choice or rng.random() < 0.5:
            actions[actor] = choice
    line: dict[str, Any] = {"actions": actions}
    if rng.random() < 0.08:
        command = rng.choice(("victory", "resign"))
        for actor in rng.sample([s for s in SLOTS if sides[s] != "human"], 3):
            actions.setdefault(actor, {})[command] = rng.choice(SLOTS)
        line["declared_at"] = rng.choice(("day", "night"))
    return line


def check_morning(before_alive, sides, line, morning, vacant):
    """What one morning may say, given the state before it and that day's choices."""
    actions = {s: c for s, c in line["actions"].items() if s not in vacant}
    after = before_alive - set(morning["deaths"])
    assert morning["judged"] in before_alive
    assert set(morning["deaths"]) <= before_alive
    assert set(morning["results"]) <= after
    assert set(morning["dms"]) <= after
    assert set(morning["killers"]) <= set(morning["deaths"])
    living_oni = {s for s in before_alive if sides[s] == "oni"}
    attack = morning["attack"]
    if not living_oni:
        assert attack is None
    else:
        assert attack["attacker"] in living_oni
        assert attack["target"] in before_alive
        votes = [c.get("attack") for s, c in actions.items() if sides[s] != "human"]
        votes = [v for v in votes if v]
        humans = {s for s in before_alive if sides[s] == "human"}
        assert attack["target"] in (votes or humans)
        chosen = [c.get("attacker") for s, c in actions.items() if sides[s] != "human"]
        assert attack["attacker"] in ([c for c in chosen if c] or living_oni)
    if morning["assassination"]:
        assert actions.get("assassin", {}).get("assassinate") == morning["assassination"]["target"]
    for seer in ("seer_a", "seer_b"):
        target = actions.get(seer, {}).get("divine")
        if seer in after and target:
            seen = "unknown" if target in morning["deaths"] else verdict(sides, target)
            assert morning["results"][seer] == {"target": target, "verdict": seen}
        elif seer in morning["results"]:
            raise AssertionError(f"{seer} learned without divining")
    for medium in ("medium_a", "medium_b"):
        if medium in after and medium not in vacant:
            expected = {"target": morning["judged"], "verdict": verdict(sides, morning["judged"])}
            assert morning["results"][medium] == expected


def elimination_winner(sides, alive) -> str | None:
    oni = sum(1 for s in alive if sides[s] == "oni")
    humans = sum(1 for s in alive if sides[s] == "human")
    if oni == 0:
        return "human" if alive else "oni"
    return "oni" if oni >= humans else None


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_follow_the_contract(seed):
    """Builds a random game one day at a time from the runner's own answers."""
    rng = random.Random(seed)
    line: dict[str, Any] = {"id": seed, "seed": rng.randrange(10**6), "days": []}
    if rng.random() < 0.5:
        picked = rng.sample(SLOTS, 4)
        line["sides"] = {slot: "oni" for slot in picked[:3]} | {picked[3]: "madman"}
    dead = set(rng.sample(SLOTS, rng.choice((0, 0, 1, 2))))
    vacant = set(rng.sample(SLOTS, rng.choice((0, 0, 1, 2))))
    if dead:
        line["dead"] = sorted(dead)
    if vacant:
        line["vacant"] = sorted(vacant)

    out = ok(line)
    check_shape(out)
    sides = out["sides"]
    if "sides" in line:
        assert sides == {s: line["sides"].get(s, "human") for s in SLOTS}
    assert set(out["empathy"]) == {"empath_a", "empath_b"} - dead
    alive = frozenset(SLOTS) - dead
    used = False
    for n in range(14):
        if out["ending"] is not None:
            break
        next_day = random_day(rng, sides, alive, used, vacant)
        line["days"].append(next_day)
        new = ok(line)
        check_shape(new)
        assert {k: new[k] for k in ("sides", "random_divination", "empathy")} == {
            k: out[k] for k in ("sides", "random_divination", "empathy")
        }
        assert new["mornings"][: len(out["mornings"])] == out["mornings"]
        setters = Counter(
            key
            for slot, choice in next_day["actions"].items()
            if slot not in vacant and sides[slot] != "human"
            for key in ("victory", "resign")
            if choice.get(key)
        )
        if max(setters.values(), default=0) >= 3:
            assert new["mornings"] == out["mornings"]
            shift = 1 if next_day["declared_at"] == "night" else 0
            by = "victory_declaration" if setters["victory"] >= 3 else "resignation"
            winner = "oni" if by == "victory_declaration" else "human"
            assert new["ending"] == {"winner": winner, "by": by, "day": n + 1 + shift}
        else:
            assert len(new["mornings"]) == len(out["mornings"]) + 1
            morning = new["mornings"][-1]
            assert morning["day"] == n + 2
            check_morning(alive, sides, next_day, morning, vacant)
            alive = alive - set(morning["deaths"])
            used = used or morning["assassination"] is not None
            winner = elimination_winner(sides, alive)
            expected = winner and {"winner": winner, "by": "elimination", "day": n + 2}
            assert new["ending"] == expected
        out = new
    assert out["ending"] is not None, "no ending within 14 days"
    assert run(line) == out  # the same input, the same output
    line["days"].append({"actions": {"nobody": {"nothing": None}}})
    assert run(line) == out  # days after the ending are ignored
