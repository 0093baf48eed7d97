"""The cost benchmark's arithmetic (benchmarks/prices.py) and DynamoDB's capacity rules
(benchmarks/capacity.py): known counts give known dollars, known items known units."""

import pytest

from benchmarks import capacity
from benchmarks.prices import PRICES, Usage, cost


def text_item(size: int) -> dict:
    """An item of exactly ``size`` bytes: the key "pk" (2 bytes) and a string value."""
    return {"pk": {"S": "x" * (size - 2)}}


def test_item_size_counts_names_and_values():
    item = {
        "pk": {"S": "V#1"},  # 2 + 3
        "n": {"N": "12345"},  # 1 + (5 + 1) // 2 + 1 = 1 + 4
        "ok": {"BOOL": True},  # 2 + 1
        "m": {"M": {"a": {"S": "xy"}}},  # 1 + 3 + (1 + 2 + 1)
        "l": {"L": [{"S": "abc"}]},  # 1 + 3 + (3 + 1)
        "名": {"S": "村"},  # 3 + 3 (UTF-8)
    }
    assert capacity.item_size(item) == 5 + 5 + 3 + 8 + 8 + 6
    assert capacity.item_size(None) == 0


def test_a_5_kb_consistent_get_is_2_read_units_and_eventual_half():
    size = capacity.item_size(text_item(5 * 1024))
    assert capacity.read_units(size, consistent=True) == 2
    assert capacity.read_units(size, consistent=False) == 1
    assert capacity.read_units(size, consistent=True, transactional=True) == 4


def test_a_read_of_nothing_still_costs_a_unit():
    assert capacity.read_units(0, consistent=True) == 1
    assert capacity.read_units(0, consistent=False) == 0.5


def test_a_query_rounds_the_sum_of_its_items_not_each_item():
    sizes = [capacity.item_size(text_item(1536)) for _ in range(3)]  # 4.5 KB together
    assert capacity.read_units(sum(sizes), consistent=True) == 2
    assert sum(capacity.read_units(s, consistent=True) for s in sizes) == 3  # a batch get


def test_a_2_5_kb_transactional_put_is_6_write_units():
    size = capacity.item_size(text_item(2560))
    assert capacity.write_units(size, transactional=True) == 6
    assert capacity.write_units(size) == 3
    assert capacity.write_units(0) == 1  # a delete of nothing, a refused put


KEYS = ("pk", "sk")


def village(next_look: str, game: str) -> dict:
    return {
        "pk": {"S": "V#1"},
        "sk": {"S": "META"},
        "gsi1pk": {"S": "STATE#running"},
        "gsi1sk": {"S": next_look},
        "game": {"S": game},
    }


ALL = capacity.Index("gsi1", ("gsi1pk", "gsi1sk"), "ALL")
KEYS_ONLY = capacity.Index("gsi1", ("gsi1pk", "gsi1sk"), "KEYS_ONLY")


def test_an_index_projecting_all_rewrites_the_game_when_the_next_look_moves():
    before = village("2026-12-01T10:00", "g" * 3100)
    after = village("2026-12-01T11:00", "g" * 3100)
    size = capacity.item_size(before)
    assert size > 3 * 1024
    # The key moves: the old entry is deleted and the new one put, each of the whole item.
    assert ALL.write_units(before, after, KEYS) == 2 * capacity.write_units(size)
    assert KEYS_ONLY.write_units(before, after, KEYS) == 2  # two small entries


def test_an_index_entry_that_does_not_change_costs_nothing():
    before = village("2026-12-01T10:00", "old")
    after = village("2026-12-01T10:00", "new")
    assert KEYS_ONLY.write_units(before, after, KEYS) == 0
    assert ALL.write_units(before, after, KEYS) == 1  # the projected game changed
    assert ALL.write_units(before, before, KEYS) == 0


def test_entering_or_leaving_an_index_is_one_write_and_items_without_its_keys_none():
    item = village("2026-12-01T10:00", "g")
    plain = {"pk": {"S": "P#1"}, "sk": {"S": "1#x"}, "text": {"S": "発言"}}
    assert ALL.write_units(None, item, KEYS) == 1
    assert ALL.write_units(item, None, KEYS) == 1
    assert ALL.write_units(None, plain, KEYS) == 0


def test_an_include_projection_keeps_keys_and_the_named_attributes():
    index = capacity.Index.from_description(
        {
            "IndexName": "gsi1",
            "KeySchema": [
                {"AttributeName": "gsi1pk", "KeyType": "HASH"},
                {"AttributeName": "gsi1sk", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["name"]},
        }
    )
    item = {**village("t", "g" * 100), "name": {"S": "村"}}
    assert set(index.entry(item, KEYS) or {}) == {"pk", "sk", "gsi1pk", "gsi1sk", "name"}


def test_known_counts_give_known_dollars():
    usage = Usage(
        http_requests=1_000_000,
        lambda_invocations=1_000_000,
        lambda_gb_seconds=1000,
        rru=2_000_000,
        wru=1_000_000,
        mails=1000,
        bytes_out=1024**3,
        sqs_requests=1_000_000,
    )
    dollars = cost(usage)
    assert dollars["api_gateway"] == pytest.approx(PRICES["http_api_per_million_requests"])
    assert dollars["lambda"] == pytest.approx(0.20 + 1000 * 0.0000166667)
    assert dollars["dynamodb"] == pytest.approx(0.715 + 2 * 0.1425)
    assert dollars["ses"] == pytest.approx(0.10)
    assert dollars["data_out"] == pytest.approx(0.114)
    assert dollars["sqs"] == pytest.approx(0.40)
    assert dollars["total"] == pytest.approx(1.29 + 0.2166667 + 1.0 + 0.10 + 0.114 + 0.40)


def test_shared_usage_is_scaled_and_added():
    tick = Usage(lambda_invocations=1, rru=1.0)
    shared = tick.scaled(1440 / 100)
    assert (shared + Usage(rru=1)).rru == pytest.approx(15.4)
    assert shared.lambda_invocations == pytest.approx(14.4)
