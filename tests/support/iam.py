"""What AWS authorizes an SDK call with, and whether a Lambda function's policy allows it.

moto does not enforce IAM: a call a policy forgets passes every test and fails in AWS. The suite
records the calls the code makes (``tests/support/aws_calls.py``); this module turns each into
the IAM requests AWS checks — an action on a resource, several for a transaction or a batch —
and evaluates them against the deployed function's policy with moto's own policy evaluator.

The policies (``.chalice/policies/<function>.json``) name their resources with CloudFormation's
substitutions (``${AWS::Region}``, ``${AWS::AccountId}``, ``${MailDomain}``); ``infra/build.py``
makes them ``Fn::Sub`` in the template, and here they are substituted with the recorded values.
"""

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from moto.iam.access_control import IAMPolicy, PermissionResult

from infra import mail
from infra.resources import TABLE_NAME

ROOT = Path(__file__).resolve().parents[2]
POLICIES = ROOT / ".chalice" / "policies"
REGION = "ap-northeast-1"
ACCOUNT = "123456789012"
# What the recorder writes for the configured sending domain and configuration set, whatever a
# test set them to; the policies' ${MailDomain} becomes the same.
MAIL_DOMAIN = "mail.example"
CONFIGURATION_SET = mail.CONFIGURATION_SET  # a fixed name (the policy's too)
INBOUND_BUCKET = f"mobius-inbound-mail-{ACCOUNT}-{REGION}"  # as infra/resources.py names it

# A transaction is authorized item by item (and a batch per table), each with the action of
# the single-item call.
TRANSACT_ACTIONS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
    "Get": "GetItem",
}
BATCH_ACTIONS = {"PutRequest": "BatchWriteItem", "DeleteRequest": "BatchWriteItem"}
# SDK operations authorized by an action of another name.
RENAMED = {
    ("sqs", "SendMessageBatch"): "SendMessage",
    ("sqs", "DeleteMessageBatch"): "DeleteMessage",
    ("sqs", "ChangeMessageVisibilityBatch"): "ChangeMessageVisibility",
}

Request = tuple[str, str]  # (action, resource)


def requests(service: str, operation: str, params: dict[str, Any]) -> list[Request]:
    """The IAM requests AWS checks for one SDK call (the recorder's normalized values)."""
    if service == "dynamodb":
        return _dynamodb(operation, params)
    action = f"{service}:{RENAMED.get((service, operation), operation)}"
    if service == "sqs":
        return [(action, _queue_arn(params))]
    if service == "ses":
        return _ses(action, params)
    if service == "ssm":
        name = str(params.get("Name", ""))
        return [(action, f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter/{name.lstrip('/')}")]
    if service == "s3":
        key = f"/{params['Key']}" if "Key" in params else ""
        return [(action, f"arn:aws:s3:::{params.get('Bucket', '')}{key}")]
    return [(action, "*")]


def _table_arn(name: str, index: str | None = None) -> str:
    arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
    return f"{arn}/index/{index}" if index else arn


def _dynamodb(operation: str, params: dict[str, Any]) -> list[Request]:
    if operation == "TransactWriteItems" or operation == "TransactGetItems":
        found = []
        for item in params.get("TransactItems", []):
            for kind, body in item.items():
                found.append((f"dynamodb:{TRANSACT_ACTIONS[kind]}", _table_arn(body["TableName"])))
        return found
    if operation == "BatchGetItem":
        return [("dynamodb:BatchGetItem", _table_arn(t)) for t in params.get("RequestItems", {})]
    if operation == "BatchWriteItem":
        return [
            ("dynamodb:BatchWriteItem", _table_arn(table))
            for table, writes in params.get("RequestItems", {}).items()
            if any(kind in BATCH_ACTIONS for write in writes for kind in write)
        ]
    table = str(params.get("TableName", ""))
    return [(f"dynamodb:{operation}", _table_arn(table, params.get("IndexName")))]


def _queue_arn(params: dict[str, Any]) -> str:
    name = params.get("QueueName") or urlparse(str(params.get("QueueUrl", ""))).path.rsplit("/")[-1]
    return f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"


def _ses(action: str, params: dict[str, Any]) -> list[Request]:
    if action != "ses:SendRawEmail" and action != "ses:SendEmail":
        return [(action, "*")]
    # SES authorizes a send on the identity it sends from, and on its configuration set.
    domain = str(params.get("Source", "")).rpartition("@")[2].rstrip(">")
    found = [(action, f"arn:aws:ses:{REGION}:{ACCOUNT}:identity/{domain}")]
    if params.get("ConfigurationSetName"):
        found.append(
            (
                action,
                f"arn:aws:ses:{REGION}:{ACCOUNT}:configuration-set/{params['ConfigurationSetName']}",
            )
        )
    return found


def normalized(service: str, params: dict[str, Any]) -> dict[str, Any]:
    """The call's names as deployed: the tests' table, queues and sender are the stack's."""
    params = dict(params)
    # One table and one inbound bucket: whatever a test named them, they are the stack's.
    if service == "dynamodb":
        if "TableName" in params:
            params["TableName"] = TABLE_NAME
        if "RequestItems" in params:
            batches = list(params["RequestItems"].values())
            params["RequestItems"] = {TABLE_NAME: batches[0]} if batches else {}
        if "TransactItems" in params:
            params["TransactItems"] = [
                {kind: {**body, "TableName": TABLE_NAME}}
                for item in params["TransactItems"]
                for kind, body in item.items()
            ]
    if service == "s3" and "Bucket" in params:
        params["Bucket"] = INBOUND_BUCKET
    if service == "ses" and "Source" in params:
        from chalicelib.notify import ses

        ours = ses.sender().rpartition("@")[2]
        source = str(params["Source"])
        if source.rpartition("@")[2].rstrip(">") == ours:
            params["Source"] = f"noreply@{MAIL_DOMAIN}"
        if params.get("ConfigurationSetName"):
            params["ConfigurationSetName"] = CONFIGURATION_SET
    if service == "ssm":
        params["Name"] = _deployed_secret_parameter()  # the one parameter the code reads
    return params


@cache
def _deployed_secret_parameter() -> str:
    config = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))
    return str(config["environment_variables"]["MOBIUS_SECRET_PARAMETER"])


SUBSTITUTIONS = {
    "${AWS::Region}": REGION,
    "${AWS::AccountId}": ACCOUNT,
    "${AWS::Partition}": "aws",
    "${MailDomain}": MAIL_DOMAIN,
}


def functions() -> list[str]:
    """The Lambda functions that have a policy of their own (every one of app.py's)."""
    return sorted(path.stem for path in POLICIES.glob("*.json"))


@cache
def policy(function: str) -> IAMPolicy:
    text = (POLICIES / f"{function}.json").read_text(encoding="utf-8")
    for name, value in SUBSTITUTIONS.items():
        text = text.replace(name, value)
    return IAMPolicy(text)


def allowed(function: str, request: Request) -> bool:
    action, resource = request
    return policy(function).is_action_permitted(action, resource) == PermissionResult.PERMITTED


def document(function: str) -> dict[str, Any]:
    """The function's policy as deployed here (substituted), as JSON data."""
    return copy.deepcopy(policy(function)._policy_json)


def granted(function: str, platform: bool = True) -> list[Request]:
    """Every (action, resource pattern) the function's policy allows, one per pair; without
    ``platform``, not those of the statements Lambda itself uses (``Sid`` ``Platform…``)."""
    pairs = []
    for statement in policy(function)._policy_json["Statement"]:
        if statement["Effect"] != "Allow":
            continue
        if not platform and str(statement.get("Sid", "")).startswith("Platform"):
            continue
        actions = statement["Action"]
        resources = statement["Resource"]
        for action in [actions] if isinstance(actions, str) else actions:
            for resource in [resources] if isinstance(resources, str) else resources:
                pairs.append((action, resource))
    return pairs


def covers(pattern: Request, request: Request) -> bool:
    """Whether a granted (action, resource pattern) is what allows ``request``."""
    single = {"Version": "2012-10-17", "Statement": [_statement(*pattern)]}
    verdict = IAMPolicy(json.dumps(single)).is_action_permitted(*request)
    return verdict == PermissionResult.PERMITTED


def _statement(action: str, resource: str) -> dict[str, Any]:
    return {"Effect": "Allow", "Action": action, "Resource": resource}
