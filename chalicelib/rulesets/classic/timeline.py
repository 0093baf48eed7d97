"""Which event of a classic village is due next, and what it does (RULES-CLASSIC §2, §7). Pure.

A classic day has several deadlines — the sunset of an opening day 1, each vote round's close,
the night's close, the epilogue's end; in the prologue, the abandonment. Exactly one is pending
at a time: ``next_event`` names it and its time, which the platform stores as the village's
``next_update`` (so the scheduler finds it through the same due-village index as a Mobius
update). ``advance`` applies it; ``early_close`` names the event a save completes early (§7
``early_close``), which the saving request applies at once — the same ``advance``, so that the
request and a concurrent tick are one version-checked step and only one of them commits. A
round whose execution begins a night N ≥ 2 whose choices, set during the day, already all
count closes that night in the same step (§2.4): the night is never left waiting for a save.
"""

import random
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum

from msgspec import Struct, field

from ...rules.classic import Morning, NightChoices, Phase, RoundResult
from ...rules.classic import pace as clock
from ...rules.classic.prologue import ABANDON_AFTER
from ...rules.classic.visibility import Moment
from .game import ClassicGame


class Event(StrEnum):
    ABANDON = "abandon"  # the prologue's 72 h are over (§2.1)
    SUNSET = "sunset"  # day 1 with the opening: night 1 begins (§2.2)
    ROUND = "round"  # a vote round's deadline (§2.3.4)
    NIGHT = "night"  # the night closes (§2.4, §4)
    CLOSE = "close"  # the epilogue is over: a past log (§2.5)


class Due(Struct, frozen=True):
    event: Event
    at: datetime


class Advanced(Struct):
    """What one event did."""

    event: Event
    rounds: list[RoundResult] = field(default_factory=list)
    morning: Morning | None = None  # the night closed (a round's close may close it too)
    ended: bool = False  # the game ended with this event: the epilogue begins


def sunset_at(game: ClassicGame) -> datetime | None:
    """The sunset of the current day (None at night, in the prologue or the epilogue)."""
    village = game.village
    if village is None or village.phase is not Phase.DAY or game.day_began is None:
        return None
    return clock.sunset(game.options, game.day_began)


def next_event(game: ClassicGame, created_at: datetime) -> Due | None:
    """The one pending event and its time (as a GM moved it); None for a past log or an
    abandoned village."""
    due = by_the_rules(game, created_at)
    if due is not None and game.moved is not None and game.moved[0] == due.at:
        return Due(due.event, game.moved[1])
    return due


def by_the_rules(game: ClassicGame, created_at: datetime) -> Due | None:
    """The pending event at the time the rules set it (whatever a GM moved)."""
    if game.abandoned or game.closed:
        return None
    village = game.village
    if village is None:
        return Due(Event.ABANDON, created_at + ABANDON_AFTER)
    if village.ending is not None:
        assert game.ended_at is not None
        return Due(Event.CLOSE, clock.epilogue_deadline(game.options, game.ended_at))
    if village.phase is Phase.NIGHT:
        assert game.night_began is not None
        return Due(Event.NIGHT, clock.night_deadline(game.options, game.night_began))
    sunset = sunset_at(game)
    assert sunset is not None
    if not village.voting:
        return Due(Event.SUNSET, sunset)
    opened = game.round_opened or game.day_began
    assert opened is not None
    return Due(Event.ROUND, clock.round_deadline(game.options, sunset, opened))


def moment(game: ClassicGame, now: datetime) -> Moment:
    """Where the village is as far as talking goes (RULES-CLASSIC §6)."""
    village = game.village
    if village is None:
        return Moment.PROLOGUE
    if village.ending is not None:
        return Moment.EPILOGUE
    if village.phase is Phase.NIGHT:
        return Moment.NIGHT
    sunset = sunset_at(game)
    if village.voting and sunset is not None and now >= sunset:
        return Moment.OVERTIME
    return Moment.DAY


def advance(
    game: ClassicGame,
    event: Event,
    at: datetime,
    *,
    seed: int,
    votes: Mapping[str, str] | None = None,
    night: Mapping[str, NightChoices] | None = None,
) -> Advanced:
    """Applies ``event`` at ``at`` to ``game`` (in place). ``votes``: the open round's votes;
    ``night``: tonight's choices in the order they were last saved. Each draw comes from
    ``Random(f"{seed}:…")`` named by the day and round, so a retried step draws the same."""
    village = game.village
    if event is Event.ABANDON:
        game.abandoned = True
        return Advanced(event)
    if event is Event.CLOSE:
        game.closed = True
        return Advanced(event)
    assert village is not None
    if event is Event.SUNSET:
        village.sunset()
        game.night_began = at
        return Advanced(event)
    if event is Event.ROUND:
        rng = random.Random(f"{seed}:{village.day}:round{village.round}")
        results = village.close_round(dict(votes or {}), rng)
        done = Advanced(event, rounds=results)
        if village.ending is not None:
            game.ended_at = at
            done.ended = True
        elif village.phase is Phase.NIGHT:
            game.night_began = at
            # §2.4: the night's choices may be set from the start of the day, so they may all
            # count already as the night begins; then it closes at once, in this same step.
            if village.night_may_close_early(night or {}):
                _dawn(game, done, at, seed=seed, night=night)
        else:
            # A re-vote, or the same round after sudden deaths: its votes are keyed by the
            # round (``vote@…``), so nobody has voted in it yet and it never opens complete.
            game.round_opened = at
        return done
    done = Advanced(event)
    _dawn(game, done, at, seed=seed, night=night)
    return done


def _dawn(
    game: ClassicGame,
    done: Advanced,
    at: datetime,
    *,
    seed: int,
    night: Mapping[str, NightChoices] | None,
) -> None:
    """Closes tonight at ``at`` (§4): the morning of the next day, or the ending."""
    village = game.village
    assert village is not None
    rng = random.Random(f"{seed}:{village.day}")
    done.morning = village.resolve_night(dict(night or {}), rng)
    if village.ending is not None:
        game.ended_at = at
        done.ended = True
    else:
        game.day_began = at
        game.round_opened = at


def early_close(
    game: ClassicGame,
    votes: Mapping[str, str],
    night: Mapping[str, NightChoices],
) -> Event | None:
    """The event that may close now, before its deadline (§7 ``early_close``): a round every
    voter has voted in, or a night N ≥ 2 with every ability counting; else None."""
    village = game.village
    if village is None or village.ending is not None:
        return None
    if village.round_may_close_early(votes):
        return Event.ROUND
    if village.night_may_close_early(night):
        return Event.NIGHT
    return None
