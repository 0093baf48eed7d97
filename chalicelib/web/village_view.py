"""What one village page shows a viewer: the boards read here, the game's part from the
village's rule set (which alone decides what the viewer may know)."""

from datetime import datetime
from typing import Any

from msgspec import Struct

from .. import membership
from ..personas import CHARACTER_SETS
from ..rulesets.base import State, Viewer
from ..services import posts, villages
from ..storage.repository import VillageRecord
from ..storage.villages import Post
from . import board_view

# Posts of one board and day read for one page: in practice the whole day (DynamoDB also
# stops at 1 MB a query; the rest is then on the next page).
DAY_PAGE = 500


class Asked(Struct, frozen=True):
    """What the page's address asks for; ``build`` keeps each part within what the viewer
    may see (a board it may not read, a day past the game's, an unknown speaker fall back)."""

    board: str | None = None
    day: int | None = None
    cursor: str | None = None
    inner_of: str | None = None  # whose personal board, by slot (every log open)
    first: int = 1  # the number of the page's first post (pages after the first)
    speaker: str | None = None  # show only that character's posts


OPENING = Asked()  # a page as it opens: the public board, today, its first posts


class _BoardPage(Struct, frozen=True):
    """The board and day shown, and its posts as read."""

    board: str
    day: int
    inner_slot: str | None  # whose personal board, when every log is open
    page: posts.PostsPage


def build(
    record: VillageRecord, viewer: Viewer, now: datetime, asked: Asked = OPENING
) -> dict[str, Any]:
    """The village page's context."""
    rules = record.rules
    seats = record.seats()
    readable = rules.readable_boards(record, viewer, now)
    read = _board_page(record, viewer, now, asked, readable)
    speaker = asked.speaker if asked.speaker in seats else None
    traces = posts.traces(record, read.board)
    shown = _shown_posts(record, viewer, now, read, asked.first, speaker, traces)
    unread = [p for p in shown if p.unread]
    context: dict[str, Any] = {
        **rules.page(record, viewer, now, read.day),
        "village": record.village,
        "state": record.state.value,
        "day": record.day,
        "shown_day": read.day,
        "days": list(range(record.day + 1)),
        "boards": readable,
        "board": read.board,
        "inner_slot": read.inner_slot,
        "posts": shown,
        "cursor": read.page.cursor,
        "next_first": asked.first
        + sum(1 for item in read.page.posts if not board_view.is_trace(item, traces)),
        "speaker": speaker,
        "speakers": [
            s
            for s in seats
            if any(board_view.spoken_by(p, s, seats[s].name) for p in read.page.posts)
        ],
        "first_unread": unread[0].n if unread else None,
        "unread_count": len(unread),
        "viewer": viewer,
        **_writing(record, viewer, now),
    }
    if record.state in (State.OPENING, State.RUNNING):
        context |= _seats_open(record)
    return context


def _board_page(
    record: VillageRecord, viewer: Viewer, now: datetime, asked: Asked, readable: list[str]
) -> _BoardPage:
    """The board asked for if the viewer may read it (else the public one), on the day asked
    for within the game's, read a page at a time."""
    rules = record.rules
    board = asked.board if asked.board in readable else rules.public_board
    day = record.day if asked.day is None else max(0, min(asked.day, record.day))
    if rules.personal_board(board) and rules.others_personal_boards_open(record, viewer, now):
        # Every log is open (RULES §8): any character's personal board, chosen by slot.
        seats = record.seats()
        slot = asked.inner_of if asked.inner_of in seats else (viewer.slot or next(iter(seats)))
        page = _inner_page(record, viewer, board, slot, day, now, asked.cursor)
        return _BoardPage(board, day, slot, page)
    page = posts.read(record, viewer, board, day, now, asked.cursor, limit=DAY_PAGE)
    return _BoardPage(board, day, None, page)


def _shown_posts(
    record: VillageRecord,
    viewer: Viewer,
    now: datetime,
    read: _BoardPage,
    first: int,
    speaker: str | None,
    traces: frozenset[str],
) -> list[board_view.ShownPost]:
    """The page's posts as the board shows them: numbered, anchored, marked unread."""
    seats = record.seats()
    of = f"&of={read.inner_slot}" if read.inner_slot else ""

    def anchor_url(day_: int, n: int) -> str:
        return f"?board={read.board}{of}&day={day_}#p{n}"

    # Unread: what others wrote since the member's previous visit (its recorded access and
    # its posts and saves, read with the village: no request of their own).
    since = (
        membership.unread_since(seats[viewer.slot], record.recent_saves(), now)
        if viewer.slot
        else None
    )
    return board_view.shown_posts(
        read.page.posts,
        board_view.Numbering(first, read.day, record.day, anchor_url, read.page.cursor is not None),
        since=since,
        own_slot=viewer.slot,
        speaker=(speaker, seats[speaker].name) if speaker else None,
        traces=traces,
    )


def _writing(record: VillageRecord, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """Where the viewer may write, and why not; whether it may leave; its bans still on."""
    rules = record.rules
    refusals = {b: rules.write_refusal(record, viewer, b, now) for b in rules.boards()}
    writable = [b for b in rules.boards() if refusals[b] is None]
    bans = record.seats()[viewer.slot].bans if viewer.slot else None
    return {
        "writable": writable,
        # With no board open to the viewer, say why (the public board's reason).
        "write_refusal": None if writable else refusals[rules.public_board],
        "can_leave": viewer.slot is not None
        and villages.leave_refusal(record, viewer.slot) is None,
        "speech_ban_until": bans.speech_until
        if bans and bans.speech_until and bans.speech_until > now
        else None,
        "public_ban_until": bans.public_until
        if bans and bans.public_until and bans.public_until > now
        else None,
    }


def _seats_open(record: VillageRecord) -> dict[str, Any]:
    """The seats a newcomer may take, and the personas still free to choose."""
    seats = record.seats()
    taken = {s.persona for s in seats.values() if s.account_id is not None}
    dead = record.dead()
    return {
        "free_slots": [
            slot for slot, seat in seats.items() if seat.account_id is None and slot not in dead
        ],
        "personas": [p for p in CHARACTER_SETS[record.village.character_set] if p.key not in taken],
    }


def _inner_page(
    record: VillageRecord,
    viewer: Viewer,
    board: str,
    slot: str,
    day: int,
    now: datetime,
    cursor: str | None,
) -> posts.PostsPage:
    """The personal boards of everyone who played ``slot`` (the logs are open)."""
    owners = [p.account_id for p in record.presences.values() if p.slot == slot]
    if len(owners) == 1:
        return posts.read(record, viewer, board, day, now, cursor, inner_of=owners[0])
    # A slot played by several accounts in turn: their boards merged, one page each.
    merged = [
        item
        for owner in owners
        for item in posts.read(record, viewer, board, day, now, inner_of=owner).posts
    ]
    return posts.PostsPage(sorted(merged, key=lambda item: item.key), None)


def _without_traces_of_shown(
    record: VillageRecord, readable: list[str], read: list[tuple[str, list[Post]]]
) -> list[tuple[str, list[Post]]]:
    """A howl's nameless trace on the public board (classic) is dropped where the howl itself
    is shown: it is the same post."""
    for board in readable:
        trace = record.rules.shadow_board(board)
        if trace is None:
            continue
        source = {item.created_at for b, items in read if b == board for item in items}
        read = [
            (b, [i for i in items if i.slot or i.text != trace[1] or i.created_at not in source])
            if b == trace[0]
            else (b, items)
            for b, items in read
        ]
    return read


class LogEntry(Struct, frozen=True):
    board: str
    post: board_view.ShownPost


def build_log(record: VillageRecord, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """The combined log (decision 52): every day, every board the viewer may read, each post
    numbered as on its board's page, the day's posts of all boards in the order written."""
    rules = record.rules
    readable = rules.readable_boards(record, viewer, now)
    others_open = rules.others_personal_boards_open(record, viewer, now)
    # Each board's posts; a personal board, each owner's apart (numbered apart, as on its page).
    read: list[tuple[str, list[Post]]] = []
    for board in readable:
        if not rules.personal_board(board):
            read.append((board, posts.read_whole(record, viewer, board, now)))
            continue
        own = [viewer.account_id] if viewer.account_id else []
        owners = sorted({p.account_id for p in record.presences.values()}) if others_open else own
        read += [(board, posts.read_whole(record, viewer, board, now, inner_of=o)) for o in owners]
    read = _without_traces_of_shown(record, readable, read)
    game_day = record.day
    days: dict[int, list[LogEntry]] = {d: [] for d in range(game_day + 1)}
    for board, items in read:
        by_day: dict[int, list[Post]] = {}
        for item in items:
            by_day.setdefault(int(item.day), []).append(item)
        for day, day_items in by_day.items():

            def url(day_: int, n: int, board_: str = board) -> str:
                return f"/villages/{record.village_id}?board={board_}&day={day_}#p{n}"

            shown = board_view.shown_posts(
                day_items,
                board_view.Numbering(1, day, game_day, url),
                since=None,
                own_slot=viewer.slot,
                speaker=None,
                traces=posts.traces(record, board),
            )
            days.setdefault(day, []).extend(LogEntry(board, p) for p in shown)
    for entries in days.values():
        entries.sort(key=lambda e: (e.post.item.created_at, e.post.item.key))
    return {
        **rules.page(record, viewer, now, game_day),
        "village": record.village,
        "state": record.state.value,
        "day": game_day,
        "log_days": [{"day": d, "entries": days[d]} for d in sorted(days)],
        "viewer": viewer,
    }
