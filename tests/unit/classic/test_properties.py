"""Property tests of the classic rules over random legal games (hypothesis).

Every game ends; the dead never act; one execution or a draw per day; roles never change; the same
seed gives the same game; the JSON round trip is exact at every point; the scenario runner replays
a recorded game to the same result.
"""

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.classic import (
    NPC,
    Ability,
    Cause,
    NightChoices,
    Options,
    Outcome,
    Phase,
    Village,
    deal,
)
from chalicelib.rules.classic.scenario import run
from chalicelib.rules.classic.simulate import play

GAMES = settings(max_examples=60, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=4, max_value=16)
TIES = st.sampled_from(["random", "bbs", "runoff"])
MISS = st.sampled_from([0.0, 0.02, 0.2])


def copy(village: Village) -> Village:
    return Village.from_json(json.loads(json.dumps(village.to_json())))


@dataclass
class Game:
    """A driven game: the village, every point of it, and the scenario line that replays it."""

    village: Village
    points: list[Village] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    line: dict[str, Any] = field(default_factory=dict)


def dawn_choices(village: Village, pick: random.Random) -> dict[str, NightChoices]:
    """Random legal night choices set at the start of the day, in a random save order."""
    actors = [p for p in village.players if village.choice_keys(p)]
    pick.shuffle(actors)
    saved = {}
    for actor in actors:
        made = {}
        for ability in village.choice_keys(actor):
            targets = village.choice_targets(actor, ability)
            if targets and pick.random() < 0.8:
                made[ability.value] = pick.choice(targets)
        saved[actor] = NightChoices(**made)
    return saved


def drive(seed: int, n: int, tie: str, miss: float) -> Game:
    """Plays a random legal game with one RNG for the rules (as the runner does) and another for
    the players' decisions, recording the scenario line that replays it."""
    pick = random.Random(seed ^ 0x5EED)
    rules = random.Random(seed)
    roles = {c: str(r) for c, r in deal(n, random.Random(seed + 1)).items()}
    village = Village.create(n, rules, Options.create("short", tie=tie), roles)
    game = Game(village)
    game.points.append(copy(village))
    while village.ending is None:
        assert village.day <= 60, "no ending after 60 days"
        saved = dawn_choices(village, pick)
        turn: dict[str, Any] = {}
        if village.day > 1:
            turn["rounds"] = []
            while village.voting:
                votes = {
                    v: pick.choice(village.vote_targets(v))
                    for v in village.voters()
                    if pick.random() >= miss
                }
                turn["rounds"].append(votes)
                village.close_round(votes, rules)
                game.points.append(copy(village))
        turn["night"] = {actor: made.to_dict() for actor, made in saved.items()}
        game.turns.append(turn)
        if village.ending is None:
            village.resolve_night(saved, rules)
            game.points.append(copy(village))
    game.line = {"id": seed, "seed": seed, "players": n, "roles": roles}
    game.line |= {"options": {"tie": tie}, "turns": game.turns}
    return game


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_every_game_ends(seed, n, tie, miss):
    game = drive(seed, n, tie, miss)
    assert game.village.ending is not None
    assert game.village.phase is Phase.EPILOGUE
    village = play(n, random.Random(seed), Options.create("short", tie=tie), miss)
    assert village.ending is not None


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_the_dead_never_act(seed, n, tie, miss):
    for village in drive(seed, n, tie, miss).points:
        for dead in village.deaths:
            assert village.choice_keys(dead) == []
            assert dead not in village.voters()
            assert village.vote_refusal(dead, village.players[0]) is not None
            for ability in Ability:
                assert village.choice_targets(dead, ability) == []
                assert dead not in village.choice_targets(village.players[0], ability)


@GAMES
@given(SEEDS, PLAYERS, MISS)
def test_the_choices_of_the_dead_change_nothing(seed, n, miss):
    for village in drive(seed, n, "bbs", miss).points:
        if village.phase is not Phase.NIGHT:
            continue
        pick = random.Random(seed)
        saved = dawn_choices(village, pick)
        ghosts = {
            dead: NightChoices(attack=village.players[0], divine=village.players[0])
            for dead in village.deaths
            if dead != NPC
        }
        plain, haunted = copy(village), copy(village)
        state = random.Random(seed).getstate()
        first, second = random.Random(), random.Random()
        first.setstate(state), second.setstate(state)
        assert plain.resolve_night(saved, first) == haunted.resolve_night(ghosts | saved, second)


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_one_execution_or_a_draw_per_day(seed, n, tie, miss):
    village = drive(seed, n, tie, miss).village
    ends = Counter(r.day for r in village.rounds if r.outcome in (Outcome.EXECUTED, Outcome.DRAW))
    assert all(count == 1 for count in ends.values())
    executions = Counter(d.day for d in village.deaths.values() if d.cause is Cause.EXECUTION)
    assert all(count == 1 for count in executions.values())
    for day in range(2, village.day):  # every day before the last ended by one execution
        assert ends[day] == 1 and executions[day] == 1


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_roles_never_change(seed, n, tie, miss):
    game = drive(seed, n, tie, miss)
    first = game.points[0].roles
    assert all(point.roles == first for point in game.points)
    assert Counter(first.values()) == Counter(game.village.roles.values())


@settings(max_examples=25, deadline=None)
@given(SEEDS, PLAYERS, TIES, MISS)
def test_same_seed_gives_the_same_game(seed, n, tie, miss):
    assert (
        drive(seed, n, tie, miss).village.to_json() == drive(seed, n, tie, miss).village.to_json()
    )
    options = Options.create("short", tie=tie)
    a = play(n, random.Random(seed), options, miss)
    b = play(n, random.Random(seed), options, miss)
    assert a.to_json() == b.to_json()


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_json_round_trip_is_exact_at_every_point(seed, n, tie, miss):
    for village in drive(seed, n, tie, miss).points:
        data = village.to_json()
        assert json.loads(json.dumps(data)) == data
        again = Village.from_json(data)
        assert again == village
        assert again.to_json() == data


@GAMES
@given(SEEDS, PLAYERS, TIES, MISS)
def test_the_runner_replays_a_recorded_game_to_the_same_result(seed, n, tie, miss):
    game = drive(seed, n, tie, miss)
    out = run(json.loads(json.dumps(game.line)))
    assert "error" not in out, out
    village = game.village
    assert out["ending"] == village.ending.to_json()
    deaths = {c: cause for turn in out["turns"] for c, cause in turn["deaths"].items()}
    assert deaths == {c: str(d.cause) for c, d in village.deaths.items()}
    rounds = [r for turn in out["turns"] for r in turn["rounds"]]
    assert [r["outcome"] for r in rounds] == [str(r.outcome) for r in village.rounds]
    for turn in out["turns"]:
        for player in turn["news"]:
            assert player in village.roles and player != NPC


def points_with_news(seed: int, n: int) -> Iterator[tuple[Village, Village]]:
    game = drive(seed, n, "bbs", 0.02)
    for before, after in zip(game.points, game.points[1:], strict=False):
        if after.mornings and len(after.mornings) > len(before.mornings):
            yield before, after


@GAMES
@given(SEEDS, PLAYERS)
def test_only_the_living_die_and_only_survivors_learn(seed, n):
    for before, after in points_with_news(seed, n):
        morning = after.mornings[-1]
        assert set(morning.deaths) <= before.alive
        assert set(morning.news) <= after.alive
        assert morning.found_dead == [c for c in after.roles if c in morning.deaths]
