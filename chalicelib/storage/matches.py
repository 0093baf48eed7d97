"""Writes and reads of games played move by move (``M#<id>``), each conditioned on the game's
move count: a move is applied once, in turn, or not at all (docs/access-patterns.md).

A game's META holds its state (so a load is one GetItem) and each move is its own
append-only item, written in the same transaction as the META it advances.

Nothing above this module sees an item: reads hand back records (``MatchRecord``, the moves,
the chat, a player's list), and writes take the record read, on which they are conditioned,
and an intention (``NewMatch``, ``Advance``, the ``Mail`` they owe) (decision 230).
"""

import secrets
from collections.abc import Sequence
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct, field
from pynamodb.exceptions import DoesNotExist
from pynamodb.expressions.condition import size
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite

from .accounts import Session, session_record
from .db import ensure_configured, transaction
from .errors import conditioned
from .keys import (
    CHAT_PREFIX,
    MATCH_SK,
    PLAYER_MATCH_PREFIX,
    PRELUDE_SK,
    ROOMS_INDEX,
    SHARE_SK,
    account_pk,
    chat_sk,
    email_pk,
    key_time,
    match_pk,
    move_sk,
    player_match_sk,
    player_pk,
    room_index_sk,
    session_sk,
    share_pk,
    time_key,
)
from .models import (
    ChatItem,
    EmailItem,
    Item,
    MatchItem,
    MoveItem,
    OutboxItem,
    PlayerMatchItem,
    PreludeItem,
    SessionItem,
    ShareItem,
)
from .outbox import Mail, item_of
from .records import RecordWrite
from .records import write as write_records
from .repository import plain


class NewMove(Struct, frozen=True):
    side: str
    move: Any
    at: datetime


class Presence(Struct, frozen=True):
    """In a live game between two people, the side to move and when it was last seen (its
    page asked, or its turn began): gone for a minute, it loses (decision 82)."""

    side: str
    seen: datetime

    def stored(self) -> dict[str, str]:
        return {"side": self.side, "seen": time_key(self.seen)}


def _presence_of(item: MatchItem) -> Presence | None:
    """The stored presence of a game's META (None: nobody's counts)."""
    found = plain(item.presence) if item.presence else None
    if not found or "side" not in found or "seen" not in found:
        return None
    return Presence(str(found["side"]), key_time(str(found["seen"])))


class MatchRecord(Struct, frozen=True):
    """A game's META as read (or as just written): what every use case of a game reads. The
    writes below take it back as the read they are conditioned on."""

    match_id: str
    rules: str
    state: str  # running | ended
    moves: int
    seed: int
    game: Any  # as stored: its rule set parses it
    players: dict[str, str]  # side -> "a:<account>", "g:<guest>", "cpu" or "open"
    setup: dict[str, Any]
    strength: str | None
    banks: dict[str, float]
    byoyomi: int
    turn_since: datetime | None
    flag_at: datetime | None
    created_at: datetime
    updated_at: datetime | None
    ended_at: datetime | None
    expires_at: datetime | None
    chats: int
    # Each side's last chat message; None: a game stored before chat, with no map to set a
    # side in.
    chat_at: dict[str, str] | None
    share: str | None
    hold_until: datetime | None
    held: dict[str, Any] | None
    presence: Presence | None
    # None: a game stored before the sides that moved were kept (its moves tell).
    movers: frozenset[str] | None
    aborted: bool


def _record(item: MatchItem) -> MatchRecord:
    return MatchRecord(
        match_id=str(item.match_id),
        rules=str(item.rules),
        state=str(item.state),
        moves=int(item.moves),
        seed=int(item.seed),
        game=item.game,
        players={side: str(who) for side, who in plain(item.players).items()},
        setup=plain(item.setup),
        strength=item.strength,
        banks={side: float(left) for side, left in plain(item.banks).items()},
        byoyomi=int(item.byoyomi or 0),
        turn_since=item.turn_since,
        flag_at=item.flag_at,
        created_at=item.created_at,
        updated_at=item.updated_at,
        ended_at=item.ended_at,
        expires_at=item.expires_at,
        chats=int(item.chats or 0),
        # A stored map is always an object (truthy), even empty; absent, it is not.
        chat_at=plain(item.chat_at) if item.chat_at else None,
        share=item.share,
        hold_until=item.hold_until,
        held=dict(item.held) if item.held is not None else None,
        presence=_presence_of(item),
        movers=frozenset(item.movers) if item.movers is not None else None,
        aborted=bool(item.aborted),
    )


def _meta(match: MatchRecord) -> MatchItem:
    """The META's key: what a write of ``match`` updates, on the conditions it states."""
    ensure_configured()
    return MatchItem(match_pk(match.match_id), MATCH_SK)


class Progress(Struct, frozen=True):
    """The poll's answer: how many moves, the state, and when the side to move flags."""

    moves: int
    state: str
    flag_at: datetime | None
    expires_at: datetime | None  # past it the game is gone (its TTL, not yet applied)
    chats: int  # chat messages so far (the page shows that new ones came)
    reveal_at: datetime | None  # a held answer is played into the game then (decision 65)
    presence: Presence | None  # the side to move of a live game between people, last seen
    seat_open: bool  # a seat still waits for its invited person


class NewMatch(Struct, frozen=True):
    """A game to create (``create_match``): its dealt game as stored, its seats, what was
    picked, the computer's strength, the clocks of the side to move, made at ``now``;
    ``ended``: over before anyone moved (the computer's opening ended it)."""

    match_id: str
    rules: str
    seed: int
    game: Any
    players: dict[str, str]
    setup: dict[str, Any]
    strength: str | None
    now: datetime
    banks: dict[str, float] = field(default_factory=dict)
    byoyomi: int = 0
    turn_since: datetime | None = None
    flag_at: datetime | None = None
    ended: bool = False


class Kept(Struct, frozen=True):
    """Until when DynamoDB keeps a game's items (its TTL, decision 58): ``game`` the META and
    the moves written now (None: kept, a game an account plays), ``guests`` each guest's
    place in its list (a guest's games go with its cookie)."""

    game: datetime | None
    guests: datetime


def is_guest(player: str) -> bool:
    return player.startswith("g:")


def _move_item(match_id: str, number: int, move: NewMove, kept: Kept) -> MoveItem:
    return MoveItem(
        match_pk(match_id),
        move_sk(number),
        match_id=match_id,
        number=number,
        side=move.side,
        move=move.move,
        played_at=move.at,
        expires_at=kept.game,
    )


def _listed(meta: MatchItem | MatchRecord, side: str, player: str, kept: Kept) -> PlayerMatchItem:
    return PlayerMatchItem(
        player_pk(player),
        player_match_sk(meta.created_at, meta.match_id),
        match_id=meta.match_id,
        rules=meta.rules,
        side=side,
        setup=meta.setup,
        created_at=meta.created_at,
        expires_at=kept.guests if is_guest(player) else None,
    )


def _save_moves(
    t: TransactWrite, match_id: str, first: int, moves: Sequence[NewMove], kept: Kept
) -> None:
    for number, move in enumerate(moves, start=first):
        t.save(_move_item(match_id, number, move, kept), condition=MoveItem.pk.does_not_exist())


def _unlisted() -> list[Action]:
    """Out of the public rooms' index (a seat taken, an end): removing what a game that was
    never listed has not is a no-op."""
    return [MatchItem.gsi1pk.remove(), MatchItem.gsi1sk.remove()]


def _owe(t: TransactWrite, mail: Sequence[Mail]) -> None:
    """The mail a write owes (a turn, the end), in its transaction: nothing owed is lost."""
    for owed in mail:
        t.save(item_of(owed), condition=OutboxItem.pk.does_not_exist())


def _keep(kept: Kept) -> Action:
    return MatchItem.expires_at.set(kept.game) if kept.game else MatchItem.expires_at.remove()


def _keep_guests(t: TransactWrite, meta: MatchRecord, kept: Kept) -> None:
    """Each guest's place in its list is kept as long as the game's last write."""
    for player in meta.players.values():
        if is_guest(player):
            listed = PlayerMatchItem(
                player_pk(player), player_match_sk(meta.created_at, meta.match_id)
            )
            t.update(
                listed,
                actions=[PlayerMatchItem.expires_at.set(kept.guests)],
                condition=PlayerMatchItem.pk.exists(),
            )


def _clock(
    turn_since: datetime | None, flag_at: datetime | None, presence: Presence | None
) -> list[Action]:
    """Since when the side to move thinks and when it flags (removed: no clock running), and
    whose presence counts since when (removed: nobody's)."""
    return [
        MatchItem.turn_since.set(turn_since) if turn_since else MatchItem.turn_since.remove(),
        MatchItem.flag_at.set(flag_at) if flag_at else MatchItem.flag_at.remove(),
        MatchItem.presence.set(presence.stored()) if presence else MatchItem.presence.remove(),
    ]


class Prelude(Struct, frozen=True):
    """A what-if game's start: the game it continues, after how many of its moves, the start
    (move 0) and those moves (``[{"side", "move"}]``)."""

    origin: str
    number: int
    start: Any
    moves: list[dict[str, Any]]


def create_match(
    new: NewMatch,
    moves: Sequence[NewMove],
    people: dict[str, str],
    kept: Kept,
    room: bool = False,
    prelude: Prelude | None = None,
) -> MatchRecord:
    """A new game with the moves already played (the computer's, when it opens) and its place
    in each person's list (``people``: side → player), at once; ``room``: listed among the
    public rooms (the index) until its seat is taken or it ends; ``prelude``: a what-if game's
    start, its moves numbered after the prelude's. Returns the game as written."""
    ensure_configured()
    first = prelude.number + 1 if prelude else 1
    meta = MatchItem(
        match_pk(new.match_id),
        MATCH_SK,
        match_id=new.match_id,
        rules=new.rules,
        state="ended" if new.ended else "running",
        moves=first - 1 + len(moves),
        seed=new.seed,
        game=new.game,
        players=new.players,
        setup=new.setup,
        strength=new.strength,
        banks=new.banks,
        byoyomi=new.byoyomi,
        turn_since=new.turn_since,
        flag_at=new.flag_at,
        created_at=new.now,
        updated_at=new.now,
        ended_at=new.now if new.ended else None,
        chats=0,
        chat_at={},
        expires_at=kept.game,
    )
    if room:
        meta.gsi1pk, meta.gsi1sk = ROOMS_INDEX, room_index_sk(meta.created_at, meta.match_id)

    def write() -> None:
        with transaction() as t:
            t.save(meta, condition=MatchItem.pk.does_not_exist())
            for side, player in people.items():
                t.save(
                    _listed(meta, side, player, kept),
                    condition=PlayerMatchItem.pk.does_not_exist(),
                )
            _save_moves(t, meta.match_id, first, moves, kept)
            if prelude is not None:
                item = PreludeItem(
                    match_pk(meta.match_id),
                    PRELUDE_SK,
                    match_id=meta.match_id,
                    origin=prelude.origin,
                    number=prelude.number,
                    start=prelude.start,
                    moves=prelude.moves,
                    expires_at=kept.game,
                )
                t.save(item, condition=PreludeItem.pk.does_not_exist())

    conditioned("the game exists already", write)
    return _record(meta)


class Advance(Struct, frozen=True):
    """One write of a game (``commit_moves``): ``moves`` appended after those read, the
    ``game`` (as stored) and ``state`` they lead to, the clocks after them (the side to
    move's since when and its flag, a held answer's ``hold_until``), at ``now``, kept as
    ``kept`` says. What it owes, written with it: ``mail``, and ``records``, the players'
    records after the game's end (written once with it). ``presence``: whose presence counts
    from now; ``unseen_since``: also conditioned on that side not having been seen since (a
    loss for leaving, refused when the player came back meanwhile). ``movers``: the sides
    these moves play for (投了 aside), added to the game's; ``aborted``: the end is an abort
    (decision 150)."""

    moves: Sequence[NewMove]
    game: Any
    state: str
    banks: dict[str, float]
    turn_since: datetime | None
    flag_at: datetime | None
    now: datetime
    kept: Kept
    mail: Sequence[Mail] = ()
    hold_until: datetime | None = None
    records: Sequence[RecordWrite] = ()
    presence: Presence | None = None
    unseen_since: Presence | None = None
    movers: frozenset[str] = frozenset()
    aborted: bool = False


def commit_moves(read: MatchRecord, to: Advance) -> None:
    """The game advanced ``to`` after the ``read.moves`` moves read, in one transaction
    conditioned on that count: a second request that read the same count (a double tap, a
    stale page) is refused, never applied after it. A held answer is gone (played, or dropped
    by the end)."""
    actions: list[Action] = [
        MatchItem.moves.set(read.moves + len(to.moves)),
        MatchItem.game.set(to.game),
        MatchItem.state.set(to.state),
        MatchItem.banks.set(to.banks),
        MatchItem.updated_at.set(to.now),
        *_clock(to.turn_since, to.flag_at, to.presence),
        _keep(to.kept),
        MatchItem.hold_until.set(to.hold_until) if to.hold_until else MatchItem.hold_until.remove(),
        MatchItem.held.remove(),
    ]
    if to.movers:
        actions.append(MatchItem.movers.add(set(to.movers)))
    if to.state == "ended":
        actions += [MatchItem.ended_at.set(to.now), *_unlisted()]
        if to.aborted:
            actions.append(MatchItem.aborted.set(True))
    condition = (MatchItem.moves == read.moves) & (MatchItem.state == "running")
    if to.unseen_since is not None:
        condition &= MatchItem.presence["seen"] == time_key(to.unseen_since.seen)

    def write() -> None:
        with transaction() as t:
            t.update(_meta(read), actions=actions, condition=condition)
            _save_moves(t, read.match_id, read.moves + 1, to.moves, to.kept)
            _keep_guests(t, read, to.kept)
            _owe(t, to.mail)
            write_records(t, to.records)

    conditioned("the game moved on since it was read", write)


def hold_answer(read: MatchRecord, held: dict[str, Any], now: datetime) -> None:
    """A ranked game's answer given before its ``hold_until``: kept aside, not played, so
    nothing the asking side reads changes; the answering side's clock has stopped (no flag).
    Conditioned on the move count read and on no answer held yet (a double tap)."""
    conditioned(
        "the game moved on, or an answer is held already",
        lambda: _meta(read).update(
            actions=[
                MatchItem.held.set(held),
                MatchItem.flag_at.remove(),
                MatchItem.updated_at.set(now),
            ],
            condition=(MatchItem.moves == read.moves)
            & (MatchItem.state == "running")
            & MatchItem.held.does_not_exist(),
        ),
    )


def take_seat(
    meta: MatchRecord,
    side: str,
    player: str,
    *,
    turn_since: datetime | None,
    flag_at: datetime | None,
    kept: Kept,
    mail: Sequence[Mail] = (),
    presence: Presence | None = None,
) -> None:
    """The invited player sits at ``side`` if it is still open (two people following the
    link at once: one sits), with the clocks that start now, and the game on their list."""
    actions: list[Action] = [
        MatchItem.players[side].set(player),
        *_clock(turn_since, flag_at, presence),
        _keep(kept),
        *_unlisted(),
    ]

    def write() -> None:
        with transaction() as t:
            t.update(
                _meta(meta),
                actions=actions,
                condition=(MatchItem.players[side] == "open") & (MatchItem.state == "running"),
            )
            t.save(_listed(meta, side, player, kept), condition=PlayerMatchItem.pk.does_not_exist())
            _keep_guests(t, meta, kept)
            _owe(t, mail)

    conditioned("the seat was taken", write)


def mark_present(match_id: str, side: str, now: datetime, stale: datetime) -> None:
    """``side``'s player is here at ``now``: one update, only while it is that side's move
    in a running game and what is stored is older than ``stale`` (most polls write nothing;
    ``Refused`` otherwise). A loss for leaving written first makes this a no-op, and this
    written first refuses that loss (its condition is the time it read)."""
    ensure_configured()
    meta = MatchItem(match_pk(match_id), MATCH_SK)
    seen = MatchItem.presence["seen"]

    def write() -> None:
        meta.update(
            actions=[seen.set(time_key(now))],
            condition=(MatchItem.state == "running")
            & (MatchItem.presence["side"] == side)
            & (seen <= time_key(stale)),
        )

    conditioned("not this side's move, or seen lately", write)


CHAT_INTERVAL = timedelta(seconds=5)  # one chat message per player per 5 s, as a village post


def add_chat(
    meta: MatchRecord, side: str, player: str, text: str, now: datetime, kept: Kept
) -> None:
    """A chat message of ``side`` (still ``player``'s seat), at most one per 5 s: the META's
    count and the side's last moment under that condition, and the message, in one
    transaction (``Refused`` within 5 s). The game's moves are untouched."""
    message = ChatItem(
        match_pk(meta.match_id),
        chat_sk(now, secrets.token_hex(4)),
        match_id=meta.match_id,
        side=side,
        text=text,
        posted_at=now,
        expires_at=kept.game,
    )
    last = MatchItem.chat_at[side]
    # The game's first message (a game stored before chat has no ``chat_at`` map to set a
    # side in): the whole map, conditioned on nobody having written one since the read.
    first = meta.chat_at is None
    moment = MatchItem.chat_at.set({side: time_key(now)}) if first else last.set(time_key(now))
    pace = (
        MatchItem.chat_at.does_not_exist() | (size(MatchItem.chat_at) == 0)
        if first
        else last.does_not_exist() | (last <= time_key(now - CHAT_INTERVAL))
    )

    def write() -> None:
        with transaction() as t:
            t.update(
                _meta(meta),
                actions=[MatchItem.chats.add(1), moment],
                condition=(MatchItem.players[side] == player) & pace,
            )
            t.save(message, condition=ChatItem.pk.does_not_exist())

    conditioned("too soon, or not this seat's player", write)


class Chat(Struct, frozen=True):
    """One chat message as read: its side, its text, when."""

    side: str
    text: str
    at: datetime


def chats_of(match_id: str, limit: int) -> list[Chat]:
    """The latest ``limit`` chat messages, oldest first (one query)."""
    ensure_configured()
    latest = ChatItem.query(
        match_pk(match_id),
        ChatItem.sk.startswith(CHAT_PREFIX),
        scan_index_forward=False,
        limit=limit,
    )
    return [Chat(str(item.side), str(item.text), item.posted_at) for item in reversed(list(latest))]


def cancel(meta: MatchRecord, player: str, side: str) -> None:
    """An invitation taken back while its seat waits: the game, its moves and its place in
    its creator's list go, at once, conditioned on the seat still open and no move since."""

    def write() -> None:
        with transaction() as t:
            t.delete(
                _meta(meta),
                condition=(MatchItem.players[side] == "open") & (MatchItem.moves == meta.moves),
            )
            t.delete(
                PlayerMatchItem(player_pk(player), player_match_sk(meta.created_at, meta.match_id))
            )
            for number in range(1, meta.moves + 1):
                t.delete(MoveItem(match_pk(meta.match_id), move_sk(number)))

    conditioned("the seat was taken, or a move came", write)


def adopt_seat(
    meta: MatchRecord, side: str, guest: str, account: str, records: Sequence[RecordWrite] = ()
) -> None:
    """A guest's seat becomes its account's (the guest logged in on that browser, decision
    192): the seat, if still the guest's and if the account holds no other seat of the game
    (never a game against itself); the game on the account's list and off the guest's; the
    game kept as an account's games are (no TTL left on any of its items); ``records``: an
    ended game's place in the account's records, in the same transaction. The TTLs go first,
    each its own idempotent write: a refused adoption leaves a game kept, never one adopted
    whose moves still expire. ``Refused``: a move, or another login, came first."""
    ensure_configured()
    if meta.expires_at is not None:
        for item in Item.query(match_pk(meta.match_id)):
            # The META's goes with the seat, in the transaction below.
            if item.expires_at is not None and not isinstance(item, MatchItem):
                item.update(actions=[Item.expires_at.remove()])
        if meta.share:
            with suppress(DoesNotExist):
                ShareItem.get(share_pk(meta.share), SHARE_SK).update(
                    actions=[ShareItem.expires_at.remove()]
                )
    # As read: a move since (an end, whose records were counted without this account) refuses.
    condition = (MatchItem.players[side] == guest) & (MatchItem.moves == meta.moves)
    for other in meta.players:
        if other != side:
            condition &= MatchItem.players[other] != account
    kept = Kept(game=None, guests=meta.created_at)  # an account's place in its list: no TTL

    def write() -> None:
        with transaction() as t:
            t.update(
                _meta(meta),
                actions=[MatchItem.players[side].set(account), MatchItem.expires_at.remove()],
                condition=condition,
            )
            listed_at = player_match_sk(meta.created_at, meta.match_id)
            t.delete(PlayerMatchItem(player_pk(guest), listed_at))
            t.save(
                _listed(meta, side, account, kept), condition=PlayerMatchItem.pk.does_not_exist()
            )
            write_records(t, records)

    conditioned("the seat is no longer the guest's, or the account holds the other", write)


def share(meta: MatchRecord, token: str, now: datetime) -> None:
    """The ended game's record gets a public link (``token``), unless it has one: the META
    says which, the link's item says which game; both at once (a guest game's TTL kept)."""
    link = ShareItem(
        share_pk(token),
        SHARE_SK,
        match_id=meta.match_id,
        created_at=now,
        expires_at=meta.expires_at,
    )

    def write() -> None:
        with transaction() as t:
            t.update(
                _meta(meta),
                actions=[MatchItem.share.set(token)],
                condition=MatchItem.share.does_not_exist() & (MatchItem.state == "ended"),
            )
            t.save(link, condition=ShareItem.pk.does_not_exist())

    conditioned("shared already, or not ended", write)


def withdraw_share(meta: MatchRecord, token: str) -> None:
    """The link stops working: the META forgets it and its item goes, at once."""

    def write() -> None:
        with transaction() as t:
            t.update(
                _meta(meta), actions=[MatchItem.share.remove()], condition=MatchItem.share == token
            )
            t.delete(ShareItem(share_pk(token), SHARE_SK))

    conditioned("withdrawn already", write)


def shared_match(token: str) -> str | None:
    """The game a shared record's link names (None: no such link, or withdrawn)."""
    ensure_configured()
    try:
        return str(ShareItem.get(share_pk(token), SHARE_SK).match_id)
    except DoesNotExist:
        return None


def load_match(match_id: str) -> MatchRecord | None:
    ensure_configured()
    try:
        return _record(MatchItem.get(match_pk(match_id), MATCH_SK, consistent_read=True))
    except DoesNotExist:
        return None


def _with_match(match_id: str, key: tuple[str, str]) -> tuple[MatchRecord | None, Item | None]:
    """A game and one other item, in one consistent BatchGetItem (decision duel 102)."""
    ensure_configured()
    match, other = None, None
    for item in Item.batch_get([(match_pk(match_id), MATCH_SK), key], consistent_read=True):
        if isinstance(item, MatchItem):
            match = _record(item)
        else:
            other = item
    return match, other


def load_match_and_session(
    match_id: str, account_id: str, session_id: str
) -> tuple[MatchRecord | None, Session | None]:
    """A game and the session a browser's cookie names: a signed-in request on a game pays
    one read for both."""
    match, session = _with_match(match_id, (account_pk(account_id), session_sk(session_id)))
    return match, session_record(session) if isinstance(session, SessionItem) else None


def load_match_and_owner(match_id: str, address: str) -> tuple[MatchRecord | None, str | None]:
    """A game and the account that verified ``address`` (a reply to the game's mail): one
    read for both."""
    match, owner = _with_match(match_id, (email_pk(address), "EMAIL"))
    return match, str(owner.account_id) if isinstance(owner, EmailItem) else None


def match_progress(match_id: str) -> Progress | None:
    """One GetItem of a few small attributes: the live page's "anything new?" question."""
    ensure_configured()
    try:
        item = MatchItem.get(
            match_pk(match_id),
            MATCH_SK,
            consistent_read=True,
            attributes_to_get=[
                "moves",
                "state",
                "flag_at",
                "expires_at",
                "chats",
                "hold_until",
                "held",
                "presence",
                "players",
            ],
        )
    except DoesNotExist:
        return None
    return Progress(
        int(item.moves),
        item.state,
        item.flag_at,
        item.expires_at,
        int(item.chats or 0),
        item.hold_until if item.held is not None else None,
        _presence_of(item),
        "open" in plain(item.players).values(),
    )


def match_moves(match_id: str) -> list[NewMove]:
    """Every move in order (the record after the end)."""
    ensure_configured()
    return [
        NewMove(str(item.side), item.move, item.played_at)
        for item in MoveItem.query(
            match_pk(match_id), MoveItem.sk.startswith("MOVE#"), consistent_read=True
        )
    ]


def prelude_of(match_id: str) -> Prelude | None:
    """A what-if game's start (None: the game was dealt anew, not continued)."""
    ensure_configured()
    try:
        item = PreludeItem.get(match_pk(match_id), PRELUDE_SK, consistent_read=True)
    except DoesNotExist:
        return None
    return Prelude(str(item.origin), int(item.number), item.start, list(item.moves))


def rooms(since: datetime, limit: int) -> list[MatchRecord]:
    """Public rooms waiting for an opponent, created since ``since``, newest first (one
    query of the index's one rooms partition)."""
    ensure_configured()
    return [
        _record(item)
        for item in MatchItem.by_state.query(
            ROOMS_INDEX,
            MatchItem.gsi1sk >= time_key(since),
            scan_index_forward=False,
            limit=limit,
        )
    ]


class PlayerGame(Struct, frozen=True):
    """A game on its player's list, as read: the game, its rule set, the player's side, what
    was picked, when it began and until when it is kept (None: an account's, kept)."""

    match_id: str
    rules: str
    side: str
    setup: dict[str, Any]
    created_at: datetime
    expires_at: datetime | None


def matches_of(player: str, limit: int) -> list[PlayerGame]:
    """The player's latest games, newest first (one query)."""
    ensure_configured()
    return [
        PlayerGame(
            str(item.match_id),
            str(item.rules),
            str(item.side),
            plain(item.setup),
            item.created_at,
            item.expires_at,
        )
        for item in PlayerMatchItem.query(
            player_pk(player),
            PlayerMatchItem.sk.startswith(PLAYER_MATCH_PREFIX),
            scan_index_forward=False,
            limit=limit,
        )
    ]
