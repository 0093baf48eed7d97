"""The review of an ended game (感想戦) and a what-if from any of its positions (もしも).

A position is never read from storage: the game is replayed through its rule set from its
start (move 0: the deal made again from the game's setup and seed, or a what-if game's
stored start) and its stored moves, each with the chance it was played with
(``Random(f"{seed}:{n}")``). Only the game's two players open it, and only once it is over:
before the end the review would show what the rule book keeps secret (RULES-DUEL §8).

A what-if is a new game against the computer from the position reached, with the same deal
and chance: its prelude (the start and the moves up to there) is stored with it, so it
replays on its own, whatever becomes of the game it came from.
"""

import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from msgspec import Struct

from ..storage import matches as store
from .errors import Conflict, Forbidden, InvalidInput
from .matches import COMPUTER, Match, chance_of, computer_replies, kept, play_move

NOT_YET = "感想戦は対局が終わってから開けます"
UNREPLAYABLE = "この対局は今のルールでは並べ直せないため、感想戦を開けません"
# A what-if is a study game: no clock runs (decision 73).
WHAT_IF_CLOCK = "none"


class Replay(Struct, frozen=True):
    """An ended game made again move by move: its start and every move (side, move)."""

    match: Match
    start: Any
    steps: list[tuple[str, Any]]

    def at(self, number: int) -> Any:
        """The game after its first ``number`` moves, played by the engine."""
        rules, seed = self.match.rules, self.match.record.seed
        game = self.start
        for n, (side, move) in enumerate(self.steps[:number], start=1):
            try:
                game = play_move(rules, game, side, move, chance_of(seed, n)).game
            except ValueError:
                # A move the engine no longer takes (its rules changed since): no review.
                raise Conflict(UNREPLAYABLE) from None
        return game


def _player(match: Match, who: list[str]) -> str:
    """The side this browser plays in ``match``: only the game's two players review it, and
    only once it is over."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    if not match.ended:
        raise Conflict(NOT_YET)
    return side


def replay(match: Match) -> Replay:
    """The game's start and its moves, in order (a what-if game's prelude first)."""
    setup = match.record.setup
    prelude = store.prelude_of(match.match_id) if "origin" in setup else None
    if prelude is not None:
        start = match.rules.parse(prelude.start)
        steps = [(str(m["side"]), m["move"]) for m in prelude.moves]
    else:
        try:
            start = match.rules.recreate(setup, match.game, chance_of(match.record.seed, 0))
        except ValueError as refusal:
            raise Conflict(str(refusal)) from None
        steps = []
    steps += [(m.side, m.move) for m in store.match_moves(match.match_id)]
    return Replay(match, start, steps)


def _number(given: str, last: int) -> int:
    """A position's number as a form or link gives it: 0 (the deal) to the last move."""
    if not (given.isascii() and given.isdigit() and len(given) <= 6) or int(given) > last:
        raise InvalidInput(f"手数は 0 から {last} までの数で指定してください")
    return int(given)


class Review(Struct, frozen=True):
    side: str  # the side the person played
    number: int
    last: int
    context: dict[str, Any]  # the rule set's template context


def review(match: Match, who: list[str], given: str | None) -> Review:
    """The review at move ``given`` (none: the last), for one of the game's players."""
    side = _player(match, who)
    made = replay(match)
    last = len(made.steps)
    number = last if given is None else _number(given, last)
    context = match.rules.review(made.at(number), match.game, made.steps, number)
    return Review(side, number, last, context)


def what_if(
    match: Match, who: list[str], owner: str, given: Mapping[str, str], now: datetime
) -> str:
    """「ここからCPUと続ける」: a new game against the computer at the chosen strength, the
    person on the chosen side, from the position after move ``given["move"]`` of this ended
    game, which one of ``who`` played; ``owner`` plays it (the browser's account, else its
    guest id). Never ranked. Returns the new game's id."""
    _player(match, who)
    rules = match.rules
    made = replay(match)
    number = _number(given.get("move", ""), len(made.steps))
    side = given.get("side", "")
    if side not in rules.sides:
        raise InvalidInput("続ける陣営を選んでください")
    strength = given.get("strength", "")
    if strength not in dict(rules.offer().strengths):
        raise InvalidInput("CPUの強さを選んでください")
    position = made.at(number)
    if rules.to_move(position) is None:
        raise Conflict("この局面のあとは対局が終わっているため、続けられません")
    players = {s: (owner if s == side else COMPUTER) for s in rules.sides}
    seed = match.record.seed
    game, opening = computer_replies(rules, position, players, strength, seed, number, now)
    match_id = secrets.token_urlsafe(12)
    setup = match.record.setup
    new = store.NewMatch(
        match_id,
        rules.name,
        seed=seed,
        game=rules.dump(game),
        players=players,
        setup={
            "preset": setup.get("preset"),
            "side": side,
            "strength": strength,
            "clock": WHAT_IF_CLOCK,
            "opponent": "cpu",
            "origin": match.match_id,
            "from": number,
        },
        strength=strength,
        now=now,
        ended=rules.to_move(game) is None,
    )
    prelude = store.Prelude(
        origin=match.match_id,
        number=number,
        start=rules.dump(made.start),
        moves=[{"side": s, "move": m} for s, m in made.steps[:number]],
    )
    store.create_match(new, opening, {side: owner}, kept(players, now), prelude=prelude)
    return match_id


def origin(match: Match) -> tuple[str, int] | None:
    """The game a what-if game was continued from, and after which move (None: not one)."""
    setup = match.record.setup
    if "origin" not in setup:
        return None
    return str(setup["origin"]), int(setup["from"])
