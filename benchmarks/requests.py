"""DynamoDB requests per use case, counted under moto (capacity there is a constant)."""

import os
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from moto import mock_aws
from pynamodb.connection.base import Connection

from chalicelib.personas import YAMAZATO
from chalicelib.rules import SLOTS
from chalicelib.services import accounts, actions, posts, sessions, update, villages
from chalicelib.storage import db
from chalicelib.storage.repository import load_village
from chalicelib.web import village_view
from devserver.moto_local import like_dynamodb

POSTS_BEFORE_VIEW = 200  # the page must not cost more with a long day


@contextmanager
def counting() -> Iterator[Counter]:
    """Counts every DynamoDB API call made through PynamoDB inside the block."""
    calls: Counter = Counter()
    original = Connection._make_api_call

    def counted(self, operation_name, operation_kwargs):
        calls[operation_name] += 1
        return original(self, operation_name, operation_kwargs)

    Connection._make_api_call = counted
    try:
        yield calls
    finally:
        Connection._make_api_call = original


def view_village(
    village_id: str, grant: sessions.Grant, now: datetime, touch: bool = False
) -> None:
    """What one village page needs, as the page builds it: the session, the village, the day's
    posts (numbered, anchors, unread marks from the recorded access), own choices, the full
    record. ``touch``: also the access write a member's view makes at most once a minute."""
    account_id = sessions.check(grant.account_id, grant.session_id, now).account_id
    record = load_village(village_id)
    viewer = posts.viewer_of(record, account_id)
    if touch:
        villages.touch(village_id, account_id, now, record)
    village_view.build(record, viewer, now, None, None, None)


def fake_aws() -> None:
    """Benchmarks run on moto in this process: fake credentials, no endpoints."""
    os.environ.update(
        AWS_DEFAULT_REGION="ap-northeast-1",
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        MOBIUS_SECRET="bench-secret",
        MOBIUS_TABLE="mobius-bench",
    )
    for name in ("DYNAMODB_ENDPOINT", "SES_ENDPOINT", "MOBIUS_QUEUE_URL"):
        os.environ.pop(name, None)


def figures() -> dict[str, int]:
    fake_aws()
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
        players = []
        for n in range(13):
            address = f"b{n}@example.jp"
            token = accounts.register(f"bench{n:02d}", "bench-password", address, now).token
            players.append(accounts.verify_email(token, now))
        village = villages.create_village(
            pace="short", name="計測村", now=now, rng=random.Random(1)
        )
        for n, slot in enumerate(SLOTS[:12]):
            villages.join(village, players[n], slot, YAMAZATO[n].key, now)
        result: dict[str, int] = {}
        with counting() as calls:
            villages.join(village, players[12], SLOTS[12], YAMAZATO[12].key, now)
        result["join"] = sum(calls.values())
        now += timedelta(hours=6)
        update.advance(village, now)
        now += timedelta(minutes=1)
        target = SLOTS[1]
        with counting() as calls:
            actions.save_actions(village, players[0], {"pray": target}, now)
        result["save_actions"] = sum(calls.values())
        for n in range(POSTS_BEFORE_VIEW):
            posts.post(village, players[n % 13], "public", f"発言{n}", now)
            if n % 13 == 12:
                now += timedelta(seconds=6)
        with counting() as calls:
            posts.post(village, players[1], "public", "計測用の発言", now + timedelta(seconds=6))
        result["post"] = sum(calls.values())
        grant = sessions.open_session(players[2], now)
        with counting() as calls:
            view_village(village, grant, now)
        result["view_village"] = sum(calls.values())
        grant = sessions.open_session(players[3], now)
        with counting() as calls:
            view_village(village, grant, now, touch=True)
        result["view_village_with_access"] = sum(calls.values())
        for account, slot in zip(players, SLOTS, strict=True):
            if slot != target:
                actions.save_actions(village, account, {"pray": target}, now)
        with counting() as calls:
            update.advance(village, now + timedelta(hours=1))
        result["update_village"] = sum(calls.values())
    return result
