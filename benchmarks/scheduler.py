"""The scheduler on moto: 1,000 due villages in one tick, mails per village-day, how often a
village is looked at and what moving its next look writes."""

import math
import random
import time
from contextlib import suppress
from datetime import UTC, datetime, timedelta

import boto3
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib import effects, runtime
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import accounts, actions, scheduler, villages
from chalicelib.services.errors import Forbidden
from chalicelib.services.unit import Unit
from chalicelib.storage import db
from chalicelib.storage.models import VillageItem
from chalicelib.storage.repository import load_village
from devserver.moto_local import like_dynamodb

from .requests import counting, fake_aws, verified_accounts

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
                villages.create_village(
                    villages.AskedVillage(pace="short", name=f"村{n}"), now=now, rng=rng
                )
            later = now + timedelta(hours=6)
            runtime.set_clock(lambda at=later: at)  # the villages are advanced at the tick's
            with counting() as counted:
                started = time.perf_counter()
                with effects.sent_after(Unit()) as unit:  # inline here: no queues
                    report = scheduler.tick(later, rng, unit)
                seconds += time.perf_counter() - started
            runtime.set_clock(runtime.system_clock)
            calls += sum(counted.values())
            assert report.due == PER_TABLE
    return {
        "seconds_for_1000_due_villages": round(seconds, 1),
        "requests_per_due_village": round(calls / DUE_VILLAGES, 1),
    }


def mails_per_village_day(level: str = "all") -> dict[str, float]:
    """Mails sent for one 13-member short village over its first three days, every member
    wanting ``level`` (docs/playing.md, "Mail a member wants")."""
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name=REGION).verify_email_identity(
            EmailAddress="noreply@mobius.example"
        )
        clock = [datetime(2026, 12, 1, 3, 0, tzinfo=UTC)]
        runtime.set_clock(lambda: clock[0])
        players = verified_accounts("mail", 13, clock[0])
        if level != "all":
            for player in players:
                accounts.set_mail_level(player, level)
        village = villages.create_village(
            villages.AskedVillage(pace="short", name="計測村"), now=clock[0], rng=random.Random(2)
        )
        for n, slot in enumerate(SLOTS):
            villages.join(village, players[n], slot, YAMAZATO[n].key, clock[0])
        clock[0] += timedelta(hours=6) - timedelta(minutes=5)
        days = 0
        while days < 3:
            clock[0] += timedelta(minutes=5)
            record = load_village(village)
            if record._meta.state == "running":
                for account in players:
                    if (
                        record.slot_of(account)
                        and record.slot_of(account) not in record.game.deaths
                    ):
                        # A visit to keep the seat; after the day's deadline a save is refused,
                        # as a person's is (the day's saves have kept every seat until then).
                        with suppress(Forbidden):
                            actions.save_actions(village, account, {}, clock[0])
            before = record.game.day
            effects.advance_village(village, clock[0])
            if load_village(village).game.day > before:
                days += 1
            if load_village(village)._meta.state != "running" and days:
                break
        runtime.set_clock(runtime.system_clock)
        if level != "all":
            return {f"mails_per_village_day_{level}": round(_sent() / max(days, 1), 1)}
        return {"mails_per_village_day": round(_sent() / max(days, 1), 1), "days": days}


def item_bytes(raw: dict) -> int:
    """An item's size as DynamoDB bills it: each attribute's name and value (numbers about
    one byte per two digits, maps and lists 3 bytes plus their elements)."""

    def value(typed: dict) -> int:
        ((kind, content),) = typed.items()
        if kind == "S":
            return len(content.encode())
        if kind == "N":
            return len(content.lstrip("-").replace(".", "")) // 2 + 1
        if kind == "BOOL" or kind == "NULL":
            return 1
        if kind == "M":
            return 3 + sum(len(k.encode()) + value(v) for k, v in content.items())
        if kind == "L":
            return 3 + sum(1 + value(v) for v in content)
        raise ValueError(kind)

    return sum(len(name.encode()) + value(typed) for name, typed in raw.items())


def index_writes(size: int) -> int:
    """Write units for one item write that moves the item's index key: the table's write, and
    the index entry deleted and put again (all of it projected), 1 KB each."""
    return 3 * math.ceil(size / 1024)


def looks_and_schedule_writes() -> dict[str, float]:
    """A 13-member long village over three days from its start, five members looking in every
    four hours (in turn): how many times a day the worker looks at it, and what one move of
    its next look writes (before: the village item with its game, which carried the index
    key; now: the LOOK item). The worker is run at each look the index asks for, as the
    minute tick would, until day 3 ends or the game does; the sizes are those of its last day."""
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name=REGION).verify_email_identity(
            EmailAddress="noreply@mobius.example"
        )
        now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
        players = verified_accounts("look", 13, now)
        village = villages.create_village(
            villages.AskedVillage(pace="long", name="計測村"), now=now, rng=random.Random(3)
        )
        for n, slot in enumerate(SLOTS):
            villages.join(village, players[n], slot, YAMAZATO[n].key, now)
        start = load_village(village)._meta.next_update
        end = start + timedelta(days=3)
        visits = [now + timedelta(hours=4 * n, minutes=7) for n in range(30)]
        looks = turn = 0
        sizes = (0, 0)
        look = start
        while True:
            record = load_village(village)
            if record._look is None:  # the game ended
                break
            meta = VillageItem._get_connection().get_item(record._meta.pk, "META")["Item"]
            sizes = (item_bytes(meta), item_bytes(record._look.serialize()))
            look = datetime.fromisoformat(str(record._look.gsi1sk).replace("Z", "+00:00"))
            if look > end:
                break
            while visits and visits[0] < look:  # the members who look in before it
                for _ in range(5):
                    villages.touch(village, players[turn % 13], visits[0])
                    turn += 1
                visits.pop(0)
            looks += look >= start
            effects.advance_village(village, look)
        days = (min(look, end) - start) / timedelta(days=1)
        meta, size = sizes
        return {
            "looks_per_long_village_day": round(looks / days, 1),
            "schedule_change_bytes_before": meta,
            "schedule_change_bytes": size,
            "schedule_change_write_units_before": index_writes(meta),
            "schedule_change_write_units": index_writes(size),
        }


def idle_warning_looks() -> dict[str, float]:
    """A running 13-member short village, every member last seen at 1 min (decision 140): the
    DynamoDB requests of the look at 46 min that owes their 13 idle warnings (mail not sent
    here), of a duplicate look then (each warning's conditioned write refused: owed already),
    and of a look at 20 min with nothing due, for comparison."""
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
        players = verified_accounts("warn", 13, now)
        village = villages.create_village(
            villages.AskedVillage(pace="short", name="計測村"), now=now, rng=random.Random(5)
        )
        for n, slot in enumerate(SLOTS):
            villages.join(village, players[n], slot, YAMAZATO[n].key, now)
        start = load_village(village)._meta.next_update
        scheduler.process_village(village, start, Unit())
        for account in players:
            villages.touch(village, account, start + timedelta(minutes=1))
        result = {}
        # 30 min: the day's reminders (not counted), so that 46 min owes only the warnings.
        for name, minutes in (("quiet", 20), ("", 30), ("warning", 46), ("warning_again", 46)):
            unit = Unit()
            with counting() as calls:
                scheduler.process_village(village, start + timedelta(minutes=minutes), unit)
                # Whether the look owed mail, as its hand-over asks; the mail is not sent here.
                scheduler.owing_mail(unit.collect_owed())
            if name:
                result[f"idle_{name}_look_requests"] = sum(calls.values())
        return result


def figures() -> dict[str, float]:
    fake_aws()
    return {
        **due_villages(),
        **mails_per_village_day(),
        **mails_per_village_day("mine"),
        **looks_and_schedule_writes(),
        **idle_warning_looks(),
    }
