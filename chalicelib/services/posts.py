"""Boards: posting with exactly the permissions of the village's rule set, reading by keys."""

from datetime import datetime

from msgspec import Struct

from ..rulesets.base import Viewer
from ..storage import villages as store
from ..storage.errors import Refused
from ..storage.keys import board_pk, post_sk_prefix
from ..storage.repository import VillageRecord
from ..storage.villages import Post
from .errors import Forbidden, InvalidInput, RateLimited
from .paging import decode_cursor, encode_cursor
from .unit import Unit

MAX_POST = 1000
PAGE = 50


def names_of(record: VillageRecord) -> dict[str, str]:
    """Every character's display name, by slot: how pages, mail and reports name them."""
    return record.names()


def viewer_of(record: VillageRecord, account_id: str | None) -> Viewer:
    slot = record.slot_of(account_id)
    return Viewer(account_id=account_id if slot else None, slot=slot)


def traces(record: VillageRecord, board: str) -> frozenset[str]:
    """The texts other boards leave on ``board`` as nameless traces (classic howls): shown
    without a number, never counted."""
    rules = record.rules
    found = (rules.shadow_board(b) for b in rules.boards())
    return frozenset(trace[1] for trace in found if trace is not None and trace[0] == board)


def post(
    village_id: str,
    account_id: str | None,
    board: str,
    text: str,
    now: datetime,
    unit: Unit | None = None,
    seen: datetime | None = None,
) -> Post:
    """Writes one post; refused with the reason when the rules do not allow it.

    ``seen``: when the page it was written on was shown, as that page's form says: the
    member's last visit (decision 66), if later than the one recorded and not in the future."""
    record = (unit or Unit()).require(village_id)
    rules = record.rules
    if board not in rules.boards():
        raise InvalidInput("その掲示板はありません")
    if not text.strip():
        raise InvalidInput("本文を書いてください")
    if len(text) > MAX_POST:
        raise InvalidInput(f"1回の発言は{MAX_POST}文字までです（いま{len(text)}文字）")
    viewer = viewer_of(record, account_id)
    refusal = rules.write_refusal(record, viewer, board, now)
    if refusal:
        raise Forbidden(refusal)
    assert viewer.slot is not None and account_id is not None
    written = store.new_post(
        village_id,
        board,
        record.day,
        text,
        now,
        slot=viewer.slot,
        author=record.seats()[viewer.slot].name,
        owner=account_id if rules.personal_board(board) else None,
    )
    shadow = None
    trace = rules.shadow_board(board)
    if trace is not None:  # classic howls and whispers: a nameless entry on the public board
        shadow = store.new_post(village_id, trace[0], record.day, trace[1], now)
    visited = record.seats()[viewer.slot].last_access
    if seen is not None and (seen > now or (visited is not None and seen <= visited)):
        seen = None
    try:
        store.add_post(record, written, viewer.slot, account_id, now, shadow, seen)
    except Refused as error:
        raise RateLimited("連続して書き込めません。少し待ってからどうぞ") from error
    return written


def read_whole(
    record: VillageRecord,
    viewer: Viewer,
    board: str,
    now: datetime,
    inner_of: str | None = None,
) -> list[Post]:
    """One board's posts of every day, oldest first (the combined log), asked as ``read``."""
    return store.read_whole_board(_readable_partition(record, viewer, board, now, inner_of))


def _readable_partition(
    record: VillageRecord, viewer: Viewer, board: str, now: datetime, inner_of: str | None
) -> str:
    """The partition of ``board`` (``inner_of``'s personal one) if the viewer may read it."""
    rules = record.rules
    if board not in rules.boards():
        raise InvalidInput("その掲示板はありません")
    if board not in rules.readable_boards(record, viewer, now):
        raise Forbidden("この掲示板は読めません")
    personal = rules.personal_board(board)
    owner = viewer.account_id
    if personal and inner_of is not None and inner_of != owner:
        if not rules.others_personal_boards_open(record, viewer, now):
            raise Forbidden("この掲示板は読めません")
        owner = inner_of
    if personal and owner is None:
        raise Forbidden("この掲示板は読めません")
    return board_pk(record.village_id, board, owner if personal else None)


class PostsPage(Struct, frozen=True):
    posts: list[Post]
    cursor: str | None


def read(
    record: VillageRecord,
    viewer: Viewer,
    board: str,
    day: int,
    now: datetime,
    cursor: str | None = None,
    limit: int = PAGE,
    inner_of: str | None = None,
) -> PostsPage:
    """One board's posts of one day, oldest first; only a board the viewer may read.

    The board's partition key holds exactly what may be read, so nothing is
    fetched to be hidden. ``inner_of``: whose personal board (another member's is
    readable only once the rule set opens every log).
    """
    partition = _readable_partition(record, viewer, board, now, inner_of)
    prefix = post_sk_prefix(day)
    start = decode_cursor(cursor, {"pk": partition.__eq__, "sk": lambda sk: sk.startswith(prefix)})
    page = store.read_board(partition, day, limit, start)
    return PostsPage(page.items, encode_cursor(page.last_key))
