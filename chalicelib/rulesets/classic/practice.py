"""Villages of computer players only, played through the same seat views and strategy as a
computer member (``computer``), to measure their strength against the balance simulator
(``rules.classic.simulate``: random legal choices). No storage: the engine is driven as the
timeline drives it, each computer's choices saved as a member's would be.
"""

import random
import time
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ...rules.classic import NPC, NightChoices, Options, Phase, Village, Winner, cpu
from ...rules.classic.simulate import MAX_DAYS
from . import timeline
from .computer import seat_view
from .game import ClassicGame

START = datetime(2026, 1, 1, tzinfo=UTC)


def new_game(players: int, rng: random.Random, options: Options) -> ClassicGame:
    """A started game of ``players`` seats ``s1``… (no prologue), night 1 or day 1."""
    game = ClassicGame(options)
    game.seats = {f"p{i}": f"s{i}" for i in range(1, players + 1)}
    game.village = Village.create(players, rng, options)
    game.started_at = START
    return game


def _names(game: ClassicGame) -> dict[str, str]:
    """Names no one of which is inside another (as the boards are read by names)."""
    return {s: f"{s}号" for s in game.seats.values()} | {NPC: "身代わり君"}


class _Talk:
    """The day's boards as the computers hear them, and when each last posted."""

    def __init__(self) -> None:
        self.heard: list[dict[str, str]] = []
        self.posted: dict[str, datetime] = {}


def _turns(
    game: ClassicGame,
    saved: dict[str, dict[str, str]],
    now: datetime,
    own: random.Random,
    timings: list[float],
    talk: _Talk,
) -> None:
    """Every living player's turn, in seat order, saved and posted as the platform would."""
    engine = game.village
    assert engine is not None
    names = _names(game)
    key = f"vote@{len(engine.rounds)}"
    for character in engine.players:
        if character in engine.deaths:
            continue
        slot = game.seats[character]
        started = time.perf_counter()
        seen = seat_view(game, slot, names, saved, talk.posted.get(slot), now, talk.heard)
        assert seen is not None
        plan = cpu.turn(seen, random.Random(own.getrandbits(64)))
        timings.append(time.perf_counter() - started)
        mine = saved.setdefault(slot, {})
        for name, value in plan.choices.items():
            mine[key if name == "vote" else name] = value
        for board, text in plan.posts:
            talk.heard.append({"seat": slot, "board": board, "text": text, "at": now.isoformat()})
            talk.posted[slot] = now


def _night(engine: Village) -> bool:
    return engine.phase is Phase.NIGHT


def play(
    players: int,
    rng: random.Random,
    options: Options,
    own: random.Random,
    timings: list[float],
) -> Village:
    """One whole game of computer players, to its ending. ``rng``: the game's draws; ``own``:
    the computers' (each turn gets its own generator from it, as on the platform). Each day
    they are asked at the morning, at a sixth and a third of the talk (when they answer and
    vote) and at sunset; each re-vote round and each night once."""
    game = new_game(players, rng, options)
    engine = game.village
    assert engine is not None
    now = START
    if engine.phase is Phase.DAY:
        game.day_began = now
        engine.sunset()
    game.night_began = now
    saved: dict[str, dict[str, str]] = {}
    talk = _Talk()
    while engine.ending is None:
        if engine.day > MAX_DAYS:
            raise RuntimeError(f"no ending after {MAX_DAYS} days")
        if engine.phase is Phase.NIGHT:
            now += timedelta(minutes=1)
            _turns(game, saved, now, own, timings, talk)
            engine.resolve_night(_night_choices(game, saved), rng)
            now += timedelta(minutes=15)
            saved, talk = {}, _Talk()
            game.day_began, game.night_began = now, None
            continue
        sunset = timeline.sunset_at(game)
        assert sunset is not None and game.day_began is not None
        if now < sunset:
            length = sunset - game.day_began
            for share in (0.0, 1 / 6, 1 / 3, 1.0):
                now = game.day_began + length * share
                _turns(game, saved, now, own, timings, talk)
        else:
            now += timedelta(minutes=5)
            _turns(game, saved, now, own, timings, talk)
        engine.close_round(_votes(game, saved, f"vote@{len(engine.rounds)}"), rng)
        if _night(engine):  # the round's close may have begun the night
            game.night_began = now
    return engine


def _night_choices(
    game: ClassicGame, saved: Mapping[str, Mapping[str, str]]
) -> dict[str, NightChoices]:
    """The night's saved abilities by character, the seats' undecided ones left out."""
    night = {
        game.character_of(s) or s: NightChoices.from_dict(
            {
                k: game.character_of(v) or v
                for k, v in made.items()
                if k in ("attack", "divine", "guard")
            }
        )
        for s, made in saved.items()
    }
    return {c: n for c, n in night.items() if n != NightChoices()}


def _votes(game: ClassicGame, saved: Mapping[str, Mapping[str, str]], key: str) -> dict[str, str]:
    """The round's saved votes (``key``), voter and target by character."""
    return {
        game.character_of(s) or s: game.character_of(m[key]) or m[key]
        for s, m in saved.items()
        if key in m
    }


def win_rates(players: int, games: int, seed: int, tie: str = "bbs") -> dict[str, Any]:
    """Win rates by side of ``games`` computer-only villages, and the decision times."""
    rng, own = random.Random(seed), random.Random(seed + 1)
    options = Options.create("short", tie=tie)
    winners: Counter[str] = Counter()
    timings: list[float] = []
    for _ in range(games):
        village = play(players, rng, options, own, timings)
        assert village.ending is not None
        winners[village.ending.winner] += 1
    timings.sort()
    return {
        "players": players,
        "games": games,
        "win_rate": {str(w): round(winners[w] / games, 4) for w in Winner},
        "decision_ms_p95": round(timings[int(len(timings) * 0.95)] * 1000, 3),
    }
