"""Deployed queues: where the code hands its work over once it runs in AWS."""

import os

import pytest


def sqs_event(*bodies: str) -> dict:
    """An SQS batch as Lambda hands it to a worker: one record a message, in order."""
    return {
        "Records": [
            {"messageId": f"m{n}", "body": body, "receiptHandle": f"r{n}", "eventSource": "aws:sqs"}
            for n, body in enumerate(bodies)
        ]
    }


def failed_bodies(event: dict, answer: dict) -> list[str]:
    """The messages a worker's answer reports failed, for SQS to deliver again."""
    failed = {item["itemIdentifier"] for item in answer["batchItemFailures"]}
    return [record["body"] for record in event["Records"] if record["messageId"] in failed]


class Queues:
    """The stack's advance and mail queues on moto's SQS."""

    def __init__(self, sqs, urls: dict[str, str]) -> None:
        self.sqs, self.urls = sqs, urls

    def count(self, name: str) -> int:
        """Messages in the queue, delayed ones too (a clock watch waits for its flag)."""
        wanted = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed"]
        found = self.sqs.get_queue_attributes(QueueUrl=self.urls[name], AttributeNames=wanted)
        return sum(int(found["Attributes"][name]) for name in wanted)

    def bodies(self, name: str) -> list[str]:
        """The visible messages' bodies (read, left in the queue)."""
        found = self.sqs.receive_message(
            QueueUrl=self.urls[name], MaxNumberOfMessages=10, VisibilityTimeout=0
        )
        return [m["Body"] for m in found.get("Messages", [])]


@pytest.fixture
def deployed_queues(monkeypatch):
    """The queues as deployed (inside a test's moto): the code hands work over to them, where
    locally it does the work inline."""
    import boto3

    from chalicelib import jobs, queues

    region = os.environ.get("AWS_DEFAULT_REGION", "ap-northeast-1")
    sqs = boto3.client("sqs", region_name=region)
    names = (jobs.QUEUE_NAME, jobs.MAIL_QUEUE_NAME)
    urls = {name: sqs.create_queue(QueueName=name)["QueueUrl"] for name in names}
    monkeypatch.setenv("MOBIUS_QUEUE_URL", urls[jobs.QUEUE_NAME])
    monkeypatch.setenv("MOBIUS_MAIL_QUEUE_URL", urls[jobs.MAIL_QUEUE_NAME])
    queues._sqs.cache_clear()  # a client made outside this test's moto
    yield Queues(sqs, urls)
    queues._sqs.cache_clear()
