"""The minute tick when AWS fails (issue 28): each index shard is queried on its own, a failed
shard is tried again and then named, and every village the others found is handed over."""

import logging
from datetime import timedelta

from chalicelib import effects, jobs
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import scheduler, villages
from chalicelib.services.owed import MailHandOver, VillageDue
from chalicelib.services.unit import Unit
from chalicelib.storage.keys import look_key, outbox_index_key
from chalicelib.storage.shards import SHARD_TRIES
from tests.support.dynamo_faults import UNAVAILABLE
from tests.support.mailbox import owe_morning_mail

SHORT = TIMINGS[Pace.SHORT]


def queried(key: str):
    """A query of the index partition ``key``."""
    return lambda params: {"S": key} in params.get("ExpressionAttributeValues", {}).values()


def tick(now, rng) -> tuple[scheduler.TickReport, list[str], list[str]]:
    """One tick: its report, the villages it owed the advance workers and the partitions it
    owed the mail workers."""
    unit = Unit()
    report = scheduler.tick(now, rng, unit)
    owed = list(unit.collect_owed())
    due = [effect.village_id for effect in owed if isinstance(effect, VillageDue)]
    return report, due, [effect.owner for effect in owed if isinstance(effect, MailHandOver)]


def due_villages(clock, rng, count: int = 6) -> list[str]:
    return [
        villages.create_village(
            villages.AskedVillage(pace="short", name=f"村{n}"), now=clock(), rng=rng
        )
        for n in range(count)
    ]


def test_one_failed_shard_leaves_its_villages_to_the_next_tick_and_hands_over_the_rest(
    clock, rng, dynamo_faults
):
    ids = due_villages(clock, rng)
    failing = look_key(ids[0])
    kept = [vid for vid in ids if look_key(vid) != failing]
    assert kept, "the villages should fall in more than one shard"
    dynamo_faults.fail("Query", UNAVAILABLE, times=99, when=queried(failing))
    report, handed, _ = tick(clock() + SHORT.first_update, rng)
    assert sorted(handed) == sorted(kept)
    assert report.due == len(kept)
    assert report.failed_shards == [failing]
    assert dynamo_faults.faults[0].hits == SHARD_TRIES  # tried again before it counted
    # Once the shard answers again, the next tick finds the rest.
    dynamo_faults.faults.clear()
    _, later, _ = tick(clock() + SHORT.first_update, rng)
    assert sorted(later) == sorted(ids)


def test_a_shard_that_fails_once_is_tried_again_and_nothing_is_left(clock, rng, dynamo_faults):
    ids = due_villages(clock, rng, count=3)
    dynamo_faults.fail("Query", times=1, when=queried(look_key(ids[0])))
    report, handed, _ = tick(clock() + SHORT.first_update, rng)
    assert sorted(handed) == sorted(ids) and report.failed_shards == []


def test_a_failed_mail_shard_leaves_only_its_mail_and_the_tick_hands_over_the_rest(
    clock, dynamo_faults, rng
):
    ids = [str(n) for n in range(1, 7)]
    for vid in ids:
        owe_morning_mail(vid, clock())
    failing = outbox_index_key(ids[0])
    owing = [vid for vid in ids if outbox_index_key(vid) != failing]
    assert owing, "the villages should fall in more than one shard"
    dynamo_faults.fail("Query", UNAVAILABLE, times=99, when=queried(failing))
    report, _, handed = tick(clock(), rng)
    assert sorted(handed) == sorted(owing) and report.failed_shards == [failing]


def test_the_tick_logs_the_shards_it_left(clock, rng, dynamo_faults, caplog, monkeypatch):
    ids = due_villages(clock, rng, count=2)
    failing = look_key(ids[0])
    dynamo_faults.fail("Query", UNAVAILABLE, times=99, when=queried(failing))
    monkeypatch.setattr(effects, "advance_villages", lambda ids: None)
    clock.advance(SHORT.first_update)
    with caplog.at_level(logging.WARNING, logger="mobius.jobs"):
        jobs.tick()
    assert any(failing in r.getMessage() for r in caplog.records if r.name == "mobius.jobs")


def test_a_fault_in_the_hourly_long_village_check_does_not_stop_the_tick(clock, rng, dynamo_faults):
    ids = due_villages(clock, rng, count=2)
    at_21_jst = clock().replace(hour=12, minute=0)  # 21:00 JST: a long village's hour
    assert at_21_jst >= clock() + SHORT.first_update
    dynamo_faults.fail("PutItem", times=99, when=lambda p: "AUTO" in str(p.get("Item", {})))
    report, handed, _ = tick(at_21_jst, rng)
    assert report.long_village_failed and sorted(handed) == sorted(ids)
    # The hour's check was not spent: the next tick of the hour makes the village.
    dynamo_faults.faults.clear()
    again, _, _ = tick(at_21_jst + timedelta(minutes=1), rng)
    assert again.created
