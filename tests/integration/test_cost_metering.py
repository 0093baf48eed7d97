"""The cost benchmark's meter (benchmarks/metering.py) on moto: the units it counts for real
requests against the project's table, from the items' real sizes and the index's projection."""

from benchmarks import capacity
from benchmarks.metering import metering
from chalicelib.storage.models import Item


def _village(next_look: str, game_bytes: int) -> dict:
    return {
        "pk": {"S": "V#1"},
        "sk": {"S": "META"},
        "gsi1pk": {"S": "STATE#running"},
        "gsi1sk": {"S": next_look},
        "game": {"S": "g" * game_bytes},
    }


def _client():
    return Item._get_connection().connection.client


def test_a_transactional_put_of_2_5_kb_costs_6_units_and_the_index_its_entry():
    client = _client()
    table = Item.Meta.table_name
    item = _village("2026-12-01T10:00", 2560 - 60)
    size = capacity.item_size(item)
    assert 2048 < size <= 3072
    with metering(512) as meter, meter.counted():
        client.transact_write_items(TransactItems=[{"Put": {"TableName": table, "Item": item}}])
    # Whatever the table projects (storage may change it), its entry is written once.
    (index,) = client.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"]
    entry = capacity.Index.from_description(index).entry(item, ("pk", "sk"))
    assert meter.usage.wru == 6 + capacity.write_units(capacity.item_size(entry))
    assert meter.requests["dynamodb:TransactWriteItems"] == 1


def test_a_consistent_get_of_5_kb_costs_2_units_and_an_eventual_query_half_the_sum():
    client = _client()
    table = Item.Meta.table_name
    big = _village("2026-12-01T10:00", 5 * 1024)
    client.put_item(TableName=table, Item=big)
    for n in range(3):
        post = {"pk": {"S": "P#1#public"}, "sk": {"S": f"1#{n}"}, "text": {"S": "x" * 1500}}
        client.put_item(TableName=table, Item=post)
    with metering(512) as meter, meter.counted():
        client.get_item(
            TableName=table, Key={"pk": big["pk"], "sk": big["sk"]}, ConsistentRead=True
        )
        assert meter.usage.rru == 2
        client.query(
            TableName=table,
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "P#1#public"}},
            ProjectionExpression="sk",  # billed for the items read, not what comes back
        )
    assert meter.usage.rru == 2 + 1  # three posts of about 1.5 KB: 4.5 KB, eventual


def test_moving_the_next_look_rewrites_the_index_entry_twice():
    client = _client()
    table = Item.Meta.table_name
    item = _village("2026-12-01T10:00", 100)
    client.put_item(TableName=table, Item=item)
    with metering(512) as meter, meter.counted():
        client.update_item(
            TableName=table,
            Key={"pk": item["pk"], "sk": item["sk"]},
            UpdateExpression="SET gsi1sk = :t",
            ExpressionAttributeValues={":t": {"S": "2026-12-01T11:00"}},
        )
    # The item, then the index's delete and put (entries of under 1 KB, whatever it projects).
    assert meter.usage.wru == 1 + 2
    assert meter.index_changes == {"STATE": 1}  # by the index key's first word


def test_calls_outside_a_counted_block_are_not_billed():
    client = _client()
    table = Item.Meta.table_name
    with metering(512) as meter:
        client.put_item(TableName=table, Item=_village("t", 10))
    assert meter.usage.wru == 0 and not meter.requests


def test_a_paced_mail_worker_is_billed_for_its_wait_at_its_own_memory():
    """Ten mails at 2 a second take at least 4.5 s: Lambda bills the waiting, at the
    function's memory (the mail worker's 128 MB, not the stage's 512)."""
    import boto3

    ses = boto3.client("ses", region_name="ap-northeast-1")
    ses.verify_email_identity(EmailAddress="noreply@example.jp")
    with metering(512) as meter, meter.invocation(memory_mb=128, sends_per_second=2.0):
        for n in range(10):
            ses.send_email(
                Source="noreply@example.jp",
                Destination={"ToAddresses": [f"p{n}@example.jp"]},
                Message={"Subject": {"Data": "s"}, "Body": {"Text": {"Data": "b"}}},
            )
    assert meter.usage.mails == 10
    seconds = meter.usage.lambda_gb_seconds * 1024 / 128
    assert 4.5 <= seconds < 6  # the 9 waits of 0.5 s, and no more than a send's share
