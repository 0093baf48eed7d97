"""Games played move by move (a duel against the computer, for now): start, move, look, poll.

A game is one META item (its state, players, clocks) and its append-only moves. A move is
checked by the game's rule set (against the engine's legal moves), then the computer's
replies are computed at once, in the same request, and everything is written in one
transaction conditioned on the number of moves the player's page showed: a double tap or
a stale page is refused, never applied twice or out of turn.

The computer plays through the same rule set with its own randomness
(``random.SystemRandom``), never the game's seed, and sees only its side's view.
"""

import random
import secrets
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from .. import rulesets, runtime, timecontrol
from ..rulesets.base import MatchRules
from ..storage import matches as store
from ..storage import outbox as mailbox
from ..storage.errors import Refused
from ..storage.models import MatchItem, OutboxItem
from ..storage.records import RecordWrite
from ..storage.repository import plain
from .errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited

COMPUTER = "cpu"
OPEN = "open"  # a seat waiting for the person the game's link was sent to
# A new game's other side: the computer, a person invited by the link, or anyone taking the
# seat from the public rooms' list (「ルームに参加」).
OPPONENTS = ("cpu", "invite", "room")
ROOMS_LISTED = 20  # the top page lists the latest rooms waiting
ROOM_WAITS = timedelta(hours=24)  # a room nobody took in this long leaves the list
# Asks a worker to look at a game when its side to move would lose on time (decision 49):
# (match id, the move count it watches, the flag time).
Watch = Callable[[str, int, datetime], None]
# Hands the mail a write owed to the mail workers (its outbox partition), after the write.
HandOver = Callable[[str], None]
# In a correspondence game the side to move is reminded this long before its deadline.
REMIND_BEFORE = timedelta(hours=3)
MAX_REPLIES = 500  # a computer that never hands the move back is a bug, not a hang
# In a live game between two people the side to move loses once its page has been gone this
# long (decision 82); its page's polls record it at most once per SEEN_EVERY.
GONE_AFTER = timedelta(minutes=1)
SEEN_EVERY = timedelta(seconds=15)
# A game no account plays is kept this long after its last write, then DynamoDB's TTL deletes
# it (decision 58): as long as a guest's cookie lasts, after which nobody can reach it.
GUEST_KEPT = timedelta(days=30)


STALE = "ページが古くなっていたため、この手は送られませんでした。盤面を確かめてください"


class Stale(Conflict):
    """The page was made before the game's last move: nothing was applied."""


class MoreSetup(Exception):
    """The person must choose more before the game exists (the rule set's ``further_setup``):
    its page's template and context, and the choices made so far (the side drawn fixed)."""

    def __init__(self, template: str, context: dict[str, Any], given: dict[str, str]) -> None:
        super().__init__(template)
        self.template, self.context, self.given = template, context, given


@dataclass
class Match:
    """One game as a request sees it: the stored item and its game, parsed once."""

    item: MatchItem

    @property
    def match_id(self) -> str:
        return str(self.item.match_id)

    @property
    def rules(self) -> MatchRules:
        return rulesets.match_rules(self.item.rules)

    @property
    def moves(self) -> int:
        return int(self.item.moves)

    @property
    def ended(self) -> bool:
        return self.item.state == "ended"

    @property
    def players(self) -> dict[str, str]:
        return {side: str(who) for side, who in plain(self.item.players).items()}

    @property
    def banks(self) -> dict[str, float]:
        return {side: float(left) for side, left in plain(self.item.banks).items()}

    @cached_property
    def game(self) -> Any:
        return self.rules.parse(self.item.game)

    def side_of(self, who: list[str]) -> str | None:
        """The side one of ``who`` (a browser's identities) plays, if any."""
        for side, player in self.players.items():
            if player not in (COMPUTER, OPEN) and player in who:
                return side
        return None

    @property
    def between_people(self) -> bool:
        """Both seats are people's: the two may chat (never against the computer)."""
        return not {COMPUTER, OPEN} & set(self.players.values())

    @property
    def room(self) -> bool:
        """Listed among the public rooms while its seat waits (「ルームに参加」)."""
        return plain(self.item.setup).get("opponent") == "room"

    @property
    def ranked(self) -> bool:
        """A ranked game (ランク戦): two accounts, a clock, rated at its end (decision 64)."""
        return plain(self.item.setup).get("ranked") is True

    @property
    def aborted(self) -> bool:
        """Ended before both sides made a move, in a ranked game: 中止 (decision 150)."""
        return bool(self.item.aborted)

    @cached_property
    def movers(self) -> frozenset[str]:
        """A ranked game's sides that have made a move (投了 is none). A game stored before
        ``movers`` was kept (with moves but no such set) is read from its moves, once."""
        if self.item.movers is not None or self.moves == 0:
            return frozenset(self.item.movers or ())
        return movers_of(
            store.NewMove(str(m.side), m.move, m.played_at)
            for m in store.match_moves(self.match_id)
        )

    @property
    def abortable(self) -> bool:
        """An end now (投了, time, leaving) would abort the game: a ranked game still
        running, one side of which has not made a move (decision 150)."""
        return self.ranked and not self.ended and not set(self.rules.sides) <= self.movers

    @property
    def held(self) -> dict[str, Any] | None:
        """A ranked game's answer given but not yet shown: {"side", "move"} (decision 65)."""
        held = self.item.held
        return dict(held) if held is not None else None

    def holding(self, now: datetime) -> datetime | None:
        """Until when the answer due now is held from the side that asked (None: not held)."""
        until = self.item.hold_until
        return until if until is not None and now < until and not self.ended else None

    @property
    def correspondence(self) -> bool:
        """Played by mail (one day per move): turns and reminders are mailed."""
        control = timecontrol.CONTROLS.get(str(plain(self.item.setup).get("clock", "none")))
        return control is not None and control.correspondence

    @property
    def presence(self) -> store.Presence | None:
        """The side to move and when it was last seen, in a live game between two people."""
        return store.presence_of(self.item)

    @property
    def live_between_people(self) -> bool:
        """Played on the page by two people (or waiting for the second): leaving loses."""
        return COMPUTER not in self.players.values() and not self.correspondence

    def presence_after(
        self, players: Mapping[str, str], game: Any, now: datetime
    ) -> store.Presence | None:
        """Whose presence counts from ``now`` after a write that leaves ``game`` with
        ``players``: the side to move of a live game between two people (not against the
        computer, not played by mail); None otherwise (decision 82)."""
        side = self.rules.to_move(game)
        people = not {COMPUTER, OPEN} & set(players.values())
        if side is None or not people or self.correspondence:
            return None
        return store.Presence(side, now)

    @property
    def open_side(self) -> str | None:
        """The side still waiting for its invited player, if any."""
        return next((s for s, who in self.players.items() if who == OPEN), None)

    @property
    def opponent(self) -> str:
        """Who the other side is, for pages: the computer, an invited person, or nobody yet."""
        kinds = set(self.players.values())
        return "cpu" if COMPUTER in kinds else ("open" if OPEN in kinds else "person")

    def clocks(self, now: datetime) -> dict[str, dict[str, float]] | None:
        """Each side's time left now (None: a game without clocks)."""
        if not self.banks:
            return None
        to_move = None if self.ended else self.rules.to_move(self.game)
        since = self.item.turn_since
        clocks = {
            side: timecontrol.remaining(
                self.banks, int(self.item.byoyomi), side, since if side == to_move else None, now
            )
            for side in self.rules.sides
        }
        if to_move is not None and since is not None and since > now:
            # A held answer's clock starts when the hold ends (the live script waits too).
            clocks[to_move]["wait"] = (since - now).total_seconds()
        return clocks


def load(match_id: str) -> Match:
    return loaded(store.load_match(match_id))


def loaded(item: MatchItem | None) -> Match:
    """The game as read (``NotFound``: no such game, or past its TTL)."""
    if item is None or _expired(item.expires_at, runtime.now()):
        raise NotFound("その対局は見つかりません")
    return Match(item)


def _expired(expires_at: datetime | None, now: datetime) -> bool:
    """Past its TTL: gone, though DynamoDB deletes it only within a few days after."""
    return expires_at is not None and expires_at <= now


def kept(players: Mapping[str, str], now: datetime) -> store.Kept:
    """How long a game's items are kept after a write at ``now``: a game no account plays
    goes 30 days after its last write (finished or abandoned alike), so do guests' lists."""
    until = now + GUEST_KEPT
    accounts = any(not store.is_guest(p) and p not in (COMPUTER, OPEN) for p in players.values())
    return store.Kept(game=None if accounts else until, guests=until)


def computer_replies(
    rules: MatchRules,
    game: Any,
    players: Mapping[str, str],
    strength: str,
    seed: int,
    number: int,
    now: datetime,
) -> tuple[Any, list[store.NewMove]]:
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


def resigns(move: Any) -> bool:
    """投了: a way to end the game, not a move of it (every rule set spells it so)."""
    return isinstance(move, Mapping) and move.get("do") == "resign"


def movers_of(moves: Iterable[store.NewMove]) -> frozenset[str]:
    """The sides ``moves`` play for, 投了 aside."""
    return frozenset(m.side for m in moves if not resigns(m.move))


def chance_of(seed: int, number: int) -> random.Random:
    """The game's chance for its move ``number`` (0: the deal): a retried write draws the same."""
    return random.Random(f"{seed}:{number}")


@dataclass(frozen=True)
class Clock:
    """The clock of the side to move after a write: since when it runs (None: none runs),
    when it flags, and until when its answer is held (a ranked game's held question)."""

    since: datetime | None = None
    flag: datetime | None = None
    hold_until: datetime | None = None


def _clock_after(
    rules: MatchRules,
    game: Any,
    players: Mapping[str, str],
    banks: dict[str, float],
    byoyomi: int,
    now: datetime,
    ranked: bool = False,
) -> Clock:
    """The clock of the side to move now: a person's clock runs, the computer's does not (it
    answers in the same request). In a ranked game an answer the rule set holds starts its
    clock only when the hold ends (decision 65): the hold is free time, whatever the answer."""
    side = rules.to_move(game)
    if not banks or side is None or players[side] == COMPUTER or OPEN in players.values():
        return Clock()  # the clocks start when both players sit
    hold = rules.hold(game) if ranked else 0
    since = now + timedelta(seconds=hold)
    flag = timecontrol.flag_at(banks, byoyomi, side, since)
    return Clock(since, flag, since if hold else None)


def start(
    rules_name: str,
    given: Mapping[str, str],
    player: str,
    now: datetime,
    watch: Watch | None = None,
) -> str:
    """A new game against the computer; the computer's opening moves are played at once."""
    try:
        rules = rulesets.match_rules(rules_name)
    except ValueError:
        raise InvalidInput("そのゲームはありません") from None
    try:
        setup = rules.check_setup(given)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    control_key = given.get("clock", "none")
    if control_key not in timecontrol.CONTROLS:
        raise InvalidInput("持ち時間を選んでください")
    control = timecontrol.CONTROLS[control_key]
    chance = random.SystemRandom()
    side = setup["side"] if setup["side"] in rules.sides else chance.choice(rules.sides)
    opponent = given.get("opponent", "cpu")
    if opponent not in OPPONENTS:
        raise InvalidInput("相手を CPU・招待する人・ルームに公開から選んでください")
    other = COMPUTER if opponent == "cpu" else OPEN
    ranked = given.get("ranked") == "1"
    if ranked:
        _check_ranked(player, opponent, control)
    further = rules.further_setup(setup, side)
    if further is not None:
        raise MoreSetup(rules.setup_template, further, {**given, "side": side})
    players = {s: (player if s == side else other) for s in rules.sides}
    strength = setup["strength"] if opponent == "cpu" else None
    seed = secrets.randbits(62)
    game = rules.create(setup, chance_of(seed, 0))
    game, opening = computer_replies(rules, game, players, strength or "", seed, 0, now)
    banks = {s: float(control.bank) for s in rules.sides} if control else {}
    byoyomi = control.byoyomi if control else 0
    clock = _clock_after(rules, game, players, banks, byoyomi, now)
    match_id = secrets.token_urlsafe(12)
    meta = store.new_match(
        match_id,
        rules.name,
        seed=seed,
        game=rules.dump(game),
        players=players,
        setup={
            **{k: v for k, v in setup.items() if k != "private"},
            "side": side,
            "clock": control_key,
            "opponent": opponent,
            **({"ranked": True} if ranked else {}),
        },
        strength=strength,
        now=now,
    )
    meta.banks, meta.byoyomi = banks, byoyomi
    meta.turn_since, meta.flag_at = clock.since, clock.flag
    if rules.to_move(game) is None:
        meta.state, meta.ended_at = "ended", now
    store.create_match(meta, opening, {side: player}, kept(players, now), room=opponent == "room")
    if clock.flag is not None and watch is not None:
        watch(match_id, len(opening), clock.flag)
    return match_id


def _check_ranked(player: str, opponent: str, control: timecontrol.TimeControl | None) -> None:
    """A ranked game is between two accounts with a clock (decision 64): its ratings must
    mean something, and a game without a clock could wait for ever."""
    from . import records  # only what involves an account's records (cold start)

    if records.account_of(player) is None:
        raise InvalidInput("ランク戦はログインしてから作成してください")
    if opponent == "cpu":
        raise InvalidInput(
            "ランク戦は人どうしの対局です。相手を「招待する人」か「ルームに公開」にしてください"
        )
    if control is None:
        raise InvalidInput("ランク戦には持ち時間を選んでください(持ち時間なしでは作れません)")


def _owed(
    match: Match,
    players: Mapping[str, str],
    game: Any,
    present: str | None,
    number: int,
    now: datetime,
    turn: str = "turn",
) -> list[OutboxItem]:
    """The mail a write of the game owes (decision 56), keyed by the game's move count
    after it: the end to each player with an account who did not make the write (the one who
    did was on the page), and, played by mail, the ``turn`` to the person now to move (a
    join's is "start": the other person sat, nobody moved)."""
    from . import records  # only what involves an account's records (cold start)

    to_move = match.rules.to_move(game)
    if to_move is None:
        wanted = [(side, "end") for side in players if side != present]
    elif match.correspondence and to_move != present:
        wanted = [(to_move, turn)]
    else:
        wanted = []
    return [
        mailbox.match_mail_item(match.match_id, number, kind, account, now)
        for side, kind in wanted
        if (account := records.account_of(players[side])) is not None
    ]


def _ending_records(
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
    from . import records  # only what involves an account's records (cold start)

    setup = plain(match.item.setup)
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
            strength=match.item.strength,
            ranked=match.ranked,
            correspondence=match.correspondence,
            game=game,
            at=now,
        ),
        sides,
    )


# The guest games a login takes over, newest first: a guest's list is what its cookie kept.
ADOPTED_AT_MOST = 100


def adopt(guest: str, account_id: str, now: datetime) -> int:
    """The browser's guest games become the account's when it logs in or signs up there
    (decision 192): each seat the guest holds, unless the account holds the game's other
    seat (no game against itself: that game stays the guest's, still open to this browser);
    an ended game enters the account's records then. A game whose write comes first (a move,
    a second login) is left to the next login. Returns how many were adopted."""
    player, account = f"g:{guest}", f"a:{account_id}"
    adopted = 0
    for listed in store.matches_of(player, ADOPTED_AT_MOST):
        try:
            match = loaded(store.load_match(str(listed.match_id)))
        except NotFound:
            continue  # past its TTL
        side = str(listed.side)
        if match.players.get(side) != player or account in match.players.values():
            continue
        players = {**match.players, side: account}
        at = match.item.updated_at or now
        counted = _ending_records(match, match.game, at, match.aborted, players, {side})
        try:
            store.adopt_seat(match.item, side, player, account, counted)
        except Refused:
            continue
        adopted += 1
    return adopted


ENDING_TRIES = 3  # a game's end refused only by a record another end wrote since the read


def _commit(
    match: Match,
    new_moves: list[store.NewMove],
    game: Any,
    *,
    banks: dict[str, float],
    clock: Clock,
    now: datetime,
    mail: list[OutboxItem],
    presence: store.Presence | None = None,
    unseen_since: store.Presence | None = None,
) -> None:
    """Commits a write of the game, conditioned on its move count (``presence`` and
    ``unseen_since`` as ``store.commit_moves`` takes them); an end carries the
    players' records in the same transaction (written once, as the end is). ``Refused``:
    the game moved on since it was read. A record changed by another game's end meanwhile
    is read again and the end tried again. A ranked game that ends before both sides made a
    move is aborted (decision 150): recorded so, and nobody's record changes."""
    movers = movers_of(new_moves)
    ended = match.rules.to_move(game) is None
    aborted = ended and match.ranked and not set(match.rules.sides) <= match.movers | movers
    for tried in range(1, ENDING_TRIES + 1):
        try:
            store.commit_moves(
                match.item,
                new_moves,
                game=match.rules.dump(game),
                state="ended" if match.rules.to_move(game) is None else "running",
                banks=banks,
                turn_since=clock.since,
                flag_at=clock.flag,
                now=now,
                kept=kept(match.players, now),
                mail=mail,
                hold_until=clock.hold_until,
                records=_ending_records(match, game, now, aborted),
                presence=presence,
                unseen_since=unseen_since,
                # Kept for a ranked game only (its abort): those stored and these (a game
                # stored before ``movers`` was kept: all it had).
                movers=(match.movers | movers) - frozenset(match.item.movers or ())
                if match.ranked
                else frozenset(),
                aborted=aborted,
            )
            return
        except Refused:
            fresh = store.match_progress(match.match_id)
            if (
                fresh is None
                or (fresh.moves, fresh.state) != (match.moves, "running")
                or fresh.reveal_at != _reveal_at(match)
                or fresh.presence != match.presence
                or tried == ENDING_TRIES
            ):
                raise


def _reveal_at(match: Match) -> datetime | None:
    return match.item.hold_until if match.item.held is not None else None


def due(match: Match) -> tuple[datetime, str] | None:
    """When the side to move loses if nothing happens, and how: on time (its flag) or gone
    (its page away for ``GONE_AFTER``), whichever comes first; None: it cannot."""
    if match.ended:
        return None
    found = []
    if match.item.flag_at is not None:
        found.append((match.item.flag_at, "time"))
    presence = match.presence
    if presence is not None and presence.side == match.rules.to_move(match.game):
        found.append((gone_at(presence), "gone"))
    return min(found) if found else None


def gone_at(presence: store.Presence) -> datetime:
    """When the mover loses if its page is not seen again (decision 82)."""
    return presence.seen + GONE_AFTER


def end_if_due(
    match: Match,
    now: datetime,
    present: str | None = None,
    hand_over: HandOver | None = None,
) -> bool:
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
    mail = _owed(match, match.players, ended, present, match.moves, now)
    banks = match.banks
    if banks and match.item.turn_since is not None:
        banks = timecontrol.spend(banks, side, match.item.turn_since, at)
    try:
        _commit(
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
    _hand_over(match, mail, hand_over)
    return True


def settle(
    match: Match,
    now: datetime,
    present: str | None = None,
    watch: Watch | None = None,
    hand_over: HandOver | None = None,
) -> bool:
    """What time alone decides, on any read or a worker's look: a ranked game's held answer
    is played into the game once its hold has ended, dated at the hold's end (the asking
    side's clock starts then); else a fallen flag or a mover gone a minute ends the game.
    True if it wrote (the caller reloads the game; a second reader that lost the race:
    False)."""
    held, until = match.held, match.item.hold_until
    if match.ended or held is None or until is None or now < until:
        return end_if_due(match, now, present, hand_over)
    side = str(held["side"])
    played = match.rules.play(
        match.game, side, held["move"], chance_of(int(match.item.seed), match.moves + 1)
    )
    try:
        _advance(match, side, played, until, present, watch, hand_over)
    except Refused:
        return False
    return True


def seen_here(match_id: str, presence: store.Presence | None, side: str, now: datetime) -> None:
    """``side``'s player is on the game's page now: recorded only when it is that side's move
    in a live game between people and what is stored is ``SEEN_EVERY`` old (most polls
    write nothing); a race lost to a move or an end changes nothing."""
    if presence is None or presence.side != side or now - presence.seen < SEEN_EVERY:
        return
    with suppress(Refused):
        store.mark_present(match_id, side, now, now - SEEN_EVERY)


def _watched(flag: datetime | None, presence: store.Presence | None) -> datetime | None:
    """When a worker should look at a game just written: its flag or its mover's minute."""
    found = [t for t in (flag, gone_at(presence) if presence else None) if t]
    return min(found) if found else None


def _hand_over(match: Match, mail: list[OutboxItem], hand_over: HandOver | None) -> None:
    if mail and hand_over is not None:
        hand_over(mailbox.match_mail(match.match_id))


def _advance(
    match: Match,
    side: str,
    played: Any,
    now: datetime,
    present: str | None,
    watch: Watch | None,
    hand_over: HandOver | None,
    receipt: OutboxItem | None = None,
) -> None:
    """Commits ``side``'s move played at ``now`` and the computer's replies: the mover's
    clock spent, the next side's started (held in a ranked game), the mail owed (with
    ``receipt``, a reply mail's confirmation: written once, with the move, or not at all)."""
    rules, game = match.rules, match.game
    banks = match.banks
    if banks and match.item.turn_since is not None and rules.to_move(game) == side:
        banks = timecontrol.spend(banks, side, match.item.turn_since, now)
    players = match.players
    strength = match.item.strength or ""
    after, replies = computer_replies(
        rules, played.game, players, strength, int(match.item.seed), match.moves + 1, now
    )
    clock = _clock_after(rules, after, players, banks, int(match.item.byoyomi), now, match.ranked)
    new_moves = [store.NewMove(side, played.move, now), *replies]
    mail = _owed(match, players, after, present, match.moves + len(new_moves), now)
    mail += [receipt] if receipt is not None else []
    # A ranked game's held answer: the mover's minute, like its clock, starts at the hold's end.
    presence = match.presence_after(players, after, clock.since or now)
    _commit(
        match, new_moves, after, banks=banks, clock=clock, now=now, mail=mail, presence=presence
    )
    _hand_over(match, mail, hand_over)
    watched = _watched(clock.flag, presence)
    if watched is not None and watch is not None:
        watch(match.match_id, match.moves + len(new_moves), watched)


def move(
    match: Match,
    who: list[str],
    seen_moves: int,
    given: Mapping[str, Any] | None,
    form: Mapping[str, str] | None,
    now: datetime,
    watch: Watch | None = None,
    hand_over: HandOver | None = None,
    receipt: OutboxItem | None = None,
) -> None:
    """Plays the person's move (a structured ``given`` move, or a page's ``form``) and the
    computer's replies, all or nothing, if the game still has the ``seen_moves`` moves the
    person's page showed (a reply mail's: the move count its mail was written for, with the
    ``receipt`` it owes). In a ranked game an answer given while it is held is kept aside
    until the hold ends (decision 65)."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    if end_if_due(match, now, side, hand_over):
        raise Conflict("この手の前に、時間切れか接続切れで対局が終わりました")
    if match.ended:
        raise Conflict("対局はもう終わっています")
    if seen_moves != match.moves:
        raise Stale(
            "ページが古くなっていたため、この手は送られませんでした。盤面を確かめてください"
        )
    rules, game = match.rules, match.game
    try:
        wanted = given if given is not None else rules.move_from_form(game, side, form or {})
        if rules.to_move(game) != side and wanted.get("do") != "resign":
            raise Conflict("いまは相手の番です")
        if match.held is not None and wanted.get("do") != "resign":
            raise Conflict("回答はもう送ってあります。公開されるまでお待ちください")
        played = rules.play(game, side, wanted, chance_of(int(match.item.seed), match.moves + 1))
    except Conflict:
        raise
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    until = match.holding(now)
    if until is not None and rules.to_move(game) == side and wanted.get("do") != "resign":
        try:
            store.hold_answer(match.item, {"side": side, "move": played.move}, now)
        except Refused:
            raise Stale(STALE) from None
        if watch is not None:
            watch(match.match_id, match.moves, until)  # shown at the hold's end
        if receipt is not None and mailbox.owe_once(receipt):
            _hand_over(match, [receipt], hand_over)
        return
    try:
        _advance(match, side, played, now, side, watch, hand_over, receipt)
    except Refused:
        raise Stale(STALE) from None


def join(
    match: Match,
    player: str,
    now: datetime,
    watch: Watch | None = None,
    hand_over: HandOver | None = None,
    identities: Sequence[str] = (),
) -> str:
    """The invited person takes the open seat (once: the seat must still be open); the
    clocks start now. Returns the side taken. ``identities``: every identity the joining
    browser holds besides ``player`` (its account, the guest id still in its cookie): none
    of them may hold the other seat, or one person would play both sides."""
    from . import records  # only what involves an account's records (cold start)

    side = match.open_side
    if side is None:
        raise Conflict("この対局にはもう空いている席がありません")
    if match.side_of([player, *identities]) is not None:
        raise Conflict("自分の対局には参加できません。相手に招待リンクを送ってください")
    if match.ranked and records.account_of(player) is None:
        raise Forbidden("ランク戦です。参加するにはログインしてください")
    players = {**match.players, side: player}
    clock = _clock_after(
        match.rules,
        match.game,
        players,
        match.banks,
        int(match.item.byoyomi),
        now,
        match.ranked,
    )
    mail = _owed(match, players, match.game, side, match.moves, now, turn="start")
    presence = match.presence_after(players, match.game, now)
    try:
        store.take_seat(
            match.item,
            side,
            player,
            turn_since=clock.since,
            flag_at=clock.flag,
            kept=kept(players, now),
            mail=mail,
            presence=presence,
        )
    except Refused:
        raise Conflict("この対局にはもう空いている席がありません") from None
    _hand_over(match, mail, hand_over)
    watched = _watched(clock.flag, presence)
    if watched is not None and watch is not None:
        watch(match.match_id, match.moves, watched)
    return side


def look(
    match_id: str,
    moves: int,
    now: datetime,
    watch: Watch,
    hand_over: HandOver | None = None,
) -> bool:
    """A worker's look at a game it was asked to watch: a held answer whose hold has ended
    is shown; the side to move loses if it is still the game of ``moves`` moves and its flag
    has fallen or its page has been gone for a minute; a time still ahead (a bank longer than
    a message can wait, a hold, a player seen since) is watched again, and a game played by
    mail reminds its player once the deadline is near. True if the game ended now."""
    found = store.load_match(match_id)
    if found is None or _expired(found.expires_at, now):
        return False
    match = Match(found)
    if match.ended or match.moves != moves:
        return False
    reveal = _reveal_at(match)
    if reveal is not None:
        if now < reveal:
            watch(match_id, moves, reveal)
        else:
            settle(match, now, None, watch, hand_over)
        return False
    when = due(match)
    if when is None:
        return False
    if now < when[0]:
        flag = match.item.flag_at
        if match.correspondence and flag is not None and now >= flag - REMIND_BEFORE:
            _remind(match, now, hand_over)
        watch(match_id, moves, when[0])
        return False
    return end_if_due(match, now, None, hand_over)


def _remind(match: Match, now: datetime, hand_over: HandOver | None) -> None:
    """The side to move's player is reminded of the deadline, once for this move count."""
    from . import records  # only what involves an account's records (cold start)

    side = match.rules.to_move(match.game)
    account = records.account_of(match.players[side]) if side else None
    if account is None:
        return
    item = mailbox.match_mail_item(match.match_id, match.moves, "reminder", account, now)
    if mailbox.owe_once(item):
        _hand_over(match, [item], hand_over)


@dataclass(frozen=True)
class Listed:
    """A game on its player's list: where it is, what it is, which side."""

    match_id: str
    title: str  # the game and its preset, in its rule set's words
    side: str  # the side, in its rule set's words
    created_at: datetime


MY_GAMES = 10  # the top page lists a player's latest games


def games_of(players: list[str]) -> list[Listed]:
    """The latest games of this browser's identities (its account, its guest id)."""
    now = runtime.now()
    found = [
        item
        for player in players
        for item in store.matches_of(player, MY_GAMES)
        if not _expired(item.expires_at, now)
    ]
    found.sort(key=lambda item: item.created_at, reverse=True)
    listed = []
    for item in found[:MY_GAMES]:
        offer = rulesets.match_rules(item.rules).offer()
        preset = dict(offer.presets).get(plain(item.setup).get("preset", ""), "")
        title = f"{offer.label}・{preset}" if preset else offer.label
        side = dict(offer.sides).get(str(item.side), str(item.side))
        listed.append(Listed(str(item.match_id), title, side, item.created_at))
    return listed


MAX_CHAT = 1000  # characters in one chat message, as a village post
CHATS_SHOWN = 50  # the page shows the latest messages


@dataclass(frozen=True)
class Chat:
    side: str
    text: str
    at: datetime


def chat(match: Match, who: list[str], text: str, now: datetime) -> None:
    """One chat message between the two people of a game (not part of its record): a village
    post's limits (1,000 characters, one per 5 s); none in a game against the computer."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    if not match.between_people:
        raise Forbidden("チャットは人どうしの対局でだけ使えます")
    if not text.strip():
        raise InvalidInput("本文を書いてください")
    if len(text) > MAX_CHAT:
        raise InvalidInput(f"1回の発言は{MAX_CHAT}文字までです（いま{len(text)}文字）")
    try:
        store.add_chat(match.item, side, match.players[side], text, now, kept(match.players, now))
    except Refused:
        raise RateLimited("連続して書き込めません。少し待ってからどうぞ") from None


def chats(match: Match) -> list[Chat]:
    """The latest messages, oldest first; nothing to read in a game against the computer."""
    if not match.between_people:
        return []
    return [
        Chat(str(c.side), str(c.text), c.posted_at)
        for c in store.chats_of(match.match_id, CHATS_SHOWN)
    ]


MOST_MOVES_CANCELLED = 90  # a transaction writes at most 100 items


def cancel(match: Match, who: list[str]) -> None:
    """The person who made an invitation (or a room) takes it back while its seat waits: the
    game is gone and its link leads nowhere (decision 63)."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    waiting = match.open_side
    if waiting is None or match.ended:
        raise Conflict("相手がもう席に着いたので、招待は取り消せません")
    if match.moves > MOST_MOVES_CANCELLED:
        raise Conflict("この対局は手が進んでいるため取り消せません。投了してください")
    try:
        store.cancel(match.item, match.players[side], waiting)
    except Refused:
        raise Conflict("相手がもう席に着いたので、招待は取り消せません") from None


def share(match: Match, who: list[str], now: datetime) -> str:
    """An ended game's public read-only link (棋譜を共有), made by either player; the same
    token again while it is shared. Returns the token."""
    if match.side_of(who) is None:
        raise Forbidden("この対局の対局者ではありません")
    if not match.ended:
        raise Conflict("棋譜は対局が終わってから共有できます")
    if match.item.share:
        return str(match.item.share)
    token = secrets.token_urlsafe(12)
    try:
        store.share(match.item, token, now)
    except Refused:
        raise Conflict("ページが古くなっていました。読み込み直してください") from None
    return token


def withdraw_share(match: Match, who: list[str]) -> None:
    """Either player takes the link back: it stops working at once (a new share is a new
    link). Nothing to take back is no error."""
    if match.side_of(who) is None:
        raise Forbidden("この対局の対局者ではありません")
    if match.item.share:
        with suppress(Refused):  # taken back by the other player a moment ago
            store.withdraw_share(match.item, str(match.item.share))


def shared(token: str) -> Match:
    """The game a shared record's link shows, if the link is still shared."""
    match_id = store.shared_match(token)
    if match_id is None:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)")
    try:
        match = load(match_id)
    except NotFound:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)") from None
    if match.item.share != token:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)")
    return match


@dataclass(frozen=True)
class Room:
    """A public room on the top page: the game, the seat it offers, its clock, since when."""

    match_id: str
    title: str
    side: str  # the open seat, in its rule set's words
    clock: str
    created_at: datetime
    ranked: bool


def rooms(players: list[str], now: datetime) -> list[Room]:
    """Public rooms still waiting for an opponent (not this browser's own), newest first."""
    found = []
    for item in store.rooms(now - ROOM_WAITS, ROOMS_LISTED):
        match = Match(item)
        side = match.open_side
        if match.ended or side is None or match.side_of(players) or _expired(item.expires_at, now):
            continue
        offer = match.rules.offer()
        setup = plain(item.setup)
        preset = dict(offer.presets).get(str(setup.get("preset", "")), "")
        found.append(
            Room(
                match.match_id,
                f"{offer.label}・{preset}" if preset else offer.label,
                dict(offer.sides).get(side, side),
                timecontrol.LABELS.get(str(setup.get("clock", "none")), ""),
                item.created_at,
                match.ranked,
            )
        )
    return found


def progress(match_id: str) -> store.Progress:
    found = store.match_progress(match_id)
    if found is None or _expired(found.expires_at, runtime.now()):
        raise NotFound("その対局は見つかりません")
    return found
