"""What one village page shows a viewer, built only from what visibility allows."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..labels import SLOT_LABELS
from ..personas import CHARACTER_SETS
from ..rules import CHOICE_KEYS, SLOTS
from ..services import actions, posts
from ..storage.repository import VillageRecord, plain
from ..timeline import TIMINGS, Pace, State, deadline_of
from ..visibility import (
    OPEN_PHASES,
    Board,
    Viewer,
    full_record,
    private,
    public_deaths,
    readable_boards,
    sides_shown,
    write_refusal,
)
from . import board_view

# Posts of one board and day read for one page: in practice the whole day (DynamoDB also
# stops at 1 MB a query; the rest is then on the next page).
DAY_PAGE = 500

# The order and wording of the action form (この内容で行動).
CHOICE_LABELS = {
    "pray": "祈り",
    "divine": "占い",
    "guard": "警備",
    "assassinate": "暗殺（一度きり）",
    "attack": "襲撃先",
    "attacker": "実行犯",
    "dm": "偽のダイイングメッセージ",
    "victory": "勝利宣言（安全策の指名）",
    "resign": "投了（安全策の指名）",
    "force": "強制裁き",
}


@dataclass(frozen=True)
class Member:
    slot: str
    label: str
    name: str
    vacant: bool
    death: str | None  # ash | corpse (public)
    death_day: int | None
    side: str | None  # only when the viewer may know it


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
    meta = record.meta
    game = record.game
    phase = posts.phase_of(record, now)
    readable = readable_boards(game, phase, viewer)
    chosen_board = Board(board) if board in {b.value for b in readable} else Board.PUBLIC
    shown_day = game.day if day is None else max(0, min(day, game.day))
    inner_slot = None
    if chosen_board is Board.INNER and phase in OPEN_PHASES:
        # Every log is open (RULES §8): any character's inner board, chosen by slot.
        inner_slot = inner_of if inner_of in SLOTS else (viewer.slot or SLOTS[0])
        page = _inner_page(record, viewer, inner_slot, shown_day, now, cursor)
    else:
        page = posts.read(record, viewer, chosen_board, shown_day, now, cursor, limit=DAY_PAGE)
    of = f"&of={inner_slot}" if inner_slot else ""

    def anchor_url(day_: int, n: int) -> str:
        return f"?board={chosen_board.value}{of}&day={day_}#p{n}"

    # Unread: what others wrote since the member's previous visit (its recorded access,
    # read with the village: no request of its own).
    since = record.members[viewer.slot].last_access if viewer.slot else None
    speaker = speaker if speaker in SLOTS else None
    shown = board_view.shown_posts(
        page.posts,
        first=first,
        day=shown_day,
        last_day=game.day,
        url=anchor_url,
        since=since,
        own_slot=viewer.slot,
        speaker=speaker,
        more=page.cursor is not None,
    )
    unread = [p for p in shown if p.unread]
    sides = sides_shown(game, phase, viewer)
    deaths = {
        slot: (kind, morning_day)
        for morning_day, dead in public_deaths(game).items()
        for slot, kind in dead.items()
    }
    names = {
        slot: posts.display_name(meta.character_set, member)
        for slot, member in record.members.items()
    }
    members = [
        Member(
            slot=slot,
            label=SLOT_LABELS[slot],
            name=names[slot],
            vacant=record.members[slot].account_id is None,
            death=deaths.get(slot, (None, None))[0],
            death_day=deaths.get(slot, (None, None))[1],
            side=sides.get(slot),
        )
        for slot in SLOTS
    ]
    bans = posts.bans_of(record, viewer.slot)
    refusals = {b.value: write_refusal(game, phase, viewer, b, bans, now) for b in Board}
    writable = [b.value for b in Board if refusals[b.value] is None]
    state = State(meta.state)
    saved = {d: plain(item.choices) for d, item in record.days.items()}
    chronicle = full_record(game, phase, saved)
    context: dict[str, Any] = {
        "village": meta,
        "state": state.value,
        "phase": phase.value,
        "day": game.day,
        "shown_day": shown_day,
        "days": list(range(game.day + 1)),
        "deadline": deadline_of(Pace(meta.pace), meta.day_started_at)
        if state is State.RUNNING
        else None,
        "loss_time_end": deadline_of(Pace(meta.pace), meta.day_started_at)
        + TIMINGS[Pace(meta.pace)].loss_time
        if state is State.RUNNING
        else None,
        "members": members,
        "names": names,
        "boards": [b.value for b in readable],
        "board": chosen_board.value,
        "inner_slot": inner_slot,
        "posts": shown,
        "cursor": page.cursor,
        "next_first": first + len(page.posts),
        "speaker": speaker,
        "speakers": [s for s in SLOTS if any(p.slot == s for p in page.posts)],
        "first_unread": unread[0].n if unread else None,
        "unread_count": len(unread),
        "writable": writable,
        # With no board open to the viewer, say why (the public board's reason).
        "write_refusal": None if writable else refusals[Board.PUBLIC.value],
        "viewer": viewer,
        "private": private(game, viewer),
        "ending": game.ending,
        "speech_ban_until": bans.speech_until
        if bans.speech_until and bans.speech_until > now
        else None,
        "public_ban_until": bans.public_until
        if bans.public_until and bans.public_until > now
        else None,
        "form": None,
        # The full record (全記録) of the day shown; None until every log is open.
        "record": chronicle[shown_day] if chronicle is not None else None,
    }
    if viewer.slot is not None and state is State.RUNNING:
        context["form"] = action_form(record, viewer)
        context["oni_votes"] = {
            slot: votes
            for slot, votes in actions.visible_choices(record, viewer, game.day).items()
            if slot != viewer.slot
        }
    if state in (State.OPENING, State.RUNNING):
        taken = {m.persona for m in record.members.values() if m.account_id is not None}
        context["free_slots"] = [
            slot
            for slot in SLOTS
            if record.members[slot].account_id is None and slot not in game.deaths
        ]
        context["personas"] = [p for p in CHARACTER_SETS[meta.character_set] if p.key not in taken]
    return context


def _inner_page(
    record: VillageRecord,
    viewer: Viewer,
    slot: str,
    day: int,
    now: datetime,
    cursor: str | None,
) -> posts.PostsPage:
    """The inner boards of everyone who played ``slot`` (the logs are open)."""
    owners = [p.account_id for p in record.presences.values() if p.slot == slot]
    if len(owners) == 1:
        return posts.read(record, viewer, Board.INNER, day, now, cursor, inner_of=owners[0])
    # A slot played by several accounts in turn: their boards merged, one page each.
    merged = [
        item
        for owner in owners
        for item in posts.read(record, viewer, Board.INNER, day, now, inner_of=owner).posts
    ]
    return posts.PostsPage(sorted(merged, key=lambda item: item.sk), None)


def action_form(record: VillageRecord, viewer: Viewer) -> list[dict[str, Any]]:
    """Each choice the member has now, its legal targets, and the saved value preselected."""
    game = record.game
    saved = actions.visible_choices(record, viewer, game.day).get(viewer.slot, {})
    rows = []
    for key in CHOICE_KEYS:
        targets = game.legal_targets(viewer.slot, key)
        if targets:
            rows.append(
                {
                    "key": key,
                    "label": CHOICE_LABELS[key],
                    "targets": targets,
                    "selected": saved.get(key),
                }
            )
    return rows
