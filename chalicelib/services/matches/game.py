"""A game played move by move as a request sees it (``Match``: the game as read, its game
parsed once, what its committed writes owe) and what each use case of it shares: loading,
how long it is kept, its chance, 投了, the mail a write owes."""

import random
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from msgspec import Struct, field

from ... import rulesets, runtime, timecontrol
from ...rulesets.match import RESIGN, MatchEngine, MatchPages, MatchRules, Played
from ...storage import matches as store
from ...storage import outbox as mailbox
from ..errors import Conflict, NotFound
from ..owed import ClockWatch, MailHandOver, Owed

COMPUTER = "cpu"
OPEN = "open"  # a seat waiting for the person the game's link was sent to
# A game no account plays is kept this long after its last write, then DynamoDB's TTL deletes
# it (decision 58): as long as a guest's cookie lasts, after which nobody can reach it.
GUEST_KEPT = timedelta(days=30)
STALE = "ページが古くなっていたため、この手は送られませんでした。盤面を確かめてください"


class Stale(Conflict):
    """The page was made before the game's last move: nothing was applied."""


class Match(Struct, dict=True):  # dict: room for what it parses once (cached)
    """One game as a request sees it: the game as read and its game, parsed once, and what
    the request's writes of it owe once they are committed (``owe``)."""

    record: store.MatchRecord
    owed: list[Owed] = field(default_factory=list)

    def owe(self, effect: Owed) -> None:
        """Recorded only after the write that owes it went through (decision 225)."""
        self.owed.append(effect)

    @property
    def match_id(self) -> str:
        return self.record.match_id

    @property
    def rules(self) -> MatchRules[Any]:
        return rulesets.match_rules(self.record.rules)

    @property
    def moves(self) -> int:
        return self.record.moves

    @property
    def ended(self) -> bool:
        return self.record.state == "ended"

    @property
    def players(self) -> dict[str, str]:
        return dict(self.record.players)

    @property
    def banks(self) -> dict[str, float]:
        return dict(self.record.banks)

    @cached_property
    def game(self) -> Any:
        return self.rules.parse(self.record.game)

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
        return self.record.setup.get("opponent") == "room"

    @property
    def ranked(self) -> bool:
        """A ranked game (ランク戦): two accounts, a clock, rated at its end (decision 64)."""
        return self.record.setup.get("ranked") is True

    @property
    def aborted(self) -> bool:
        """Ended before both sides made a move, in a ranked game: 中止 (decision 150)."""
        return self.record.aborted

    @cached_property
    def movers(self) -> frozenset[str]:
        """A ranked game's sides that have made a move (投了 is none). A game stored before
        ``movers`` was kept (with moves but no such set) is read from its moves, once."""
        if self.record.movers is not None or self.moves == 0:
            return self.record.movers or frozenset()
        return movers_of(store.match_moves(self.match_id))

    @property
    def abortable(self) -> bool:
        """An end now (投了, time, leaving) would abort the game: a ranked game still
        running, one side of which has not made a move (decision 150)."""
        return self.ranked and not self.ended and not set(self.rules.sides) <= self.movers

    @property
    def held(self) -> dict[str, Any] | None:
        """A ranked game's answer given but not yet shown: {"side", "move"} (decision 65)."""
        held = self.record.held
        return dict(held) if held is not None else None

    def holding(self, now: datetime) -> datetime | None:
        """Until when the answer due now is held from the side that asked (None: not held)."""
        until = self.record.hold_until
        return until if until is not None and now < until and not self.ended else None

    @property
    def correspondence(self) -> bool:
        """Played by mail (one day per move): turns and reminders are mailed."""
        control = timecontrol.CONTROLS.get(str(self.record.setup.get("clock", "none")))
        return control is not None and control.correspondence

    @property
    def presence(self) -> store.Presence | None:
        """The side to move and when it was last seen, in a live game between two people."""
        return self.record.presence

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
        since = self.record.turn_since
        clocks = {
            side: timecontrol.remaining(
                self.banks, self.record.byoyomi, side, since if side == to_move else None, now
            )
            for side in self.rules.sides
        }
        if to_move is not None and since is not None and since > now:
            # A held answer's clock starts when the hold ends (the live script waits too).
            clocks[to_move]["wait"] = (since - now).total_seconds()
        return clocks


def load(match_id: str) -> Match:
    return loaded(store.load_match(match_id))


def loaded(record: store.MatchRecord | None) -> Match:
    """The game as read (``NotFound``: no such game, or past its TTL)."""
    if record is None or expired(record.expires_at, runtime.now()):
        raise NotFound("その対局は見つかりません")
    return Match(record)


def expired(expires_at: datetime | None, now: datetime) -> bool:
    """Past its TTL: gone, though DynamoDB deletes it only within a few days after."""
    return expires_at is not None and expires_at <= now


def kept(players: Mapping[str, str], now: datetime) -> store.Kept:
    """How long a game's items are kept after a write at ``now``: a game no account plays
    goes 30 days after its last write (finished or abandoned alike), so do guests' lists."""
    until = now + GUEST_KEPT
    accounts = any(not store.is_guest(p) and p not in (COMPUTER, OPEN) for p in players.values())
    return store.Kept(game=None if accounts else until, guests=until)


def resigns(move: Any) -> bool:
    """投了: a way to end the game, not a move of it (``rulesets.match.RESIGN``)."""
    return isinstance(move, Mapping) and move.get("do") == RESIGN


def move_of_form(rules: MatchPages[Any], game: Any, side: str, form: Mapping[str, str]) -> Any:
    """The move a form sends: 投了 from any game's form, else as its rule set reads it."""
    return {"do": RESIGN} if resigns(form) else rules.move_from_form(game, side, form)


def play_move(
    rules: MatchEngine[Any], game: Any, side: str, move: Any, rng: random.Random
) -> Played[Any]:
    """A move through its rule set, or 投了 through the platform: the game as the rule set's
    ``forfeit`` ends it, the move stored as the verb alone. A refusal is a ``ValueError``."""
    if not resigns(move):
        return rules.play(game, side, move, rng)
    if set(move) != {"do"}:
        raise ValueError(f"{rules.verbs.resign}にほかの指定はいりません")
    if rules.to_move(game) is None:
        raise ValueError("対局はもう終わっています")
    return Played(rules.forfeit(game, side, RESIGN), side, {"do": RESIGN})


def movers_of(moves: Iterable[store.NewMove]) -> frozenset[str]:
    """The sides ``moves`` play for, 投了 aside."""
    return frozenset(m.side for m in moves if not resigns(m.move))


def chance_of(seed: int, number: int) -> random.Random:
    """The game's chance for its move ``number`` (0: the deal): a retried write draws the same."""
    return random.Random(f"{seed}:{number}")


def mail_owed(
    match: Match,
    players: Mapping[str, str],
    game: Any,
    present: str | None,
    number: int,
    now: datetime,
    turn: str = "turn",
) -> list[mailbox.Mail]:
    """The mail a write of the game owes (decision 56), keyed by the game's move count
    after it: the end to each player with an account who did not make the write (the one who
    did was on the page), and, played by mail, the ``turn`` to the person now to move (a
    join's is "start": the other person sat, nobody moved)."""
    from .. import records  # only what involves an account's records (cold start)

    to_move = match.rules.to_move(game)
    if to_move is None:
        wanted = [(side, "end") for side in players if side != present]
    elif match.correspondence and to_move != present:
        wanted = [(to_move, turn)]
    else:
        wanted = []
    return [
        mailbox.game_mail(match.match_id, number, kind, account, now)
        for side, kind in wanted
        if (account := records.account_of(players[side])) is not None
    ]


def owe_mail(match: Match, mail: list[mailbox.Mail]) -> None:
    """The game's mail partition is handed to the mail workers if its write owed ``mail``."""
    if mail:
        match.owe(MailHandOver(mailbox.match_mail(match.match_id)))


def owe_watch(match: Match, moves: int, at: datetime | None) -> None:
    """A worker is to look at the game of ``moves`` moves at ``at`` (None: nothing runs)."""
    if at is not None:
        match.owe(ClockWatch(match.match_id, moves, at))


def progress(match_id: str) -> store.Progress:
    found = store.match_progress(match_id)
    if found is None or expired(found.expires_at, runtime.now()):
        raise NotFound("その対局は見つかりません")
    return found
