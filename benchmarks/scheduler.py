"""The scheduler at scale, on moto: 1,000 due villages in one tick, and mails per village-day."""

import random
import time
from datetime import UTC, datetime, timedelta

import boto3
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib import runtime
from chalicelib.personas import YAMAZATO
from chalicelib.rules import SLOTS
from chalicelib.services import accounts, actions, scheduler, villages
from chalicelib.storage import db
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb

from .requests import counting, fake_aws

DUE_VILLAGES = 1000
PER_TABLE = 20
REGION = "ap-northeast-1"


def _sent() -> int:
    return len(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)


def due_villages() -> dict[str, float]:
    """One tick processing 1,000 due villages (each a 24-hour extension of its opening).

    moto answers every query by reading its whole table, so one moto table of 1,000
    villages would time moto. The villages are split over tables of ``PER_TABLE``:
    the sum of the ticks is our cost, with moto's per-table overhead held constant.
    """
    seconds = 0.0
    calls = 0
    rng = random.Random(5)
    for _ in range(DUE_VILLAGES // PER_TABLE):
        with mock_aws(), like_dynamodb():
            db.configure()
            db.create_table()
            now = datetime(2026, 12, 1, 3, 30, tzinfo=UTC)
            for n in range(PER_TABLE):
                villages.create_village(pace="short", name=f"村{n}", now=now, rng=rng)
            later = now + timedelta(hours=6)

            def inline(ids: list[str], at: datetime = later) -> None:
                for village_id in ids:
                    scheduler.process_village(village_id, at)

            with counting() as counted:
                started = time.perf_counter()
                report = scheduler.tick(later, inline, rng)
                seconds += time.perf_counter() - started
            calls += sum(counted.values())
            assert report.due == PER_TABLE
    return {
        "seconds_for_1000_due_villages": round(seconds, 1),
        "requests_per_due_village": round(calls / DUE_VILLAGES, 1),
    }


def mails_per_village_day(level: str = "all") -> dict[str, float]:
    """Mails sent for one 13-member short village over its first three days, every member
    wanting ``level`` (README "Mail a member wants")."""
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name=REGION).verify_email_identity(
            EmailAddress="noreply@mobius.example"
        )
        clock = [datetime(2026, 12, 1, 3, 0, tzinfo=UTC)]
        runtime.set_clock(lambda: clock[0])
        players = []
        for n in range(13):
            token = accounts.register(
                f"mail{n:02d}", "bench-password", f"m{n}@example.jp", clock[0]
            ).token
            players.append(accounts.verify_email(token, clock[0]))
            if level != "all":
                accounts.set_mail_level(players[-1], level)
        village = villages.create_village(
            pace="short", name="計測村", now=clock[0], rng=random.Random(2)
        )
        for n, slot in enumerate(SLOTS):
            villages.join(village, players[n], slot, YAMAZATO[n].key, clock[0])
        clock[0] += timedelta(hours=6) - timedelta(minutes=5)
        days = 0
        while days < 3:
            clock[0] += timedelta(minutes=5)
            record = load_village(village)
            if record.meta.state == "running":
                for account in players:
                    if (
                        record.slot_of(account)
                        and record.slot_of(account) not in record.game.deaths
                    ):
                        actions.save_actions(village, account, {}, clock[0])
            before = record.game.day
            scheduler.process_village(village, clock[0])
            if load_village(village).game.day > before:
                days += 1
            if load_village(village).meta.state != "running" and days:
                break
        runtime.set_clock(runtime.system_clock)
        if level != "all":
            return {f"mails_per_village_day_{level}": round(_sent() / max(days, 1), 1)}
        return {"mails_per_village_day": round(_sent() / max(days, 1), 1), "days": days}


def figures() -> dict[str, float]:
    fake_aws()
    return {**due_villages(), **mails_per_village_day(), **mails_per_village_day("mine")}
