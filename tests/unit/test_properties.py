"""Property tests of the rules engine over random games (RULES §3–§6).

Every game is drawn from one integer seed. Members make random legal choices,
taken from ``Village.legal_targets``; after each update the morning is checked
against an independent reading of the rule book.
"""

import json
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.mobius import (
    CHOICE_KEYS,
    PARTNERS,
    SLOTS,
    ChoiceError,
    Choices,
    DeadActorError,
    Morning,
    PhaseError,
    Village,
)
from chalicelib.rulesets.mobius.simulate import play

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAMES = settings(max_examples=100, deadline=None)
FEW_GAMES = settings(max_examples=50, deadline=None)

MAX_UPDATES = 13  # 13 characters and at least one judged per night
LIVING_ONLY = ("pray", "divine", "guard", "assassinate")  # RULES §3: void for the dead
JOB_OF = {slot: slot.split("_")[0] for slot in SLOTS}
GUARDS = ("guard_a", "guard_b")
SEERS = ("seer_a", "seer_b")
MEDIUMS = ("medium_a", "medium_b")
COMMONERS = ("commoner_a", "commoner_b", "commoner_c", "commoner_d")
JOB_KEYS = {"divine": "seer", "guard": "guard", "assassinate": "assassin"}


# ----- an independent reading of RULES §3 -----


def rule_targets(
    actor: str, key: str, sides: Mapping[str, str], alive: frozenset[str], used: bool
) -> list[str]:
    """The valid targets of ``key`` for ``actor``, straight from the table of RULES §3."""
    job = JOB_OF[actor]
    oni_side = sides[actor] != "human"
    living_others = [s for s in SLOTS if s in alive and s != actor]
    if key == "pray":
        return living_others if actor in alive else []
    if key == "divine":
        return living_others if job == "seer" and actor in alive else []
    if key == "guard":
        return living_others if job == "guard" and actor in alive else []
    if key == "assassinate":
        return living_others if job == "assassin" and actor in alive and not used else []
    if not oni_side:
        return []
    if key == "attack":
        return [s for s in SLOTS if s in alive]
    if key == "attacker":
        return [s for s in SLOTS if s in alive and sides[s] == "oni"]
    if key == "dm":
        return [s for s in SLOTS if s != actor] if job == "commoner" else []
    if key in ("victory", "resign"):
        return list(SLOTS)
    if key == "force":
        return [s for s in SLOTS if s in alive and sides[s] == "human"]
    raise AssertionError(key)


def verdict(sides: Mapping[str, str], slot: str) -> str:
    return "oni" if sides[slot] == "oni" else "human"


# ----- driving a game -----


@dataclass
class Step:
    """One update: the village before it, the choices saved that day, and what came of it."""

    before: Village
    choices: dict[str, Choices]
    morning: Morning | None  # None when an oni-side command ended the game instead


def offered(village: Village, actor: str) -> list[str]:
    """The keys worth asking ``legal_targets`` about (the others are never open to ``actor``)."""
    job = JOB_OF[actor]
    keys = ["pray"] + [key for key, own in JOB_KEYS.items() if own == job]
    if village.sides[actor] != "human":
        keys += ["attack", "attacker", "force"] + (["dm"] if job == "commoner" else [])
    return keys


def random_choices(village: Village, actor: str, rng: random.Random) -> Choices:
    made = {}
    for key in offered(village, actor):
        if rng.random() < 0.25:
            continue
        targets = village.legal_targets(actor, key)
        if targets:
            made[key] = rng.choice(targets)
    if village.sides[actor] != "human" and rng.random() < 0.3:
        made[rng.choice(("victory", "resign"))] = rng.choice(SLOTS)
    return Choices(**made)


def copy(village: Village) -> Village:
    return Village.from_json(json.loads(json.dumps(village.to_json())))


def game(seed: int) -> Iterator[tuple[str, Village, Step | None]]:
    """Plays one random game, yielding ``(point, village, step)`` at every point of it."""
    rng = random.Random(seed)
    dead = rng.sample(SLOTS, rng.choice((0, 0, 0, 1, 2, 3)))
    village = Village.create(rng)
    yield "created", village, None
    village.start(dead=dead)
    yield "started", village, None
    for _ in range(MAX_UPDATES + 1):
        if village.ending is not None:
            return
        choices = {slot: random_choices(village, slot, rng) for slot in SLOTS}
        for slot, made in choices.items():
            village.validate(slot, made)  # legal targets are always accepted
        before = copy(village)
        command = village.command(choices)
        if command is not None:
            village.end_by_command(command, at_night=rng.random() < 0.5)
            yield "command", village, Step(before, choices, None)
        else:
            morning = village.resolve_night(choices, rng)
            yield "night", village, Step(before, choices, morning)
    raise AssertionError(f"no ending after {MAX_UPDATES + 1} updates")


def final(seed: int) -> Village:
    *_, (_, village, _) = game(seed)
    return village


def nights(seed: int) -> Iterator[Step]:
    for point, _, step in game(seed):
        if point == "night":
            assert step is not None
            yield step


# ----- every game ends -----


@GAMES
@given(SEEDS)
def test_simulated_game_ends_with_a_winner_within_13_updates(seed):
    village = play(random.Random(seed))
    assert village.ending is not None
    assert str(village.ending.winner) in ("human", "oni")
    assert str(village.ending.by) in ("elimination", "victory_declaration", "resignation")
    assert len(village.mornings) <= MAX_UPDATES
    assert village.ending.day - 1 <= MAX_UPDATES
    assert not village.running


@GAMES
@given(SEEDS)
def test_driven_game_ends_with_a_winner_within_13_updates(seed):
    village = final(seed)
    assert village.ending is not None
    assert len(village.mornings) <= MAX_UPDATES
    assert village.ending.day - 1 <= MAX_UPDATES
    if village.ending.by == "elimination":
        assert village.ending.day == village.mornings[-1].day == village.day
        assert village.winner() == village.ending.winner
    with pytest.raises(PhaseError):
        village.resolve_night({}, random.Random(0))


# ----- the dead never act -----


@GAMES
@given(SEEDS)
def test_the_dead_are_refused_pray_divine_guard_assassinate(seed):
    own_job = {"pray": None, **JOB_KEYS}
    for _, village, _ in game(seed):
        if not village.running:
            continue
        alive = village.alive
        for actor in sorted(set(SLOTS) - alive):
            for key in LIVING_ONLY:
                assert village.legal_targets(actor, key) == []
                if own_job[key] not in (None, JOB_OF[actor]):
                    continue  # refused for the job already
                for target in sorted(alive)[:3]:
                    with pytest.raises(DeadActorError):
                        village.validate(actor, Choices(**{key: target}))


@GAMES
@given(SEEDS)
def test_resolution_ignores_the_choices_of_the_dead(seed):
    rng = random.Random(seed ^ 0x5EED)
    for point, village, _ in game(seed):
        if not village.running or len(village.alive) == len(SLOTS):
            continue
        alive = sorted(village.alive)
        choices = {slot: random_choices(village, slot, rng) for slot in SLOTS}
        if village.command(choices) is not None:
            continue
        haunted = dict(choices)
        for actor in set(SLOTS) - village.alive:
            void = {key: rng.choice([s for s in alive if s != actor]) for key in LIVING_ONLY}
            haunted[actor] = Choices(**{**choices[actor].to_dict(), **void})
        plain, ghostly = copy(village), copy(village)
        draw = rng.getrandbits(64)
        expected = plain.resolve_night(choices, random.Random(draw))
        got = ghostly.resolve_night(haunted, random.Random(draw))
        assert got == expected, point
        assert ghostly == plain


# ----- one judgment a night, sides fixed -----


@GAMES
@given(SEEDS)
def test_exactly_one_living_character_is_judged_each_night(seed):
    for step in nights(seed):
        morning = step.morning
        assert morning.judged in step.before.alive
        ashes = [slot for slot, kind in morning.deaths.items() if kind == "ash"]
        assert ashes == [morning.judged]


@GAMES
@given(SEEDS)
def test_sides_never_change(seed):
    sides = None
    for _, village, _ in game(seed):
        if sides is None:
            sides = dict(village.sides)
            counts = Counter(str(side) for side in sides.values())
            assert counts == {"human": 9, "oni": 3, "madman": 1}
        assert village.sides == sides
        assert Village.from_json(village.to_json()).sides == sides


# ----- determinism and serialization -----


@FEW_GAMES
@given(SEEDS)
def test_same_seed_gives_the_same_game(seed):
    assert play(random.Random(seed)).to_json() == play(random.Random(seed)).to_json()
    first = [json.dumps(v.to_json()) for _, v, _ in game(seed)]
    second = [json.dumps(v.to_json()) for _, v, _ in game(seed)]
    assert first == second


@GAMES
@given(SEEDS)
def test_json_round_trip_is_exact_at_every_point(seed):
    for _, village, _ in game(seed):
        data = village.to_json()
        text = json.dumps(data, ensure_ascii=False)
        back = Village.from_json(json.loads(text))
        assert back == village
        assert back.to_json() == data
        assert json.dumps(back.to_json(), ensure_ascii=False) == text
        for morning in village.mornings:
            again = Morning.from_json(json.loads(json.dumps(morning.to_json())))
            assert again == morning


# ----- what each morning may hold -----


@GAMES
@given(SEEDS)
def test_only_the_living_die_and_only_survivors_learn(seed):
    for step in nights(seed):
        before = step.before.alive
        morning = step.morning
        after = before - set(morning.deaths)
        assert set(morning.deaths) <= before
        assert set(morning.results) <= after
        assert set(morning.dms) <= after
        assert set(morning.killers) <= set(morning.deaths)
        assert morning.day == step.before.day + 1


@GAMES
@given(SEEDS)
def test_judgment_follows_prayers_or_forced_judgment(seed):
    """RULES §4.1 and §7: forced target, else a most-prayed character (with the tie exception)."""
    for step in nights(seed):
        village, choices, judged = step.before, step.choices, step.morning.judged
        alive = village.alive
        forced = Counter(
            choices[s].force for s in SLOTS if village.sides[s] != "human" and choices[s].force
        )
        quorum = [target for target, count in forced.items() if count >= 3]
        if quorum:
            assert judged == quorum[0]
            continue
        prayers = Counter(choices[s].pray for s in alive if choices[s].pray is not None)
        most = max(prayers[s] for s in alive)
        assert prayers[judged] == most
        humans = [s for s in alive if village.sides[s] == "human"]
        human_prayers = {choices[h].pray for h in humans}
        if 2 * len(humans) == len(alive) and len(human_prayers) == 1 and None not in human_prayers:
            assert judged == human_prayers.pop()


@GAMES
@given(SEEDS)
def test_attack_and_assassination_follow_the_votes(seed):
    """RULES §4.2 and §5.6."""
    for step in nights(seed):
        village, choices, morning = step.before, step.choices, step.morning
        living_oni = [s for s in SLOTS if s in village.alive and village.sides[s] == "oni"]
        living_humans = [s for s in SLOTS if s in village.alive and village.sides[s] == "human"]
        attack = morning.attack
        if not living_oni:  # possible only when every oni was dead when day 1 started
            assert attack is None
            assert morning.assassination == choices["assassin"].assassinate
            continue
        assert attack is not None
        attackers = [choices[s].attacker for s in village.oni_side if choices[s].attacker]
        targets = [choices[s].attack for s in village.oni_side if choices[s].attack]
        assert attack.attacker in (attackers or living_oni)
        assert attack.target in (targets or living_humans)
        wanted = choices["assassin"].assassinate
        if wanted is None or attack.attacker == "assassin":
            assert morning.assassination is None
        else:
            assert morning.assassination == wanted


@GAMES
@given(SEEDS)
def test_deaths_results_dms_and_killers_follow_the_rule_book(seed):
    """RULES §4.3, §5 and §5.7, given the night's judgment, attack and assassination."""
    for step in nights(seed):
        village, choices, morning = step.before, step.choices, step.morning
        sides = {slot: str(side) for slot, side in village.sides.items()}
        alive = village.alive
        guards_on: dict[str, list[str]] = {}
        for guard in GUARDS:
            if guard in alive and choices[guard].guard:
                guards_on.setdefault(choices[guard].guard, []).append(guard)
        strikes = []
        if morning.attack:
            strikes.append((morning.attack.target, morning.attack.attacker))
        if morning.assassination:
            strikes.append((morning.assassination, "assassin"))
        dying = {morning.judged}
        struck_by: dict[str, list[str]] = {}
        intercepted: dict[str, list[str]] = {}
        for target, striker in strikes:
            if guards_on.get(target):
                dying.add(striker)
                for guard in guards_on[target]:
                    dying.add(guard)
                    intercepted.setdefault(guard, []).append(striker)
            else:
                dying.add(target)
                struck_by.setdefault(target, []).append(striker)
        expected_deaths = {s: "ash" if s == morning.judged else "corpse" for s in dying}
        assert {s: str(k) for s, k in morning.deaths.items()} == expected_deaths
        survivors = alive - dying

        assert set(morning.killers) == set(struck_by) | set(intercepted)
        for slot, killer in morning.killers.items():
            assert killer in struck_by.get(slot, []) + intercepted.get(slot, [])

        expected_dms = {}
        for writer in COMMONERS:
            if expected_deaths.get(writer) != "corpse" or PARTNERS[writer] not in survivors:
                continue
            if sides[writer] == "human":
                attacked = morning.attack and morning.attack.target == writer
                names = morning.attack.attacker if attacked else "assassin"
            else:
                names = choices[writer].dm
            if names is not None:
                expected_dms[PARTNERS[writer]] = (writer, names)
        assert {r: (dm.writer, dm.names) for r, dm in morning.dms.items()} == expected_dms

        expected_results = {}
        for seer in SEERS:
            target = choices[seer].divine
            if seer in survivors and target:
                seen = "unknown" if target in dying else verdict(sides, target)
                expected_results[seer] = (target, seen)
        for medium in MEDIUMS:
            if medium in survivors:
                expected_results[medium] = (morning.judged, verdict(sides, morning.judged))
        if "assassin" in survivors and morning.assassination:
            target = morning.assassination
            expected_results["assassin"] = (target, verdict(sides, target))
        got = {slot: (r.target, str(r.verdict)) for slot, r in morning.results.items()}
        assert got == expected_results


@GAMES
@given(SEEDS)
def test_victory_is_checked_after_each_update(seed):
    """RULES §6 and §7."""
    for point, village, step in game(seed):
        if point == "command":
            command = step.before.command(step.choices)
            assert village.ending is not None
            assert village.ending.day in (step.before.day, step.before.day + 1)
            assert village.mornings == step.before.mornings
            expected = ("oni", "victory_declaration") if command == "victory" else None
            expected = expected or ("human", "resignation")
            assert (village.ending.winner, village.ending.by) == expected
        if point != "night":
            continue
        oni = sum(1 for s in village.alive if village.sides[s] == "oni")
        humans = sum(1 for s in village.alive if village.sides[s] == "human")
        if oni == 0:
            winner = "oni" if not village.alive else "human"
        elif oni >= humans:
            winner = "oni"
        else:
            winner = None
        if winner is None:
            assert village.ending is None
        else:
            assert village.ending is not None
            assert (village.ending.winner, village.ending.by) == (winner, "elimination")
            assert village.ending.day == village.day


# ----- the choices on offer -----


@FEW_GAMES
@given(SEEDS)
def test_legal_targets_match_the_rule_book_and_validate(seed):
    rng = random.Random(seed)
    for _, village, _ in game(seed):
        if not village.running:
            assert all(village.legal_targets(a, k) == [] for a in SLOTS for k in CHOICE_KEYS)
            continue
        sides = {slot: str(side) for slot, side in village.sides.items()}
        checked = set(rng.sample(SLOTS, 3))  # validate is tried on every target for these
        for actor in SLOTS:
            for key in CHOICE_KEYS:
                legal = village.legal_targets(actor, key)
                expected = rule_targets(
                    actor, key, sides, village.alive, village.assassination_used
                )
                assert legal == expected, (actor, key)
                if actor not in checked:
                    continue
                for target in SLOTS:
                    if target in legal:
                        village.validate(actor, Choices(**{key: target}))
                    else:
                        with pytest.raises(ChoiceError):
                            village.validate(actor, Choices(**{key: target}))


@FEW_GAMES
@given(SEEDS)
def test_random_divination_and_empathy(seed):
    """RULES §5.1 and §5.3."""
    rng = random.Random(seed)
    village = Village.create(rng)
    dead = rng.sample(SLOTS, rng.randrange(4))
    divination = village.random_divination()
    assert set(divination) == set(SEERS)
    for seer, result in divination.items():
        assert result.target != seer
        assert result.verdict == verdict(village.sides, result.target)
        if village.sides[seer] == "human":
            assert result.verdict == "human"
    assert village.empathy() == {}
    village.start(dead=dead)
    empathy = village.empathy()
    assert set(empathy) == {e for e in ("empath_a", "empath_b") if e not in dead}
    for empath, result in empathy.items():
        assert result.target == PARTNERS[empath]
        assert result.verdict == verdict(village.sides, PARTNERS[empath])


# ----- the full record's causes of death (RULES §4.3) -----


@GAMES
@given(SEEDS)
def test_the_causes_read_back_from_a_finished_game_agree_with_each_morning(seed):
    """``night_causes`` (the full record) explains every death of every night, from the
    finished game and that night's saved choices alone: ash exactly when judged, the killer
    among the strikers, guards dead only guarding a struck character."""
    steps = list(nights(seed))
    village = final(seed)
    for step in steps:
        morning = step.morning
        causes = village.night_causes(morning, step.choices)
        assert set(causes) == set(morning.deaths)
        for slot, reasons in causes.items():
            kinds = {c.kind for c in reasons}
            assert reasons, slot
            assert (
                ("judged" in kinds) == (morning.deaths[slot] == "ash") == (slot == morning.judged)
            )
            strikers = {c.by for c in reasons if c.kind in ("attacked", "assassinated", "guarding")}
            if slot in morning.killers:
                assert morning.killers[slot] in strikers
            else:
                assert not kinds & {"attacked", "assassinated", "guarding"}
            for cause in reasons:
                if cause.kind == "guarding":
                    assert JOB_OF[slot] == "guard" and step.choices[slot].guard == cause.target
                if cause.kind == "blocked":
                    assert slot in ("assassin", *(a.attacker for a in [morning.attack] if a))
