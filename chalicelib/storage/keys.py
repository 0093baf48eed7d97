"""Every key of the one table, in one place (docs/access-patterns.md)."""

import hashlib
import re
from datetime import UTC, datetime

# The index's busy keys (villages by state, due looks, owed mail) are each spread over this
# many partitions by a stable hash of the village id, so 10,000 villages stepping in the same
# minute do not all write one index partition (docs/decisions.md 53).
SHARDS = 16
LOOK_SK = "LOOK"


def village_pk(village_id: str) -> str:
    return f"V#{village_id}"


def day_sk(day: int) -> str:
    return f"DAY#{day:03d}"


# A village's hot read is the range ``sk >= OPEN_FROM``: the open day, META and the members.
# A sealed day moves below it (``archived_day_sk``), and presences sort below it too, so the
# read does not grow with the days played (docs/decisions.md 60).
OPEN_FROM = "DAY#"
ARCHIVE_PREFIX = "ARCHIVE#"
PRESENCE_PREFIX = "ACCOUNT#"


def archived_day_sk(day: int) -> str:
    """A sealed day, read only by what needs past days (the full record, past-day tabs)."""
    return f"{ARCHIVE_PREFIX}{day:03d}"


def slot_sk(slot: str) -> str:
    return f"SLOT#{slot}"


def presence_sk(account_id: str) -> str:
    return f"{PRESENCE_PREFIX}{account_id}"


def account_pk(account_id: str) -> str:
    return f"A#{account_id}"


def session_sk(session_id: str) -> str:
    return f"SESSION#{session_id}"


def email_pk(email: str) -> str:
    return f"E#{email}"


def shard_of(village_id: str) -> int:
    """A village's index shard: the same in every process (Python's ``hash`` is not)."""
    return int(hashlib.sha256(village_id.encode()).hexdigest()[:8], 16) % SHARDS


def state_key(state: str, village_id: str) -> str:
    """The lounge's index partition of a village in ``state``."""
    return f"STATE#{state}#{shard_of(village_id)}"


def state_keys(state: str) -> list[str]:
    return [f"STATE#{state}#{n}" for n in range(SHARDS)]


def state_sk(moment: datetime, village_id: str) -> str:
    """The lounge's order: by next update (closed: by close time), then by id, so that one
    sort key marks a place in the merged shards."""
    return f"{time_key(moment)}#{village_id}"


_STATE_SK = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z#\w{1,64}")


def is_state_sk(value: str) -> bool:
    """Whether ``value`` is a lounge sort key (a page cursor names one)."""
    return _STATE_SK.fullmatch(value) is not None


def look_key(village_id: str) -> str:
    """The due-look index partition of an active village's LOOK item."""
    return f"LOOK#{shard_of(village_id)}"


def look_keys() -> list[str]:
    return [f"LOOK#{n}" for n in range(SHARDS)]


def outbox_index_key(village_id: str) -> str:
    """The index partition listing a village's owed mail until it is sent."""
    return f"OUTBOX#{shard_of(village_id)}"


def outbox_index_keys() -> list[str]:
    return [f"OUTBOX#{n}" for n in range(SHARDS)]


TIME_KEY = "%Y-%m-%dT%H:%M:%S.%fZ"


def time_key(moment: datetime) -> str:
    """Sortable UTC text for index sort keys (an aware time in any zone is converted first:
    classic deadlines are computed in JST)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime(TIME_KEY)


def key_time(key: str) -> datetime:
    """The moment a ``time_key`` (or a key beginning with one) names."""
    return datetime.strptime(key[:27], TIME_KEY).replace(tzinfo=UTC)


def board_pk(village_id: str, board: str, account_id: str | None = None) -> str:
    """A board's partition; each member's personal board (心の中) is its own."""
    return f"P#{village_id}#{board}" + (f"#{account_id}" if account_id else "")


def post_sk_prefix(day: int) -> str:
    return f"{day:03d}#"


def outbox_pk(village_id: str) -> str:
    return f"O#{village_id}"


def outbox_sk(day: int, kind: str, account_id: str) -> str:
    return f"{day:03d}#{kind}#{account_id}"


def outbox_index_sk(moment: datetime, village_id: str) -> str:
    return f"{time_key(moment)}#{village_id}"


def gm_log_pk(moment: datetime) -> str:
    """The GM's log, a partition a month (GM actions are few)."""
    return f"GMLOG#{moment.astimezone(UTC):%Y-%m}"


# Counters: rate-limit windows, throttles, used links, sequences, the scheduler's claims.
VILLAGE_SEQUENCE = ("SEQ#village", "SEQ")


def login_pair_pk(account_id: str, source: str) -> str:
    return f"R#login#pair#{account_id}#{source[:64]}"


def login_source_pk(source: str) -> str:
    return f"R#login#source#{source[:64]}"


def mail_limit_pk(what: str, who: str) -> str:
    """``what``: address, account or source."""
    return f"R#mail#{what}#{who[:64] if what == 'source' else who}"


def login_mail_limit_pk(what: str, who: str) -> str:
    """Login links by mail, counted apart from other account mail: ``what`` address or account."""
    return f"R#login-mail#{what}#{who}"


def quick_link_pk(link: str) -> str:
    """A one-tap mail link that set its choice (by the hash of the link as decoded)."""
    return f"R#quick-link#{hashlib.sha256(link.encode()).hexdigest()[:32]}"


def login_link_pk(nonce: str) -> str:
    return f"R#login-link#{nonce}"


def auto_village_pk(hour: str) -> str:
    return f"AUTO#long#{hour}"


# ----- games played move by move: pk = "M#<id>" (never in the lounge's index) -----

MATCH_SK = "META"
MOVE_PREFIX = "MOVE#"


def match_pk(match_id: str) -> str:
    return f"M#{match_id}"


def move_sk(number: int) -> str:
    """A move's place in its game, counted from 1 (the game's ``moves`` after it)."""
    return f"{MOVE_PREFIX}{number:05d}"


CHAT_PREFIX = "CHAT#"
SHARE_SK = "SHARE"
# A what-if game's (もしも) first moves: the game it was continued from, up to where.
PRELUDE_SK = "PRELUDE"


def share_pk(token: str) -> str:
    """A shared record's link (棋譜を共有): its random token is the key."""
    return f"S#{token}"


def chat_sk(at: datetime, token: str) -> str:
    """A chat message's place in its game, oldest first."""
    return f"{CHAT_PREFIX}{time_key(at)}#{token}"


PLAYER_MATCH_PREFIX = "MATCH#"
# The index partition of public rooms (「ルームに参加」): games whose other seat waits for anyone.
# One partition, not sharded: rooms are few and each is listed only while it waits.
ROOMS_INDEX = "ROOMS"


def room_index_sk(created: datetime, match_id: str) -> str:
    return f"{time_key(created)}#{match_id}"


def player_pk(player: str) -> str:
    """Where a player's games are listed: an account's partition (``a:<id>``), or a guest's
    (``g:<id>``)."""
    kind, _, who = player.partition(":")
    return account_pk(who) if kind == "a" else f"G#{who}"


def player_match_sk(created: datetime, match_id: str) -> str:
    """A player's games, oldest first by when they began."""
    return f"{PLAYER_MATCH_PREFIX}{time_key(created)}#{match_id}"


# ----- an account's records of games played move by move (戦績・実績): pk = "A#<account>" -----

RECORD_PREFIX = "RECORD#"
RATING_PREFIX = "RATING#"


def record_sk(rules: str) -> str:
    """An account's aggregate of one rule set's games (counts, ratings, achievements)."""
    return f"{RECORD_PREFIX}{rules}"


def rating_sk(rules: str, at: datetime, match_id: str) -> str:
    """One ranked game's ratings after it, oldest first by the game's end."""
    return f"{RATING_PREFIX}{rules}#{time_key(at)}#{match_id}"


def rating_prefix(rules: str) -> str:
    return f"{RATING_PREFIX}{rules}#"


# ----- the daily puzzle: pk = "PZ#<JST date>"; an account's answers and record in its own -----

PUZZLE_SK = "PUZZLE"
PUZZLE_RECORD_SK = "PUZZLES"
PUZZLE_MAIL_PK = "PZMAIL"  # the accounts that asked for the puzzle by mail, sk = the account


def puzzle_pk(date: str) -> str:
    return f"PZ#{date}"


def puzzle_answer_sk(date: str) -> str:
    return f"PUZZLE#{date}"


def puzzle_mail_owner(date: str) -> str:
    """The outbox partition of a day's puzzle mail (one item per subscribed account)."""
    return f"PZ:{date}"
