"""The deployment package and template: built, linted, and able to render a page."""

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from infra.build import build

ROOT = Path(__file__).resolve().parents[2]

# Each build packages a copy of the sources (infra.build.staged) into a directory of its own
# (infra/out is `make package`'s); the HTTP API's build is conftest.py's ``template``, shared
# with test_deploy.py when one worker runs both; the REST API's is built here.


def test_package_holds_app_chalicelib_and_templates(template):
    names = zipfile.ZipFile(template.parent / "deployment.zip").namelist()
    assert "app.py" in names
    assert "chalicelib/web/pages.py" in names
    assert "templates/village.html" in names
    assert "mailparser_reply/parser.py" in names  # reply mail's quote heads (decision 160)
    assert "templates/mail/notice.txt" in names
    assert "templates/static/app.css" in names
    assert not any(name.startswith(("tests/", "devserver/", "moto/")) for name in names)


def test_package_ships_bytecode_for_its_runtime_and_leaves_the_aws_sdk_to_it(template):
    body = json.loads(template.read_text(encoding="utf-8"))
    runtimes = {
        r["Properties"]["Runtime"]
        for r in body["Resources"].values()
        if r["Type"] == "AWS::Serverless::Function"
    }
    tag = sys.implementation.cache_tag  # cpython-311
    assert runtimes == {f"python{sys.version_info.major}.{sys.version_info.minor}"}
    with zipfile.ZipFile(template.parent / "deployment.zip") as package:
        names = set(package.namelist())
        sources = [n for n in names if n.endswith(".py")]
        assert "chalicelib/web/__pycache__/pages." + tag + ".pyc" in names
        for source in sources:
            folder, _, module = source.rpartition("/")
            cached = f"{folder}/__pycache__/{module[:-3]}.{tag}.pyc".lstrip("/")
            assert cached in names, source
        header = package.read(f"__pycache__/app.{tag}.pyc")[:8]
    # PEP 552: hash-based and unchecked (flags 0b01), so no source mtime is compared.
    assert int.from_bytes(header[4:8], "little") == 0b01
    assert not any(n.split("/")[0] in ("boto3", "botocore", "s3transfer", "urllib3") for n in names)


def test_template_has_table_queue_topic_and_passes_cfn_lint(template):
    body = json.loads(template.read_text(encoding="utf-8"))
    resources = body["Resources"]
    table = resources["MobiusTable"]["Properties"]
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["gsi1"]
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert resources["AdvanceQueue"]["Type"] == "AWS::SQS::Queue"
    assert resources["SesNotificationsTopic"]["Type"] == "AWS::SNS::Topic"
    assert resources["GmCreateVillage"]["Type"] == "AWS::Serverless::Function"
    assert_lints(template)


def test_the_mail_workers_are_capped_so_that_together_they_keep_to_the_ses_rate(template):
    from chalicelib import jobs

    body = json.loads(template.read_text(encoding="utf-8"))
    resources = body["Resources"]
    assert resources["MailQueue"]["Properties"]["QueueName"] == jobs.MAIL_QUEUE_NAME
    events = resources["MailWorker"]["Properties"]["Events"]
    (source,) = events.values()
    assert source["Type"] == "SQS"
    assert source["Properties"]["BatchSize"] == 1
    assert source["Properties"]["ScalingConfig"] == {"MaximumConcurrency": jobs.MAIL_WORKERS}
    # Every function knows the mail queue: the advance worker and the tick hand villages to it.
    variables = body["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["MOBIUS_MAIL_QUEUE_URL"] == {"Ref": "MailQueue"}


def assert_lints(template: Path) -> None:
    lint = subprocess.run(
        [str(Path(sys.executable).parent / "cfn-lint"), str(template)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_every_route_is_behind_the_http_api_with_payload_format_1_0(template):
    from app import app

    resources = json.loads(template.read_text(encoding="utf-8"))["Resources"]
    assert "RestAPI" not in resources and "NotFoundResponse" not in resources
    assert resources["HttpApi"]["Type"] == "AWS::Serverless::HttpApi"
    handler = resources["APIHandler"]["Properties"]
    assert handler["Handler"] == "app.http_api"
    events = [e["Properties"] for e in handler["Events"].values()]
    assert all(e["Type"] == "HttpApi" for e in handler["Events"].values())
    assert all(e["PayloadFormatVersion"] == "1.0" for e in events)
    assert all(e["ApiId"] == {"Ref": "HttpApi"} for e in events)
    routed = {(e["Method"], e["Path"]) for e in events if "Path" in e}
    assert routed == {(method, path) for path, views in app.routes.items() for method in views}
    # Everything else goes to the $default route: the app's 404 page.
    assert [e for e in events if "Path" not in e and "Method" not in e] != []


def test_the_rest_api_front_still_builds_with_compression_and_its_404_page(tmp_path):
    template = build("dev", front="rest", out=tmp_path)
    resources = json.loads(template.read_text(encoding="utf-8"))["Resources"]
    assert resources["RestAPI"]["Properties"]["MinimumCompressionSize"] == 1024
    assert resources["NotFoundResponse"]["Properties"]["StatusCode"] == "404"
    assert resources["APIHandler"]["Properties"]["Handler"] == "app.app"
    assert "HttpApi" not in resources
    assert_lints(template)


def test_a_page_renders_from_the_package(template, tmp_path):
    with zipfile.ZipFile(template.parent / "deployment.zip") as package:
        package.extractall(tmp_path / "package")
    env = {
        **os.environ,
        # The package first, then this venv for moto (the fake AWS) and for boto3, which
        # the Lambda runtime provides as this venv does here.
        "PYTHONPATH": str(tmp_path / "package"),
    }
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "infra" / "render_from_package.py")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["app_file"].startswith(str(tmp_path / "package"))
    assert result["status"] == 200
    assert "ラウンジ" in result["body"]
    assert result["http_status"] == 200
    assert "ラウンジ" in result["http_body"]
    assert result["http_missing_status"] == 404


def test_in_production_the_mail_worker_waiting_on_the_ses_rate_runs_on_the_least_memory():
    """It mostly waits for its token bucket, and Lambda bills the wait by memory: 128 MB
    (~40 ms of CPU a mail there, well inside 1 / its pace); every other function 512 MB."""
    from chalice.config import Config

    from benchmarks.cost import MAIL_PACE

    on_disk = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))

    def memory(function: str) -> int:
        config = Config(chalice_stage="prod", function_name=function, config_from_disk=on_disk)
        return config.lambda_memory_size

    assert memory("mail_worker") == 128
    assert {memory(f) for f in ("api_handler", "tick", "advance_worker")} == {512}
    assert 1 / MAIL_PACE > 0.2  # a mail's time at 128 MB, with SES's round trip


def test_replies_reach_the_reply_function_through_s3_and_the_rule_is_locked_to_ses(template):
    """Issue 27: SES receives the reply domain's mail, stores it in the bucket, then invokes
    reply_mail; only SES, for this rule, writes into the bucket or invokes the function."""
    from chalicelib import jobs

    body = json.loads(template.read_text(encoding="utf-8"))
    resources = body["Resources"]
    rule = resources["InboundReplyRule"]["Properties"]["Rule"]
    assert rule["Recipients"] == [{"Ref": "ReplyDomain"}] and rule["ScanEnabled"]
    store, invoke = rule["Actions"]
    assert store["S3Action"]["BucketName"] == {"Ref": "InboundMailBucket"}
    assert store["S3Action"]["ObjectKeyPrefix"] == jobs.INBOUND_PREFIX
    assert invoke["LambdaAction"]["FunctionArn"] == {"Fn::GetAtt": ["ReplyMail", "Arn"]}
    assert resources["ReplyMail"]["Type"] == "AWS::Serverless::Function"
    (statement,) = resources["InboundMailBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "ses.amazonaws.com"}
    assert statement["Condition"]["StringEquals"]["AWS:SourceAccount"] == {"Ref": "AWS::AccountId"}
    permission = resources["ReplyMailInvokedBySes"]["Properties"]
    assert permission["Principal"] == "ses.amazonaws.com" and "SourceArn" in permission
    bucket = resources["InboundMailBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())


def test_each_function_runs_as_its_own_role_with_its_policy_file_scoped_by_fn_sub(template):
    resources = json.loads(template.read_text(encoding="utf-8"))["Resources"]
    roles = [
        body["Properties"]["Role"]["Fn::GetAtt"][0]
        for body in resources.values()
        if body["Type"] == "AWS::Serverless::Function"
    ]
    policies = ROOT / ".chalice" / "policies"
    assert len(set(roles)) == len(roles) == len(list(policies.glob("*.json"))) == 8

    def unsubstituted(value):
        if isinstance(value, dict) and list(value) == ["Fn::Sub"]:
            return value["Fn::Sub"]
        if isinstance(value, dict):
            return {k: unsubstituted(v) for k, v in value.items()}
        if isinstance(value, list):
            return [unsubstituted(v) for v in value]
        assert not (isinstance(value, str) and "${" in value), value  # each one is substituted
        return value

    for role in roles:
        function = re.sub(r"(?<!^)(?=[A-Z])", "_", role.removesuffix("Role")).lower()
        (policy,) = resources[role]["Properties"]["Policies"]
        written = json.loads((policies / f"{function}.json").read_text(encoding="utf-8"))
        assert unsubstituted(policy["PolicyDocument"]) == written, function
