"""Boards (RULES §8): posting with exactly the permissions of the rules, reading by keys."""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from pynamodb.exceptions import TransactWriteError

from ..labels import SLOT_LABELS
from ..personas import persona
from ..rules import Village
from ..storage.db import ensure_configured, transaction
from ..storage.models import MemberItem, PostItem
from ..storage.repository import VillageRecord, board_pk, load_village, post_sk_prefix, time_key
from ..timeline import Pace, State, phase_at
from ..visibility import Bans, Board, Viewer, readable_boards, write_refusal
from .errors import Forbidden, InvalidInput, NotFound, RateLimited
from .paging import decode_cursor, encode_cursor

MAX_POST = 1000
POST_INTERVAL = timedelta(seconds=5)  # one post per member per 5 s
PAGE = 50


def display_name(character_set: str, member: MemberItem) -> str:
    """「占い師A 楓」: the job and, once chosen, the persona."""
    chosen = persona(character_set, member.persona) if member.persona else None
    label = SLOT_LABELS[member.slot]
    return f"{label} {chosen.name}" if chosen else label


def names_of(record: VillageRecord) -> dict[str, str]:
    """Every character's display name, by slot: how pages, mail and reports name them."""
    return {
        slot: display_name(record.meta.character_set, member)
        for slot, member in record.members.items()
    }


def _post(
    village_id: str,
    board: Board,
    day: int,
    text: str,
    now: datetime,
    *,
    slot: str | None = None,
    author: str | None = None,
    account_id: str | None = None,
) -> PostItem:
    # The random suffix keeps two posts of the same microsecond apart.
    sk = f"{post_sk_prefix(day)}{time_key(now)}#{secrets.token_hex(4)}"
    return PostItem(
        board_pk(village_id, board, account_id if board is Board.INNER else None),
        sk,
        village_id=village_id,
        board=board.value,
        day=day,
        slot=slot,
        author=author,
        text=text,
        created_at=now,
    )


def system(village_id: str, day: int, text: str, now: datetime) -> PostItem:
    """A system post on the public board (deaths, day starts, the ending)."""
    return _post(village_id, Board.PUBLIC, day, text, now)


def oni_world_random_targets(village_id: str, game: Village, now: datetime) -> PostItem:
    """The seers' day-0 random targets, shown in the oni world from creation (RULES §2.1)."""
    lines = [
        f"{SLOT_LABELS[seer]}の初日ランダム占い先は{SLOT_LABELS[target]}です。"
        for seer, target in game.random_targets.items()
    ]
    return _post(village_id, Board.ONI, 0, "\n".join(lines), now)


def viewer_of(record: VillageRecord, account_id: str | None) -> Viewer:
    slot = record.slot_of(account_id)
    return Viewer(account_id=account_id if slot else None, slot=slot)


def phase_of(record: VillageRecord, now: datetime):
    meta = record.meta
    return phase_at(State(meta.state), Pace(meta.pace), meta.day_started_at, now)


def bans_of(record: VillageRecord, slot: str | None) -> Bans:
    if slot is None:
        return Bans()
    member = record.members[slot]
    return Bans(speech_until=member.speech_ban_until, public_until=member.public_ban_until)


def post(village_id: str, account_id: str | None, board: str, text: str, now: datetime) -> PostItem:
    """Writes one post; refused with the reason when the rules do not allow it."""
    try:
        board_ = Board(board)
    except ValueError:
        raise InvalidInput("その掲示板はありません") from None
    if not text.strip():
        raise InvalidInput("本文を書いてください")
    if len(text) > MAX_POST:
        raise InvalidInput(f"1回の発言は{MAX_POST}文字までです（いま{len(text)}文字）")
    ensure_configured()
    record = load_village(village_id)
    if record is None:
        raise NotFound("その村は見つかりません")
    game = record.game
    viewer = viewer_of(record, account_id)
    refusal = write_refusal(
        game, phase_of(record, now), viewer, board_, bans_of(record, viewer.slot), now
    )
    if refusal:
        raise Forbidden(refusal)
    member = record.members[viewer.slot]
    item = _post(
        village_id,
        board_,
        game.day,
        text,
        now,
        slot=viewer.slot,
        author=display_name(record.meta.character_set, member),
        account_id=account_id,
    )
    try:
        with transaction() as t:
            t.save(item)
            t.update(
                member,
                actions=[MemberItem.last_post_at.set(now)],
                condition=(MemberItem.account_id == account_id)
                & (
                    MemberItem.last_post_at.does_not_exist()
                    | (MemberItem.last_post_at <= now - POST_INTERVAL)
                ),
            )
    except TransactWriteError as error:
        raise RateLimited("連続して書き込めません。少し待ってからどうぞ") from error
    return item


@dataclass(frozen=True)
class PostsPage:
    posts: list[PostItem]
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
    fetched to be hidden.
    """
    try:
        board_ = Board(board)
    except ValueError:
        raise InvalidInput("その掲示板はありません") from None
    if board_ not in readable_boards(record.game, phase_of(record, now), viewer):
        raise Forbidden("この掲示板は読めません")
    owner = viewer.account_id
    if board_ is Board.INNER and inner_of is not None and inner_of != owner:
        # Another member's inner board: only once every log is open (the ending).
        if State(record.meta.state) not in (State.ENDING, State.ENDED):
            raise Forbidden("この掲示板は読めません")
        owner = inner_of
    if board_ is Board.INNER and owner is None:
        raise Forbidden("この掲示板は読めません")
    partition = board_pk(record.village_id, board_, owner if board_ is Board.INNER else None)
    prefix = post_sk_prefix(day)
    start = decode_cursor(cursor, {"pk": partition.__eq__, "sk": lambda sk: sk.startswith(prefix)})
    result = PostItem.query(
        partition,
        PostItem.sk.startswith(prefix),
        limit=limit,
        last_evaluated_key=start,
    )
    items = list(result)
    return PostsPage(items, encode_cursor(result.last_evaluated_key))
