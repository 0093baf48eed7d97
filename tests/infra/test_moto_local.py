"""devserver/moto_local.py's cheaper paths answer exactly as moto does.

Every query below runs twice on the same items, once on moto as it is and once under
``keyed_queries``; the answers (items, order, counts, the page's last key) must be equal. A
cancelled transaction rolls back the same with ``one_backup_per_transaction`` as without.
"""

import random
from contextlib import nullcontext

import boto3
import pytest
from moto import mock_aws

from devserver.moto_local import keyed_queries, one_backup_per_transaction

REGION = "ap-northeast-1"


def _table(client, name: str, key_type: str) -> None:
    client.create_table(
        TableName=name,
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": key_type},
            {"AttributeName": "sk", "AttributeType": "S"},
            {"AttributeName": "gpk", "AttributeType": key_type},
            {"AttributeName": "gsk", "AttributeType": "S"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "ByG",
                "KeySchema": [
                    {"AttributeName": "gpk", "KeyType": "HASH"},
                    {"AttributeName": "gsk", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": "ByGOnly",
                "KeySchema": [{"AttributeName": "gpk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            },
        ],
        BillingMode="PAY_PER_REQUEST",
    )


def _key(key_type: str, n: int) -> dict:
    # Numbers written both ways ("3" and "3.0") are one key value to DynamoDB.
    if key_type == "N":
        return {"N": f"{n}.0" if n % 2 else str(n)}
    return {"S": f"K#{n}"}


def _items(key_type: str, rng: random.Random) -> list[dict]:
    items = []
    for n in range(120):
        item = {
            "pk": _key(key_type, rng.randrange(6)),
            "sk": {"S": f"{rng.randrange(1000):04d}#{n}"},
            "body": {"S": "x" * rng.randrange(50)},
            "n": {"N": str(rng.randrange(10))},
        }
        if rng.random() < 0.8:  # some items are not in the indexes
            item["gpk"] = _key(key_type, rng.randrange(4))
        if rng.random() < 0.8:
            item["gsk"] = {"S": f"{rng.randrange(100):03d}"}
        items.append(item)
    return items


def _queries(key_type: str) -> list[dict]:
    def value(n: int) -> dict:
        return {"N": str(n)} if key_type == "N" else _key(key_type, n)

    queries: list[dict] = []
    for n in range(7):  # 6 is no one's key
        queries += [
            {"KeyConditionExpression": "pk = :v", "ExpressionAttributeValues": {":v": value(n)}},
            {
                "KeyConditionExpression": "pk = :v AND sk > :s",
                "ExpressionAttributeValues": {":v": value(n), ":s": {"S": "0500"}},
                "ScanIndexForward": False,
            },
            {
                "KeyConditionExpression": "pk = :v AND begins_with(sk, :s)",
                "FilterExpression": "n < :n",
                "ExpressionAttributeValues": {":v": value(n), ":s": {"S": "0"}, ":n": {"N": "5"}},
                "Limit": 3,
            },
        ]
    for n in range(5):  # 4 is no one's key
        queries += [
            {
                "IndexName": "ByG",
                "KeyConditionExpression": "gpk = :v",
                "ExpressionAttributeValues": {":v": value(n)},
            },
            {
                "IndexName": "ByG",
                "KeyConditionExpression": "gpk = :v AND gsk <= :s",
                "ExpressionAttributeValues": {":v": value(n), ":s": {"S": "050"}},
                "ScanIndexForward": False,
                "Limit": 4,
            },
            {
                "IndexName": "ByGOnly",
                "KeyConditionExpression": "gpk = :v",
                "ExpressionAttributeValues": {":v": value(n)},
                "Limit": 5,
            },
        ]
    return queries


def _every_page(client, table: str, query: dict) -> list[dict]:
    """Each page's answer, following LastEvaluatedKey to the end."""
    pages = []
    start = None
    while True:
        asked = {"TableName": table, **query, **({"ExclusiveStartKey": start} if start else {})}
        page = client.query(**asked)
        page.pop("ResponseMetadata")
        pages.append(page)
        start = page.get("LastEvaluatedKey")
        if not start:
            return pages


@pytest.mark.parametrize("key_type", ["S", "N"])
def test_keyed_queries_answer_as_moto_does(key_type):
    rng = random.Random(20261202)
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        _table(client, "t", key_type)
        for item in _items(key_type, rng):
            client.put_item(TableName="t", Item=item)
        client.delete_item(TableName="t", Key={"pk": _key(key_type, 1), "sk": {"S": "none"}})
        queries = _queries(key_type)
        plain = [_every_page(client, "t", q) for q in queries]
        with keyed_queries():
            keyed = [_every_page(client, "t", q) for q in queries]
        for asked, moto_pages, our_pages in zip(queries, plain, keyed, strict=True):
            assert our_pages == moto_pages, asked
        assert any(len(pages) > 1 for pages in plain)  # paging was exercised
        assert sum(p["Count"] for pages in plain for p in pages) > 0


def _everything(client) -> list[dict]:
    return sorted(
        client.scan(TableName="t")["Items"], key=lambda item: (item["pk"]["S"], item["sk"]["S"])
    )


def test_a_cancelled_transaction_leaves_the_table_as_moto_leaves_it():
    """Each write of a transaction, then a failing condition: every item as it was."""
    transaction = [
        {"Put": {"TableName": "t", "Item": {"pk": {"S": "K#9"}, "sk": {"S": "new"}}}},
        {
            "Update": {
                "TableName": "t",
                "Key": {"pk": {"S": "K#1"}, "sk": {"S": "a"}},
                "UpdateExpression": "SET n = n + :one, added = :one REMOVE body",
                "ExpressionAttributeValues": {":one": {"N": "1"}},
            }
        },
        {"Delete": {"TableName": "t", "Key": {"pk": {"S": "K#1"}, "sk": {"S": "b"}}}},
        {
            "Put": {
                "TableName": "t",
                "Item": {"pk": {"S": "K#2"}, "sk": {"S": "a"}, "n": {"N": "7"}},
            }
        },
        {
            "ConditionCheck": {
                "TableName": "t",
                "Key": {"pk": {"S": "K#2"}, "sk": {"S": "b"}},
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        },
    ]
    after = {}
    for patched in (False, True):
        with mock_aws():
            client = boto3.client("dynamodb", region_name=REGION)
            _table(client, "t", "S")
            for pk, sk in (("K#1", "a"), ("K#1", "b"), ("K#2", "a"), ("K#2", "b")):
                item = {"pk": {"S": pk}, "sk": {"S": sk}, "n": {"N": "1"}, "body": {"S": sk}}
                client.put_item(TableName="t", Item=item)
            before = _everything(client)
            with one_backup_per_transaction() if patched else nullcontext():
                with pytest.raises(client.exceptions.TransactionCanceledException):
                    client.transact_write_items(TransactItems=transaction)
                after[patched] = _everything(client)
            assert after[patched] == before
            # Without the failing check the same writes do change the table.
            client.transact_write_items(TransactItems=transaction[:-1])
            assert _everything(client) != before
    assert after[True] == after[False]
