"""Chat between the two people of a game, not part of its record: a village post's limits."""

from datetime import datetime

from ...storage import matches as store
from ...storage.errors import Refused
from ..errors import Forbidden, InvalidInput, RateLimited
from .game import Match, kept

MAX_CHAT = 1000  # characters in one chat message, as a village post
CHATS_SHOWN = 50  # the page shows the latest messages


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
        store.add_chat(match.record, side, match.players[side], text, now, kept(match.players, now))
    except Refused:
        raise RateLimited("連続して書き込めません。少し待ってからどうぞ") from None


def chats(match: Match) -> list[store.Chat]:
    """The latest messages, oldest first; nothing to read in a game against the computer."""
    if not match.between_people:
        return []
    return store.chats_of(match.match_id, CHATS_SHOWN)
