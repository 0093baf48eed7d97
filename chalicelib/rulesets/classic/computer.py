"""A classic computer member's view and turn (issue 24): what its seat may see, as plain data.

Everything here goes through the engine's ``visibility`` module, as the seat's page does: its
own role, partners and news (``start_info`` and its own morning news: its private information,
§6), the public deaths (with a cause only where ``cause_shown`` allows it), the targets it may
choose now and its own saved choices (``view.choices_shown``: a wolf sees its partners'
attacks), the boards it may write on. The view is built fresh (no live engine object in it) and
handed with the computer's own random generator to the pure strategy (``rules.classic.cpu``).
"""

import copy
import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ...rules.classic import NPC, Judgment, Village, cpu
from ...rules.classic import visibility as secrecy
from ...rules.classic.visibility import Board, Moment
from ..base import State, Viewer, VillageView
from ..turns import ComputerTurn, Heard
from . import seats, timeline, view
from .game import ClassicGame


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def heard_by(
    game: ClassicGame, slot: str, posts: Sequence[Mapping[str, Any]], now: datetime
) -> list[dict[str, Any]]:
    """Of ``posts`` (``{"seat", "board", "text", "at", "n"}``, oldest first), those the seat
    may read now (§6, through the visibility module): the public board, its own monologue, its
    partners' board, heaven when dead (everything with ``heaven_sees_all``)."""
    who = view.viewer_of(game, Viewer(slot=slot))
    moment = timeline.moment(game, now)
    heaven = game.options.heaven_sees_all

    def readable(post: Mapping[str, Any]) -> bool:
        try:
            board = Board(post["board"])
        except ValueError:
            return False
        writer = seats.character(game, post["seat"]) if board is Board.MONOLOGUE else None
        if board is Board.MONOLOGUE and writer is None:
            return False
        return secrecy.can_read(board, who, moment, writer=writer, heaven_sees_all=heaven)

    return [dict(p) for p in posts if readable(p)]


def seat_view(
    game: ClassicGame,
    slot: str,
    names: Mapping[str, str],
    saved: Mapping[str, Mapping[str, str]],
    posted_at: datetime | None,
    now: datetime,
    heard: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any] | None:
    """The seat's view of a running game (None before the start or for a seat not dealt in).
    ``saved``: today's saved choices of every member, of which only what the seat may see
    is read; ``names``: the public names by seat; ``heard``: today's posts, of which only
    those the seat may read (``heard_by``) are kept."""
    engine = game.village
    character = seats.character(game, slot)
    if engine is None or character is None or character == NPC:
        return None
    who = view.viewer_of(game, Viewer(slot=slot))
    moment = Moment.EPILOGUE if engine.ending is not None else timeline.moment(game, now)
    info = engine.start_info(character)  # the seat's own role and partners (§1)

    def seat(c: str) -> str:
        return seats.seat(game, c) or c

    latest = engine.mornings[-1] if engine.mornings else None
    own = view.choices_shown(game, saved, slot).get(slot, {})
    seen = {
        "me": slot,
        "role": info["role"],
        "alive": who.alive,
        "partners": [seat(p) for p in info["partners"]],
        "names": {seat(c): names.get(seat(c), seat(c)) for c in engine.roles},
        "moment": moment.value,
        "day": engine.day,
        "now": now.isoformat(),
        "day_began": _iso(game.day_began),
        "sunset": _iso(timeline.sunset_at(game)),
        "night_began": _iso(game.night_began),
        "ended_at": _iso(game.ended_at),
        "posted_at": _iso(posted_at),
        **_choices(game, engine, character, own),
        "results": _results(game, engine, character),
        # The morning report (public): found dead, no causes (§4.6).
        "found_dead": [seat(c) for c in latest.found_dead]
        if latest is not None and latest.day == engine.day
        else [],
        # The published vote lists (public once a round closes, §2.3.4), oldest first.
        "votes": [
            {seat(v): seat(t) for v, t in r.votes.items()} for r in engine.rounds if r.published
        ],
        "writable": [b.value for b in Board if secrecy.can_write(b, who, moment)],
        "heard": heard_by(game, slot, heard, now),
    }
    return copy.deepcopy(seen)


def _choices(
    game: ClassicGame, engine: Village, character: str, own: Mapping[str, str]
) -> dict[str, Any]:
    """What the seat may choose now and what it saved: its vote in an open round (None:
    none), and each of its abilities for the coming night."""

    def seat(c: str) -> str:
        return seats.seat(game, c) or c

    vote = None
    if engine.voting and character in engine.voters():
        vote = {
            "targets": [seat(t) for t in engine.vote_targets(character)],
            "mine": own.get("vote"),
        }
    abilities = {
        ability.value: {
            "targets": [seat(t) for t in engine.choice_targets(character, ability)],
            "mine": own.get(ability.value),
        }
        for ability in engine.choice_keys(character)
    }
    return {"vote": vote, "abilities": abilities}


def _results(game: ClassicGame, engine: Village, character: str) -> list[dict[str, Any]]:
    """The seat's own divination and medium results (§4.5, §6: nobody else's), oldest first."""
    results = []
    for morning in engine.mornings:
        news = morning.news.get(character)
        if news is None:
            continue
        for kind, result in (("divination", news.divination), ("medium", news.medium)):
            if result is not None:
                results.append(
                    {
                        "day": morning.day,
                        "kind": kind,
                        "target": seats.seat(game, result.target) or result.target,
                        "wolf": result.result is Judgment.WOLF,
                    }
                )
    return results


def turn(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    slot: str,
    now: datetime,
    rng: random.Random,
    heard: Sequence[Heard] = (),
) -> ComputerTurn:
    """The computer member's turn in ``slot``: a start vote in the prologue once a person is
    there to start with; in the game, the strategy's plan from the seat's view."""
    members = village.seats()
    if game.in_prologue and village.state is State.OPENING:
        prologue = game.prologue
        people = [s for s in prologue.members if not members[s].computer]
        if slot in prologue.members and slot not in prologue.start_votes and people:
            return ComputerTurn(prologue=(("start", None),))
        return ComputerTurn()
    engine = game.village
    if engine is None or village.state not in (State.RUNNING, State.ENDING):
        return ComputerTurn()
    names = seats.names(game, {s: m.name for s, m in members.items()})
    posts = [
        {"seat": h.slot, "board": h.board, "text": h.text, "at": h.at.isoformat(), "n": h.n}
        for h in heard
    ]
    seen = seat_view(
        game, slot, names, village.saved(engine.day), members[slot].last_post_at, now, posts
    )
    if seen is None:
        return ComputerTurn()
    plan = cpu.turn(seen, rng)
    return ComputerTurn(choices=dict(plan.choices), posts=tuple(plan.posts), again=plan.again)
