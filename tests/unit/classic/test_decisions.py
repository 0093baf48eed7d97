"""One test per numbered entry of docs/decisions-classic.md, named after it."""

import random
from datetime import datetime, timedelta

import pytest

from chalicelib.rules.classic import NPC, Options, Role, RuleError, VoteError, deal
from chalicelib.rules.classic.pace import JST, sunset
from chalicelib.rules.classic.prologue import Prologue
from chalicelib.rules.classic.scenario import run

from .helpers import N4, N9, N13, close, everyone_votes, make, night
from .test_clauses import TIE, day2
from .test_scenario import C1, P6_ROUND, ROLES_9, TIE_ROUND, scenario
from .test_scenario import day2 as day2_line


def test_d1_draw_order_deal_then_attack_divination_guard_defaults():
    rng = random.Random(5)
    roles = deal(9, rng)
    replay = random.Random(5)
    cards = [
        r
        for r, k in {
            Role.SEER: 1,
            Role.MEDIUM: 1,
            Role.WEREWOLF: 2,
            Role.MADMAN: 1,
            Role.VILLAGER: 5,
        }.items()
        for _ in range(k)
    ]
    allowed = [i for i, r in enumerate(cards) if r not in (Role.WEREWOLF, Role.FOX, Role.SEER)]
    npc_card = cards.pop(replay.choice(allowed))
    replay.shuffle(cards)
    assert roles[NPC] is npc_card and [roles[f"p{i}"] for i in range(1, 10)] == cards
    # A night with every default: attack, then divination (no hunter at 9 players).
    village = day2(N9)
    close(village, everyone_votes(village, "p9"))
    rng = random.Random(11)
    expected = random.Random(11)
    attack = expected.choice(["p1", "p2", "p5", "p6", "p7", "p8"])
    divination = expected.choice(["p2", "p3", "p4", "p5", "p6", "p7", "p8"])
    morning = village.resolve_night({}, rng)
    assert morning.attack == attack
    assert morning.divination is not None and morning.divination.target == divination


def test_d2_a_nights_deaths_are_in_seat_order_and_a_turns_in_event_order():
    village = day2(N13)
    close(village, everyone_votes(village, "p13"))
    morning = night(village, p6={"attack": "p2"}, p1={"divine": "p9"})
    assert list(morning.deaths) == ["p2", "p9"]
    assert list(run(C1)["turns"][1]["deaths"]) == ["p8", "p6", "p9"]


def test_d3_the_seer_may_divine_again_and_the_hunter_guard_the_same_character_twice():
    spec = (
        "seer medium hunter werewolf werewolf madman villager villager villager villager villager"
    )
    village = day2(spec)
    close(village, everyone_votes(village, "p10"))
    night(village, p4={"attack": "p7"}, p3={"guard": "p6"}, p1={"divine": "p4"})
    assert village.choice_refusal("p3", "guard", "p6") is None
    assert village.choice_refusal("p1", "divine", "p4") is None


def test_d4_a_runoff_reopened_with_one_candidate_is_a_round_with_no_votes():
    village = day2(tie="runoff")
    for _ in range(3):
        close(village, TIE)
    votes = {"p1": "p2"} | dict.fromkeys(["p3", "p4", "p5", "p6", "p7", "p8", "p9"], "p1")
    _, executed = close(village, votes)
    assert executed.round == 4 and executed.votes == {} and executed.executed == "p1"


def test_d5_recasting_the_same_vote_is_not_a_change():
    village = day2()
    village.validate_vote("p1", "p3", previous="p3")
    with pytest.raises(VoteError):
        village.validate_vote("p1", "p4", previous="p3")


def test_d6_wills_due_exclude_the_scapegoat_and_sudden_deaths():
    village = make(N9)
    assert night(village).wills == []  # only the scapegoat died
    votes = everyone_votes(village, "p6")
    del votes["p9"]
    close(village, votes)  # p9 dies suddenly
    close(village, everyone_votes(village, "p6"))
    morning = night(village, p3={"attack": "p7"})
    assert morning.wills == ["p6", "p7"]


def test_d7_a_long_sunset_exactly_12_hours_after_the_morning_counts():
    morning = datetime(2026, 11, 30, 10, 0, tzinfo=JST)
    assert sunset(Options.create("long"), morning) == morning + timedelta(hours=12)
    with pytest.raises(RuleError):
        sunset(Options.create("long"), datetime(2026, 11, 30, 10, 0))


def test_d8_a_departure_drops_its_kick_votes_and_a_17th_member_cannot_join():
    room = Prologue()
    for member in "abcdef":
        room.join(member)
    room.kick("a", "f"), room.kick("b", "f"), room.kick("f", "a")
    room.leave("b")
    assert room.kicks == {"f": {"a"}, "a": {"f"}}
    room.leave("f")
    assert room.kicks == {}
    for i in range(12):
        room.join(f"x{i}")
    assert len(room.members) == 16
    with pytest.raises(RuleError):
        room.join("late")


def test_d9_a_lone_werewolf_has_an_empty_partner_list():
    assert make(N4).partners() == {"p2": []}


def test_d10_night_choices_are_checked_with_who_was_alive_at_the_start_of_the_day():
    p1_out = {"p1": "p6"} | {v: "p1" for v in ("p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9")}
    kept = run(day2_line(p1_out, night={"p1": {"divine": "p3"}}))
    assert "error" not in kept and kept["turns"][1]["night"]["divination"] is None
    refused = run(scenario(turns=[{}, {"rounds": [p1_out], "night": {"p3": {"attack": "p4"}}}]))
    assert "error" in refused


def test_d11_required_keys_and_defaults_of_the_runner():
    assert "error" in run({k: v for k, v in C1.items() if k != "id"})
    assert "error" in run(scenario(seed=True))
    assert run(scenario(turns=[{}, {}]))["stopped"] is True
    unset = run(scenario(turns=[{"night": {"p1": {"divine": None}}}]))
    assert unset["turns"][0]["night"]["divination"] is not None  # the default


def test_d12_votes_are_listed_in_seat_order():
    backwards = dict(reversed(list((P6_ROUND | {"p8": "p6"}).items())))
    out = run(day2_line(backwards))
    assert list(out["turns"][1]["rounds"][0]["votes"]) == [f"p{i}" for i in range(1, 10)]


def test_d13_stopped_only_when_a_days_rounds_run_out():
    assert "stopped" not in run(scenario(turns=[{}]))
    assert "stopped" not in run(scenario(turns=[]))
    assert run(day2_line(TIE_ROUND))["stopped"] is True


def test_d14_the_runner_plays_a_short_village():
    out = run(scenario(roles=ROLES_9, turns=[{}, {"rounds": [P6_ROUND | {"p8": "p6"}]}]))
    assert out["turns"][1]["executed"] == "p6"
