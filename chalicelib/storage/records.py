"""An account's records of games played move by move (戦績・実績): one aggregate item per rule
set, rewritten whole by each game's end in that end's own transaction (conditioned on the
version read, so two ends never overwrite each other and a retried end writes nothing
twice), and the rating history, one item per ranked game.

The records page reads the aggregate (one GetItem) and the latest history (one query); a
game's end reads its accounts' aggregates together (one BatchGetItem).
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from msgspec import Struct
from pynamodb.exceptions import DoesNotExist
from pynamodb.transactions import TransactWrite

from .db import ensure_configured
from .keys import account_pk, rating_prefix, rating_sk, record_sk
from .models import RatingItem, RecordItem


class Record(Struct, frozen=True):
    """An account's aggregate as read: its JSON and the version a write is conditioned on."""

    data: dict[str, Any]
    version: int  # 0: none written yet


class Rated(Struct, frozen=True):
    """One ranked game in an account's rating history."""

    match_id: str
    side: str
    result: str
    opponent: str
    ratings: dict[str, Any]  # key -> [mu, sigma] after the game; "before": key -> mu
    at: datetime


class RecordWrite(Struct, frozen=True):
    """What a game's end writes for one account: its new aggregate (over ``version``) and,
    for a ranked game, its history entry."""

    account_id: str
    rules: str
    data: dict[str, Any]
    version: int
    rated: Rated | None = None


def load(account_id: str, rules: str) -> Record:
    """An account's aggregate for a page (an eventually consistent read)."""
    ensure_configured()
    try:
        item = RecordItem.get(account_pk(account_id), record_sk(rules))
    except DoesNotExist:
        return Record({}, 0)
    return Record(dict(item.record), int(item.version))


def load_all(account_ids: Sequence[str], rules: str) -> dict[str, Record]:
    """Several accounts' aggregates for a game's end, read consistently in one BatchGetItem
    (decision duel 102): the end's transaction is conditioned on these versions."""
    ensure_configured()
    found = {a: Record({}, 0) for a in account_ids}
    if not found:
        return found
    keys = [(account_pk(a), record_sk(rules)) for a in found]
    for item in RecordItem.batch_get(keys, consistent_read=True):
        found[str(item.account_id)] = Record(dict(item.record), int(item.version))
    return found


def history(account_id: str, rules: str, limit: int) -> list[Rated]:
    """The latest ``limit`` ranked games, newest first (one query)."""
    ensure_configured()
    found = RatingItem.query(
        account_pk(account_id),
        RatingItem.sk.startswith(rating_prefix(rules)),
        scan_index_forward=False,
        limit=limit,
    )
    return [
        Rated(
            str(i.match_id),
            str(i.side),
            str(i.result),
            str(i.opponent),
            dict(i.ratings),
            i.at,
        )
        for i in found
    ]


def write(t: TransactWrite, writes: Sequence[RecordWrite]) -> None:
    """Adds each account's new aggregate (conditioned on the version read: a concurrent end of
    another game of the same account refuses the whole transaction) and history entry to a
    game's ending transaction."""
    for w in writes:
        item = RecordItem(
            account_pk(w.account_id),
            record_sk(w.rules),
            account_id=w.account_id,
            rules=w.rules,
            record=w.data,
            version=w.version + 1,
        )
        read = (
            RecordItem.pk.does_not_exist() if w.version == 0 else (RecordItem.version == w.version)
        )
        t.save(item, condition=read)
        if w.rated is not None:
            r = w.rated
            entry = RatingItem(
                account_pk(w.account_id),
                rating_sk(w.rules, r.at, r.match_id),
                match_id=r.match_id,
                side=r.side,
                result=r.result,
                opponent=r.opponent,
                ratings=r.ratings,
                at=r.at,
            )
            t.save(entry, condition=RatingItem.pk.does_not_exist())
