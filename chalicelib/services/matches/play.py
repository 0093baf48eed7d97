"""Playing: a person's move and the computer's replies in one conditioned write, a ranked
game's held answer (decision 65), what time alone decides on a read (``settle``) and on a
worker's look (``look``), the reminder of a game played by mail.

The computer plays through the same rule set with its own randomness
(``random.SystemRandom``), never the game's seed, and sees only its side's view."""

import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ... import timecontrol
from ...rulesets.match import MatchComputerPlay
from ...storage import matches as store
from ...storage import outbox as mailbox
from ...storage.errors import Refused
from ..errors import Conflict, Forbidden, InvalidInput, NotFound
from .clock import clock_after, due, reveal_at, watched
from .ending import commit, end_if_due
from .game import (
    COMPUTER,
    STALE,
    Match,
    Stale,
    chance_of,
    mail_owed,
    move_of_form,
    owe_mail,
    owe_watch,
    play_move,
    resigns,
)

if TYPE_CHECKING:  # the unit loads games through this package
    from ..unit import Unit

# In a correspondence game the side to move is reminded this long before its deadline.
REMIND_BEFORE = timedelta(hours=3)
MAX_REPLIES = 500  # a computer that never hands the move back is a bug, not a hang

G = TypeVar("G")


def computer_replies(
    rules: MatchComputerPlay[G],
    game: G,
    players: Mapping[str, str],
    strength: str,
    seed: int,
    number: int,
    now: datetime,
) -> tuple[G, list[store.NewMove]]:
    """The computer's moves until a person is to move or the game ends."""
    chance = random.SystemRandom()  # the computer's own secret randomness
    played: list[store.NewMove] = []
    while (side := rules.to_move(game)) is not None and players[side] == COMPUTER:
        if len(played) >= MAX_REPLIES:
            raise RuntimeError("the computer did not hand the move back")
        move = rules.computer_move(game, side, strength, chance)
        result = rules.play(game, side, move, chance_of(seed, number + len(played) + 1))
        game = result.game
        played.append(store.NewMove(side, result.move, now))
    return game, played


def move(
    match: Match,
    who: list[str],
    seen_moves: int,
    given: Mapping[str, Any] | None,
    form: Mapping[str, str] | None,
    now: datetime,
    receipt: mailbox.Mail | None = None,
) -> None:
    """Plays the person's move (a structured ``given`` move, or a page's ``form``) and the
    computer's replies, all or nothing, if the game still has the ``seen_moves`` moves the
    person's page showed (a reply mail's: the move count its mail was written for, with the
    ``receipt`` it owes). In a ranked game an answer given while it is held is kept aside
    until the hold ends (decision 65).

    What time decided before the move is written by the request's read (``settle``, once a
    request, decision 226); a move whose time ran out all the same (that read lost its race
    to a worker's, or was not made) was made on a game about to change: ``Stale``."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    when = due(match)
    if when is not None and now >= when[0]:
        raise Stale(STALE)
    if match.ended:
        raise Conflict("対局はもう終わっています")
    if seen_moves != match.moves:
        raise Stale(STALE)
    rules, game = match.rules, match.game
    try:
        wanted = given if given is not None else move_of_form(rules, game, side, form or {})
        if rules.to_move(game) != side and not resigns(wanted):
            raise Conflict("いまは相手の番です")
        if match.held is not None and not resigns(wanted):
            raise Conflict("回答はもう送ってあります。公開されるまでお待ちください")
        played = play_move(rules, game, side, wanted, chance_of(match.record.seed, match.moves + 1))
    except Conflict:
        raise
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    until = match.holding(now)
    if until is not None and rules.to_move(game) == side and not resigns(wanted):
        try:
            store.hold_answer(match.record, {"side": side, "move": played.move}, now)
        except Refused:
            raise Stale(STALE) from None
        owe_watch(match, match.moves, until)  # shown at the hold's end
        if receipt is not None and mailbox.owe_once(receipt):
            owe_mail(match, [receipt])
        return
    try:
        _advance(match, side, played, now, side, receipt)
    except Refused:
        raise Stale(STALE) from None


def question(match: Match, side: str, form: Mapping[str, str]) -> str | None:
    """What a page asks before it sends ``form`` (None: nothing to ask): 投了, or 中止 when
    it would abort the game (decision 150), in the rule set's words; anything else, as its
    rule set asks."""
    verbs = match.rules.verbs
    if resigns(form):
        return verbs.abort_question if match.abortable else verbs.resign_question
    return match.rules.confirmation(match.game, side, form)


def settle(match: Match, now: datetime, present: str | None = None) -> bool:
    """What time alone decides, on any read or a worker's look: a ranked game's held answer
    is played into the game once its hold has ended, dated at the hold's end (the asking
    side's clock starts then); else a fallen flag or a mover gone a minute ends the game.
    True if it wrote (the caller reloads the game; a second reader that lost the race:
    False)."""
    held, until = match.held, match.record.hold_until
    if match.ended or held is None or until is None or now < until:
        return end_if_due(match, now, present)
    side = str(held["side"])
    played = match.rules.play(
        match.game, side, held["move"], chance_of(match.record.seed, match.moves + 1)
    )
    try:
        _advance(match, side, played, until, present)
    except Refused:
        return False
    return True


def _advance(
    match: Match,
    side: str,
    played: Any,
    now: datetime,
    present: str | None,
    receipt: mailbox.Mail | None = None,
) -> None:
    """Commits ``side``'s move played at ``now`` and the computer's replies: the mover's
    clock spent, the next side's started (held in a ranked game), the mail owed (with
    ``receipt``, a reply mail's confirmation: written once, with the move, or not at all)."""
    rules, game = match.rules, match.game
    banks = match.banks
    since = match.record.turn_since
    if banks and since is not None and rules.to_move(game) == side:
        banks = timecontrol.spend(banks, side, since, now)
    players = match.players
    strength = match.record.strength or ""
    after, replies = computer_replies(
        rules, played.game, players, strength, match.record.seed, match.moves + 1, now
    )
    clock = clock_after(rules, after, players, banks, match.record.byoyomi, now, match.ranked)
    new_moves = [store.NewMove(side, played.move, now), *replies]
    mail = mail_owed(match, players, after, present, match.moves + len(new_moves), now)
    mail += [receipt] if receipt is not None else []
    # A ranked game's held answer: the mover's minute, like its clock, starts at the hold's end.
    presence = match.presence_after(players, after, clock.since or now)
    commit(match, new_moves, after, banks=banks, clock=clock, now=now, mail=mail, presence=presence)
    owe_mail(match, mail)
    owe_watch(match, match.moves + len(new_moves), watched(clock.flag, presence))


def look(match_id: str, moves: int, now: datetime, unit: "Unit") -> bool:
    """A worker's look at a game it was asked to watch: a held answer whose hold has ended
    is shown; the side to move loses if it is still the game of ``moves`` moves and its flag
    has fallen or its page has been gone for a minute; a time still ahead (a bank longer than
    a message can wait, a hold, a player seen since) is watched again, and a game played by
    mail reminds its player once the deadline is near. True if the game ended now. What the
    look owes (the next watch, the mail) is owed on ``unit``."""
    try:
        match = unit.match(match_id)
    except NotFound:  # past its TTL
        return False
    if match.ended or match.moves != moves:
        return False
    reveal = reveal_at(match)
    if reveal is not None:
        if now < reveal:
            owe_watch(match, moves, reveal)
        else:
            settle(match, now)
        return False
    when = due(match)
    if when is None:
        return False
    if now < when[0]:
        flag = match.record.flag_at
        if match.correspondence and flag is not None and now >= flag - REMIND_BEFORE:
            _remind(match, now)
        owe_watch(match, moves, when[0])
        return False
    return end_if_due(match, now)


def _remind(match: Match, now: datetime) -> None:
    """The side to move's player is reminded of the deadline, once for this move count."""
    from .. import records  # only what involves an account's records (cold start)

    side = match.rules.to_move(match.game)
    account = records.account_of(match.players[side]) if side else None
    if account is None:
        return
    mail = mailbox.game_mail(match.match_id, match.moves, "reminder", account, now)
    if mailbox.owe_once(mail):
        owe_mail(match, [mail])
