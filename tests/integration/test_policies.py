"""The Lambda policies against the calls the code makes (issue 35): moto does not enforce IAM.

The whole suite's calls are checked at the end of every run (tests/aws_calls.py); these tests
show that check at work on the calls that once had no grant, and the mapping it relies on.
"""

import json

import pytest
from moto.iam.access_control import IAMPolicy

from chalicelib.services import posts, sessions
from tests.support import aws_calls, iam
from tests.support.villages import at, start

TABLE = f"arn:aws:dynamodb:{iam.REGION}:{iam.ACCOUNT}:table/mobius"


def without(function: str, action: str) -> IAMPolicy:
    """The function's policy with ``action`` taken out of every statement."""
    document = iam.document(function)
    for statement in document["Statement"]:
        if isinstance(statement["Action"], list):
            statement["Action"] = [a for a in statement["Action"] if a != action]
    return IAMPolicy(json.dumps(document))


@pytest.fixture
def forgetful_api(monkeypatch):
    """The API's policy as it was before issue 35: no dynamodb:BatchWriteItem."""
    stripped = without("api_handler", "dynamodb:BatchWriteItem")
    real = iam.policy
    monkeypatch.setattr(iam, "policy", lambda f: stripped if f == "api_handler" else real(f))


def test_a_village_post_is_allowed_to_the_api_and_denied_without_batch_write_item(
    village, players, clock, forgetful_api
):
    seated = start(village, players, clock)
    at(village, clock, 5)
    speaker = next(iter(seated.values()))
    with aws_calls.collecting("api_handler") as made:
        posts.post(village, speaker, "public", "おはようございます", clock())
    assert ("dynamodb:BatchWriteItem", TABLE) in made
    calls = {("api_handler", action, resource): "the post" for action, resource in made}
    assert aws_calls.verdict(calls, whole_run=False) == [
        f"denied: api_handler dynamodb:BatchWriteItem on {TABLE} (in the post)"
    ]


def test_logging_out_every_other_browser_needs_batch_write_item(players, clock):
    for _ in range(2):
        sessions.open_session(players[0], clock())
    with aws_calls.collecting("api_handler") as made:
        sessions.close_all(players[0])
    assert ("dynamodb:BatchWriteItem", TABLE) in made
    assert all(iam.allowed("api_handler", request) for request in made)
    assert not iam.allowed("api_handler", ("dynamodb:Scan", TABLE))


def test_a_transaction_is_authorized_item_by_item():
    body = {"TableName": "mobius", "Key": {}}
    call = {
        "TransactItems": [
            {"Put": {**body, "Item": {}}},
            {"Update": {**body, "UpdateExpression": "SET a = :a"}},
            {"ConditionCheck": {**body, "ConditionExpression": "attribute_exists(pk)"}},
            {"Delete": body},
        ]
    }
    assert iam.requests("dynamodb", "TransactWriteItems", call) == [
        ("dynamodb:PutItem", TABLE),
        ("dynamodb:UpdateItem", TABLE),
        ("dynamodb:ConditionCheckItem", TABLE),
        ("dynamodb:DeleteItem", TABLE),
    ]


def test_an_index_query_a_message_batch_and_a_send_name_their_own_resources():
    assert iam.requests("dynamodb", "Query", {"TableName": "mobius", "IndexName": "gsi1"}) == [
        ("dynamodb:Query", f"{TABLE}/index/gsi1")
    ]
    queue = "https://sqs.ap-northeast-1.amazonaws.com/123456789012/mobius-mail"
    assert iam.requests("sqs", "SendMessageBatch", {"QueueUrl": queue, "Entries": []}) == [
        ("sqs:SendMessage", f"arn:aws:sqs:{iam.REGION}:{iam.ACCOUNT}:mobius-mail")
    ]
    sent = iam.requests("ses", "SendRawEmail", {"Source": f"noreply@{iam.MAIL_DOMAIN}"})
    assert sent == [
        ("ses:SendRawEmail", f"arn:aws:ses:{iam.REGION}:{iam.ACCOUNT}:identity/{iam.MAIL_DOMAIN}")
    ]
    # Mail from another domain is not the stack's identity: no function may send it.
    other = iam.requests("ses", "SendRawEmail", {"Source": "someone@elsewhere.example"})
    assert not any(iam.allowed(f, request) for f in iam.functions() for request in other)


def test_on_a_whole_run_a_grant_no_call_used_is_reported():
    used = {
        ("gm_create_village", action, TABLE): "a test"
        for action in ("dynamodb:PutItem", "dynamodb:UpdateItem")
    }
    problems = aws_calls.verdict(used, whole_run=True)
    assert f"allowed but never used: gm_create_village dynamodb:Query on {TABLE}" in problems
    assert aws_calls.verdict(used, whole_run=False) == []


def test_every_function_of_the_app_has_a_policy_of_its_own_scoped_to_the_stack():
    from app import app

    functions = [*app.pure_lambda_functions, *app.event_sources]
    names = {"api_handler", *(function.name for function in functions)}
    assert set(iam.functions()) == names
    for function in iam.functions():
        for action, resource in iam.granted(function):
            assert ":*:*:" not in resource, (function, action, resource)
            # Only SES's quota has no resource to scope to.
            assert resource != "*" or action == "ses:GetSendQuota", (function, action)
