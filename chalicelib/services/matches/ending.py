"""A game's write and its end: the moves committed on the move count read, an end carrying
what it adds to its players' records in the same transaction (nothing for a ranked game
aborted before both sides moved, decision 150), and the loss on time or for leaving."""

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from ... import timecontrol
from ...storage import matches as store
from ...storage.errors import Refused
from ...storage.outbox import Mail
from ...storage.records import RecordWrite
from .clock import Clock, due, reveal_at
from .game import Match, kept, mail_owed, movers_of, owe_mail


def ending_records(
    match: Match,
    game: Any,
    now: datetime,
    aborted: bool,
    players: Mapping[str, str] | None = None,
    sides: Collection[str] | None = None,
) -> list[RecordWrite]:
    """What a write that ends the game adds for its players' records (none before the end,
    none for an aborted game: decision 150); ``players`` and ``sides``: the seats' players
    after an adoption, and only the adopted."""
    from .. import records  # only what involves an account's records (cold start)

    setup = match.record.setup
    # A what-if (its setup names the game it continues) starts from a position chosen in
    # hindsight: its end is no game won or lost (decision duel 73).
    if match.rules.to_move(game) is not None or "origin" in setup or aborted:
        return []
    return records.ending(
        records.Ended(
            rules=match.rules,
            match_id=match.match_id,
            players=players or match.players,
            preset=setup.get("preset"),
            strength=match.record.strength,
            ranked=match.ranked,
            correspondence=match.correspondence,
            game=game,
            at=now,
        ),
        sides,
    )


ENDING_TRIES = 3  # a game's end refused only by a record another end wrote since the read


def commit(
    match: Match,
    new_moves: list[store.NewMove],
    game: Any,
    *,
    banks: dict[str, float],
    clock: Clock,
    now: datetime,
    mail: list[Mail],
    presence: store.Presence | None = None,
    unseen_since: store.Presence | None = None,
) -> None:
    """Commits a write of the game, conditioned on its move count (``presence`` and
    ``unseen_since`` as ``store.Advance`` takes them); an end carries the
    players' records in the same transaction (written once, as the end is). ``Refused``:
    the game moved on since it was read. A record changed by another game's end meanwhile
    is read again and the end tried again. A ranked game that ends before both sides made a
    move is aborted (decision 150): recorded so, and nobody's record changes."""
    movers = movers_of(new_moves)
    ended = match.rules.to_move(game) is None
    aborted = ended and match.ranked and not set(match.rules.sides) <= match.movers | movers
    for tried in range(1, ENDING_TRIES + 1):
        try:
            advance = store.Advance(
                new_moves,
                game=match.rules.dump(game),
                state="ended" if ended else "running",
                banks=banks,
                turn_since=clock.since,
                flag_at=clock.flag,
                now=now,
                kept=kept(match.players, now),
                mail=mail,
                hold_until=clock.hold_until,
                records=ending_records(match, game, now, aborted),
                presence=presence,
                unseen_since=unseen_since,
                # Kept for a ranked game only (its abort): those stored and these (a game
                # stored before ``movers`` was kept: all it had).
                movers=(match.movers | movers) - (match.record.movers or frozenset())
                if match.ranked
                else frozenset(),
                aborted=aborted,
            )
            store.commit_moves(match.record, advance)
            return
        except Refused:
            fresh = store.match_progress(match.match_id)
            if (
                fresh is None
                or (fresh.moves, fresh.state) != (match.moves, "running")
                or fresh.reveal_at != reveal_at(match)
                or fresh.presence != match.presence
                or tried == ENDING_TRIES
            ):
                raise


def end_if_due(match: Match, now: datetime, present: str | None = None) -> bool:
    """Ends the game if the side to move ran out of time or its page has been gone for a
    minute (on any read, write or worker's look), dated at that moment. Conditioned on the
    moves read — a move that came first wins — and, for leaving, on the player not seen
    since the read: one outcome. True if it wrote.

    ``present``: the side whose player's request found it (a worker's look: nobody); the
    others are mailed the end."""
    when = due(match)
    side = match.rules.to_move(match.game)
    if when is None or now < when[0] or side is None:
        return False
    at, how = when
    ended = match.rules.forfeit(match.game, side, how)
    mail = mail_owed(match, match.players, ended, present, match.moves, now)
    banks = match.banks
    if banks and match.record.turn_since is not None:
        banks = timecontrol.spend(banks, side, match.record.turn_since, at)
    try:
        commit(
            match,
            [],
            ended,
            banks=banks,
            clock=Clock(),
            now=at,
            mail=mail,
            unseen_since=match.presence if how == "gone" else None,
        )
    except Refused:
        return False
    owe_mail(match, mail)
    return True
