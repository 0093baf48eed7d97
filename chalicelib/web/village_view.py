"""What one village page shows a viewer: the boards read here, the game's part from the
village's rule set (which alone decides what the viewer may know)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

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


def build(
    record: VillageRecord,
    viewer: Viewer,
    now: datetime,
    board: str | None,
    day: int | None,
    cursor: str | None,
    inner_of: str | None = None,
    first: int = 1,
    speaker: str | None = None,
) -> dict[str, Any]:
    """The village page's context. ``first``: the number of the page's first post (pages
    after the first); ``speaker``: show only that character's posts."""
    rules = record.rules
    game_day = record.day
    seats = record.seats()
    order = list(seats)
    readable = rules.readable_boards(record, viewer, now)
    chosen_board = board if board in readable else rules.public_board
    shown_day = game_day if day is None else max(0, min(day, game_day))
    inner_slot = None
    if rules.personal_board(chosen_board) and rules.others_personal_boards_open(
        record, viewer, now
    ):
        # Every log is open (RULES §8): any character's personal board, chosen by slot.
        inner_slot = inner_of if inner_of in seats else (viewer.slot or order[0])
        page = _inner_page(record, viewer, chosen_board, inner_slot, shown_day, now, cursor)
    else:
        page = posts.read(record, viewer, chosen_board, shown_day, now, cursor, limit=DAY_PAGE)
    of = f"&of={inner_slot}" if inner_slot else ""

    def anchor_url(day_: int, n: int) -> str:
        return f"?board={chosen_board}{of}&day={day_}#p{n}"

    # Unread: what others wrote since the member's previous visit (its recorded access and
    # its posts and saves, read with the village: no request of their own).
    since = (
        membership.unread_since(seats[viewer.slot], record.recent_saves(), now)
        if viewer.slot
        else None
    )
    speaker = speaker if speaker in seats else None
    traces = posts.traces(record, chosen_board)
    shown = board_view.shown_posts(
        page.posts,
        first=first,
        day=shown_day,
        last_day=game_day,
        url=anchor_url,
        since=since,
        own_slot=viewer.slot,
        speaker=(speaker, seats[speaker].name) if speaker else None,
        more=page.cursor is not None,
        traces=traces,
    )
    unread = [p for p in shown if p.unread]
    refusals = {b: rules.write_refusal(record, viewer, b, now) for b in rules.boards()}
    writable = [b for b in rules.boards() if refusals[b] is None]
    state = record.state
    bans = seats[viewer.slot].bans if viewer.slot else None
    context: dict[str, Any] = {
        **rules.page(record, viewer, now, shown_day),
        "village": record.meta,
        "state": state.value,
        "day": game_day,
        "shown_day": shown_day,
        "days": list(range(game_day + 1)),
        "boards": readable,
        "board": chosen_board,
        "inner_slot": inner_slot,
        "posts": shown,
        "cursor": page.cursor,
        "next_first": first
        + sum(1 for item in page.posts if not board_view.is_trace(item, traces)),
        "speaker": speaker,
        "speakers": [
            s for s in order if any(board_view.spoken_by(p, s, seats[s].name) for p in page.posts)
        ],
        "first_unread": unread[0].n if unread else None,
        "unread_count": len(unread),
        "writable": writable,
        # With no board open to the viewer, say why (the public board's reason).
        "write_refusal": None if writable else refusals[rules.public_board],
        "viewer": viewer,
        "can_leave": viewer.slot is not None
        and villages.leave_refusal(record, viewer.slot) is None,
        "speech_ban_until": bans.speech_until
        if bans and bans.speech_until and bans.speech_until > now
        else None,
        "public_ban_until": bans.public_until
        if bans and bans.public_until and bans.public_until > now
        else None,
    }
    if state in (State.OPENING, State.RUNNING):
        taken = {s.persona for s in seats.values() if s.account_id is not None}
        dead = record.dead()
        context["free_slots"] = [
            slot for slot in order if seats[slot].account_id is None and slot not in dead
        ]
        context["personas"] = [
            p for p in CHARACTER_SETS[record.meta.character_set] if p.key not in taken
        ]
    return context


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


@dataclass(frozen=True)
class LogEntry:
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
    # A howl's nameless trace on the public board (classic) is dropped where the howl itself
    # is shown: it is the same post.
    for board in readable:
        trace = rules.shadow_board(board)
        if trace is None:
            continue
        source = {item.created_at for b, items in read if b == board for item in items}
        read = [
            (b, [i for i in items if i.slot or i.text != trace[1] or i.created_at not in source])
            if b == trace[0]
            else (b, items)
            for b, items in read
        ]
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
                first=1,
                day=day,
                last_day=game_day,
                url=url,
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
        "village": record.meta,
        "state": record.state.value,
        "day": game_day,
        "log_days": [{"day": d, "entries": days[d]} for d in sorted(days)],
        "viewer": viewer,
    }
