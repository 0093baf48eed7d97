"""Time in a game: the side to move's clock after a write, when it loses on time or for
leaving its page (decision 82), when a worker should look, and the page's sign of life."""

from collections.abc import Mapping
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct

from ... import timecontrol
from ...rulesets.match import MatchEngine
from ...storage import matches as store
from ...storage.errors import Refused
from .game import COMPUTER, OPEN, Match

# In a live game between two people the side to move loses once its page has been gone this
# long (decision 82); its page's polls record it at most once per SEEN_EVERY.
GONE_AFTER = timedelta(minutes=1)
SEEN_EVERY = timedelta(seconds=15)


class Clock(Struct, frozen=True):
    """The clock of the side to move after a write: since when it runs (None: none runs),
    when it flags, and until when its answer is held (a ranked game's held question)."""

    since: datetime | None = None
    flag: datetime | None = None
    hold_until: datetime | None = None


def clock_after(
    rules: MatchEngine[Any],
    game: Any,
    players: Mapping[str, str],
    banks: dict[str, float],
    byoyomi: int,
    now: datetime,
    ranked: bool = False,
) -> Clock:
    """The clock of the side to move now: a person's clock runs, the computer's does not (it
    answers in the same request). In a ranked game an answer the rule set holds starts its
    clock only when the hold ends (decision 65): the hold is free time, whatever the answer."""
    side = rules.to_move(game)
    if not banks or side is None or players[side] == COMPUTER or OPEN in players.values():
        return Clock()  # the clocks start when both players sit
    hold = rules.hold(game) if ranked else 0
    since = now + timedelta(seconds=hold)
    flag = timecontrol.flag_at(banks, byoyomi, side, since)
    return Clock(since, flag, since if hold else None)


def reveal_at(match: Match) -> datetime | None:
    return match.record.hold_until if match.record.held is not None else None


def due(match: Match) -> tuple[datetime, str] | None:
    """When the side to move loses if nothing happens, and how: on time (its flag) or gone
    (its page away for ``GONE_AFTER``), whichever comes first; None: it cannot."""
    if match.ended:
        return None
    found = []
    if match.record.flag_at is not None:
        found.append((match.record.flag_at, "time"))
    presence = match.presence
    if presence is not None and presence.side == match.rules.to_move(match.game):
        found.append((gone_at(presence), "gone"))
    return min(found) if found else None


def gone_at(presence: store.Presence) -> datetime:
    """When the mover loses if its page is not seen again (decision 82)."""
    return presence.seen + GONE_AFTER


def watched(flag: datetime | None, presence: store.Presence | None) -> datetime | None:
    """When a worker should look at a game just written: its flag or its mover's minute."""
    found = [t for t in (flag, gone_at(presence) if presence else None) if t]
    return min(found) if found else None


def seen_here(match_id: str, presence: store.Presence | None, side: str, now: datetime) -> None:
    """``side``'s player is on the game's page now: recorded only when it is that side's move
    in a live game between people and what is stored is ``SEEN_EVERY`` old (most polls
    write nothing); a race lost to a move or an end changes nothing."""
    if presence is None or presence.side != side or now - presence.seen < SEEN_EVERY:
        return
    with suppress(Refused):
        store.mark_present(match_id, side, now, now - SEEN_EVERY)
