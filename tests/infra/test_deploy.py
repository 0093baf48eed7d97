"""``make package`` deployed, offline: SAM's transform, the stack on moto (tests/infra/stack.py),
its resources as declared, and the handlers run from the zip against it with IAM enforced
for each function's own role (issue 35).

moto enforces IAM per request once ``set_initial_no_auth_action_count`` says so; it checks
SQS, IAM and STS against resource ARNs but every other service against ``*`` only, and a
DynamoDB transaction by its own name: ``_resources_named`` gives it the table's, the
parameter's and SES's ARNs and checks a transaction item by item, as AWS does.
"""

import json
import os
import re
import socket
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import boto3
import pytest
from argon2 import PasswordHasher
from moto.core import set_initial_no_auth_action_count
from moto.server import ThreadedMotoServer

from chalicelib import jobs, observability
from chalicelib.storage.keys import account_pk, email_pk, village_pk
from chalicelib.storage.models import AccountItem, EmailItem
from infra import operations
from infra.build import AWS_SDK
from infra.parameters import PARAMETERIZED

from .stack import ACCOUNT, ARTIFACTS, REGION, create_rest, deploy, sam_transform

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "ops@example.jp"
SECRET_PARAMETER = "/mobius/link-signing-key"
BOUNCED = "bounced@example.jp"
PASSWORD = "deploy-test-kettle-9q7w"
# Read by the code but set by nobody on purpose: local-only (MOBIUS_SECRET, the endpoints:
# the runner and tests) or an operator's option (decision 142: only GMs build villages).
UNSET_ON_PURPOSE = {
    "MOBIUS_SECRET",
    "MOBIUS_PLAYER_VILLAGES",
    "DYNAMODB_ENDPOINT",
    "SQS_ENDPOINT",
    "SES_ENDPOINT",
    "S3_ENDPOINT",
}


class Session:
    """boto3 clients on the moto server, as the test's own (unchecked) caller."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            region_name=REGION,
            endpoint_url=self.endpoint,
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# AWS authorizes a transaction by the action of each item in it (there is no
# dynamodb:TransactWriteItems action to grant); moto checks the call's own name.
TRANSACTION_ITEMS = {
    "TransactWriteItems": {
        "Put": "PutItem",
        "Update": "UpdateItem",
        "Delete": "DeleteItem",
        "ConditionCheck": "ConditionCheckItem",
    },
    "TransactGetItems": {"Get": "GetItem"},
}


@contextmanager
def _resources_named() -> Iterator[None]:
    """moto's IAM check as AWS's for the calls the code makes: with the ARN each request names
    for the services moto checks at '*' (DynamoDB, SSM, SES), and a transaction checked item
    by item."""
    from moto.dynamodb.responses import DynamoHandler
    from moto.ses.responses import EmailResponse
    from moto.ssm.responses import SimpleSystemManagerResponse

    def json_body(self: Any) -> dict:
        return self.body if isinstance(self.body, dict) else json.loads(self.body or "{}")

    def table_arn(name: str, index: str | None = None) -> str:
        return f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}" + (
            f"/index/{index}" if index else ""
        )

    def table(self: Any) -> str:
        body = json_body(self)
        name = body.get("TableName") or next(iter(body.get("RequestItems", {})), None)
        return table_arn(str(name), body.get("IndexName"))

    def parameter(self: Any) -> str:
        body = json_body(self)
        name = body.get("Name") or (body.get("Names") or [""])[0]
        return f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter{name}"

    def identity(self: Any) -> str:
        source = self.querystring.get("Source", [""])[0]
        return f"arn:aws:ses:{REGION}:{ACCOUNT}:identity/{source.rpartition('@')[2]}"

    checked = DynamoHandler._authenticate_and_authorize_normal_action

    def item_by_item(self: Any, resource: str = "*") -> None:
        kinds = TRANSACTION_ITEMS.get(self._get_action())
        if kinds is None:
            checked(self, resource)
            return
        for item in json_body(self)["TransactItems"]:
            ((kind, operation),) = item.items()
            self._get_action = lambda action=kinds[kind]: action
            try:
                checked(self, table_arn(operation["TableName"]))
            finally:
                del self._get_action

    patches = (
        (DynamoHandler, "_determine_resource", table),
        (DynamoHandler, "_authenticate_and_authorize_normal_action", item_by_item),
        (SimpleSystemManagerResponse, "_determine_resource", parameter),
        (EmailResponse, "_determine_resource", identity),
    )
    for handler, name, replacement in patches:
        setattr(handler, name, replacement)
    try:
        yield
    finally:
        for handler, name, _ in patches:
            delattr(handler, name)


@pytest.fixture(scope="module")
def deployed(template: Path, tmp_path_factory: pytest.TempPathFactory):
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    session = Session(f"http://127.0.0.1:{port}")
    try:
        s3 = session.client("s3")
        s3.create_bucket(Bucket=ARTIFACTS, CreateBucketConfiguration={"LocationConstraint": REGION})
        s3.upload_file(str(template.parent / "deployment.zip"), ARTIFACTS, "deployment.zip")
        body = json.loads(template.read_text(encoding="utf-8"))
        cloudformation = sam_transform(
            json.loads(json.dumps(body)), f"s3://{ARTIFACTS}/deployment.zip"
        )
        resolve, created = deploy(session, cloudformation, {"OperatorEmail": OPERATOR})
        session.client("ssm").put_parameter(
            Name=SECRET_PARAMETER, Value="deploy-test-key", Type="SecureString"
        )
        package = tmp_path_factory.mktemp("package")
        with zipfile.ZipFile(template.parent / "deployment.zip") as zipped:
            zipped.extractall(package)
        yield {
            "session": session,
            "template": body,
            "cloudformation": cloudformation,
            "resolve": resolve,
            "created": created,
            "package": package,
            "sdk": _runtime_sdk(tmp_path_factory.mktemp("sdk")),
        }
    finally:
        server.stop()


def _runtime_sdk(folder: Path) -> Path:
    """What the Lambda Python runtime adds to the path: boto3 and its dependencies, alone."""
    import boto3 as installed

    site = Path(installed.__file__).resolve().parent.parent
    for entry in site.iterdir():
        if entry.name.removesuffix(".py") in AWS_SDK:
            (folder / entry.name).symlink_to(entry)
    return folder


def _functions(deployed: dict) -> dict[str, dict]:
    """Each function's configuration as the stack made it, by logical id."""
    lambdas = deployed["session"].client("lambda")
    physical = deployed["resolve"].physical
    return {
        name: lambdas.get_function_configuration(FunctionName=physical[name])
        for name in operations.FUNCTIONS
    }


# ----- the stack's resources -----


def test_the_stack_creates_and_what_moto_cannot_model_is_created_from_the_template(deployed):
    created = set(deployed["created"].values())
    # Every kind the template holds that moto's CloudFormation skips was made through its API.
    assert {
        "AWS::CloudWatch::Alarm",
        "AWS::Lambda::EventInvokeConfig",
        "AWS::SNS::Subscription",
        "AWS::SQS::QueuePolicy",
        "AWS::SES::EmailIdentity",
        "AWS::SES::ConfigurationSet",
        "AWS::SES::ConfigurationSetEventDestination",
        "AWS::SES::ReceiptRule",
        "AWS::Budgets::Budget",
        "AWS::ApiGatewayV2::Api",
    } <= created
    # Without a certificate the custom domain is not made (its Condition).
    assert "ApiDomain" not in deployed["created"]


def test_the_table_has_its_keys_index_ttl_recovery_and_deletion_protection(deployed):
    dynamodb = deployed["session"].client("dynamodb")
    table = dynamodb.describe_table(TableName="mobius")["Table"]
    assert {k["AttributeName"]: k["KeyType"] for k in table["KeySchema"]} == {
        "pk": "HASH",
        "sk": "RANGE",
    }
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["gsi1"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert table["DeletionProtectionEnabled"] is True
    ttl = dynamodb.describe_time_to_live(TableName="mobius")["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}
    backups = dynamodb.describe_continuous_backups(TableName="mobius")
    recovery = backups["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert recovery["PointInTimeRecoveryStatus"] == "ENABLED"


def test_the_queues_send_what_fails_to_their_dead_letter_queues(deployed):
    sqs = deployed["session"].client("sqs")
    for queue, dead in (
        ("mobius-advance", "mobius-advance-dead"),
        ("mobius-mail", "mobius-mail-dead"),
    ):
        url = sqs.get_queue_url(QueueName=queue)["QueueUrl"]
        attributes = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        redrive = json.loads(attributes["RedrivePolicy"])
        assert redrive["deadLetterTargetArn"].endswith(f":{dead}")
        assert int(attributes["VisibilityTimeout"]) >= 6 * 60
    failed = sqs.get_queue_url(QueueName="mobius-failed-events")["QueueUrl"]
    policy = json.loads(
        sqs.get_queue_attributes(QueueUrl=failed, AttributeNames=["Policy"])["Attributes"]["Policy"]
    )
    senders = {s["Principal"]["Service"] for s in policy["Statement"]}
    assert senders == {"sns.amazonaws.com", "events.amazonaws.com"}


def test_the_schedules_retry_and_keep_what_they_could_not_deliver(deployed):
    events = deployed["session"].client("events")
    rules = {r["ScheduleExpression"]: r["Name"] for r in events.list_rules()["Rules"]}
    assert set(rules) == {"rate(1 minute)", "cron(0 22 * * ? *)"}
    for name in rules.values():
        (target,) = events.list_targets_by_rule(Rule=name)["Targets"]
        assert target["DeadLetterConfig"]["Arn"].endswith(":mobius-failed-events")
        assert target["RetryPolicy"]["MaximumRetryAttempts"] >= 1


def test_every_function_runs_its_handler_with_every_variable_the_code_reads(deployed):
    functions = _functions(deployed)
    declared = deployed["template"]["Resources"]
    read = _variables_the_code_reads()
    for name, config in functions.items():
        properties = declared[name]["Properties"]
        assert config["Handler"] == properties["Handler"]
        assert config["MemorySize"] == properties["MemorySize"]
        assert config["Timeout"] == properties["Timeout"]
        variables = config["Environment"]["Variables"]
        # AWS_REGION and the credentials: Lambda's own variables.
        wanted = {v for v in read - UNSET_ON_PURPOSE if not v.startswith("AWS_")}
        assert wanted - set(variables) == set(), name
        assert variables["MOBIUS_MAIL_FROM"] == "noreply@dev.mobius-jinro.example"
        assert variables["MOBIUS_MAIL_CONFIGURATION_SET"] == "mobius-mail"
        assert variables["MOBIUS_TABLE"] == "mobius"
        assert variables["MOBIUS_QUEUE_URL"].endswith("/mobius-advance")
    assert functions["APIHandler"]["Timeout"] == operations.API_TIMEOUT < 30
    assert functions["PuzzleDaily"]["Timeout"] == 900
    # The parameterized variables come from the stack's parameters, not from config.json.
    for resource in declared.values():
        if resource["Type"] == "AWS::Serverless::Function":
            assert not set(PARAMETERIZED) & set(resource["Properties"]["Environment"]["Variables"])


def test_every_handler_resolves_from_the_zip_with_only_the_runtimes_libraries(deployed):
    """``python -S``: the standard library, the package and boto3's closure, nothing else."""
    handlers = sorted({c["Handler"] for c in _functions(deployed).values()})
    assert len(handlers) == len(operations.FUNCTIONS)
    check = (
        "import importlib, sys; sys.path[:0] = sys.argv[1:3]; "
        "[getattr(importlib.import_module(h.rpartition('.')[0]), h.rpartition('.')[2]) "
        "for h in sys.argv[3:]]; import boto3; print(boto3.__file__)"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            check,
            str(deployed["package"]),
            str(deployed["sdk"]),
            *handlers,
        ],
        capture_output=True,
        text=True,
        env={"PATH": os.environ.get("PATH", ""), "AWS_DEFAULT_REGION": REGION},
        cwd=deployed["package"],
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(deployed["sdk"]))  # the runtime's boto3, not ours


def _variables_the_code_reads() -> set[str]:
    sources = [ROOT / "app.py", *sorted((ROOT / "chalicelib").rglob("*.py"))]
    found = set()
    for source in sources:
        text = source.read_text(encoding="utf-8")
        found |= set(re.findall(r"environ(?:\.get\(|\[)\"([A-Z_]+)\"", text))
    assert "MOBIUS_TABLE" in found and "MOBIUS_MAIL_QUEUE_URL" in found  # the search works
    return found


def test_the_queues_feed_their_workers_in_partial_batches_the_advance_worker_capped(deployed):
    lambdas = deployed["session"].client("lambda")
    physical = deployed["resolve"].physical
    mappings = {
        m["FunctionArn"].rsplit(":", 1)[-1]: m
        for m in lambdas.list_event_source_mappings()["EventSourceMappings"]
    }
    advance = mappings[physical["AdvanceWorker"]]
    mail = mappings[physical["MailWorker"]]
    assert advance["EventSourceArn"].endswith(":mobius-advance") and advance["BatchSize"] == 10
    assert mail["EventSourceArn"].endswith(":mobius-mail") and mail["BatchSize"] == 1
    for mapping in (advance, mail):
        assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    declared = deployed["cloudformation"]["Resources"]
    scaling = {
        r["Properties"]["FunctionName"]["Ref"]: r["Properties"].get("ScalingConfig")
        for r in declared.values()
        if r["Type"] == "AWS::Lambda::EventSourceMapping"
    }
    assert scaling["AdvanceWorker"] == {"MaximumConcurrency": jobs.ADVANCE_WORKERS}
    assert scaling["MailWorker"] == {"MaximumConcurrency": jobs.MAIL_WORKERS}


def test_asynchronous_invokes_end_in_the_failed_events_queue(deployed):
    lambdas = deployed["session"].client("lambda")
    physical = deployed["resolve"].physical
    for name, asynchronous in operations.FUNCTIONS.items():
        if not asynchronous:
            continue
        config = lambdas.get_function_event_invoke_config(FunctionName=physical[name])
        on_failure = config["DestinationConfig"]["OnFailure"]["Destination"]
        assert on_failure.endswith(":mobius-failed-events"), name
    sns = deployed["session"].client("sns")
    topic = deployed["resolve"].physical["SesNotificationsTopic"]
    (subscription,) = sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
    attributes = sns.get_subscription_attributes(SubscriptionArn=subscription["SubscriptionArn"])
    redrive = json.loads(attributes["Attributes"]["RedrivePolicy"])
    assert redrive["deadLetterTargetArn"].endswith(":mobius-failed-events")
    assert subscription["Endpoint"].endswith(physical["SesNotifications"])


def test_ses_and_the_api_may_invoke_their_functions(deployed):
    lambdas = deployed["session"].client("lambda")
    physical = deployed["resolve"].physical
    reply = json.loads(lambdas.get_policy(FunctionName=physical["ReplyMail"])["Policy"])
    assert {s["Principal"]["Service"] for s in reply["Statement"]} == {"ses.amazonaws.com"}
    api = json.loads(lambdas.get_policy(FunctionName=physical["APIHandler"])["Policy"])
    assert {s["Principal"]["Service"] for s in api["Statement"]} == {"apigateway.amazonaws.com"}


def test_the_operator_is_told_through_alarms_and_a_budget(deployed):
    session = deployed["session"]
    alarms = {
        a["AlarmName"]: a for a in session.client("cloudwatch").describe_alarms()["MetricAlarms"]
    }
    physical = deployed["resolve"].physical
    topic = physical["AlarmTopic"]
    for name in operations.FUNCTIONS:
        for metric in ("Errors", "Throttles"):
            alarm = alarms[f"{name}{metric}Alarm"]
            assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": physical[name]}]
            assert alarm["AlarmActions"] == [topic]
    for queue in operations.DEAD_LETTER_QUEUES:
        assert alarms[f"{queue}Alarm"]["Threshold"] == 1
    tick = alarms["TickMissingAlarm"]
    assert (tick["Namespace"], tick["MetricName"]) == (
        observability.METRICS_NAMESPACE,
        observability.TICK_METRIC,
    )
    assert (
        tick["TreatMissingData"] == "breaching"
        and tick["Period"] * tick["EvaluationPeriods"] == 300
    )
    assert alarms["SesBounceRateAlarm"]["Threshold"] == 0.05
    assert alarms["SesComplaintRateAlarm"]["Threshold"] == 0.001
    (subscription,) = session.client("sns").list_subscriptions_by_topic(TopicArn=topic)[
        "Subscriptions"
    ]
    assert (subscription["Protocol"], subscription["Endpoint"]) == ("email", OPERATOR)
    (budget,) = session.client("budgets").describe_budgets(AccountId=ACCOUNT)["Budgets"]
    assert budget["BudgetLimit"]["Unit"] == "USD" and budget["TimeUnit"] == "MONTHLY"
    groups = session.client("logs").describe_log_groups(logGroupNamePrefix="/aws/lambda/")
    retention = {g["logGroupName"]: g.get("retentionInDays") for g in groups["logGroups"]}
    assert {retention[f"/aws/lambda/{physical[name]}"] for name in operations.FUNCTIONS} == {30}


def test_mail_goes_out_through_the_domain_identity_and_its_bounces_reach_the_handler(deployed):
    session = deployed["session"]
    identity = session.client("sesv2").get_email_identity(EmailIdentity="dev.mobius-jinro.example")
    assert identity["ConfigurationSetName"] == "mobius-mail"
    mail_from = session.client("ses").get_identity_mail_from_domain_attributes(
        Identities=["dev.mobius-jinro.example"]
    )["MailFromDomainAttributes"]["dev.mobius-jinro.example"]
    assert mail_from["MailFromDomain"] == "bounce.dev.mobius-jinro.example"
    described = session.client("ses").describe_configuration_set(
        ConfigurationSetName="mobius-mail", ConfigurationSetAttributeNames=["eventDestinations"]
    )
    (destination,) = described["EventDestinations"]
    assert sorted(destination["MatchingEventTypes"]) == ["bounce", "complaint"]
    topic = deployed["resolve"].physical["SesNotificationsTopic"]
    assert destination["SNSDestination"]["TopicARN"] == topic


def test_with_a_certificate_the_api_answers_at_the_operators_domain(deployed):
    """The custom domain's resources, made as CloudFormation would with both parameters set."""
    resolve = deployed["resolve"]
    template = deployed["cloudformation"]
    saved = dict(resolve.values), dict(resolve.conditions)
    resolve.values.update(
        ApiDomainName="play.example.jp",
        CertificateArn=f"arn:aws:acm:{REGION}:{ACCOUNT}:certificate/0000",
    )
    resolve.conditions = {name: resolve(c) for name, c in template["Conditions"].items()}
    try:
        wanted = ("ApiDomain", "ApiDomainMapping")
        created = create_rest(
            deployed["session"], {name: template["Resources"][name] for name in wanted}, resolve
        )
    finally:
        resolve.values, resolve.conditions = saved
    assert set(created) == {"ApiDomain", "ApiDomainMapping"}
    apis = deployed["session"].client("apigatewayv2")
    domain = apis.get_domain_name(DomainName="play.example.jp")
    assert domain["DomainNameConfigurations"][0]["EndpointType"] == "REGIONAL"
    (mapping,) = apis.get_api_mappings(DomainName="play.example.jp")["Items"]
    assert mapping["ApiId"] == resolve.physical["HttpApi"] and mapping["Stage"] == "$default"


# ----- the handlers, from the zip, as their roles -----


def _credentials(deployed: dict, function: str) -> dict[str, str]:
    role = deployed["resolve"].physical[operations.ROLES[function]]
    assumed = (
        deployed["session"]
        .client("sts")
        .assume_role(RoleArn=f"arn:aws:iam::{ACCOUNT}:role/{role}", RoleSessionName=function)[
            "Credentials"
        ]
    )
    return {
        "AWS_ACCESS_KEY_ID": assumed["AccessKeyId"],
        "AWS_SECRET_ACCESS_KEY": assumed["SecretAccessKey"],
        "AWS_SESSION_TOKEN": assumed["SessionToken"],
    }


def _invoke(deployed: dict, function: str, events: list[dict]) -> tuple[list[Any], list[str]]:
    """The function's handler on ``events``, in a clean interpreter with its environment and
    its role's credentials, IAM enforced: (its results, the lines it wrote)."""
    config = _functions(deployed)[function]
    env = {
        **config["Environment"]["Variables"],
        **_credentials(deployed, function),
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ENDPOINT_URL": deployed["session"].endpoint,
        "AWS_LAMBDA_FUNCTION_NAME": config["FunctionName"],
        "PATH": os.environ.get("PATH", ""),
    }
    request = json.dumps({"handler": config["Handler"], "events": events})

    @set_initial_no_auth_action_count(0)
    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-S",
                str(ROOT / "tests" / "infra" / "invoke_from_package.py"),
                str(deployed["package"]),
                str(deployed["sdk"]),
            ],
            input=request,
            capture_output=True,
            text=True,
            env=env,
            cwd=deployed["package"],
            check=False,
        )

    with _resources_named():
        done = run()
    assert done.returncode == 0, done.stdout + done.stderr
    lines, _, results = done.stdout.rpartition("RESULTS\n")
    return json.loads(results), lines.splitlines()


def _json_lines(lines: list[str]) -> list[dict]:
    return [json.loads(line) for line in lines if line.startswith("{")]


def test_the_api_handler_serves_the_lounge_under_its_role(deployed):
    response, _ = _browse(deployed, "GET", "/")
    assert response["statusCode"] == 200
    assert "ラウンジ" in response["body"]


def test_the_tick_runs_under_its_role_logs_at_info_and_emits_its_metric(deployed):
    event = {
        "version": "0",
        "id": "tick-1",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT,
        "time": "2026-12-02T12:00:00Z",
        "region": REGION,
        "resources": [],
        "detail": {},
    }
    _, lines = _invoke(deployed, "Tick", [event])
    logged = _json_lines(lines)
    (report,) = [line for line in logged if str(line.get("message", "")).startswith("tick:")]
    assert report["level"] == "INFO" and report["request_id"] == "request-0"
    (metric,) = [line for line in logged if "_aws" in line]
    (directive,) = metric["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == observability.METRICS_NAMESPACE
    assert metric[observability.TICK_METRIC] == [1.0] or metric[observability.TICK_METRIC] == 1.0


def test_a_reply_is_read_from_the_bucket_under_its_role(deployed):
    session = deployed["session"]
    bucket = deployed["resolve"].physical["InboundMailBucket"]
    raw = (
        "From: someone@example.jp\r\nTo: r-unknown@reply.dev.mobius-jinro.example\r\n"
        "Subject: Re: test\r\nMessage-ID: <m1@example.jp>\r\n\r\n投票 1\r\n"
    ).encode()
    session.client("s3").put_object(Bucket=bucket, Key=jobs.INBOUND_PREFIX + "m1", Body=raw)
    event = {"Records": [{"ses": {"mail": {"messageId": "m1"}, "receipt": {}}}]}
    (outcomes,), lines = _invoke(deployed, "ReplyMail", [event])
    assert outcomes == ["dropped"]  # no member's reply address: read, then refused
    about = [r for r in _json_lines(lines) if r.get("message_id") == "m1"]
    assert about and {r["request_id"] for r in about} == {"request-0"}
    assert any(r["level"] == "INFO" and "dropped" in r["message"] for r in about)


def _account(deployed: dict, account_id: str, email: str, password_hash: str) -> None:
    """A verified account, put in the table by the test (its own set-up, not a function's)."""
    now = datetime.now(UTC)
    account = AccountItem(
        account_pk(account_id),
        "ACCOUNT",
        account_id=account_id,
        password_hash=password_hash,
        email=email,
        email_verified=True,
        holds={},
        departures=[],
        preferences={},
        created_at=now,
        expires_at=now + timedelta(days=30),
    )
    dynamodb = deployed["session"].client("dynamodb")
    for item in (account, EmailItem(email_pk(email), "EMAIL", account_id=account_id)):
        dynamodb.put_item(TableName="mobius", Item=item.serialize())


def _browse(
    deployed: dict,
    method: str,
    route: str,
    cookie: str = "",
    form: dict[str, str] | None = None,
    **params: str,
) -> tuple[dict, str]:
    """One request to the API handler from the zip, as a browser makes it to ``route`` with
    its ``params``: (the response, the cookie the browser holds after it)."""
    path = route.format(**params)
    headers = {"host": "dev.mobius-jinro.example"}
    if cookie:
        headers["cookie"] = cookie
    if form is not None:
        headers["content-type"] = "application/x-www-form-urlencoded"
    event = {
        "version": "1.0",
        "resource": route,
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": params or None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": route,
            "httpMethod": method,
            "requestId": f"browse-{method}-{path}",
            "identity": {"sourceIp": "127.0.0.1"},
            "routeKey": f"{method} {route}",
            "stage": "$default",
        },
        "body": urlencode(form) if form is not None else None,
        "isBase64Encoded": False,
    }
    (response,), _ = _invoke(deployed, "APIHandler", [event])
    assert response["statusCode"] < 500, response
    headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
    multi = {k.lower(): v for k, v in (response.get("multiValueHeaders") or {}).items()}
    set_cookie = headers.get("set-cookie") or (multi.get("set-cookie") or [""])[0]
    return response, set_cookie.partition(";")[0] or cookie


def _field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page) or re.search(
        rf'<select id="{name}" name="{name}">\s*<option value="([^"]*)"', page
    )
    assert found, f"no {name} on the page: {page}"
    return found.group(1)


def test_a_village_post_is_written_under_the_api_role(deployed):
    """The post a player writes on a village's page: its board is written in one batch
    (BatchWriteItem), which the API's own role must allow (issue 35's first finding)."""
    order = {"pace": "short", "name": "書き込み試験村", "rules": "classic"}
    (village,), _ = _invoke(deployed, "GmCreateVillage", [order])
    village_id = village["village_id"]
    _account(deployed, "poster", "poster@example.jp", PasswordHasher().hash(PASSWORD))
    login, cookie = _browse(deployed, "GET", "/login")
    form = {"csrf": _field(login["body"], "csrf"), "account_id": "poster", "password": PASSWORD}
    answer, cookie = _browse(deployed, "POST", "/login", cookie, form)
    assert answer["statusCode"] == 303, answer["body"]
    path = "/villages/{village_id}"
    page, cookie = _browse(deployed, "GET", path, cookie, village_id=village_id)
    join = {
        "csrf": _field(page["body"], "csrf"),
        "slot": _field(page["body"], "slot"),
        "persona": _field(page["body"], "persona"),
    }
    answer, cookie = _browse(deployed, "POST", path + "/join", cookie, join, village_id=village_id)
    assert answer["statusCode"] == 303, answer["body"]
    text = "配備したサーバーからの最初の書き込みです。"
    page, cookie = _browse(deployed, "GET", path, cookie, village_id=village_id)
    post = {"csrf": _field(page["body"], "csrf"), "board": "public", "text": text}
    answer, cookie = _browse(deployed, "POST", path + "/posts", cookie, post, village_id=village_id)
    assert answer["statusCode"] == 303, answer["body"]
    page, _ = _browse(deployed, "GET", path, cookie, village_id=village_id)
    assert text in page["body"]


def test_a_bounce_marks_the_account_under_its_role(deployed):
    dynamodb = deployed["session"].client("dynamodb")
    now = datetime.now(UTC)
    _account(deployed, "a1", BOUNCED, "x")
    notice = {
        "eventType": "Bounce",
        "bounce": {"bounceType": "Permanent", "bouncedRecipients": [{"emailAddress": BOUNCED}]},
    }
    topic = deployed["resolve"].physical["SesNotificationsTopic"]
    event = {
        "Records": [
            {
                "EventSource": "aws:sns",
                "Sns": {
                    "MessageId": "notice-1",
                    "TopicArn": topic,
                    "Subject": None,
                    "Message": json.dumps(notice),
                    "Timestamp": now.isoformat(),
                    "MessageAttributes": {},
                },
            }
        ]
    }
    _, lines = _invoke(deployed, "SesNotifications", [event])
    stored = dynamodb.get_item(
        TableName="mobius", Key={"pk": {"S": account_pk("a1")}, "sk": {"S": "ACCOUNT"}}
    )
    assert stored["Item"]["undeliverable"] == {"BOOL": True}
    (line,) = [r for r in _json_lines(lines) if "undeliverable" in str(r.get("message"))]
    assert line["notice_id"] == "notice-1" and line["level"] == "INFO"


def test_the_gm_lambda_builds_a_village_under_its_role(deployed):
    (answer,), _ = _invoke(deployed, "GmCreateVillage", [{"pace": "short", "name": "配備試験村"}])
    assert set(answer) == {"village_id"}, answer
    dynamodb = deployed["session"].client("dynamodb")
    items = dynamodb.query(
        TableName="mobius",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": village_pk(answer["village_id"])}},
    )["Items"]
    assert items  # the village's items, written by the function's own role
