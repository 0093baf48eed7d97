"""One or more unit tests per clause of RULES.md §1–§7, each named after its clause.

The rule book (../shared/RULES.md) is the reference: every test states what the rule says, on a
situation built by hand (``Village.create`` with fixed sides, ``start(dead=...)``) and seeded RNGs.
Statistical tests use many fixed seeds and generous tolerances, so they are deterministic.
"""

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

import pytest

from chalicelib.rules.mobius import (
    CHOICE_KEYS,
    JOBS,
    PARTNERS,
    SLOTS,
    UNDECIDED,
    AssassinationUsedError,
    Attack,
    ChoiceError,
    Choices,
    Command,
    ConflictingCommandsError,
    DeadActorError,
    DeadTargetError,
    Death,
    DeathKind,
    DyingMessage,
    EndedBy,
    Ending,
    InvalidTargetError,
    Job,
    Morning,
    NotAllowedError,
    PhaseError,
    Result,
    SelfTargetError,
    Side,
    UnknownChoiceError,
    UnknownSlotError,
    Verdict,
    Village,
    Winner,
    is_oni_side,
    verdict_of,
)

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")

# The default cast of these tests: 3 oni, the madman, 9 humans.
ONI = ("seer_b", "guard_b", "commoner_c")
MADMAN = "medium_b"
HUMANS = tuple(s for s in SLOTS if s not in ONI and s != MADMAN)

ASH = DeathKind.ASH
CORPSE = DeathKind.CORPSE


# ----- helpers -----


def make(
    *,
    oni: Iterable[str] = ONI,
    madman: str = MADMAN,
    dead: Iterable[str] = (),
    seed: int = 0,
) -> Village:
    """A village on day 1 with the given sides and characters already dead."""
    sides = dict.fromkeys(oni, "oni") | {madman: "madman"}
    village = Village.create(random.Random(seed), sides=sides)
    village.start(dead=dead)
    return village


Part = Mapping[str, Mapping[str, str]]


def plan(*parts: Part) -> dict[str, Choices]:
    """Merges ``{slot: {key: target}}`` parts into each slot's :class:`Choices`."""
    merged: dict[str, dict[str, str]] = {}
    for part in parts:
        for slot, made in part.items():
            merged.setdefault(slot, {}).update(made)
    return {slot: Choices(**made) for slot, made in merged.items()}


def pray_for(village: Village, judged: str) -> Part:
    """Every living character but ``judged`` prays for ``judged`` (3+ living: no tie)."""
    living = village.living()
    other = next(s for s in living if s != judged)
    part = {s: {"pray": judged} for s in living if s != judged}
    part[judged] = {"pray": other}
    return part


def strike(village: Village, target: str, attacker: str) -> Part:
    """All 4 oni-side members vote the same attack target and attacker."""
    return {s: {"attack": target, "attacker": attacker} for s in village.oni_side}


def night(village: Village, *parts: Part, seed: int = 0, check: bool = True) -> Morning:
    """Resolves one night; ``check`` first validates every choice as a player would save it."""
    choices = plan(*parts)
    if check:
        for slot, made in choices.items():
            village.validate(slot, made)
    return village.resolve_night(choices, random.Random(seed))


def refused(
    village: Village,
    actor: str,
    choices: Choices,
    error: type[ChoiceError],
    message: str | None = None,
) -> str:
    """Asserts ``validate`` refuses with exactly ``error`` and a Japanese message."""
    with pytest.raises(error) as caught:
        village.validate(actor, choices)
    assert type(caught.value) is error
    text = str(caught.value)
    assert JAPANESE.search(text), text
    if message is not None:
        assert text == message
    return text


def frequencies(draw: Callable[[int], object], runs: int) -> dict[object, float]:
    counts = Counter(draw(seed) for seed in range(runs))
    return {key: count / runs for key, count in counts.items()}


class RecordingRandom(random.Random):
    """A seeded RNG that records every pool it draws one element from."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.pools: list[list[str]] = []

    def choice(self, seq):  # type: ignore[override]
        self.pools.append(list(seq))
        return super().choice(seq)


# =====================================================================================
# §1 Cast
# =====================================================================================


def test_s1_cast_is_13_slots_with_fixed_public_jobs():
    assert len(SLOTS) == 13
    assert Counter(JOBS.values()) == {
        Job.SEER: 2,
        Job.MEDIUM: 2,
        Job.GUARD: 2,
        Job.EMPATH: 2,
        Job.COMMONER: 4,
        Job.ASSASSIN: 1,
    }
    assert JOBS["seer_a"] is Job.SEER and JOBS["assassin"] is Job.ASSASSIN
    assert JOBS["commoner_d"] is Job.COMMONER


def test_s1_pairs_empaths_a_b_and_commoners_a_b_c_d():
    assert PARTNERS == {
        "empath_a": "empath_b",
        "empath_b": "empath_a",
        "commoner_a": "commoner_b",
        "commoner_b": "commoner_a",
        "commoner_c": "commoner_d",
        "commoner_d": "commoner_c",
    }


def test_s1_draw_makes_3_oni_1_madman_9_human():
    for seed in range(300):
        village = Village.create(random.Random(seed))
        assert set(village.sides) == set(SLOTS)
        assert Counter(village.sides.values()) == {Side.ONI: 3, Side.MADMAN: 1, Side.HUMAN: 9}


def test_s1_draw_is_deterministic_for_a_seed():
    first = Village.create(random.Random(1234))
    again = Village.create(random.Random(1234))
    assert first.sides == again.sides
    assert first.random_targets == again.random_targets
    placements = {tuple(Village.create(random.Random(s)).sides.values()) for s in range(50)}
    assert len(placements) > 40  # different seeds give different placements


def test_s1_draw_is_uniform_over_slots():
    runs = 6500
    oni = Counter()
    madman = Counter()
    both_seers_oni = 0
    for seed in range(runs):
        sides = Village.create(random.Random(seed)).sides
        oni.update(s for s, side in sides.items() if side is Side.ONI)
        madman.update(s for s, side in sides.items() if side is Side.MADMAN)
        both_seers_oni += sides["seer_a"] is Side.ONI and sides["seer_b"] is Side.ONI
    for slot in SLOTS:
        assert oni[slot] / runs == pytest.approx(3 / 13, abs=0.03), slot
        assert madman[slot] / runs == pytest.approx(1 / 13, abs=0.02), slot
    # A uniform draw of the set: P(two given slots both oni) = 3/13 * 2/12.
    assert both_seers_oni / runs == pytest.approx(3 / 13 * 2 / 12, abs=0.015)


def test_s1_given_sides_unlisted_slots_are_human():
    village = Village.create(
        random.Random(0),
        sides={"seer_a": "oni", "guard_a": "oni", "assassin": "oni", "medium_a": "madman"},
    )
    assert village.sides["seer_b"] is Side.HUMAN
    assert village.sides["medium_a"] is Side.MADMAN
    assert Counter(village.sides.values()) == {Side.ONI: 3, Side.MADMAN: 1, Side.HUMAN: 9}


@pytest.mark.parametrize(
    "sides",
    [
        {"seer_a": "oni", "seer_b": "oni", "medium_a": "madman"},  # 2 oni
        {
            "seer_a": "oni",
            "seer_b": "oni",
            "guard_a": "oni",
            "guard_b": "oni",
            "medium_a": "madman",
        },
        {"seer_a": "oni", "seer_b": "oni", "guard_a": "oni"},  # no madman
        {"seer_a": "oni", "seer_b": "oni", "guard_a": "oni", "medium_a": "wolf"},
        {"seer_a": "oni", "seer_b": "oni", "guard_a": "oni", "villager": "madman"},
    ],
)
def test_s1_given_sides_must_be_3_oni_1_madman(sides):
    with pytest.raises(ChoiceError) as caught:
        Village.create(random.Random(0), sides=sides)
    assert JAPANESE.search(str(caught.value))


def test_s1_side_never_changes_during_the_game():
    village = make()
    before = dict(village.sides)
    night(village, pray_for(village, "commoner_c"), strike(village, "commoner_a", "seer_b"))
    night(village, pray_for(village, "medium_b"), strike(village, "commoner_b", "guard_b"))
    assert village.sides == before


def test_s1_oni_side_is_the_3_oni_and_the_madman():
    village = make(dead=["seer_b", MADMAN])
    assert village.oni_side == ["seer_b", "medium_b", "guard_b", "commoner_c"]  # alive or dead
    assert is_oni_side(Side.ONI) and is_oni_side(Side.MADMAN) and not is_oni_side(Side.HUMAN)


def test_s1_verdict_of_madman_is_human():
    assert verdict_of(Side.MADMAN) is Verdict.HUMAN
    assert verdict_of(Side.HUMAN) is Verdict.HUMAN
    assert verdict_of(Side.ONI) is Verdict.ONI


# =====================================================================================
# §2 Life of a village
# =====================================================================================


def test_s2_1_opening_is_day_0_with_both_seers_random_targets_drawn_at_creation():
    village = Village.create(random.Random(5))
    assert village.day == 0
    assert not village.running
    # Posted in the oni world when the village is created: already there on day 0.
    assert set(village.random_targets) == {"seer_a", "seer_b"}
    assert set(village.random_divination()) == {"seer_a", "seer_b"}
    assert village.empathy() == {}  # empathy only when day 1 starts (§5.3)


def test_s2_1_no_nightly_choices_during_the_opening():
    village = Village.create(random.Random(5))
    with pytest.raises(PhaseError) as caught:
        village.validate("seer_a", Choices(pray="seer_b"))
    assert JAPANESE.search(str(caught.value))
    with pytest.raises(PhaseError):
        village.resolve_night({}, random.Random(0))


def test_s2_2_start_begins_day_1_and_only_once():
    village = Village.create(random.Random(5))
    village.start()
    assert village.day == 1 and village.running and village.deaths == {}
    with pytest.raises(PhaseError) as caught:
        village.start()
    assert JAPANESE.search(str(caught.value))
    assert village.day == 1


def test_s2_3_day_n_choices_are_accepted_while_running():
    village = make()
    village.validate("seer_a", Choices(pray="seer_b", divine="guard_b"))
    # Actions may be changed until the update: a later save is just as valid.
    village.validate("seer_a", Choices(pray="guard_a", divine="commoner_c"))


def test_s2_4_update_resolves_all_deaths_at_once_then_next_day_begins():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_d"}},
    )
    assert morning.day == 2 and village.day == 2
    assert morning.deaths == {"empath_b": ASH, "commoner_a": CORPSE, "commoner_d": CORPSE}
    assert village.deaths == {
        "empath_b": Death(2, ASH),
        "commoner_a": Death(2, CORPSE),
        "commoner_d": Death(2, CORPSE),
    }
    assert village.mornings == [morning]
    assert village.ending is None and village.running


def test_s2_4_update_checks_victory_after_the_deaths():
    village = make(dead=["seer_b", "guard_b"])
    night(village, pray_for(village, "commoner_c"))  # the last oni is judged
    assert village.ending == Ending(Winner.HUMAN, EndedBy.ELIMINATION, 2)


def test_s2_5_ending_stops_the_game():
    village = make(dead=["seer_b", "guard_b"])
    night(village, pray_for(village, "commoner_c"))
    assert not village.running
    with pytest.raises(PhaseError):
        village.resolve_night({}, random.Random(0))
    with pytest.raises(PhaseError):
        village.validate("seer_a", Choices(pray="medium_a"))
    with pytest.raises(PhaseError):
        village.end_by_command(Command.VICTORY, at_night=False)


# =====================================================================================
# §3 Nightly choices
# =====================================================================================


def test_s3_every_choice_may_be_undecided_for_every_slot():
    village = make(dead=["seer_b", "commoner_a"])
    for slot in SLOTS:
        village.validate(slot, UNDECIDED)
        village.validate(slot, Choices.from_dict(dict.fromkeys(CHOICE_KEYS)))
    assert UNDECIDED.to_dict() == {}
    assert Choices.from_dict(dict.fromkeys(CHOICE_KEYS)) == UNDECIDED


def test_s3_choices_are_saved_all_at_once_one_bad_choice_refuses_the_set():
    village = make()
    refused(
        village,
        "seer_a",
        Choices(pray="seer_b", divine="seer_a"),
        SelfTargetError,
        "自分自身は占えません",
    )


def test_s3_unknown_slot_or_choice_is_refused():
    village = make()
    text = refused(village, "seer_a", Choices(pray="villager_x"), UnknownSlotError)
    assert "villager_x" in text
    with pytest.raises(UnknownSlotError):
        village.validate("villager_x", UNDECIDED)
    with pytest.raises(UnknownChoiceError) as caught:
        Choices.from_dict({"vote": "seer_a"})
    assert JAPANESE.search(str(caught.value))
    with pytest.raises(UnknownSlotError):
        Choices.from_dict({"pray": "villager_x"})


# --- pray: every living character, a living character other than self ---


@pytest.mark.parametrize("actor", SLOTS)
def test_s3_pray_every_living_character_may_pray_for_another_living(actor):
    village = make()
    for target in SLOTS:
        if target != actor:
            village.validate(actor, Choices(pray=target))  # any side, any job


def test_s3_pray_self_refused():
    refused(make(), "seer_a", Choices(pray="seer_a"), SelfTargetError, "自分自身には祈れません")


def test_s3_pray_dead_target_refused():
    village = make(dead=["commoner_a"])
    refused(
        village,
        "seer_a",
        Choices(pray="commoner_a"),
        DeadTargetError,
        "死んだキャラクターには祈れません",
    )


def test_s3_pray_by_dead_refused():
    village = make(dead=["commoner_a"])
    refused(
        village,
        "commoner_a",
        Choices(pray="seer_a"),
        DeadActorError,
        "死んだキャラクターは祈れません",
    )


def test_s3_pray_legal_targets_are_living_others():
    village = make(dead=["commoner_a"])
    assert village.legal_targets("seer_a", "pray") == [
        s for s in SLOTS if s not in ("seer_a", "commoner_a")
    ]


# --- divine: living seer, a living character other than self ---


def test_s3_divine_living_seer_any_side_may_divine_another_living():
    village = make()
    village.validate("seer_a", Choices(divine="seer_b"))
    village.validate("seer_b", Choices(divine="medium_b"))  # an oni seer divines too


def test_s3_divine_non_seer_refused():
    refused(
        make(), "medium_a", Choices(divine="seer_b"), NotAllowedError, "占いは占い師だけが行えます"
    )


def test_s3_divine_self_refused():
    refused(make(), "seer_a", Choices(divine="seer_a"), SelfTargetError, "自分自身は占えません")


def test_s3_divine_dead_target_refused():
    village = make(dead=["guard_b"])
    refused(
        village,
        "seer_a",
        Choices(divine="guard_b"),
        DeadTargetError,
        "死んだキャラクターは占えません",
    )


def test_s3_divine_by_dead_seer_refused():
    village = make(dead=["seer_a"])
    refused(
        village, "seer_a", Choices(divine="guard_b"), DeadActorError, "死んだ占い師は占えません"
    )


# --- guard: living guard, a living character other than self ---


def test_s3_guard_living_guard_may_guard_another_living_of_any_side():
    village = make()
    village.validate("guard_a", Choices(guard="commoner_c"))  # an oni may be guarded
    village.validate("guard_b", Choices(guard="commoner_a"))  # an oni guard guards too


def test_s3_guard_non_guard_refused():
    refused(
        make(), "medium_a", Choices(guard="seer_a"), NotAllowedError, "警備は守護者だけが行えます"
    )


def test_s3_guard_self_refused():
    refused(
        make(), "guard_a", Choices(guard="guard_a"), SelfTargetError, "自分自身は警備できません"
    )


def test_s3_guard_dead_target_refused():
    village = make(dead=["seer_a"])
    refused(
        village,
        "guard_a",
        Choices(guard="seer_a"),
        DeadTargetError,
        "死んだキャラクターは警備できません",
    )


def test_s3_guard_by_dead_guard_refused():
    village = make(dead=["guard_a"])
    refused(
        village, "guard_a", Choices(guard="seer_a"), DeadActorError, "死んだ守護者は警備できません"
    )


# --- assassinate: living assassin, once per game, a living character other than self ---


def test_s3_assassinate_living_assassin_may_assassinate_another_living():
    make().validate("assassin", Choices(assassinate="commoner_c"))
    make(oni=("assassin", "seer_b", "guard_b")).validate("assassin", Choices(assassinate="seer_a"))


def test_s3_assassinate_non_assassin_refused():
    refused(
        make(),
        "commoner_a",
        Choices(assassinate="seer_b"),
        NotAllowedError,
        "暗殺は暗殺者だけが行えます",
    )


def test_s3_assassinate_self_refused():
    refused(
        make(),
        "assassin",
        Choices(assassinate="assassin"),
        SelfTargetError,
        "自分自身は暗殺できません",
    )


def test_s3_assassinate_dead_target_refused():
    village = make(dead=["seer_b"])
    refused(
        village,
        "assassin",
        Choices(assassinate="seer_b"),
        DeadTargetError,
        "死んだキャラクターは暗殺できません",
    )


def test_s3_assassinate_by_dead_assassin_refused():
    village = make(dead=["assassin"])
    refused(
        village,
        "assassin",
        Choices(assassinate="seer_b"),
        DeadActorError,
        "死んだ暗殺者は暗殺できません",
    )


def test_s3_assassinate_once_per_game_second_refused():
    village = make()
    night(village, pray_for(village, "empath_b"), {"assassin": {"assassinate": "seer_b"}})
    assert village.assassination_used
    refused(
        village,
        "assassin",
        Choices(assassinate="guard_b"),
        AssassinationUsedError,
        "暗殺は一度きりです。すでに使っています",
    )
    assert village.legal_targets("assassin", "assassinate") == []


# --- attack: every oni-side member alive or dead, any living character, self included ---


@pytest.mark.parametrize("actor", ["seer_b", "guard_b", "commoner_c", MADMAN])
def test_s3_attack_any_oni_side_member_alive_or_dead_any_living_target_self_included(actor):
    village = make(dead=["guard_b", "commoner_a"])  # guard_b: a dead oni still votes
    for target in village.living():  # humans, oni and the madman; self when alive
        village.validate(actor, Choices(attack=target))


def test_s3_attack_by_human_refused():
    refused(
        make(),
        "commoner_a",
        Choices(attack="commoner_b"),
        NotAllowedError,
        "襲撃先を選べるのは鬼サイドだけです",
    )


def test_s3_attack_dead_target_refused():
    village = make(dead=["commoner_a"])
    refused(
        village,
        "seer_b",
        Choices(attack="commoner_a"),
        DeadTargetError,
        "死んだキャラクターは襲撃できません",
    )


def test_s3_attack_legal_targets_are_every_living_character():
    village = make(dead=["commoner_a", "seer_b"])
    assert village.legal_targets("seer_b", "attack") == village.living()
    assert village.legal_targets("commoner_a", "attack") == []


# --- attacker: every oni-side member alive or dead, a living oni ---


def test_s3_attacker_oni_side_alive_or_dead_may_name_a_living_oni_self_included():
    village = make(dead=["guard_b", MADMAN])
    village.validate("seer_b", Choices(attacker="seer_b"))
    village.validate("seer_b", Choices(attacker="commoner_c"))
    village.validate("guard_b", Choices(attacker="seer_b"))  # dead oni
    village.validate(MADMAN, Choices(attacker="commoner_c"))  # dead madman
    assert village.legal_targets(MADMAN, "attacker") == ["seer_b", "commoner_c"]


def test_s3_attacker_by_human_refused():
    refused(
        make(),
        "commoner_a",
        Choices(attacker="seer_b"),
        NotAllowedError,
        "実行犯を選べるのは鬼サイドだけです",
    )


@pytest.mark.parametrize("target", [MADMAN, "commoner_a", "guard_b"])
def test_s3_attacker_must_be_a_living_oni_not_madman_human_or_dead_oni(target):
    village = make(dead=["guard_b"])
    refused(
        village,
        "seer_b",
        Choices(attacker=target),
        InvalidTargetError,
        "実行犯には生きている鬼を選んでください",
    )


# --- fake DM: oni-side commoner, a character other than self ---


def test_s3_dm_oni_side_commoner_may_name_any_other_character_even_dead():
    village = make(dead=["seer_a"])
    village.validate("commoner_c", Choices(dm="commoner_a"))
    village.validate("commoner_c", Choices(dm="seer_a"))
    village.validate("commoner_c", Choices(dm="seer_b"))
    madman_commoner = make(madman="commoner_a")
    madman_commoner.validate("commoner_a", Choices(dm="assassin"))


@pytest.mark.parametrize("actor", ["commoner_a", "seer_b", MADMAN])
def test_s3_dm_refused_unless_oni_side_commoner(actor):
    refused(
        make(),
        actor,
        Choices(dm="guard_a"),
        NotAllowedError,
        "偽のダイイングメッセージを書けるのは鬼サイドの庶民だけです",
    )


def test_s3_dm_naming_self_refused():
    refused(
        make(),
        "commoner_c",
        Choices(dm="commoner_c"),
        SelfTargetError,
        "ダイイングメッセージに自分の名前は書けません",
    )


# --- victory declaration / resignation: oni-side member alive or dead, any character ---


@pytest.mark.parametrize("key", ["victory", "resign"])
def test_s3_command_oni_side_alive_or_dead_any_character_as_safety_pick(key):
    village = make(dead=["seer_b", "commoner_a"])
    for actor in ["seer_b", "guard_b", "commoner_c", MADMAN]:
        for pick in ["commoner_a", "seer_b", actor, "assassin", MADMAN]:
            village.validate(actor, Choices(**{key: pick}))
    assert village.legal_targets("seer_b", key) == list(SLOTS)


@pytest.mark.parametrize(
    ("key", "message"),
    [("victory", "勝利宣言は鬼サイドだけが行えます"), ("resign", "投了は鬼サイドだけが行えます")],
)
def test_s3_command_by_human_refused(key, message):
    refused(make(), "seer_a", Choices(**{key: "seer_b"}), NotAllowedError, message)


# --- forced judgment: oni-side member alive or dead, a living human ---


def test_s3_force_oni_side_alive_or_dead_may_name_a_living_human():
    village = make(dead=["seer_b", MADMAN, "commoner_a"])
    for actor in village.oni_side:
        village.validate(actor, Choices(force="commoner_b"))
    assert village.legal_targets(MADMAN, "force") == village.living(Side.HUMAN)


def test_s3_force_by_human_refused():
    refused(
        make(),
        "seer_a",
        Choices(force="commoner_a"),
        NotAllowedError,
        "強制裁きは鬼サイドだけが行えます",
    )


@pytest.mark.parametrize("target", [MADMAN, "commoner_c", "commoner_a"])
def test_s3_force_target_must_be_a_living_human_not_madman_oni_or_dead(target):
    village = make(dead=["commoner_a"])
    refused(
        village,
        "seer_b",
        Choices(force=target),
        InvalidTargetError,
        "強制裁きの対象は生きている人間だけです",
    )


# --- vacant slots and the dead ---


def test_s3_vacant_slot_has_every_choice_undecided():
    for seed in range(20):
        missing = make()
        explicit = make()
        first = missing.resolve_night({}, random.Random(seed))
        second = explicit.resolve_night(dict.fromkeys(SLOTS, UNDECIDED), random.Random(seed))
        assert first == second


def test_s3_dead_characters_pray_is_void():
    # Only commoner_b (alive) prays, for seer_b; dead commoner_a "prays" for guard_a. Were that
    # counted, guard_a and seer_b would tie and guard_a would be judged about half the time.
    for seed in range(40):
        village = make(dead=["commoner_a"])
        choices = plan({"commoner_b": {"pray": "seer_b"}, "commoner_a": {"pray": "guard_a"}})
        assert village.resolve_night(choices, random.Random(seed)).judged == "seer_b"


def test_s3_dead_characters_divine_is_void():
    village = make(dead=["seer_a"])
    morning = night(
        village, pray_for(village, "empath_b"), {"seer_a": {"divine": "seer_b"}}, check=False
    )
    assert "seer_a" not in morning.results


def test_s3_dead_characters_guard_is_void():
    village = make(dead=["guard_a"])
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
        check=False,
    )
    assert morning.deaths == {"empath_b": ASH, "commoner_a": CORPSE}  # the attacker survives


# =====================================================================================
# §4.1 Judgment
# =====================================================================================


def test_s4_1_most_prayers_is_judged():
    choices = {
        "seer_a": {"pray": "guard_b"},
        "medium_a": {"pray": "guard_b"},
        "guard_a": {"pray": "guard_b"},
        "empath_a": {"pray": "commoner_a"},
        "empath_b": {"pray": "commoner_a"},
        "seer_b": {"pray": "assassin"},
    }
    for seed in range(20):
        village = make()
        morning = night(village, choices, seed=seed)
        assert morning.judged == "guard_b"
        assert morning.deaths["guard_b"] is ASH


def test_s4_1_nobody_prays_all_living_tie_at_0_uniform():
    runs = 2600
    freq = frequencies(
        lambda seed: make(dead=["commoner_a"]).resolve_night({}, random.Random(seed)).judged, runs
    )
    assert "commoner_a" not in freq  # the dead are never judged
    assert set(freq) == set(SLOTS) - {"commoner_a"}
    for slot, share in freq.items():
        assert share == pytest.approx(1 / 12, abs=0.03), slot


def test_s4_1_tie_for_most_is_drawn_uniformly_among_the_tied():
    part = {
        "seer_a": {"pray": "guard_b"},
        "medium_a": {"pray": "guard_b"},
        "guard_a": {"pray": "commoner_c"},
        "empath_a": {"pray": "commoner_c"},
        "empath_b": {"pray": "assassin"},
    }
    freq = frequencies(lambda seed: night(make(), part, seed=seed).judged, 1000)
    assert set(freq) == {"guard_b", "commoner_c"}
    assert freq["guard_b"] == pytest.approx(0.5, abs=0.05)


# 4-1-3: living humans seer_a, guard_a, commoner_a, assassin; madman medium_b; oni seer_b, guard_b,
# commoner_c.
DEAD_4_1_3 = ["medium_a", "empath_a", "empath_b", "commoner_b", "commoner_d"]
HUMANS_4_1_3 = ["seer_a", "guard_a", "commoner_a", "assassin"]


def _judged_over_seeds(dead: list[str], part: Part, seeds: int = 40) -> Counter:
    return Counter(night(make(dead=dead), part, seed=seed).judged for seed in range(seeds))


def test_s4_1_tie_exception_4_1_3_all_humans_pray_same():
    part = {h: {"pray": "seer_b"} for h in HUMANS_4_1_3} | {
        s: {"pray": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c", MADMAN]
    }
    village = make(dead=DEAD_4_1_3)
    assert len(village.living(Side.HUMAN)) == 4 and len(village.living(Side.ONI)) == 3
    # 4 prayers each for seer_b and commoner_a: the humans' choice is judged, every time.
    assert _judged_over_seeds(DEAD_4_1_3, part) == {"seer_b": 40}


def test_s4_1_tie_exception_3_1_2_all_humans_pray_same():
    dead = ["medium_a", "empath_a", "empath_b", "commoner_a", "commoner_b", "commoner_d", "guard_b"]
    humans = ["seer_a", "guard_a", "assassin"]
    part = {h: {"pray": MADMAN} for h in humans} | {
        s: {"pray": "seer_a"} for s in ["seer_b", "commoner_c", MADMAN]
    }
    # 3 prayers each for the madman and seer_a.
    assert _judged_over_seeds(dead, part) == {MADMAN: 40}


def test_s4_1_tie_exception_2_1_1_all_humans_pray_same():
    dead = [s for s in SLOTS if s not in ("seer_a", "assassin", MADMAN, "commoner_c")]
    part = {
        "seer_a": {"pray": "commoner_c"},
        "assassin": {"pray": "commoner_c"},
        MADMAN: {"pray": "seer_a"},
        "commoner_c": {"pray": "seer_a"},
    }
    assert _judged_over_seeds(dead, part) == {"commoner_c": 40}


def test_s4_1_tie_exception_not_with_an_undecided_human():
    part = {h: {"pray": "seer_b"} for h in ["seer_a", "guard_a", "commoner_a"]} | {
        s: {"pray": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c"]
    }  # the assassin (human) and the madman are undecided: seer_b 3, commoner_a 3
    judged = _judged_over_seeds(DEAD_4_1_3, part)
    assert set(judged) == {"seer_b", "commoner_a"}


def test_s4_1_tie_exception_not_when_every_human_is_undecided():
    # 4-1-3 and nobody prays: all 8 living tie at 0, a uniform draw among them.
    judged = Counter(
        make(dead=DEAD_4_1_3).resolve_night({}, random.Random(seed)).judged for seed in range(400)
    )
    assert set(judged) == set(make(dead=DEAD_4_1_3).living())


def test_s4_1_tie_exception_not_with_a_dissenting_human():
    part = (
        {h: {"pray": "seer_b"} for h in ["seer_a", "guard_a", "commoner_a"]}
        | {"assassin": {"pray": "guard_b"}}
        | {s: {"pray": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c"]}
        | {MADMAN: {"pray": "guard_b"}}
    )  # seer_b 3, commoner_a 3, guard_b 2
    judged = _judged_over_seeds(DEAD_4_1_3, part)
    assert set(judged) == {"seer_b", "commoner_a"}


def test_s4_1_tie_exception_ignores_choices_of_dead_humans():
    part = (
        {h: {"pray": "seer_b"} for h in HUMANS_4_1_3}
        | {s: {"pray": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c", MADMAN]}
        | {"empath_a": {"pray": "guard_b"}}  # dead: void, not a dissent
    )
    judged = Counter(
        night(make(dead=DEAD_4_1_3), part, seed=seed, check=False).judged for seed in range(40)
    )
    assert judged == {"seer_b": 40}


def test_s4_1_tie_exception_needs_madman_alive():
    # With the madman dead, living humans == living oni-side means oni >= humans: already an
    # oni win (§6), so the exception can never matter in a running game.
    three_three = make(dead=[MADMAN, *HUMANS[:6]])
    assert len(three_three.living(Side.HUMAN)) == 3 == len(three_three.living(Side.ONI))
    assert three_three.winner() is Winner.ONI
    # 4-0-3 goes on, and the oni side has too few voices to tie with 4 unanimous humans.
    dead = [MADMAN, "medium_a", "empath_a", "empath_b", "commoner_b", "commoner_d"]
    part = {h: {"pray": "seer_b"} for h in HUMANS_4_1_3} | {
        s: {"pray": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c"]
    }
    assert _judged_over_seeds(dead, part) == {"seer_b": 40}
    # Same 4-0-3 with one human dissenting: a real tie (3-3) and a random draw.
    split = {**part, "assassin": {"pray": "guard_b"}}
    assert set(_judged_over_seeds(dead, split)) == {"seer_b", "commoner_a"}


def test_s4_1_forced_judgment_replaces_the_prayer_result():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        {s: {"force": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c"]},
    )
    assert morning.judged == "commoner_a"
    assert morning.deaths["commoner_a"] is ASH
    assert "empath_b" not in morning.deaths  # the prayer result is replaced


# =====================================================================================
# §4.2 Attack and attacker
# =====================================================================================


def test_s4_2_attack_target_drawn_in_proportion_to_votes_2_to_1():
    def target(seed: int) -> str:
        village = make()
        votes = {
            "seer_b": {"attack": "commoner_a", "attacker": "seer_b"},
            "guard_b": {"attack": "commoner_a"},
            "commoner_c": {"attack": "commoner_b"},
        }  # the madman is undecided
        return night(village, pray_for(village, "empath_b"), votes, seed=seed).attack.target

    freq = frequencies(target, 3000)
    assert set(freq) == {"commoner_a", "commoner_b"}
    assert freq["commoner_a"] == pytest.approx(2 / 3, abs=0.04)  # not majority: B still 1/3


def test_s4_2_attacker_drawn_in_proportion_to_votes_2_to_1():
    def attacker(seed: int) -> str:
        village = make()
        votes = {
            "seer_b": {"attack": "commoner_a", "attacker": "guard_b"},
            MADMAN: {"attacker": "guard_b"},
            "commoner_c": {"attacker": "commoner_c"},
        }
        return night(village, pray_for(village, "empath_b"), votes, seed=seed).attack.attacker

    freq = frequencies(attacker, 3000)
    assert set(freq) == {"guard_b", "commoner_c"}
    assert freq["guard_b"] == pytest.approx(2 / 3, abs=0.04)


def test_s4_2_votes_of_dead_oni_side_members_count():
    for seed in range(30):
        village = make(dead=["guard_b", MADMAN])
        votes = {
            MADMAN: {"attack": "commoner_a"},  # the only attack vote, from the dead madman
            "guard_b": {"attacker": "commoner_c"},  # the only attacker vote, from a dead oni
        }
        morning = night(village, pray_for(village, "empath_b"), votes, seed=seed)
        assert morning.attack == Attack("commoner_a", "commoner_c")


def test_s4_2_vote_for_a_dead_target_counts_as_undecided():
    for seed in range(30):
        village = make(dead=["commoner_a"])
        votes = {s: {"attack": "commoner_a"} for s in ["seer_b", "guard_b", "commoner_c"]}
        votes[MADMAN] = {"attack": "commoner_b"}
        morning = night(village, pray_for(village, "empath_b"), votes, seed=seed, check=False)
        assert morning.attack.target == "commoner_b"
    # Every vote invalid: as if all were undecided, uniform among living humans.
    targets = set()
    for seed in range(200):
        village = make(dead=["commoner_a"])
        votes = {s: {"attack": "commoner_a"} for s in village.oni_side}
        morning = night(village, pray_for(village, "empath_b"), votes, seed=seed, check=False)
        targets.add(morning.attack.target)
    assert targets == set(HUMANS) - {"commoner_a"}


def test_s4_2_attacker_vote_not_a_living_oni_counts_as_undecided():
    def attacker(seed: int) -> str:
        village = make(dead=["guard_b"])
        votes = {
            "seer_b": {"attacker": MADMAN},
            "commoner_c": {"attacker": "guard_b"},  # dead oni
            MADMAN: {"attacker": "commoner_a"},  # human
        }
        morning = night(village, pray_for(village, "empath_b"), votes, seed=seed, check=False)
        return morning.attack.attacker

    freq = frequencies(attacker, 1000)
    assert set(freq) == {"seer_b", "commoner_c"}  # uniform among living oni
    assert freq["seer_b"] == pytest.approx(0.5, abs=0.05)


def test_s4_2_all_undecided_target_uniform_among_living_humans_never_madman():
    living_humans = [h for h in HUMANS if h != "commoner_a"]

    def target(seed: int) -> str:
        village = make(dead=["commoner_a"])
        return night(village, pray_for(village, "seer_b"), seed=seed).attack.target

    freq = frequencies(target, 4000)
    assert set(freq) == set(living_humans)  # never the madman, an oni or the dead
    for slot, share in freq.items():
        assert share == pytest.approx(1 / 8, abs=0.03), slot


def test_s4_2_all_undecided_attacker_uniform_among_living_oni():
    def attacker(seed: int) -> str:
        village = make(dead=["guard_b"])
        return night(village, pray_for(village, "empath_b"), seed=seed).attack.attacker

    freq = frequencies(attacker, 1000)
    assert set(freq) == {"seer_b", "commoner_c"}  # never the madman or a dead oni
    assert freq["seer_b"] == pytest.approx(0.5, abs=0.05)


def test_s4_2_attacker_is_drawn_before_the_target():
    village = make(dead=["guard_b"])
    rng = RecordingRandom(3)
    plan_ = plan(pray_for(village, "empath_b"))  # a clear judgment: no draw for it
    morning = village.resolve_night(plan_, rng)
    attacker_pool = ["seer_b", "commoner_c"]  # living oni
    target_pool = list(HUMANS)  # living humans, the judged included (all before any death)
    assert rng.pools == [attacker_pool, target_pool]
    assert morning.attack.attacker in attacker_pool


def test_s4_2_attack_may_target_any_side_and_self():
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, MADMAN, "seer_b"))
    assert morning.deaths == {"empath_b": ASH, MADMAN: CORPSE}
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, "seer_b", "seer_b"))
    assert morning.deaths == {"empath_b": ASH, "seer_b": CORPSE}
    assert morning.attack == Attack("seer_b", "seer_b")


def test_s4_2_there_is_an_attack_every_night_while_an_oni_lives():
    village = make(dead=["seer_b", "guard_b"])
    for _ in range(3):
        assert village.running
        morning = night(village, pray_for(village, village.living(Side.HUMAN)[0]), seed=village.day)
        assert morning.attack is not None
        assert morning.attack.attacker == "commoner_c"  # the last oni is always the attacker
        assert village.sides[morning.attack.target] is Side.HUMAN


def test_s4_2_assassin_drawn_as_attacker_assassination_passes_and_is_not_used_up():
    oni = ("assassin", "seer_b", "guard_b")
    village = make(oni=oni)
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "assassin"),
        {"assassin": {"assassinate": "commoner_b"}},
    )
    assert morning.attack == Attack("commoner_a", "assassin")
    assert morning.assassination is None
    assert "commoner_b" not in morning.deaths
    assert not village.assassination_used
    assert "assassin" not in morning.results
    # Not used up: a later night, with another attacker, the assassination goes through.
    village.validate("assassin", Choices(assassinate="commoner_b"))
    morning = night(
        village,
        pray_for(village, "empath_a"),
        strike(village, "commoner_d", "seer_b"),
        {"assassin": {"assassinate": "commoner_b"}},
    )
    assert morning.assassination == "commoner_b"
    assert morning.deaths["commoner_b"] is CORPSE
    assert village.assassination_used


def test_s4_2_assassin_drawn_as_attacker_by_vote_draw_passes_only_those_nights():
    # Attacker votes 1 for the assassin, 1 for seer_b: the assassination passes exactly when
    # the assassin is drawn as the attacker.
    oni = ("assassin", "seer_b", "guard_b")
    seen = set()
    for seed in range(40):
        village = make(oni=oni)
        morning = night(
            village,
            pray_for(village, "empath_b"),
            {"guard_b": {"attacker": "assassin", "attack": "commoner_a"}},
            {"seer_b": {"attacker": "seer_b"}},
            {"assassin": {"assassinate": "commoner_b"}},
            seed=seed,
        )
        passed = morning.attack.attacker == "assassin"
        seen.add(passed)
        assert (morning.assassination is None) is passed
        assert village.assassination_used is not passed
    assert seen == {True, False}


# =====================================================================================
# §4.3 Deaths
# =====================================================================================


def test_s4_3_judged_dies_as_ash():
    village = make()
    morning = night(village, pray_for(village, "medium_a"), strike(village, "commoner_a", "seer_b"))
    assert morning.deaths["medium_a"] is ASH


def test_s4_3_unguarded_attack_target_dies_as_corpse():
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, "commoner_a", "seer_b"))
    assert morning.deaths == {"empath_b": ASH, "commoner_a": CORPSE}


def test_s4_3_unguarded_assassination_target_dies_as_corpse():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_c"}},
    )
    assert morning.deaths == {"empath_b": ASH, "commoner_a": CORPSE, "commoner_c": CORPSE}


def test_s4_3_guarded_attack_target_survives_attacker_and_guard_die():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
    )
    assert morning.deaths == {"empath_b": ASH, "seer_b": CORPSE, "guard_a": CORPSE}
    assert "commoner_a" in village.alive


def test_s4_3_guarded_assassination_target_survives_assassin_and_guard_die():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_c"}, "guard_a": {"guard": "commoner_c"}},
    )
    assert morning.deaths == {
        "empath_b": ASH,
        "commoner_a": CORPSE,
        "assassin": CORPSE,
        "guard_a": CORPSE,
    }
    assert "commoner_c" in village.alive


def test_s4_3_two_guards_on_struck_target_both_die():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "commoner_c"),
        {"guard_a": {"guard": "commoner_a"}, "guard_b": {"guard": "commoner_a"}},
    )
    assert morning.deaths == {
        "empath_b": ASH,
        "commoner_c": CORPSE,
        "guard_a": CORPSE,
        "guard_b": CORPSE,
    }
    assert "commoner_a" in village.alive


def test_s4_3_self_attack_on_guarded_oni_kills_oni_and_guard():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_c", "commoner_c"),
        {"guard_a": {"guard": "commoner_c"}},
    )
    assert morning.deaths == {"empath_b": ASH, "commoner_c": CORPSE, "guard_a": CORPSE}


def test_s4_3_guard_of_an_unstruck_character_survives():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_b"}},
    )
    assert morning.deaths == {"empath_b": ASH, "commoner_a": CORPSE}


def test_s4_3_simultaneous_a_judged_guard_still_guards():
    village = make()
    morning = night(
        village,
        pray_for(village, "guard_a"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
    )
    assert morning.deaths == {"guard_a": ASH, "seer_b": CORPSE}
    assert "commoner_a" in village.alive


def test_s4_3_simultaneous_a_judged_attacker_still_strikes():
    village = make()
    morning = night(village, pray_for(village, "seer_b"), strike(village, "commoner_a", "seer_b"))
    assert morning.deaths == {"seer_b": ASH, "commoner_a": CORPSE}


def test_s4_3_simultaneous_an_attacked_guard_still_guards_and_dies_for_it():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "guard_a", "seer_b"),
        {"guard_a": {"guard": "commoner_b"}, "assassin": {"assassinate": "commoner_b"}},
    )
    assert morning.deaths == {
        "empath_b": ASH,
        "guard_a": CORPSE,
        "assassin": CORPSE,
    }
    assert "commoner_b" in village.alive


def test_s4_3_simultaneous_a_blocked_attacker_who_is_also_assassinated_dies_once():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}, "assassin": {"assassinate": "seer_b"}},
    )
    assert morning.deaths == {"empath_b": ASH, "seer_b": CORPSE, "guard_a": CORPSE}


def test_s4_3_judged_and_struck_is_ash():
    village = make()
    morning = night(
        village,
        pray_for(village, "commoner_a"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_a"}},
    )
    assert morning.deaths == {"commoner_a": ASH}


def test_s4_3_judged_and_blocked_attacker_is_ash():
    village = make()
    morning = night(
        village,
        pray_for(village, "seer_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
    )
    assert morning.deaths == {"seer_b": ASH, "guard_a": CORPSE}


def test_s4_3_morning_report_lists_ash_and_corpses_only():
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, "commoner_a", "seer_b"))
    assert morning.to_json()["deaths"] == {"empath_b": "ash", "commoner_a": "corpse"}
    assert set(morning.deaths.values()) <= {ASH, CORPSE}


# =====================================================================================
# §5.1 Seer
# =====================================================================================


def test_s5_1_random_target_is_never_self():
    for seed in range(400):
        village = Village.create(random.Random(seed))
        for seer, target in village.random_targets.items():
            assert target != seer and target in SLOTS


def test_s5_1_human_seer_random_target_is_never_an_oni_so_result_is_human():
    checked = 0
    for seed in range(400):
        village = Village.create(random.Random(seed))
        results = village.random_divination()
        for seer, target in village.random_targets.items():
            if village.sides[seer] is Side.HUMAN:
                checked += 1
                assert village.sides[target] is not Side.ONI
                assert results[seer] == Result(target, Verdict.HUMAN)
    assert checked > 400


def test_s5_1_human_seer_random_target_covers_every_non_oni_other_slot_uniformly():
    allowed = [s for s in SLOTS if s not in ONI and s != "seer_a"]  # includes the madman
    freq = frequencies(lambda seed: make(seed=seed).random_targets["seer_a"], 2700)
    assert set(freq) == set(allowed)
    for slot, share in freq.items():
        assert share == pytest.approx(1 / len(allowed), abs=0.03), slot


def test_s5_1_madman_seer_random_target_is_any_other_slot_human_or_oni():
    freq = frequencies(lambda seed: make(madman="seer_a", seed=seed).random_targets["seer_a"], 2400)
    assert set(freq) == set(SLOTS) - {"seer_a"}
    for slot, share in freq.items():
        assert share == pytest.approx(1 / 12, abs=0.03), slot
    village = next(
        v
        for v in (make(madman="seer_a", seed=s) for s in range(100))
        if v.sides[v.random_targets["seer_a"]] is Side.ONI
    )
    assert village.random_divination()["seer_a"].verdict == Verdict.ONI


def test_s5_1_oni_seer_random_target_is_any_other_slot():
    freq = frequencies(lambda seed: make(seed=seed).random_targets["seer_b"], 2400)
    assert set(freq) == set(SLOTS) - {"seer_b"}  # seer_b is an oni: other oni included
    for slot, share in freq.items():
        assert share == pytest.approx(1 / 12, abs=0.03), slot


def test_s5_1_the_two_random_targets_may_coincide():
    same = [make(seed=s).random_targets for s in range(300)]
    assert any(t["seer_a"] == t["seer_b"] for t in same)
    assert any(t["seer_a"] != t["seer_b"] for t in same)


def test_s5_1_random_divination_result_is_the_targets_verdict():
    for seed in range(200):
        village = make(madman="seer_a", seed=seed)
        for seer, result in village.random_divination().items():
            target = village.random_targets[seer]
            assert result == Result(target, verdict_of(village.sides[target]))
    # the madman as a target reads human
    village = Village(
        sides=make().sides, random_targets={"seer_a": MADMAN, "seer_b": "guard_b"}, day=0
    )
    assert village.random_divination() == {
        "seer_a": Result(MADMAN, Verdict.HUMAN),
        "seer_b": Result("guard_b", Verdict.ONI),
    }


@pytest.mark.parametrize(
    ("target", "verdict"), [("guard_b", "oni"), (MADMAN, "human"), ("commoner_a", "human")]
)
def test_s5_1_divination_gives_the_targets_verdict_next_morning(target, verdict):
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_d", "seer_b"),
        {"seer_a": {"divine": target}, "seer_b": {"divine": target}},
    )
    assert morning.results["seer_a"] == Result(target, verdict)
    assert morning.results["seer_b"] == Result(target, verdict)


@pytest.mark.parametrize("how", ["judged", "attacked", "assassinated", "blocked"])
def test_s5_1_divination_unknown_when_target_died_that_night(how):
    village = make()
    parts = {
        "judged": [pray_for(village, "guard_b"), strike(village, "commoner_a", "seer_b")],
        "attacked": [pray_for(village, "empath_b"), strike(village, "guard_b", "seer_b")],
        "assassinated": [
            pray_for(village, "empath_b"),
            strike(village, "commoner_a", "seer_b"),
            {"assassin": {"assassinate": "guard_b"}},
        ],
        "blocked": [
            pray_for(village, "empath_b"),
            strike(village, "commoner_a", "guard_b"),
            {"guard_a": {"guard": "commoner_a"}},
        ],
    }[how]
    morning = night(village, *parts, {"seer_a": {"divine": "guard_b"}})
    assert "guard_b" in morning.deaths
    assert morning.results["seer_a"] == Result("guard_b", "unknown")


def test_s5_1_seer_who_dies_that_night_learns_nothing():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "seer_a", "seer_b"),
        {"seer_a": {"divine": "guard_b"}},
    )
    assert "seer_a" in morning.deaths
    assert "seer_a" not in morning.results


def test_s5_1_undecided_divination_gives_no_result():
    village = make()
    morning = night(village, pray_for(village, "empath_b"))
    assert "seer_a" not in morning.results and "seer_b" not in morning.results


# =====================================================================================
# §5.2 Medium
# =====================================================================================


@pytest.mark.parametrize(
    ("judged", "verdict"), [("guard_b", "oni"), (MADMAN, "human"), ("commoner_a", "human")]
)
def test_s5_2_living_mediums_learn_the_verdict_of_the_judged(judged, verdict):
    village = make()
    morning = night(village, pray_for(village, judged), strike(village, "commoner_d", "seer_b"))
    assert morning.judged == judged
    assert morning.results["medium_a"] == Result(judged, verdict)
    if judged != MADMAN:
        assert morning.results[MADMAN] == Result(judged, verdict)


def test_s5_2_medium_who_dies_that_night_learns_nothing():
    village = make()
    morning = night(village, pray_for(village, "guard_b"), strike(village, "medium_a", "seer_b"))
    assert "medium_a" in morning.deaths
    assert "medium_a" not in morning.results


def test_s5_2_dead_medium_learns_nothing():
    village = make(dead=["medium_a"])
    morning = night(village, pray_for(village, "guard_b"))
    assert "medium_a" not in morning.results
    assert morning.results[MADMAN] == Result("guard_b", "oni")


# =====================================================================================
# §5.3 Empath
# =====================================================================================


def test_s5_3_empaths_learn_each_others_verdict_when_day_1_starts():
    village = make(oni=("empath_b", "seer_b", "guard_b"))
    assert village.empathy() == {
        "empath_a": Result("empath_b", Verdict.ONI),
        "empath_b": Result("empath_a", Verdict.HUMAN),
    }


def test_s5_3_empath_partner_madman_reads_human():
    village = make(madman="empath_a")
    assert village.empathy()["empath_b"] == Result("empath_a", Verdict.HUMAN)


def test_s5_3_only_living_empaths_learn_and_only_from_day_1():
    opening = Village.create(random.Random(0))
    assert opening.empathy() == {}
    village = make(dead=["empath_a"])
    assert village.empathy() == {"empath_b": Result("empath_a", Verdict.HUMAN)}


def test_s5_3_empathy_is_what_day_1_gave_even_after_a_later_death():
    village = make()
    night(village, pray_for(village, "empath_a"))
    assert set(village.empathy()) == {"empath_a", "empath_b"}


# =====================================================================================
# §5.4 Guard
# =====================================================================================


def test_s5_4_guard_never_self():
    village = make()
    refused(village, "guard_a", Choices(guard="guard_a"), SelfTargetError)
    assert "guard_a" not in village.legal_targets("guard_a", "guard")


def test_s5_4_guard_learns_nothing_and_survives_a_quiet_night():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "seer_a"}, "guard_b": {"guard": "medium_a"}},
    )
    assert "guard_a" not in morning.results and "guard_b" not in morning.results
    assert {"guard_a", "guard_b"} <= village.alive


def test_s5_4_guard_protects_one_character_from_attack():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
    )
    assert "commoner_a" not in morning.deaths


# =====================================================================================
# §5.5 Commoner and DM
# =====================================================================================


def test_s5_5_human_commoner_corpse_leaves_true_dm_naming_attacker():
    village = make()
    morning = night(
        village, pray_for(village, "empath_b"), strike(village, "commoner_a", "guard_b")
    )
    assert morning.deaths["commoner_a"] is CORPSE
    assert morning.dms == {"commoner_b": DyingMessage("commoner_a", "guard_b")}


def test_s5_5_human_commoner_assassinated_leaves_true_dm_naming_assassin():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "medium_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_d"}},
    )
    assert morning.dms == {"commoner_c": DyingMessage("commoner_d", "assassin")}


def test_s5_5_human_commoner_attacked_and_assassinated_dm_names_the_attacker():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_b", "commoner_c"),
        {"assassin": {"assassinate": "commoner_b"}},
    )
    assert morning.dms == {"commoner_a": DyingMessage("commoner_b", "commoner_c")}


def test_s5_5_human_commoner_true_dm_ignores_any_dm_choice():
    village = make()
    refused(village, "commoner_a", Choices(dm="seer_a"), NotAllowedError)
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"commoner_a": {"dm": "seer_a"}},
        check=False,
    )
    assert morning.dms == {"commoner_b": DyingMessage("commoner_a", "seer_b")}


@pytest.mark.parametrize("how", ["attacked", "self_attack", "assassinated", "blocked_attacker"])
def test_s5_5_oni_side_commoner_corpse_leaves_the_fake_dm_set(how):
    village = make()
    parts = {
        "attacked": [strike(village, "commoner_c", "seer_b")],
        "self_attack": [strike(village, "commoner_c", "commoner_c")],
        "assassinated": [
            strike(village, "commoner_a", "seer_b"),
            {"assassin": {"assassinate": "commoner_c"}},
        ],
        "blocked_attacker": [
            strike(village, "commoner_a", "commoner_c"),
            {"guard_a": {"guard": "commoner_a"}},
        ],
    }[how]
    morning = night(
        village, pray_for(village, "empath_b"), *parts, {"commoner_c": {"dm": "medium_a"}}
    )
    assert morning.deaths["commoner_c"] is CORPSE
    assert morning.dms["commoner_d"] == DyingMessage("commoner_c", "medium_a")


def test_s5_5_madman_commoner_corpse_leaves_the_fake_dm_set():
    village = make(madman="commoner_a")
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"commoner_a": {"dm": "assassin"}},
    )
    assert morning.dms == {"commoner_b": DyingMessage("commoner_a", "assassin")}


def test_s5_5_fake_dm_may_name_a_dead_character():
    village = make(dead=["seer_a"])
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_c", "seer_b"),
        {"commoner_c": {"dm": "seer_a"}},
    )
    assert morning.dms == {"commoner_d": DyingMessage("commoner_c", "seer_a")}


def test_s5_5_oni_side_commoner_without_fake_dm_leaves_none():
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, "commoner_c", "seer_b"))
    assert morning.deaths["commoner_c"] is CORPSE
    assert morning.dms == {}


def test_s5_5_fake_dm_cannot_name_writer():
    village = make()
    refused(
        village,
        "commoner_c",
        Choices(dm="commoner_c"),
        SelfTargetError,
        "ダイイングメッセージに自分の名前は書けません",
    )
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_c", "seer_b"),
        {"commoner_c": {"dm": "commoner_c"}},
        check=False,
    )
    assert morning.dms == {}


def test_s5_5_ash_leaves_no_dm_human_commoner_judged_and_attacked():
    village = make()
    morning = night(
        village, pray_for(village, "commoner_a"), strike(village, "commoner_a", "seer_b")
    )
    assert morning.deaths == {"commoner_a": ASH}
    assert morning.dms == {}


def test_s5_5_ash_leaves_no_dm_oni_side_commoner_judged():
    village = make()
    morning = night(
        village,
        pray_for(village, "commoner_c"),
        strike(village, "commoner_a", "seer_b"),
        {"commoner_c": {"dm": "medium_a"}},
    )
    assert morning.deaths["commoner_c"] is ASH
    assert "commoner_d" not in morning.dms
    assert morning.dms == {"commoner_b": DyingMessage("commoner_a", "seer_b")}


def test_s5_5_dm_reaches_only_a_living_partner_dead_before():
    village = make(dead=["commoner_b"])
    morning = night(village, pray_for(village, "empath_b"), strike(village, "commoner_a", "seer_b"))
    assert morning.deaths["commoner_a"] is CORPSE
    assert morning.dms == {}


def test_s5_5_dm_reaches_only_a_living_partner_dying_the_same_night():
    village = make()
    morning = night(
        village,
        pray_for(village, "commoner_b"),
        strike(village, "commoner_a", "seer_b"),
    )
    assert morning.deaths == {"commoner_b": ASH, "commoner_a": CORPSE}
    assert morning.dms == {}


def test_s5_5_both_partners_struck_the_same_night_no_dm():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_b"}},
    )
    assert {"commoner_a", "commoner_b"} <= set(morning.deaths)
    assert morning.dms == {}


def test_s5_5_commoner_pairs_are_a_b_and_c_d():
    village = make(oni=("seer_b", "guard_b", "assassin"), madman="medium_b")
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"assassin": {"assassinate": "commoner_c"}},
    )
    assert morning.dms == {
        "commoner_b": DyingMessage("commoner_a", "seer_b"),
        "commoner_d": DyingMessage("commoner_c", "assassin"),
    }


# =====================================================================================
# §5.6 Assassin
# =====================================================================================


@pytest.mark.parametrize(
    ("target", "verdict"), [("guard_b", "oni"), (MADMAN, "human"), ("commoner_a", "human")]
)
def test_s5_6_living_assassin_learns_the_verdict_when_carried_out(target, verdict):
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_d", "seer_b"),
        {"assassin": {"assassinate": target}},
    )
    assert morning.assassination == target
    assert morning.results["assassin"] == Result(target, verdict)


def test_s5_6_assassin_who_dies_that_night_learns_nothing():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "assassin", "seer_b"),
        {"assassin": {"assassinate": "guard_b"}},
    )
    assert morning.deaths["assassin"] is CORPSE and morning.deaths["guard_b"] is CORPSE
    assert "assassin" not in morning.results


def test_s5_6_assassination_once_per_game():
    village = make()
    night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_d", "seer_b"),
        {"assassin": {"assassinate": "guard_b"}},
    )
    assert village.assassination_used
    with pytest.raises(AssassinationUsedError) as caught:
        village.validate("assassin", Choices(assassinate="seer_b"))
    assert str(caught.value) == "暗殺は一度きりです。すでに使っています"
    # A second assassination that reaches the update anyway is void.
    morning = night(
        village,
        pray_for(village, "empath_a"),
        strike(village, "medium_a", "seer_b"),
        {"assassin": {"assassinate": "seer_b"}},
        check=False,
    )
    assert morning.assassination is None
    assert "seer_b" not in morning.deaths
    assert "assassin" not in morning.results


def test_s5_6_oni_assassin_who_is_the_last_oni_can_never_assassinate():
    village = make(oni=("assassin", "seer_b", "guard_b"), dead=["seer_b", "guard_b"])
    for _ in range(2):
        morning = night(
            village,
            pray_for(village, village.living(Side.HUMAN)[0]),
            {"assassin": {"assassinate": "commoner_d"}},
            seed=village.day,
        )
        assert morning.attack.attacker == "assassin"
        assert morning.assassination is None
        assert morning.attack.target == "commoner_d" or "commoner_d" not in morning.deaths
        assert not village.assassination_used


# =====================================================================================
# §5.7 What the dead learn
# =====================================================================================


def test_s5_7_attacked_learns_the_attacker():
    village = make()
    morning = night(
        village, pray_for(village, "empath_b"), strike(village, "commoner_a", "guard_b")
    )
    assert morning.killers == {"commoner_a": "guard_b"}


def test_s5_7_assassinated_learns_the_assassin():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "guard_b"),
        {"assassin": {"assassinate": "seer_a"}},
    )
    assert morning.killers == {"commoner_a": "guard_b", "seer_a": "assassin"}


def test_s5_7_self_attacked_oni_learns_itself():
    village = make()
    morning = night(village, pray_for(village, "empath_b"), strike(village, "seer_b", "seer_b"))
    assert morning.killers == {"seer_b": "seer_b"}


def test_s5_7_guard_who_died_guarding_learns_whom_it_intercepted():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "commoner_c"),
        {
            "guard_a": {"guard": "commoner_a"},
            "guard_b": {"guard": "seer_a"},
            "assassin": {"assassinate": "seer_a"},
        },
    )
    assert morning.killers == {"guard_a": "commoner_c", "guard_b": "assassin"}
    assert morning.deaths == {
        "empath_b": ASH,
        "commoner_c": CORPSE,
        "assassin": CORPSE,
        "guard_a": CORPSE,
        "guard_b": CORPSE,
    }


def test_s5_7_judged_and_blocked_strikers_learn_no_killer():
    village = make()
    morning = night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {"guard_a": {"guard": "commoner_a"}},
    )
    assert "empath_b" not in morning.killers
    assert "seer_b" not in morning.killers


def test_s5_7_abilities_give_the_dead_no_further_results():
    village = make(dead=["seer_a", "medium_a", "assassin"])
    morning = night(
        village,
        pray_for(village, "guard_b"),
        {"seer_a": {"divine": "seer_b"}, "assassin": {"assassinate": "commoner_c"}},
        check=False,
    )
    assert not {"seer_a", "medium_a", "assassin"} & set(morning.results)
    assert "commoner_c" not in morning.deaths


# =====================================================================================
# §6 Victory
# =====================================================================================


def test_s6_no_oni_alive_human_win():
    village = make(dead=["seer_b", "guard_b"])
    morning = night(village, pray_for(village, "commoner_c"))
    assert morning.deaths["commoner_c"] is ASH
    assert village.ending == Ending(Winner.HUMAN, EndedBy.ELIMINATION, 2)


def test_s6_madman_alive_and_no_oni_human_win():
    village = make(dead=["seer_b", "guard_b", *HUMANS[:7]])  # left: 2 humans, madman, 1 oni
    assert village.winner() is None
    night(village, pray_for(village, "commoner_c"), {"commoner_c": {"attacker": "commoner_c"}})
    assert MADMAN in village.alive and not village.living(Side.ONI)
    assert village.ending is not None and village.ending.winner is Winner.HUMAN


def test_s6_nobody_alive_oni_win():
    village = make(
        oni=("commoner_a", "seer_b", "commoner_c"),
        dead=[s for s in SLOTS if s not in ("guard_a", "guard_b", "assassin", "commoner_a")],
    )
    assert village.winner() is None  # 1 oni, 3 humans
    morning = night(
        village,
        {
            "guard_a": {"pray": "commoner_a", "guard": "guard_b"},
            "guard_b": {"pray": "commoner_a", "guard": "commoner_a"},
            "assassin": {"pray": "commoner_a", "assassinate": "commoner_a"},
            "commoner_a": {"pray": "guard_a", "attack": "guard_a", "attacker": "commoner_a"},
        },
    )
    assert morning.deaths == {
        "guard_a": CORPSE,  # attacked, unguarded
        "guard_b": CORPSE,  # guarded the assassination target
        "commoner_a": ASH,  # judged
        "assassin": CORPSE,  # struck a guarded target
    }
    assert not village.alive
    assert village.ending == Ending(Winner.ONI, EndedBy.ELIMINATION, 2)


def test_s6_nobody_alive_is_oni_win_by_the_state():
    village = make(dead=SLOTS)
    assert village.winner() is Winner.ONI


def test_s6_living_oni_equal_to_living_humans_oni_win():
    village = make(dead=HUMANS[:5])  # 4 humans, madman, 3 oni
    assert village.winner() is None
    morning = night(
        village, pray_for(village, "commoner_a"), strike(village, "commoner_b", "seer_b")
    )
    assert morning.deaths == {"commoner_a": ASH, "commoner_b": CORPSE}
    assert len(village.living(Side.ONI)) == 3 and len(village.living(Side.HUMAN)) == 2
    assert village.ending == Ending(Winner.ONI, EndedBy.ELIMINATION, 2)


def test_s6_oni_more_than_humans_oni_win():
    village = make(dead=[MADMAN, *HUMANS[:7]])  # 2 humans, 3 oni
    assert village.winner() is Winner.ONI


def test_s6_madman_not_counted_with_the_oni():
    # 2 oni + madman against 3 humans: 2 < 3, the game goes on.
    village = make(dead=["guard_b", *HUMANS[:6]])
    assert len(village.living(Side.ONI)) == 2 and len(village.living(Side.HUMAN)) == 3
    assert village.winner() is None
    # 2 oni + madman against 2 humans: 2 >= 2, oni side wins.
    village = make(dead=["guard_b", *HUMANS[:7]])
    assert village.winner() is Winner.ONI


def test_s6_otherwise_the_game_goes_on():
    village = make()
    night(village, pray_for(village, "seer_b"), strike(village, "commoner_a", "guard_b"))
    assert village.winner() is None and village.ending is None and village.running


def test_s6_a_side_wins_as_a_team_whoever_survives():
    # The oni side wins with every oni-side member dead but one oni.
    village = make(dead=["seer_b", "guard_b", MADMAN, *HUMANS[:8]])  # 1 human, 1 oni
    assert village.winner() is Winner.ONI
    # The human side wins with a single human left.
    village = make(dead=[*ONI, *HUMANS[:8]])
    assert village.winner() is Winner.HUMAN


# =====================================================================================
# §7 Oni-side commands
# =====================================================================================


def _commands(village: Village, key: str, setters: Iterable[str], pick: str = "seer_a") -> dict:
    return plan({s: {key: pick} for s in setters})


def test_s7_victory_declaration_by_3_oni_side_members_takes_effect():
    village = make()
    choices = plan(
        {"seer_b": {"victory": "seer_a"}, "guard_b": {"victory": "commoner_a"}},
        {MADMAN: {"victory": MADMAN}},  # the safety picks may differ
    )
    for slot, made in choices.items():
        village.validate(slot, made)
    assert village.command(choices) is Command.VICTORY


def test_s7_resignation_by_3_oni_side_members_takes_effect():
    village = make()
    assert village.command(_commands(village, "resign", ONI)) is Command.RESIGN


def test_s7_two_are_not_enough():
    village = make()
    assert village.command(_commands(village, "victory", ["seer_b", MADMAN])) is None
    assert village.command(_commands(village, "resign", ["seer_b", "guard_b"])) is None
    mixed = plan(
        {"seer_b": {"victory": "seer_a"}, "guard_b": {"victory": "seer_a"}},
        {"commoner_c": {"resign": "seer_a"}, MADMAN: {"resign": "seer_a"}},
    )
    assert village.command(mixed) is None


def test_s7_dead_members_count():
    village = make(dead=["seer_b", "guard_b", MADMAN])
    choices = _commands(village, "victory", ["seer_b", "guard_b", MADMAN])
    for slot, made in choices.items():
        village.validate(slot, made)
    assert village.command(choices) is Command.VICTORY


def test_s7_human_settings_never_count():
    village = make()
    choices = _commands(village, "victory", ["seer_b", "guard_b", "seer_a", "assassin"])
    assert village.command(choices) is None


def test_s7_undecided_pick_cancels():
    village = make()
    choices = _commands(village, "victory", ONI)
    choices["commoner_c"] = Choices(victory=None, pray="seer_a")
    assert village.command(choices) is None


def test_s7_member_cannot_set_both():
    refused(
        make(),
        "seer_b",
        Choices(victory="seer_a", resign="seer_a"),
        ConflictingCommandsError,
        "勝利宣言と投了は同時に選べません。どちらか一方にしてください",
    )


def test_s7_declaration_by_day_ends_at_once_oni_win():
    village = make()
    assert village.command(_commands(village, "victory", ONI)) is Command.VICTORY
    ending = village.end_by_command(Command.VICTORY, at_night=False)
    assert ending == Ending(Winner.ONI, EndedBy.VICTORY_DECLARATION, 1)
    assert village.ending == ending and village.day == 1
    assert not village.running and village.mornings == [] and village.deaths == {}


def test_s7_declaration_at_night_ends_next_update_without_resolution():
    village = make()
    night(village, pray_for(village, "empath_b"), strike(village, "commoner_a", "seer_b"))
    deaths = dict(village.deaths)
    ending = village.end_by_command(Command.VICTORY, at_night=True)
    assert ending == Ending(Winner.ONI, EndedBy.VICTORY_DECLARATION, 3)
    assert village.day == 3
    assert village.deaths == deaths  # that night is not resolved: nobody dies
    assert len(village.mornings) == 1
    assert not village.running


def test_s7_resignation_by_day_ends_at_once_human_win():
    village = make()
    ending = village.end_by_command(Command.RESIGN, at_night=False)
    assert ending == Ending(Winner.HUMAN, EndedBy.RESIGNATION, 1)


def test_s7_resignation_at_night_ends_next_update_without_resolution():
    village = make()
    ending = village.end_by_command(Command.RESIGN, at_night=True)
    assert ending == Ending(Winner.HUMAN, EndedBy.RESIGNATION, 2)
    assert village.mornings == [] and village.deaths == {}


def test_s7_forced_judgment_by_3_replaces_prayers():
    village = make()
    forced = {s: {"force": "commoner_a"} for s in ["seer_b", "commoner_c", MADMAN]}
    morning = night(village, pray_for(village, "seer_b"), forced)
    assert morning.judged == "commoner_a"
    assert morning.deaths["commoner_a"] is ASH
    assert "seer_b" not in morning.deaths
    assert morning.results["medium_a"] == Result("commoner_a", "human")


def test_s7_forced_judgment_dead_members_count():
    village = make(dead=["seer_b", "guard_b"])
    forced = {s: {"force": "assassin"} for s in ["seer_b", "guard_b", "commoner_c"]}
    morning = night(village, pray_for(village, "commoner_c"), forced)
    assert morning.judged == "assassin"


def test_s7_forced_judgment_two_not_enough():
    village = make()
    forced = {"seer_b": {"force": "commoner_a"}, MADMAN: {"force": "commoner_a"}}
    forced["guard_b"] = {"force": "commoner_b"}
    morning = night(village, pray_for(village, "empath_b"), forced)
    assert morning.judged == "empath_b"


@pytest.mark.parametrize("target", [MADMAN, "commoner_c", "commoner_a"])
def test_s7_forced_judgment_on_anyone_but_a_living_human_is_void(target):
    village = make(dead=["commoner_a"])
    forced = {s: {"force": target} for s in village.oni_side}
    morning = night(village, pray_for(village, "empath_b"), forced, check=False)
    assert morning.judged == "empath_b"


def test_s7_forced_judgment_is_never_announced():
    village = make()
    forced = {s: {"force": "commoner_a"} for s in ["seer_b", "commoner_c", MADMAN]}
    morning = night(village, pray_for(village, "seer_b"), forced)
    assert set(morning.to_json()) == {
        "day",
        "judged",
        "attack",
        "assassination",
        "deaths",
        "results",
        "dms",
        "killers",
    }


# =====================================================================================
# JSON round trip of a village in the middle of a game
# =====================================================================================


def _mid_game() -> Village:
    village = make(seed=11)
    night(
        village,
        pray_for(village, "empath_b"),
        strike(village, "commoner_a", "seer_b"),
        {
            "assassin": {"assassinate": "guard_b"},
            "seer_a": {"divine": "commoner_c"},
            "commoner_c": {"dm": "medium_a"},
        },
        seed=1,
    )
    night(
        village,
        pray_for(village, "medium_b"),
        strike(village, "commoner_c", "commoner_c"),
        {"guard_a": {"guard": "commoner_c"}, "commoner_c": {"dm": "seer_a"}},
        seed=2,
    )
    return village


def test_json_round_trip_mid_game():
    village = _mid_game()
    assert village.running and village.day == 3 and village.assassination_used
    assert any(m.dms for m in village.mornings) and any(m.killers for m in village.mornings)
    data = json.loads(json.dumps(village.to_json(), ensure_ascii=False))
    again = Village.from_json(data)
    assert again == village
    assert again.to_json() == village.to_json()
    assert again.alive == village.alive
    assert again.random_divination() == village.random_divination()
    assert again.empathy() == village.empathy()


def test_json_round_trip_mid_game_then_plays_on_identically():
    village = _mid_game()
    again = Village.from_json(json.loads(json.dumps(village.to_json())))
    for seed in range(3, 8):
        if not village.running:
            break
        first = village.resolve_night({}, random.Random(seed))
        second = again.resolve_night({}, random.Random(seed))
        assert first == second
    assert again == village
    assert again.to_json() == village.to_json()


def test_json_round_trip_after_an_ending():
    village = make()
    village.end_by_command(Command.RESIGN, at_night=True)
    again = Village.from_json(json.loads(json.dumps(village.to_json())))
    assert again == village and again.ending == Ending(Winner.HUMAN, EndedBy.RESIGNATION, 2)
