"""Clause tests of the classic rule set's platform-facing state: the stored game, its timeline
of deadlines (RULES-CLASSIC §2, §7), the GM's options and the words players read."""

import random
from datetime import datetime, timedelta, timezone

import pytest

from chalicelib.rules.classic import NPC, NightChoices, Options, Outcome, Phase, Role, Winner
from chalicelib.rules.classic.errors import PrologueError, SetupError
from chalicelib.rules.classic.visibility import Moment
from chalicelib.rulesets.classic import labels, setup
from chalicelib.rulesets.classic.game import ClassicGame
from chalicelib.rulesets.classic.timeline import (
    Event,
    advance,
    early_close,
    moment,
    next_event,
)

from .helpers import JAPANESE

JST = timezone(timedelta(hours=9))
CREATED = datetime(2026, 11, 30, 9, 0, tzinfo=JST)
MIN = timedelta(minutes=1)


def prologue_game(members: int = 5, **options: object) -> ClassicGame:
    game = ClassicGame(Options.create(str(options.pop("pace", "short")), **options))
    for i in range(members):
        game.prologue.join(f"acct{i}")
        game.prologue.vote_start(f"acct{i}")
    return game


def started(members: int = 5, at: datetime = CREATED, seed: int = 1, **options: object):
    game = prologue_game(members, **options)
    game.start(at, random.Random(seed))
    return game


def role_holder(game: ClassicGame, role: Role) -> str:
    assert game.village is not None
    return next(c for c, r in game.village.roles.items() if r is role and c != NPC)


# ----- §2.1 prologue, §2.2 start -----


def test_s2_1_prologue_village_is_abandoned_72_hours_after_creation() -> None:
    game = prologue_game(2)
    due = next_event(game, CREATED)
    assert due is not None and due.event is Event.ABANDON
    assert due.at == CREATED + timedelta(hours=72)
    advance(game, due.event, due.at, seed=1)
    assert game.abandoned and next_event(game, CREATED) is None


def test_s2_1_start_is_refused_until_every_member_start_voted_and_enough() -> None:
    game = prologue_game(3)
    with pytest.raises(PrologueError):
        game.start(CREATED, random.Random(1))
    game = prologue_game(5)
    game.prologue.vote_start("acct4", on=False)
    with pytest.raises(PrologueError):
        game.start(CREATED, random.Random(1))


def test_s2_1_min_members_option_holds_the_start() -> None:
    game = prologue_game(5, min_members=6)
    with pytest.raises(PrologueError):
        game.start(CREATED, random.Random(1))


def test_s1_seats_follow_join_order_of_those_still_members() -> None:
    game = prologue_game(6)
    game.prologue.leave("acct1")
    for member in game.prologue.members:
        game.prologue.vote_start(member)
    game.start(CREATED, random.Random(1))
    assert game.seats == {"p1": "acct0", "p2": "acct2", "p3": "acct3", "p4": "acct4", "p5": "acct5"}
    assert game.character_of("acct2") == "p2" and game.character_of("acct1") is None


def test_s2_2_start_twice_is_refused() -> None:
    game = started()
    with pytest.raises(PrologueError):
        game.start(CREATED, random.Random(2))


def test_s2_2_without_opening_night_1_begins_at_once_and_closes_15_minutes_later() -> None:
    game = started()
    assert moment(game, CREATED) is Moment.NIGHT
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.NIGHT, CREATED + 15 * MIN)


def test_s2_2_opening_day_1_has_no_vote_and_its_sunset_begins_night_1() -> None:
    game = started(opening=True)
    assert moment(game, CREATED + 39 * MIN) is Moment.DAY
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.SUNSET, CREATED + 40 * MIN)
    advance(game, due.event, due.at, seed=1)
    night = next_event(game, CREATED)
    assert night is not None and (night.event, night.at) == (Event.NIGHT, due.at + 15 * MIN)


# ----- §2.3, §7 vote rounds -----


def to_day_2(game: ClassicGame, seed: int = 1) -> datetime:
    due = next_event(game, CREATED)
    assert due is not None and due.event is Event.NIGHT
    advance(game, due.event, due.at, seed=seed)
    return due.at


def test_s7_short_first_round_closes_at_sunset_plus_overtime() -> None:
    game = started()
    morning = to_day_2(game)
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.ROUND, morning + 45 * MIN)


def test_s2_3_3_overtime_runs_from_sunset_until_the_round_closes() -> None:
    game = started()
    morning = to_day_2(game)
    assert moment(game, morning + 39 * MIN) is Moment.DAY
    assert moment(game, morning + 40 * MIN) is Moment.OVERTIME


def test_s2_3_4_a_re_vote_closes_overtime_after_its_opening() -> None:
    game = started(members=4, seed=3)
    morning = to_day_2(game)
    village = game.village
    assert village is not None and village.voting
    living = village.voters()
    # a 2–2 tie among four living players (or 1–1 among the living): a bbs re-vote opens
    votes = {v: living[(i + 1) % len(living)] for i, v in enumerate(living)}
    closed_at = morning + 50 * MIN
    done = advance(game, Event.ROUND, closed_at, seed=1, votes=votes)
    assert done.rounds[0].outcome is Outcome.TIE
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.ROUND, closed_at + 5 * MIN)


def test_s2_3_4_1_nobody_voting_is_sudden_death_for_all_who_had_to_vote() -> None:
    game = started()
    morning = to_day_2(game)
    done = advance(game, Event.ROUND, morning + 45 * MIN, seed=1, votes={})
    assert done.rounds[0].outcome is Outcome.SUDDEN
    assert done.ended and game.ended_at == morning + 45 * MIN
    assert game.village is not None and game.village.ending is not None
    assert game.village.ending.winner is Winner.DRAW or game.village.living() == [NPC]


def test_s2_3_4_2_an_execution_begins_the_night_at_the_close() -> None:
    game = started(members=5, seed=4)
    morning = to_day_2(game)
    village = game.village
    assert village is not None
    wolf = role_holder(game, Role.WEREWOLF)
    voters = village.voters()
    target = next(v for v in voters if v != wolf)
    votes = {v: (target if v != target else wolf) for v in voters}
    at = morning + 45 * MIN
    done = advance(game, Event.ROUND, at, seed=1, votes=votes)
    assert done.rounds[-1].executed == target
    if not done.ended:
        assert moment(game, at) is Moment.NIGHT
        due = next_event(game, CREATED)
        assert due is not None and (due.event, due.at) == (Event.NIGHT, at + 15 * MIN)


# ----- §2.4, §7 early close -----


def test_s2_4_night_1_never_closes_early() -> None:
    game = started()
    seer = role_holder(game, Role.SEER)
    assert early_close(game, {}, {seer: NightChoices(divine=NPC)}) is None


def test_s7_a_round_everyone_voted_in_closes_early() -> None:
    game = started()
    to_day_2(game)
    village = game.village
    assert village is not None
    voters = village.voters()
    votes = {v: next(t for t in voters if t != v) for v in voters}
    assert early_close(game, dict(list(votes.items())[:-1]), {}) is None
    assert early_close(game, votes, {}) is Event.ROUND


def test_s7_long_villages_do_not_close_early_by_default() -> None:
    game = started(pace="long")
    to_day_2(game)
    village = game.village
    assert village is not None
    voters = village.voters()
    votes = {v: next(t for t in voters if t != v) for v in voters}
    assert early_close(game, votes, {}) is None


def day_2_choices_set(**options: object):
    """Day 2 of a five-player village (seer, wolf, three villagers): the wolf and the seer set
    night 2's choices during the day; returns the game, the morning and the players."""
    game = started(members=5, seed=4, **options)
    morning = to_day_2(game)
    village = game.village
    assert village is not None
    wolf, seer = role_holder(game, Role.WEREWOLF), role_holder(game, Role.SEER)
    executed, prey, _ = (v for v in village.voters() if v not in (wolf, seer))
    votes = {v: (executed if v != executed else wolf) for v in village.voters()}
    return game, morning, votes, {"wolf": wolf, "seer": seer, "executed": executed, "prey": prey}


def test_s2_4_a_night_whose_choices_were_all_set_during_the_day_closes_as_it_begins() -> None:
    game, morning, votes, who = day_2_choices_set()
    night = {
        who["wolf"]: NightChoices(attack=who["prey"]),
        who["seer"]: NightChoices(divine=who["wolf"]),
    }
    at = morning + 20 * MIN
    done = advance(game, Event.ROUND, at, seed=1, votes=votes, night=night)
    assert done.rounds[-1].executed == who["executed"]
    assert done.morning is not None and done.morning.found_dead == [who["prey"]]
    assert game.village is not None and game.village.day == 3 and game.village.voting
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.ROUND, at + 45 * MIN)


@pytest.mark.parametrize("missing", ["seer", "attack on the executed", "early_close off"])
def test_s2_4_a_night_opened_without_every_choice_counting_waits(missing: str) -> None:
    game, morning, votes, who = day_2_choices_set(early_close=missing != "early_close off")
    night = {who["wolf"]: NightChoices(attack=who["prey"])}
    if missing != "seer":
        night[who["seer"]] = NightChoices(divine=who["wolf"])
    if missing == "attack on the executed":
        night[who["wolf"]] = NightChoices(attack=who["executed"])
    at = morning + 45 * MIN
    done = advance(game, Event.ROUND, at, seed=1, votes=votes, night=night)
    assert done.morning is None and moment(game, at) is Moment.NIGHT
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.NIGHT, at + 15 * MIN)


# ----- §7 long pace -----


def test_s7_long_sunset_is_the_first_sunset_time_at_least_12_hours_after_the_morning() -> None:
    start = datetime(2026, 11, 30, 20, 0, tzinfo=JST)
    game = started(pace="long", at=start)
    due = next_event(game, CREATED)
    assert due is not None and due.at == start + timedelta(hours=3)  # night 1: 3 h
    advance(game, due.event, due.at, seed=1)  # morning at 23:00
    round_ = next_event(game, CREATED)
    # sunset the next day 22:00 is 23 h later (≥ 12 h), then 60 min of overtime
    assert round_ is not None and round_.at == datetime(2026, 12, 1, 23, 0, tzinfo=JST)


def test_s7_long_sunset_option_moves_the_daily_sunset() -> None:
    start = datetime(2026, 11, 30, 6, 0, tzinfo=JST)
    game = started(pace="long", at=start, sunset="21:30")
    advance(game, Event.NIGHT, start + timedelta(hours=3), seed=1)  # morning at 09:00
    due = next_event(game, CREATED)
    assert due is not None and due.at == datetime(2026, 11, 30, 22, 30, tzinfo=JST)


# ----- §2.5 epilogue -----


def test_s2_5_the_village_closes_60_minutes_after_a_short_ending() -> None:
    game = started()
    morning = to_day_2(game)
    done = advance(game, Event.ROUND, morning + 45 * MIN, seed=1, votes={})
    assert done.ended
    due = next_event(game, CREATED)
    assert due is not None and (due.event, due.at) == (Event.CLOSE, morning + 105 * MIN)
    advance(game, due.event, due.at, seed=1)
    assert game.closed and next_event(game, CREATED) is None


def test_s2_5_the_village_closes_24_hours_after_a_long_ending() -> None:
    game = started(pace="long")
    morning = to_day_2(game)
    at = morning + timedelta(days=1)
    advance(game, Event.ROUND, at, seed=1, votes={})
    due = next_event(game, CREATED)
    assert due is not None and due.at == at + timedelta(hours=24)


# ----- stored state -----


def play_out(seed: int) -> list[ClassicGame]:
    """A whole seeded game with random legal votes and choices; a JSON copy of every state."""
    rng = random.Random(seed)
    game = started(members=rng.randint(4, 16), seed=seed, opening=rng.random() < 0.5)
    copies = [ClassicGame.from_json(game.to_json())]
    for _ in range(200):
        due = next_event(game, CREATED)
        if due is None:
            break
        village = game.village
        assert village is not None
        votes = {
            v: rng.choice(village.vote_targets(v)) for v in village.voters() if rng.random() < 0.95
        }
        night = {}
        for actor in village.living():
            keys = village.choice_keys(actor)
            made = {k.value: rng.choice(village.choice_targets(actor, k)) for k in keys}
            if made and village.phase is Phase.NIGHT:
                night[actor] = NightChoices.from_dict(made)
        advance(game, due.event, due.at, seed=seed, votes=votes, night=night)
        copies.append(ClassicGame.from_json(game.to_json()))
    assert game.closed
    return copies


@pytest.mark.parametrize("seed", range(12))
def test_stored_game_round_trips_through_json_at_every_step(seed: int) -> None:
    for copy in play_out(seed):
        assert ClassicGame.from_json(copy.to_json()) == copy


def test_a_retried_step_draws_the_same() -> None:
    game = started(members=9, seed=7)
    twin = ClassicGame.from_json(game.to_json())
    a = advance(game, Event.NIGHT, CREATED + 15 * MIN, seed=99)
    b = advance(twin, Event.NIGHT, CREATED + 15 * MIN, seed=99)
    assert a.morning == b.morning and game == twin


# ----- the GM's options -----


def test_gm_options_take_the_issue_example() -> None:
    made, template = setup.checked(
        "long",
        {
            "sunset": "22:00",
            "opening": True,
            "tie": "runoff",
            "npc_villager": True,
            "min_members": 8,
            "heaven_sees_all": False,
        },
    )
    assert template == ""
    assert made.to_json() == {
        "pace": "long",
        "opening": True,
        "npc_villager": True,
        "tie": "runoff",
        "heaven_sees_all": False,
        "early_close": False,
        "min_members": 8,
        "sunset": "22:00",
    }


def test_gm_options_left_out_take_the_pace_defaults() -> None:
    assert setup.checked("short", {"tie": None, "sunset": ""}) == (Options.create("short"), "")


def test_gm_options_from_a_form_or_a_command_line_are_words() -> None:
    made, _ = setup.checked(
        "short", {"opening": "true", "early_close": "false", "min_members": "8"}
    )
    assert (made.opening, made.early_close, made.min_members) == (True, False, 8)


@pytest.mark.parametrize(
    "event",
    [
        {"pace": "medium"},
        {"pace": "short", "tie": "coin"},
        {"pace": "short", "tei": "bbs"},
        {"pace": "short", "min_members": 3},
        {"pace": "short", "min_members": 17},
        {"pace": "short", "min_members": "eight"},
        {"pace": "long", "sunset": "25:00"},
        {"pace": "short", "sunset": "22:00"},
        {"pace": "short", "opening": "yes"},
    ],
)
def test_gm_bad_options_are_one_clear_japanese_sentence(event: dict[str, object]) -> None:
    with pytest.raises(SetupError) as refused:
        setup.checked(event.pop("pace"), event)
    assert JAPANESE.search(str(refused.value))


def test_gm_template_is_trimmed_and_bounded() -> None:
    assert setup.checked("short", {"template": "  この村のルール\r\n"})[1] == "この村のルール"
    assert setup.checked("short", {"template": None})[1] == ""
    with pytest.raises(SetupError):
        setup.checked("short", {"template": "あ" * (setup.TEMPLATE_LENGTH + 1)})


# ----- words -----


def test_words_every_role_board_moment_and_winner_is_named_in_japanese() -> None:
    for table in (
        labels.ROLE_LABELS,
        labels.BOARD_LABELS,
        labels.MOMENT_LABELS,
        labels.WINNER_LABELS,
        labels.TIE_LABELS,
    ):
        for word in table.values():
            assert JAPANESE.search(word)
    assert set(labels.ROLE_LABELS) == set(Role)


def test_s1_prologue_cast_list_at_the_current_size() -> None:
    assert labels.cast_line(3) == "あと1人集まると配役が決まります"
    assert labels.cast_line(5) == "5人（身代わり君を含めて6枚）：占い師1、人狼1、村人4"
    assert "妖狐1" in labels.cast_line(13) and "共有者2" in labels.cast_line(13)


def test_s9_conduct_rule_is_stated() -> None:
    assert "外部相談" in labels.CONDUCT and "死んだあと" in labels.CONDUCT
