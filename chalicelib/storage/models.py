"""The one DynamoDB table and its items (PynamoDB). See docs/access-patterns.md.

A single table keyed by (pk, sk) with one global secondary index (gsi1) and a
TTL attribute. The same definitions create the table in tests, in the local
runner and in ``infra/``. The table name, region and endpoint are set by
:func:`chalicelib.storage.db.configure` at first use, never at import time.
"""

import base64
import json
import zlib
from typing import Any, TypeVar

from msgspec import Struct
from pynamodb.attributes import (
    Attribute,
    BooleanAttribute,
    DiscriminatorAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    TTLAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    UTCDateTimeAttribute,
    VersionAttribute,
)
from pynamodb.constants import STRING
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from .keys import SHARDS


def plain(value: Any) -> dict[str, Any]:
    """A map attribute as a dict: PynamoDB gives a MapAttribute once loaded, the dict it was
    given before that."""
    return value.as_dict() if hasattr(value, "as_dict") else dict(value or {})


Record = TypeVar("Record", bound=Struct)


def record_of(kind: type[Record], item: "Item", **given: Any) -> Record:
    """The plain record ``kind`` (a ``Struct``) of ``item``: each field the item's attribute of
    the same name, unless ``given`` (a key, a map made plain)."""
    named = {name: getattr(item, name) for name in kind.__struct_fields__ if name not in given}
    return kind(**named, **given)


class GameAttribute(Attribute[Any]):
    """A rule set's game state: compact JSON, zlib-compressed, in base64.

    Every request reads it and it keeps every night's history, so it is the one part of the
    hot read that grows with the game: compressed it grows about a fifth as fast
    (docs/decisions.md 61). Plain JSON, as stored before, still reads: base64 never starts
    with ``{``.
    """

    attr_type = STRING

    def serialize(self, value: Any) -> str:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return base64.b64encode(zlib.compress(text.encode(), 9)).decode("ascii")

    def deserialize(self, value: str) -> Any:
        if value.startswith("{"):
            return json.loads(value)
        return json.loads(zlib.decompress(base64.b64decode(value)))


class ByState(GlobalSecondaryIndex):
    """Sparse, its keys sharded (keys.SHARDS): villages by state in the order of their next
    update (the lounge), active villages' LOOK items by the time they are due (the
    scheduler), owed mail by the time it is due (the outbox)."""

    class Meta:
        index_name = "gsi1"
        projection = AllProjection()

    gsi1pk = UnicodeAttribute(hash_key=True)
    gsi1sk = UnicodeAttribute(range_key=True)


class Item(Model):
    class Meta:
        table_name = "mobius"  # replaced by configure()
        region = "ap-northeast-1"
        host: str | None = None  # None: the real AWS endpoint
        max_pool_connections = SHARDS  # the shards are queried at once (storage/shards.py)

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    kind = DiscriminatorAttribute()
    gsi1pk = UnicodeAttribute(null=True)
    gsi1sk = UnicodeAttribute(null=True)
    expires_at = TTLAttribute(null=True)
    by_state = ByState()


# ----- a village's partition: pk = "V#<id>" -----


class VillageItem(Item, discriminator="village"):
    """sk = "META": the village, its game state (rules JSON) and its clock.

    In the index under ``STATE#<state>#<shard>`` (the lounge), sorted by ``<next update or
    close time>#<id>``: written only by what writes META anyway (a step, a join, a
    departure). When the scheduler looks next is the small ``LookItem``'s.
    """

    village_id = UnicodeAttribute()
    name = UnicodeAttribute()
    pace = UnicodeAttribute()  # long | short
    state = UnicodeAttribute()  # opening | running | ending | ended | abandoned
    rules = UnicodeAttribute(null=True)  # the rule set's name (absent: mobius, as before)
    character_set = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()
    day_started_at = UTCDateTimeAttribute(null=True)  # the update that began the current day
    # When that update actually committed (later than ``day_started_at`` when the scheduler was
    # late): members could see the day only from then, so the idle rules count from it.
    day_shown_at = UTCDateTimeAttribute(null=True)
    next_update = UTCDateTimeAttribute(null=True)
    closed_at = UTCDateTimeAttribute(null=True)
    seats = NumberAttribute(null=True)  # how many characters (absent: 13, a Mobius village)
    occupied = NumberAttribute(default=0)
    open_seats = NumberAttribute(default=0)  # running: vacant living characters (the lounge)
    reminded_day = NumberAttribute(default=0)  # the last day whose reminder is owed
    gm_reason = UnicodeAttribute(null=True)  # a GM's 廃村: the reason its mail tells members
    # Computer members who take the seats still open when the village starts (decision 125);
    # removed by the step that ends the opening.
    cpu_members = NumberAttribute(null=True)
    seed = NumberAttribute()  # the game's draws: Random(f"{seed}:{day}") each night
    game = GameAttribute()
    version = VersionAttribute()


class LookItem(Item, discriminator="look"):
    """sk = "LOOK": when the scheduler must look at an active village next (its update, its
    reminder or the first moment a member can be idle, whichever comes first).

    Apart from META so that moving it writes about a hundred bytes, not the game; in the
    index under ``LOOK#<shard>`` sorted by that time; deleted when the village closes. Every
    write counts itself in ``moves``, and the scheduler and joins write only if it is
    unchanged since their read: a join needing an earlier look and a scheduler that read
    the village before the join cannot undo each other.
    """

    village_id = UnicodeAttribute()
    moves = NumberAttribute(default=0)


class MemberItem(Item, discriminator="member"):
    """sk = "SLOT#<slot>": one character and who plays it now."""

    village_id = UnicodeAttribute()
    slot = UnicodeAttribute()
    persona = UnicodeAttribute(null=True)  # chosen on joining the opening; kept by takeovers
    account_id = UnicodeAttribute(null=True)  # None: vacant
    joined_at = UTCDateTimeAttribute(null=True)
    last_access = UTCDateTimeAttribute(null=True)
    speech_ban_until = UTCDateTimeAttribute(null=True)  # every board (opening join)
    public_ban_until = UTCDateTimeAttribute(null=True)  # public board (mid-game join)
    last_post_at = UTCDateTimeAttribute(null=True)
    will = UnicodeAttribute(null=True)  # classic: the member's will (遺書), as last written


class PresenceItem(Item, discriminator="presence"):
    """sk = "ACCOUNT#<account>": an account's one place in a village, ever.

    Created on joining (so no account holds two slots), kept as ``left`` after a
    departure (so it never rejoins).
    """

    account_id = UnicodeAttribute()
    slot = UnicodeAttribute()
    left = BooleanAttribute(default=False)


class DayItem(Item, discriminator="day"):
    """sk = "DAY#<nnn>" while open, "ARCHIVE#<nnn>" once sealed: every member's choices for
    that day's night.

    Saves update one map entry each (no lost update between members), and in it only the
    choices that change, each conditioned on its value as read (no lost update between two
    saves of one member); ``saves`` counts them so the update can tell a save that slipped in
    after its read. ``closes`` counts the steps that consumed the day's choices without
    sealing it (a classic vote round): a save checked before one of them is refused after it.
    ``vacated`` does the same per seat for departures.
    """

    village_id = UnicodeAttribute()
    day = NumberAttribute()
    choices: MapAttribute[str, Any] = MapAttribute(default=dict)  # slot -> {key: slot}
    saved_at: MapAttribute[str, Any] = MapAttribute(default=dict)  # slot -> ISO time
    # The day before's ``saved_at``, carried over when it was sealed: the idle check's
    # evidence without reading an archived day.
    previous_saved_at: MapAttribute[str, Any] = MapAttribute(default=dict)
    saves = NumberAttribute(default=0)
    closes = NumberAttribute(null=True)  # absent until the first such step
    # slot -> how many holders left the seat this day: a save read before a departure is
    # refused after it, so it can never land on the seat of whoever took it since.
    vacated: MapAttribute[str, Any] = MapAttribute(default=dict)
    sealed = BooleanAttribute(default=False)


# ----- boards: pk = "P#<village>#<board>[#<account>]", sk = "<day>#<time>#<id>" -----


class PostItem(Item, discriminator="post"):
    village_id = UnicodeAttribute()
    board = UnicodeAttribute()
    day = NumberAttribute()
    slot = UnicodeAttribute(null=True)  # None: a system post
    author = UnicodeAttribute(null=True)  # persona name at the time of writing
    text = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()


# ----- accounts -----


class AccountItem(Item, discriminator="account"):
    """pk = "A#<account>", sk = "ACCOUNT".

    Unverified, it expires (``expires_at``) a day after registration and claims no
    address: only a verified address has its EmailItem. A change of address waits in
    ``pending_email`` until the new one is verified; mail goes to the old one till then.
    """

    account_id = UnicodeAttribute()
    password_hash = UnicodeAttribute()
    email = UnicodeAttribute()
    email_verified = BooleanAttribute(default=False)
    pending_email = UnicodeAttribute(null=True)
    holds: MapAttribute[str, Any] = MapAttribute(default=dict)  # pace -> village id
    lock_until = UTCDateTimeAttribute(null=True)
    # ISO times of departures that locked
    departures: ListAttribute[str] = ListAttribute(default=list)
    preferences: MapAttribute[str, Any] = MapAttribute(default=dict)
    # How much game mail: None or "all" (every update), "mine" (what concerns me and the
    # deadlines), "none". Finer than, and on top of, ``preferences`` (docs/playing.md, "Mail a
    # member wants").
    mail_level = UnicodeAttribute(null=True)
    undeliverable = BooleanAttribute(default=False)  # SES bounce or complaint: no more mail
    # A GM (村建て, the GM's village list): set and cleared only by ``gm grant``/``gm revoke``.
    gm = BooleanAttribute(default=False)
    finished_games = NumberAttribute(default=0)  # games played to their end (ending reached)
    hosted_village = UnicodeAttribute(null=True)  # the last village this player built
    # Asked for the daily puzzle by mail (off by default); its index is PuzzleSubscriberItem.
    puzzle_mail = BooleanAttribute(default=False)
    created_at = UTCDateTimeAttribute()
    version = VersionAttribute()


class EmailItem(Item, discriminator="email"):
    """pk = "E#<case-folded email>", sk = "EMAIL": one account per verified address."""

    account_id = UnicodeAttribute()


class SessionItem(Item, discriminator="session"):
    """pk = "A#<account>", sk = "SESSION#<id>": one logged-in browser, revocable.

    ``village_id`` set: a mail link's narrow session, good only for that village's
    pages and actions until ``expires_at`` (the village's next update).
    """

    account_id = UnicodeAttribute()
    village_id = UnicodeAttribute(null=True)
    created_at = UTCDateTimeAttribute()
    reset_until = UTCDateTimeAttribute(null=True)  # opened by a login link: may set a password


class CounterItem(Item, discriminator="counter"):
    """pk = "R#<what>#<who>", sk = "<window>": a rate-limit window, expiring by TTL.

    Login throttles (sk = "LOGIN") also keep the time of the last attempt and of the one
    before it, for delays that grow with each failure.
    """

    # Shadows Model.count (a query count we never call on counters): the stored name stays.
    count = NumberAttribute(default=0)  # type: ignore[assignment]
    last_at = UTCDateTimeAttribute(null=True)
    previous_at = UTCDateTimeAttribute(null=True)


class GmLogItem(Item, discriminator="gm_log"):
    """pk = "GMLOG#<yyyy-mm>", sk = "<time>#<token>": one GM action (who, when, what), written
    in the same transaction as the action itself; never changed."""

    actor = UnicodeAttribute()  # "account:<id>", "cli:<user>" or "lambda"
    action = UnicodeAttribute()  # create | abandon | reschedule | grant | revoke
    target = UnicodeAttribute()  # the village id, or the account granted / revoked
    detail = UnicodeAttribute(null=True)  # the reason, the new time, the notice …
    at = UTCDateTimeAttribute()


# ----- mail -----


class OutboxItem(Item, discriminator="outbox"):
    """pk = "O#<village>", sk = "<day>#<kind>#<account>": one mail, sent once.

    Only which mail is owed: the text is made at send time (notify/notices.py).

    While not sent, ``gsi1pk = OUTBOX#<shard>`` lists it for the next tick (a sparse index).
    """

    village_id = UnicodeAttribute()
    day = NumberAttribute()
    mail_kind = UnicodeAttribute()
    account_id = UnicodeAttribute()
    status = UnicodeAttribute()  # pending | sending | sent
    attempts = NumberAttribute(default=0)
    claimed_at = UTCDateTimeAttribute(null=True)
    retry_at = UTCDateTimeAttribute(null=True)  # after a failed send
    sent_at = UTCDateTimeAttribute(null=True)
    created_at = UTCDateTimeAttribute()
    # A reply's receipt (kind "reply"): what the reply mail was and what became of each of
    # its lines, as JSON; the mail itself is still made at send time (services/replies.py).
    detail = UnicodeAttribute(null=True)


# ----- the daily puzzle (今日の盤面パズル) -----


class PuzzleItem(Item, discriminator="puzzle"):
    """pk = "PZ#<JST date>", sk = "PUZZLE": the day's puzzle, written once (the first
    request or the daily job; a conditioned put, so two first requests agree). The answer
    is in it: only the rule set's page of it (A's view) is ever shown before answering."""

    date = UnicodeAttribute()
    puzzle = GameAttribute()
    created_at = UTCDateTimeAttribute()


class PuzzleAnswerItem(Item, discriminator="puzzle_answer"):
    """pk = "A#<account>", sk = "PUZZLE#<JST date>": the account's one counted answer."""

    date = UnicodeAttribute()
    card = NumberAttribute()
    correct = BooleanAttribute()
    answered_at = UTCDateTimeAttribute()


class PuzzleRecordItem(Item, discriminator="puzzle_record"):
    """pk = "A#<account>", sk = "PUZZLES": solved days, the streak and the days it ends on;
    written in the answer's transaction, conditioned on its version."""

    solved = NumberAttribute(default=0)
    answered = NumberAttribute(default=0)
    streak = NumberAttribute(default=0)  # consecutive JST days solved, up to last_solved
    best_streak = NumberAttribute(default=0)
    last_solved = UnicodeAttribute(null=True)  # JST date
    last_answered = UnicodeAttribute(null=True)  # JST date
    version = VersionAttribute()


class PuzzleSubscriberItem(Item, discriminator="puzzle_subscriber"):
    """pk = "PZMAIL", sk = "<account>": an account that asked for the puzzle by mail, written
    with the account's ``puzzle_mail`` (the daily job reads this partition, no scan)."""

    account_id = UnicodeAttribute()


# ----- games played move by move: pk = "M#<id>" -----


class MatchItem(Item, discriminator="match"):
    """sk = "META": one game of two sides (a duel), its state and its clocks.

    Never in the index: the lounge cannot list it, only its link reaches it. ``moves``
    counts the moves played; every write is conditioned on it (a double tap, a stale page
    or a second browser never applies a move twice or out of turn). ``seed`` draws the
    game's chance (its deal and each move's draws, ``Random(f"{seed}:{n}")``) and is never
    shown; the computer draws from its own randomness, never from it.
    """

    match_id = UnicodeAttribute()
    rules = UnicodeAttribute()
    state = UnicodeAttribute()  # running | ended
    moves = NumberAttribute(default=0)
    seed = NumberAttribute()
    game = GameAttribute()
    # side -> "a:<account>" (signed in), "g:<guest>" (a guest session) or "cpu"
    players: MapAttribute[str, Any] = MapAttribute(default=dict)
    setup: MapAttribute[str, Any] = MapAttribute(default=dict)  # what was picked (preset, …)
    strength = UnicodeAttribute(null=True)  # the computer's, when it plays a side
    # Clocks (timecontrol.py): seconds left per side, the per-move countdown, since when the
    # side to move has been thinking, and when it loses on time (None: no clock running).
    banks: MapAttribute[str, Any] = MapAttribute(default=dict)
    byoyomi = NumberAttribute(default=0)
    turn_since = UTCDateTimeAttribute(null=True)
    flag_at = UTCDateTimeAttribute(null=True)
    created_at = UTCDateTimeAttribute()
    updated_at = UTCDateTimeAttribute()
    ended_at = UTCDateTimeAttribute(null=True)
    # Chat between two people (not part of the record): how many messages (the live poll
    # reads it) and each side's last one, as time-sortable text (the 5 s pace's condition).
    chats = NumberAttribute(default=0)
    chat_at: MapAttribute[str, Any] = MapAttribute(default=dict)
    share = UnicodeAttribute(null=True)  # the token of its shared record's link, while shared
    # A ranked game's held answer (decision 65): until ``hold_until`` the answer due now is
    # not shown to the side that asked; ``held`` is the answer given before then
    # ({"side", "move"}), played into the game only at ``hold_until``.
    hold_until = UTCDateTimeAttribute(null=True)
    held = GameAttribute(null=True)
    # A live game between two people (decision 82): the side to move and its last sign of
    # life (its page's poll or load, or its turn's start), time-sortable text; none otherwise.
    presence: MapAttribute[str, Any] = MapAttribute(null=True)
    # A ranked game's sides that have made a move (投了 is none), added by each write that
    # plays one; absent until the first (DynamoDB stores no empty set). A ranked game that
    # ends before both have is ``aborted``: unrated, no records (decision 150).
    movers = UnicodeSetAttribute(null=True)
    aborted = BooleanAttribute(null=True)


class PlayerMatchItem(Item, discriminator="player_match"):
    """pk = the player's ("A#<account>" or "G#<guest>"), sk = "MATCH#<began>#<id>": a game the
    player sits in, written with the game, so the top page finds it again (a closed tab)."""

    match_id = UnicodeAttribute()
    rules = UnicodeAttribute()
    side = UnicodeAttribute()
    setup: MapAttribute[str, Any] = MapAttribute(default=dict)
    created_at = UTCDateTimeAttribute()


class MoveItem(Item, discriminator="move"):
    """sk = "MOVE#<nnnnn>": one move, append-only (written once, never changed)."""

    match_id = UnicodeAttribute()
    number = NumberAttribute()
    side = UnicodeAttribute()
    move = GameAttribute()  # the structured move as played (RULES-DUEL §9 shapes)
    played_at = UTCDateTimeAttribute()


class PreludeItem(Item, discriminator="prelude"):
    """sk = "PRELUDE": where a what-if game (もしも, continued from a position of a game's
    review) starts: that game, the move it was continued after, its start (move 0, the deal
    as the engine made it) and its moves up to there, replayed by the engine. Written once
    with the game; the game's own moves follow, numbered from ``number`` + 1."""

    match_id = UnicodeAttribute()
    origin = UnicodeAttribute()  # the game it was continued from
    number = NumberAttribute()  # after that many of its moves
    start = GameAttribute()
    moves = GameAttribute()  # [{"side", "move"}], the first ``number`` moves


class ChatItem(Item, discriminator="chat"):
    """sk = "CHAT#<time>#<random>": one chat message of a game between two people."""

    match_id = UnicodeAttribute()
    side = UnicodeAttribute()
    text = UnicodeAttribute()
    posted_at = UTCDateTimeAttribute()


class ShareItem(Item, discriminator="share"):
    """pk = "S#<token>", sk = "SHARE": a game's shared record (棋譜), reached by its link only."""

    match_id = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()


class RecordItem(Item, discriminator="record"):
    """pk = "A#<account>", sk = "RECORD#<rules>": an account's games of one rule set, counted
    (by side, preset, opponent), its ratings and achievements, as JSON; rewritten whole by
    each game's end, in the end's transaction, conditioned on ``version`` as read."""

    account_id = UnicodeAttribute()
    rules = UnicodeAttribute()
    record = GameAttribute()
    version = NumberAttribute(default=0)


class RatingItem(Item, discriminator="rating"):
    """pk = "A#<account>", sk = "RATING#<rules>#<end>#<match>": the account's ratings after
    one ranked game (the rating history), written once with the game's end."""

    match_id = UnicodeAttribute()
    side = UnicodeAttribute()
    result = UnicodeAttribute()  # win | loss | draw
    opponent = UnicodeAttribute()
    ratings = GameAttribute()  # {"all": [mu, sigma], "<side>": [mu, sigma]} after the game
    at = UTCDateTimeAttribute()


MODELS = (
    VillageItem,
    LookItem,
    MemberItem,
    PresenceItem,
    DayItem,
    PostItem,
    AccountItem,
    EmailItem,
    SessionItem,
    GmLogItem,
    OutboxItem,
    MatchItem,
    MoveItem,
    PlayerMatchItem,
    ChatItem,
    PreludeItem,
    ShareItem,
    PuzzleItem,
    PuzzleAnswerItem,
    PuzzleRecordItem,
    PuzzleSubscriberItem,
    RecordItem,
    RatingItem,
)
