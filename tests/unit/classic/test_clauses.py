"""One or more unit tests per clause of RULES-CLASSIC.md §1–§5 (and the paces of §7), each named
after its clause.

The rule book (../shared/RULES-CLASSIC.md) is the reference: every test states what the rule says,
on a village built by hand (a deck spec in seat order, the scapegoat last) and seeded RNGs.
Statistical tests use many fixed seeds and generous tolerances, so they are deterministic.
"""

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from chalicelib.rules.classic import (
    NPC,
    Ability,
    Cause,
    ChoiceError,
    Ending,
    Judgment,
    Options,
    Outcome,
    Phase,
    PhaseError,
    PrologueError,
    Role,
    RuleError,
    SetupError,
    Team,
    Village,
    VoteError,
    Winner,
    characters,
    deal,
    deck,
    judgment_of,
)
from chalicelib.rules.classic.cast import TEAM
from chalicelib.rules.classic.pace import (
    JST,
    epilogue_deadline,
    night_deadline,
    round_deadline,
    sunset,
)
from chalicelib.rules.classic.prologue import Prologue, abandoned

from .helpers import JAPANESE, N4, N9, N10, N13, choices, close, everyone_votes, make, night

# ----- §1 Cast -----


def test_s1_members_are_4_to_16_players_plus_the_scapegoat():
    assert characters(4) == ("p1", "p2", "p3", "p4", "npc")
    assert len(characters(16)) == 17
    for n in (3, 17, 0):
        with pytest.raises(SetupError) as refused:
            Village.create(n, random.Random(0))
        assert JAPANESE.search(str(refused.value))


def test_s1_roles_and_teams_table():
    assert {str(role): str(team) for role, team in TEAM.items()} == {
        "villager": "village",
        "seer": "village",
        "medium": "village",
        "hunter": "village",
        "mason": "village",
        "werewolf": "wolves",
        "madman": "wolves",
        "fox": "fox",
    }


@pytest.mark.parametrize("n", range(4, 17))
def test_s1_deck_counts_players_not_the_scapegoat(n):
    cards = deck(n)
    assert sum(cards.values()) == n + 1
    expected = {
        Role.SEER: 1,
        Role.MEDIUM: 1 if n >= 9 else 0,
        Role.HUNTER: 1 if n >= 10 else 0,
        Role.MASON: 2 if n >= 13 else 0,
        Role.WEREWOLF: 1 if n <= 8 else 2 if n <= 15 else 3,
        Role.MADMAN: 1 if n >= 9 else 0,
        Role.FOX: 1 if n >= 13 else 0,
    }
    for role, count in expected.items():
        assert cards.get(role, 0) == count
    assert cards[Role.VILLAGER] == n + 1 - sum(expected.values())


def test_s1_deck_thresholds_at_their_edges():
    assert Role.MEDIUM not in deck(8) and deck(9)[Role.MEDIUM] == 1
    assert Role.HUNTER not in deck(9) and deck(10)[Role.HUNTER] == 1
    assert Role.MASON not in deck(12) and deck(13)[Role.MASON] == 2
    assert Role.FOX not in deck(12) and deck(13)[Role.FOX] == 1
    assert deck(8)[Role.WEREWOLF] == 1 and deck(9)[Role.WEREWOLF] == 2
    assert deck(15)[Role.WEREWOLF] == 2 and deck(16)[Role.WEREWOLF] == 3


@pytest.mark.parametrize("n", [4, 9, 13, 16])
def test_s1_dealing_gives_the_deck_and_never_a_wolf_fox_or_seer_to_the_scapegoat(n):
    for seed in range(200):
        roles = deal(n, random.Random(seed))
        assert list(roles) == list(characters(n))
        assert Counter(roles.values()) == Counter(deck(n))
        assert roles[NPC] not in (Role.WEREWOLF, Role.FOX, Role.SEER)


def test_s1_dealing_draws_the_scapegoats_card_uniformly_among_allowed_cards():
    # 13 players: 14 cards, 10 allowed for the scapegoat (not 2 wolves, the fox, the seer).
    drawn = Counter(deal(13, random.Random(seed))[NPC] for seed in range(5000))
    allowed = {Role.MEDIUM: 1, Role.HUNTER: 1, Role.MASON: 2, Role.MADMAN: 1, Role.VILLAGER: 5}
    assert set(drawn) == set(allowed)
    for role, cards in allowed.items():
        assert drawn[role] == pytest.approx(5000 * cards / 10, rel=0.15)


def test_s1_dealing_deals_the_other_cards_uniformly_to_the_players():
    seats = Counter()
    for seed in range(4000):
        roles = deal(9, random.Random(seed))
        seats.update(p for p, r in roles.items() if r is Role.SEER)
    for player in ("p1", "p5", "p9"):
        assert seats[player] == pytest.approx(4000 / 9, rel=0.2)


def test_s1_npc_villager_option_the_scapegoat_always_holds_a_villager_card():
    for seed in range(200):
        assert deal(13, random.Random(seed), npc_villager=True)[NPC] is Role.VILLAGER
    make(N9, npc_villager=True)  # accepted: the scapegoat holds a villager card
    with pytest.raises(SetupError):
        make(N9.replace("madman", "villager")[: -len("villager")] + "madman", npc_villager=True)


def test_s1_given_roles_must_be_the_deck_and_legal_for_the_scapegoat():
    make(N9)  # accepted
    with pytest.raises(SetupError):  # 3 werewolves in a 9-player village
        make(N9.replace("madman", "werewolf"))
    with pytest.raises(SetupError):  # the scapegoat holds the seer
        make("villager werewolf villager villager seer")


NPC_HUNTER = (
    "seer medium villager werewolf werewolf madman villager villager villager villager hunter"
)
NPC_MASON = (
    "seer medium hunter mason villager werewolf werewolf madman fox"
    " villager villager villager villager mason"
)


def test_s1_the_scapegoat_never_acts_or_votes():
    village = make(NPC_HUNTER)
    assert village.roles[NPC] is Role.HUNTER
    assert village.choice_keys(NPC) == []
    assert isinstance(village.choice_refusal(NPC, Ability.GUARD, "p1"), ChoiceError)
    night(village)
    assert NPC not in village.voters()
    assert isinstance(village.vote_refusal(NPC, "p1"), VoteError)


def test_s1_the_scapegoat_holding_the_hunter_card_guards_nobody_and_is_not_waited_for():
    village = make(NPC_HUNTER)
    night(village)  # night 1: the scapegoat dies
    close(village, everyone_votes(village, "p7"))
    morning_choices = choices(p4={"attack": "p1"}, p1={"divine": "p4"})
    assert village.night_may_close_early(morning_choices)
    morning = village.resolve_night(morning_choices, random.Random(0))
    assert morning.guard is None and morning.deaths == {"p1": Cause.ATTACK}


def test_s1_the_scapegoat_holding_the_medium_card_learns_nothing():
    village = make(
        "seer villager werewolf werewolf madman villager villager villager villager medium"
    )
    morning = night(village)
    assert morning.news.keys() == {"p1"}


def test_s1_a_scapegoat_mason_is_named_to_the_other_mason():
    village = make(NPC_MASON)
    assert village.start_info("p4") == {"role": "mason", "partners": ["npc"]}
    assert "npc" not in village.partners()


def test_s1_at_the_start_each_learns_their_role_wolves_and_masons_their_partners():
    village = make(N13)
    assert village.start_info("p6") == {"role": "werewolf", "partners": ["p7"]}
    assert village.start_info("p7") == {"role": "werewolf", "partners": ["p6"]}
    assert village.start_info("p4") == {"role": "mason", "partners": ["p5"]}
    assert village.start_info("p8") == {"role": "madman", "partners": []}
    assert village.start_info("p9") == {"role": "fox", "partners": []}
    assert village.start_info("p1") == {"role": "seer", "partners": []}
    assert village.partners() == {"p4": ["p5"], "p5": ["p4"], "p6": ["p7"], "p7": ["p6"]}


def test_s1_public_cast_list_counts_the_deck_with_the_scapegoats_card():
    village = make(N9)
    assert village.public_cast() == {
        "seer": 1,
        "medium": 1,
        "werewolf": 2,
        "madman": 1,
        "villager": 5,
    }
    assert list(make(N13).public_cast()) == [
        "seer",
        "medium",
        "hunter",
        "mason",
        "werewolf",
        "madman",
        "fox",
        "villager",
    ]


def test_s1_judgment_is_wolf_for_werewolves_only():
    assert {role: judgment_of(role) for role in Role} == {
        role: Judgment.WOLF if role is Role.WEREWOLF else Judgment.HUMAN for role in Role
    }


# ----- §2.1 Prologue -----


def prologue(*members: str) -> Prologue:
    room = Prologue()
    for member in members:
        room.join(member)
    return room


def test_s2_1_start_the_moment_every_member_voted_and_there_are_min_members():
    room = prologue("a", "b", "c", "d")
    for member in ("a", "b", "c"):
        room.vote_start(member)
        assert not room.ready(4)
    room.vote_start("d")
    assert room.ready(4)
    assert not room.ready(5)
    room.vote_start("b", on=False)  # withdrawn
    assert not room.ready(4)


def test_s2_1_kick_votes_from_3_other_members_remove_a_member_at_once():
    room = prologue("a", "b", "c", "d", "e")
    assert room.kick("a", "e") is False
    assert room.kick("b", "e") is False
    room.kick("b", "e", on=False)
    assert room.kick("b", "e") is False
    assert room.kick("c", "e") is True
    assert room.members == ["a", "b", "c", "d"]
    with pytest.raises(PrologueError):
        room.kick("a", "a")  # a self-kick is leaving


def test_s2_1_leaving_is_free_and_the_place_left_takes_a_newcomer():
    """Who left may never rejoin: a person, which the platform keeps by account
    (tests/integration/test_join_leave.py); the place itself is free again."""
    room = prologue("a", "b", "c", "d")
    room.leave("b")
    room.kick("a", "d"), room.kick("c", "d")
    room.join("x")
    assert room.kick("x", "d") is True
    assert room.members == ["a", "c", "x"]
    room.join("b"), room.join("d")
    assert room.members == ["a", "c", "x", "b", "d"]


def test_s2_1_a_game_stored_with_the_places_left_still_loads():
    stored = {"members": ["a"], "start_votes": [], "kicks": {}, "departed": ["b"]}
    room = Prologue.from_json(stored)
    room.join("b")
    assert room.to_json() == {"members": ["a", "b"], "start_votes": [], "kicks": {}}


def test_s2_1_every_departure_clears_all_start_votes():
    room = prologue("a", "b", "c", "d", "e")
    for member in room.members:
        room.vote_start(member)
    room.leave("e")
    assert room.start_votes == set()
    assert not room.ready(4)


def test_s2_1_idle_members_after_24_hours_and_abandonment_after_72():
    room = prologue("a", "b")
    t0 = datetime(2026, 11, 30, tzinfo=UTC)
    seen = {"a": t0, "b": t0 + timedelta(hours=1)}
    assert room.idle(seen, t0 + timedelta(hours=24)) == ["a"]
    assert room.idle(seen, t0 + timedelta(hours=23, minutes=59)) == []
    assert not abandoned(t0, t0 + timedelta(hours=71, minutes=59))
    assert abandoned(t0, t0 + timedelta(hours=72))


def test_s2_1_seat_order_is_join_order_of_those_still_members():
    room = prologue("a", "b", "c", "d", "e")
    room.leave("b")
    assert room.seats() == {"p1": "a", "p2": "c", "p3": "d", "p4": "e"}
    assert Prologue.from_json(room.to_json()) == room


# ----- §2.2 Start -----


def test_s2_2_with_opening_day_1_has_talk_no_vote_and_its_sunset_begins_night_1():
    village = make(N9, opening=True)
    assert (village.day, village.phase) == (1, Phase.DAY)
    assert village.voters() == [] and not village.voting
    assert isinstance(village.vote_refusal("p1", "p2"), PhaseError)
    village.sunset()
    assert village.phase is Phase.NIGHT and village.day == 1


def test_s2_2_without_opening_night_1_begins_at_once():
    village = make(N9)
    assert (village.day, village.phase) == (1, Phase.NIGHT)
    with pytest.raises(PhaseError):
        village.sunset()


# ----- §2.3 Day N -----

TIE = {"p1": "p2", "p2": "p1", "p3": "p1", "p4": "p2", "p5": "p3"}
TIE |= {"p6": "p4", "p7": "p5", "p8": "p6", "p9": "p7"}


def day2(spec: str = N9, **options: object) -> Village:
    village = make(spec, **options)
    night(village)
    assert village.voting and village.round == 1
    return village


def test_s2_3_2_each_living_member_votes_for_a_living_member_other_than_themself():
    village = day2()
    assert village.voters() == [f"p{i}" for i in range(1, 10)]
    assert village.vote_targets("p1") == [f"p{i}" for i in range(2, 10)]
    assert isinstance(village.vote_refusal("p1", "p1"), VoteError)
    assert isinstance(village.vote_refusal("p1", NPC), VoteError)  # dead
    close(village, everyone_votes(village, "p6"))
    night(village, p3={"attack": "p7"})
    assert isinstance(village.vote_refusal("p6", "p1"), VoteError)  # dead voter
    assert isinstance(village.vote_refusal("p1", "p7"), VoteError)  # dead target
    for error in (village.vote_refusal("p1", "p1"), village.vote_refusal("p6", "p1")):
        assert JAPANESE.search(str(error))


def test_s2_3_2_votes_are_final_in_a_short_village_changeable_in_a_long_one():
    short = day2()
    with pytest.raises(VoteError):
        short.validate_vote("p1", "p3", previous="p2")
    short.validate_vote("p1", "p3")
    long = day2(pace="long")
    long.validate_vote("p1", "p3", previous="p2")


def test_s2_3_4_a_round_may_close_early_once_all_who_must_vote_have_voted():
    village = day2()
    votes = everyone_votes(village, "p6")
    assert village.round_may_close_early(votes)
    del votes["p9"]
    assert not village.round_may_close_early(votes)
    long = day2(pace="long")
    assert not long.round_may_close_early(everyone_votes(long, "p6"))


def test_s2_3_4_1_who_did_not_vote_dies_suddenly_and_the_same_round_reopens():
    village = day2()
    votes = everyone_votes(village, "p6")
    del votes["p8"], votes["p9"]
    [result] = close(village, votes)
    assert (result.round, result.outcome, result.sudden) == (1, Outcome.SUDDEN, ["p8", "p9"])
    assert not result.published  # the votes are cleared, not published
    assert village.deaths["p8"].cause is Cause.SUDDEN
    assert village.voting and village.round == 1 and "p8" not in village.voters()
    [result] = close(village, everyone_votes(village, "p6"))
    assert (result.round, result.outcome) == (1, Outcome.EXECUTED)


def test_s2_3_4_1_sudden_deaths_check_victory():
    village = day2(N4)
    [result] = close(village, {"p1": "p2", "p2": "p1"})  # p3 and p4 die
    assert result.outcome is Outcome.SUDDEN
    assert village.ending == Ending(Winner.WOLVES, 2)
    assert village.phase is Phase.EPILOGUE


def test_s2_3_4_2_a_unique_top_is_executed_and_the_night_begins():
    village = day2()
    [result] = close(village, everyone_votes(village, "p6"))
    assert result.outcome is Outcome.EXECUTED and result.executed == "p6"
    assert result.published
    assert village.deaths["p6"].cause is Cause.EXECUTION
    assert village.phase is Phase.NIGHT and not village.voting and village.executed == "p6"


def test_s2_3_4_2_an_execution_checks_victory():
    village = day2(N4)
    close(village, everyone_votes(village, "p2"))
    assert village.ending == Ending(Winner.VILLAGE, 2)


def test_s2_3_4_3_random_tie_executes_one_of_those_tied_uniformly():
    executed = Counter()
    for seed in range(400):
        village = day2(tie="random")
        [result] = close(village, TIE, seed=seed)
        assert result.outcome is Outcome.EXECUTED
        executed[result.executed] += 1
    assert set(executed) == {"p1", "p2"}
    assert executed["p1"] == pytest.approx(200, abs=40)


def test_s2_3_4_3_bbs_full_revotes_and_a_tie_in_the_6th_counted_round_is_a_draw():
    village = day2(tie="bbs")
    for number in range(1, 6):
        [result] = close(village, TIE)
        assert (result.round, result.outcome) == (number, Outcome.TIE)
        assert village.round == number + 1 and village.candidates is None
    [result] = close(village, TIE)
    assert (result.round, result.outcome) == (6, Outcome.DRAW)
    assert village.ending == Ending(Winner.DRAW, 2)


def test_s2_3_4_3_runoff_rounds_2_and_3_are_full_and_round_4_is_among_those_tied():
    village = day2(tie="runoff")
    for _ in range(3):
        assert village.candidates is None
        close(village, TIE)
    assert village.round == 4 and village.candidates == ["p1", "p2"]
    assert village.vote_targets("p5") == ["p1", "p2"]
    assert village.vote_targets("p1") == ["p2"]  # a candidate votes for another candidate
    assert isinstance(village.vote_refusal("p5", "p3"), VoteError)
    votes = {"p1": "p2", "p2": "p1"} | dict.fromkeys(["p3", "p4", "p5", "p6"], "p1")
    [result] = close(village, votes | {"p7": "p2", "p8": "p2", "p9": "p2"})
    assert result.outcome is Outcome.EXECUTED and result.executed == "p1"


def test_s2_3_4_3_runoff_a_tie_in_round_4_is_a_draw():
    village = day2(tie="runoff")
    for _ in range(3):
        close(village, TIE)
    votes = {"p1": "p2", "p2": "p1"} | dict.fromkeys(["p3", "p4", "p5"], "p1")
    votes |= dict.fromkeys(["p6", "p7", "p8"], "p2")
    [sudden] = close(village, votes)  # p9 did not vote
    assert (sudden.round, sudden.outcome, sudden.sudden) == (4, Outcome.SUDDEN, ["p9"])
    assert village.candidates == ["p1", "p2"]  # same number, same candidates
    [result] = close(village, votes)
    assert (result.round, result.outcome) == (4, Outcome.DRAW)
    assert village.ending == Ending(Winner.DRAW, 2)


def test_s2_3_runoff_single_candidate_executed_at_once():
    village = day2(tie="runoff")
    for _ in range(3):
        close(village, TIE)
    votes = {"p1": "p2"} | dict.fromkeys(["p3", "p4", "p5", "p6", "p7", "p8", "p9"], "p1")
    sudden, executed = close(village, votes)  # p2 did not vote
    assert sudden.outcome is Outcome.SUDDEN and sudden.sudden == ["p2"]
    assert (executed.round, executed.votes, executed.sudden) == (4, {}, [])
    assert executed.outcome is Outcome.EXECUTED and executed.executed == "p1"
    assert village.phase is Phase.NIGHT


def test_s2_3_runoff_with_no_living_candidate_reopens_as_a_full_vote_and_its_tie_is_a_draw():
    village = day2(tie="runoff")
    for _ in range(3):
        close(village, TIE)
    votes = dict.fromkeys(["p3", "p4", "p5", "p6", "p7", "p8", "p9"], "p1")
    [sudden] = close(village, votes)  # both candidates died
    assert sudden.sudden == ["p1", "p2"]
    assert village.round == 4 and village.candidates is None
    assert village.vote_targets("p3") == ["p4", "p5", "p6", "p7", "p8", "p9"]
    tie = {"p3": "p6", "p4": "p6", "p5": "p7", "p6": "p7", "p7": "p8", "p8": "p9", "p9": "p3"}
    [result] = close(village, tie)
    assert (result.round, result.outcome) == (4, Outcome.DRAW)


def test_s2_3_runoff_a_candidate_with_no_other_living_candidate_does_not_vote():
    village = day2(tie="runoff")
    for _ in range(3):
        close(village, TIE)
    # Only reachable by hand: the round cannot stay open with one living candidate.
    village.deaths["p2"] = village.deaths[NPC].__class__(2, Cause.SUDDEN)
    assert "p1" not in village.voters()
    assert isinstance(village.vote_refusal("p1", "p3"), VoteError)


# ----- §2.4 Night N -----


def test_s2_4_night_1_the_attack_is_the_scapegoat_and_the_wolves_are_not_asked():
    village = make(N9)
    assert village.choice_keys("p3") == []
    error = village.choice_refusal("p3", Ability.ATTACK, "p6")
    assert isinstance(error, ChoiceError) and JAPANESE.search(str(error))
    morning = night(village)
    assert morning.attack == NPC and morning.deaths == {NPC: Cause.ATTACK}


def test_s2_4_wolves_attack_a_living_character_who_is_not_a_werewolf():
    village = day2()
    assert village.choice_keys("p3") == [Ability.ATTACK]
    assert village.choice_targets("p3", Ability.ATTACK) == [
        "p1",
        "p2",
        "p5",
        "p6",
        "p7",
        "p8",
        "p9",
    ]
    for target in ("p4", "p3", NPC):
        assert isinstance(village.choice_refusal("p3", Ability.ATTACK, target), ChoiceError)
    assert isinstance(village.choice_refusal("p1", Ability.ATTACK, "p6"), ChoiceError)


def test_s2_4_the_seer_divines_a_living_character_other_than_themself_npc_on_night_1():
    village = make(N9)
    assert village.choice_keys("p1") == [Ability.DIVINE]
    assert village.choice_targets("p1", Ability.DIVINE) == [f"p{i}" for i in range(2, 10)] + [NPC]
    morning = night(village, p1={"divine": NPC})
    assert morning.divination is not None and morning.divination.target == NPC
    assert isinstance(village.choice_refusal("p1", Ability.DIVINE, NPC), ChoiceError)  # dead now


def test_s2_4_the_hunter_guards_from_night_2_a_living_character_other_than_themself():
    village = make(N10)
    assert village.choice_keys("p3") == []
    assert isinstance(village.choice_refusal("p3", Ability.GUARD, "p1"), ChoiceError)
    assert night(village).guard is None
    assert village.choice_keys("p3") == [Ability.GUARD]
    assert village.choice_targets("p3", Ability.GUARD) == [f"p{i}" for i in range(1, 11) if i != 3]


def test_s2_4_choices_may_be_set_from_the_start_of_the_preceding_day():
    village = day2(N10)
    assert village.phase is Phase.DAY
    assert village.choice_refusal("p4", Ability.ATTACK, "p6") is None
    assert village.choice_refusal("p3", Ability.GUARD, "p6") is None
    assert village.choice_refusal("p1", Ability.DIVINE, "p4") is None
    not_the_hunter = village.choice_refusal("p1", Ability.GUARD, "p4")
    assert isinstance(not_the_hunter, ChoiceError)


def test_s2_4_a_choice_whose_actor_or_target_died_before_the_close_does_not_count():
    village = day2()
    saved = choices(p4={"attack": "p7"}, p3={"attack": "p6"})
    close(village, everyone_votes(village, "p6"))  # p3's target is executed
    morning = village.resolve_night(saved, random.Random(0))
    assert morning.attack == "p7"
    village = day2()
    close(village, everyone_votes(village, "p3"))  # the last wolf to save is executed
    assert village.resolve_night(saved, random.Random(0)).attack == "p7"


def test_s2_4_early_close_from_night_2_when_every_living_ability_counts():
    village = day2(N10)
    close(village, everyone_votes(village, "p7"))
    full = choices(p4={"attack": "p6"}, p1={"divine": "p4"}, p3={"guard": "p6"})
    assert village.night_may_close_early(full)
    assert not village.night_may_close_early({k: v for k, v in full.items() if k != "p3"})
    assert not village.night_may_close_early(
        choices(p4={"attack": "p7"}, **{"p1": {"divine": "p4"}, "p3": {"guard": "p6"}})
    )  # p7 is dead: no counting attack
    long = day2(N10, pace="long")
    close(long, everyone_votes(long, "p7"))
    assert not long.night_may_close_early(full)


def test_s2_4_night_1_never_closes_early():
    village = make(N9)
    assert not village.night_may_close_early(choices(p1={"divine": "p3"}))


# ----- §2.5 Ending -----


def test_s2_5_the_ending_begins_the_epilogue_where_nothing_more_is_played():
    village = day2(N4)
    close(village, everyone_votes(village, "p2"))
    assert village.phase is Phase.EPILOGUE and not village.running
    assert isinstance(village.vote_refusal("p1", "p3"), PhaseError)
    assert village.choice_keys("p1") == []
    with pytest.raises(PhaseError):
        village.resolve_night({}, random.Random(0))
    with pytest.raises(PhaseError):
        close(village, {})


# ----- §3 Choices that are not made -----


def test_s3_the_attack_saved_most_recently_among_the_living_wolves_counts():
    village = day2()
    close(village, everyone_votes(village, "p6"))
    assert night(village, p3={"attack": "p7"}, p4={"attack": "p8"}).attack == "p8"
    village = day2()
    close(village, everyone_votes(village, "p6"))
    assert night(village, p4={"attack": "p8"}, p3={"attack": "p7"}).attack == "p7"


def test_s3_every_wolf_sees_the_current_attack_and_who_set_it():
    village = day2()
    saved = choices(p3={"attack": "p7"}, p4={"attack": "p8"})
    assert village.current_attack(saved) == ("p4", "p8")
    assert village.current_attack({}) is None
    close(village, everyone_votes(village, "p4"))  # the last setter is executed
    assert village.current_attack(saved) == ("p3", "p7")


def test_s3_no_attack_is_drawn_uniformly_among_living_non_wolves_the_fox_included():
    attacked = Counter()
    for seed in range(1100):
        village = day2(N13)
        close(village, everyone_votes(village, "p13"))
        attacked[night(village, seed=seed, p1={"divine": "p2"}).attack] += 1
    expected = {"p1", "p2", "p3", "p4", "p5", "p8", "p9", "p10", "p11", "p12"}
    assert set(attacked) == expected
    for target in expected:
        assert attacked[target] == pytest.approx(110, abs=40)


def test_s3_no_divination_is_drawn_among_living_players_other_than_the_seer_never_npc():
    divined = Counter()
    for seed in range(800):
        divination = night(make(N9), seed=seed).divination
        assert divination is not None
        divined[divination.target] += 1
    assert set(divined) == {f"p{i}" for i in range(2, 10)}
    assert min(divined.values()) > 60


def test_s3_no_guard_is_drawn_among_living_characters_other_than_the_hunter():
    guarded = Counter()
    for seed in range(900):
        village = day2(N10)
        close(village, everyone_votes(village, "p10"))
        guarded[night(village, seed=seed, p4={"attack": "p6"}, p1={"divine": "p2"}).guard] += 1
    assert set(guarded) == {"p1", "p2", "p4", "p5", "p6", "p7", "p8", "p9"}
    assert min(guarded.values()) > 70


# ----- §4 Night resolution -----


def night2(spec: str = N13, executed: str = "p13") -> Village:
    village = day2(spec)
    close(village, everyone_votes(village, executed))
    assert village.phase is Phase.NIGHT
    return village


def test_s4_1_a_guard_holds_against_the_attack_and_the_hunter_learns_gj():
    morning = night(night2(), p6={"attack": "p10"}, p3={"guard": "p10"}, p1={"divine": "p2"})
    assert morning.gj and morning.deaths == {} and morning.found_dead == []
    assert morning.news["p3"].gj
    assert morning.to_json()["news"]["p3"] == {"gj": True}


def test_s4_2_the_seer_learns_the_judgment_and_a_divined_fox_dies_guarded_or_not():
    morning = night(night2(), p6={"attack": "p10"}, p3={"guard": "p9"}, p1={"divine": "p9"})
    assert morning.divination is not None
    assert morning.divination.to_json() == {"target": "p9", "result": "human"}
    assert morning.deaths == {"p9": Cause.CURSE, "p10": Cause.ATTACK}
    wolf = night(night2(), p6={"attack": "p10"}, p1={"divine": "p7"})
    assert wolf.news["p1"].divination.result is Judgment.WOLF


def test_s4_3_an_attacked_fox_survives_and_learns_it_guarded_or_not_with_no_gj():
    morning = night(night2(), p6={"attack": "p9"}, p3={"guard": "p9"}, p1={"divine": "p2"})
    assert morning.attack == "p9" and morning.deaths == {} and not morning.gj
    assert morning.news["p9"].attacked and "p3" not in morning.news
    assert morning.to_json()["news"]["p9"] == {"attacked": True}


def test_s4_3_an_unguarded_target_dies():
    morning = night(night2(), p6={"attack": "p10"}, p3={"guard": "p11"}, p1={"divine": "p2"})
    assert morning.deaths == {"p10": Cause.ATTACK} and not morning.gj


def test_s4_4_the_living_medium_learns_the_judgment_of_who_was_executed_that_day():
    village = night2(N13, executed="p6")
    morning = night(village, p7={"attack": "p10"}, p1={"divine": "p2"})
    assert morning.news["p2"].medium.to_json() == {"target": "p6", "result": "wolf"}
    assert night(night2(N13, "p8"), p6={"attack": "p10"}).news["p2"].medium.result is Judgment.HUMAN


def test_s4_5_results_reach_the_living_only_but_the_curse_still_happens():
    morning = night(night2(), p6={"attack": "p1"}, p3={"guard": "p2"}, p1={"divine": "p9"})
    assert morning.deaths == {"p1": Cause.ATTACK, "p9": Cause.CURSE}
    assert "p1" not in morning.news
    medium_killed = night(night2(N13, "p6"), p7={"attack": "p2"}, p1={"divine": "p3"})
    assert "p2" not in medium_killed.news
    cursed_and_attacked = night(night2(), p6={"attack": "p9"}, p1={"divine": "p9"})
    assert (
        cursed_and_attacked.deaths == {"p9": Cause.CURSE} and "p9" not in cursed_and_attacked.news
    )


def test_s4_5_a_seer_executed_that_day_made_no_counting_choice():
    village = night2(N13, executed="p1")
    morning = night(village, p6={"attack": "p10"}, p1={"divine": "p9"})
    assert morning.divination is None and "p9" not in morning.deaths


def test_s4_6_the_morning_report_lists_the_dead_in_seat_order_and_the_wills_due():
    village = day2(N13)
    votes = everyone_votes(village, "p13")
    del votes["p12"]
    close(village, votes)  # p12 dies suddenly
    close(village, everyone_votes(village, "p13"))
    morning = night(village, p6={"attack": "p10"}, p1={"divine": "p9"})
    assert morning.found_dead == ["p9", "p10"]
    assert morning.wills == ["p9", "p10", "p13"]  # not the sudden death's


def test_s4_7_victory_is_checked_after_the_night():
    village = day2(N4)
    close(village, everyone_votes(village, "p3"))
    night(village, p2={"attack": "p1"})
    assert village.ending == Ending(Winner.WOLVES, 3)


# ----- §5 Victory -----


def killed(village: Village, *dead: str) -> Village:
    for character in dead:
        village.deaths[character] = village.deaths[NPC].__class__(2, Cause.SUDDEN)
    return village


def test_s5_1_nobody_alive_is_a_draw():
    village = day2(N4)
    [result] = close(village, {})
    assert result.sudden == ["p1", "p2", "p3", "p4"]
    assert village.ending == Ending(Winner.DRAW, 2)


def test_s5_2_no_living_werewolf_the_fox_wins_if_alive_else_the_village():
    assert killed(day2(N13), "p6", "p7").winner() is Winner.FOX
    assert killed(day2(N13), "p6", "p7", "p9").winner() is Winner.VILLAGE


def test_s5_3_wolves_at_least_the_others_the_fox_wins_if_alive_else_the_wolves():
    # 13 players: 2 wolves and the fox; others p1–p5, p8, p10–p13 (10).
    others = ["p1", "p2", "p3", "p4", "p5", "p8", "p10", "p11", "p12", "p13"]
    assert killed(day2(N13), *others[:7]).winner() is None  # 2 wolves vs 3
    assert killed(day2(N13), *others[:8]).winner() is Winner.FOX  # 2 vs 2, fox alive
    assert killed(day2(N13), *others[:8], "p9").winner() is Winner.WOLVES
    # Several sudden deaths at once jump past equality: 2 wolves vs 1 still ends it.
    assert killed(day2(N13), *others[:9], "p9").winner() is Winner.WOLVES


def test_s5_4_a_draw_by_the_tie_rule_means_nobody_wins():
    village = day2(tie="bbs")
    for _ in range(6):
        close(village, TIE)
    assert village.ending is not None
    assert not any(village.ending.won(team) for team in Team)


def test_s5_a_team_wins_as_a_whole_dead_members_included():
    village = day2(N4)
    close(village, everyone_votes(village, "p2"))
    assert village.ending is not None and village.ending.won(Team.VILLAGE)
    assert not village.ending.won(Team.WOLVES)


# ----- §7 Options and paces -----


def test_s7_defaults_depend_on_the_pace():
    short, long = Options.create("short"), Options.create("long")
    assert (short.tie, short.early_close, long.tie, long.early_close) == (
        "bbs",
        True,
        "random",
        False,
    )
    assert (short.opening, short.npc_villager, short.heaven_sees_all, short.min_members) == (
        False,
        False,
        True,
        4,
    )
    assert long.sunset == "22:00"
    for bad in ({"tie": "coin"}, {"min_members": 3}, {"sunset": "25:00"}, {"colour": "red"}):
        with pytest.raises(SetupError) as refused:
            Options.create("short", **bad)
        assert JAPANESE.search(str(refused.value))


def test_s7_short_pace_times_run_from_events():
    options = Options.create("short")
    morning = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    dusk = sunset(options, morning)
    assert dusk == morning + timedelta(minutes=40) and dusk.tzinfo == JST
    assert round_deadline(options, dusk, morning) == dusk + timedelta(minutes=5)
    reopened = dusk + timedelta(minutes=5)
    assert round_deadline(options, dusk, reopened) == reopened + timedelta(minutes=5)
    assert night_deadline(options, reopened) == reopened + timedelta(minutes=15)
    assert epilogue_deadline(options, reopened) == reopened + timedelta(minutes=60)


def test_s7_long_pace_sunset_is_the_first_sunset_time_at_least_12_hours_after_the_morning():
    options = Options.create("long")
    at = lambda h, d=30: datetime(2026, 11, d, h, 0, tzinfo=JST)  # noqa: E731
    assert sunset(options, at(2)) == at(22)
    assert sunset(options, at(10)) == at(22)  # exactly 12 h
    assert sunset(options, at(11)) == datetime(2026, 12, 1, 22, 0, tzinfo=JST)
    assert sunset(Options.create("long", sunset="21:30"), at(2)) == at(21).replace(minute=30)
    assert round_deadline(options, at(22), at(10)) == at(23)
    assert night_deadline(options, at(23)) == at(23) + timedelta(hours=3)
    assert epilogue_deadline(options, at(23)) == at(23) + timedelta(hours=24)


def test_s7_deadlines_refuse_naive_datetimes():
    with pytest.raises(RuleError):
        night_deadline(Options.create("short"), datetime(2026, 11, 30, 12, 0))
