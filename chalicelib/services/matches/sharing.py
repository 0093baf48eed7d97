"""棋譜を共有: an ended game's public read-only link, made and taken back by either player."""

import secrets
from contextlib import suppress
from datetime import datetime

from ...storage import matches as store
from ...storage.errors import Refused
from ..errors import Conflict, Forbidden, NotFound
from .game import Match, load


def share(match: Match, who: list[str], now: datetime) -> str:
    """An ended game's public read-only link (棋譜を共有), made by either player; the same
    token again while it is shared. Returns the token."""
    if match.side_of(who) is None:
        raise Forbidden("この対局の対局者ではありません")
    if not match.ended:
        raise Conflict("棋譜は対局が終わってから共有できます")
    if match.record.share:
        return match.record.share
    token = secrets.token_urlsafe(12)
    try:
        store.share(match.record, token, now)
    except Refused:
        raise Conflict("ページが古くなっていました。読み込み直してください") from None
    return token


def withdraw_share(match: Match, who: list[str]) -> None:
    """Either player takes the link back: it stops working at once (a new share is a new
    link). Nothing to take back is no error."""
    if match.side_of(who) is None:
        raise Forbidden("この対局の対局者ではありません")
    if match.record.share:
        with suppress(Refused):  # taken back by the other player a moment ago
            store.withdraw_share(match.record, match.record.share)


def shared(token: str) -> Match:
    """The game a shared record's link shows, if the link is still shared."""
    match_id = store.shared_match(token)
    if match_id is None:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)")
    try:
        match = load(match_id)
    except NotFound:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)") from None
    if match.record.share != token:
        raise NotFound("この棋譜は見つかりません(共有が取り消されたかもしれません)")
    return match
