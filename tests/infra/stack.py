"""The packaged template deployed on moto: SAM's transform, then moto's CloudFormation for
what it models, then each remaining resource created through its service's API from the
template's own properties (botocore checks each call against the service's model, so a
property of the wrong shape fails here as it would in AWS)."""

import json
import re
import warnings
from collections.abc import Callable
from typing import Any

import boto3
from moto.cloudformation.parsing import get_model_map
from samtranslator.parser.parser import Parser
from samtranslator.translator.translator import Translator

REGION = "ap-northeast-1"
ACCOUNT = "123456789012"  # moto's account
ARTIFACTS = "mobius-artifacts"
STACK = "mobius"


def sam_transform(template: dict[str, Any], code_uri: str) -> dict[str, Any]:
    """The template as CloudFormation receives it from ``sam deploy`` (code in ``code_uri``)."""
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Serverless::Function":
            resource["Properties"]["CodeUri"] = code_uri
    # No managed policies to look up by name: SAM does so only for a function's ``Policies``.
    translator = Translator({}, Parser(), boto_session=boto3.Session(region_name=REGION))
    return dict(translator.translate(template, parameter_values={}))


def _mentions(value: Any, names: set[str]) -> bool:
    text = json.dumps(value)
    refs = re.findall(r'"Ref": "([^"]+)"|"Fn::GetAtt": \["([^"]+)"|\$\{([^}.]+)', text)
    return any(name in names for match in refs for name in match if name)


# What Ref gives of a resource moto's CloudFormation skips, from its properties (AWS's docs):
# moto would give its logical id instead.
REFS = {"AWS::SES::ConfigurationSet": lambda properties: properties["Name"]}


def _substituted(value: Any, refs: dict[str, Any]) -> Any:
    if isinstance(value, list):
        return [_substituted(v, refs) for v in value]
    if isinstance(value, dict):
        if set(value) == {"Ref"} and value["Ref"] in refs:
            return refs[value["Ref"]]
        return {k: _substituted(v, refs) for k, v in value.items()}
    return value


def split(template: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the stack's template, what moto's CloudFormation does not model): the stack's
    template without outputs that name the rest, and with the rest's predictable Refs given
    (moto skips those resources with a warning)."""
    modeled = get_model_map()
    rest = {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"] not in modeled
    }
    refs = {
        name: REFS[resource["Type"]](resource["Properties"])
        for name, resource in rest.items()
        if resource["Type"] in REFS
    }
    stack = _substituted(template, refs)
    stack["Outputs"] = {
        name: output
        for name, output in stack.get("Outputs", {}).items()
        if not _mentions(output, set(rest))
    }
    return stack, json.loads(json.dumps(rest))


class Resolver:
    """CloudFormation's intrinsic functions over the created stack and parameters."""

    def __init__(self, session: Any, parameters: dict[str, str], conditions: dict) -> None:
        self.session = session
        cloudformation = session.client("cloudformation")
        summaries = cloudformation.list_stack_resources(StackName=STACK)
        self.physical = {
            s["LogicalResourceId"]: s["PhysicalResourceId"]
            for s in summaries["StackResourceSummaries"]
        }
        self.types = {
            s["LogicalResourceId"]: s["ResourceType"] for s in summaries["StackResourceSummaries"]
        }
        self.values: dict[str, Any] = {
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::StackName": STACK,
            **parameters,
        }
        self.conditions = {name: self(condition) for name, condition in conditions.items()}

    def ref(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        return self.physical[name]

    def attribute(self, name: str, attribute: str) -> Any:
        kind = self.types.get(name)
        physical = self.physical.get(name)
        if kind == "AWS::SQS::Queue":
            queue = physical.rsplit("/", 1)[-1]
            if attribute == "QueueName":
                return queue
            if attribute == "Arn":
                return f"arn:aws:sqs:{REGION}:{ACCOUNT}:{queue}"
        if kind == "AWS::Lambda::Function" and attribute == "Arn":
            return self.session.client("lambda").get_function(FunctionName=physical)[
                "Configuration"
            ]["FunctionArn"]
        if kind == "AWS::SNS::Topic" and attribute == "TopicName":
            return physical.rsplit(":", 1)[-1]
        if kind == "AWS::S3::Bucket" and attribute == "Arn":
            return f"arn:aws:s3:::{physical}"
        if kind == "AWS::IAM::Role" and attribute == "Arn":
            return f"arn:aws:iam::{ACCOUNT}:role/{physical}"
        raise KeyError(f"{name}.{attribute}")

    def __call__(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            (function, argument), *_ = value.items()
            if function == "Ref":
                return self.ref(argument)
            if function == "Fn::GetAtt":
                return self.attribute(*argument)
            if function == "Fn::Sub":
                text, names = (argument, {}) if isinstance(argument, str) else argument
                names = {k: self(v) for k, v in names.items()}

                def one(match: re.Match) -> str:
                    name = match.group(1)
                    if name in names:
                        return str(names[name])
                    if "." in name and not name.startswith("AWS::"):
                        return str(self.attribute(*name.split(".", 1)))
                    return str(self.ref(name))

                return re.sub(r"\$\{([^}]+)\}", one, text)
            if function == "Fn::Join":
                return argument[0].join(str(v) for v in self(argument[1]))
            if function == "Fn::Equals":
                left, right = self(argument)
                return str(left) == str(right)
            if function == "Fn::Not":
                return not self(argument[0])
            if function == "Fn::And":
                return all(self(a) for a in argument)
            if function == "Fn::If":
                name, yes, no = argument
                return self(yes) if self.conditions[name] else self(no)
        return {k: self(v) for k, v in value.items()}


def _dumped(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def create_rest(session: Any, rest: dict[str, Any], resolve: Resolver) -> dict[str, str]:
    """Creates each resource moto's CloudFormation does not model; returns logical id -> the
    type of each one created (those whose Condition is false are left out, as in AWS)."""
    created: dict[str, str] = {}
    pending = dict(rest)
    # The order CloudFormation would follow: what a resource names is created first.
    while pending:
        for name, resource in list(pending.items()):
            if _mentions(resource, set(pending) - {name}):
                continue
            del pending[name]
            condition = resource.get("Condition")
            if condition and not resolve.conditions[condition]:
                continue
            make = CREATORS[resource["Type"]]
            physical = make(session, name, resolve(resource.get("Properties", {})), resolve)
            resolve.physical[name] = physical
            resolve.types[name] = resource["Type"]
            created[name] = resource["Type"]
    return created


def _alarm(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("cloudwatch").put_metric_alarm(AlarmName=name, **p)
    return name


def _event_invoke_config(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("lambda").put_function_event_invoke_config(**p)
    return name


def _subscription(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    attributes = {"RedrivePolicy": _dumped(p["RedrivePolicy"])} if "RedrivePolicy" in p else {}
    arn = session.client("sns").subscribe(
        TopicArn=p["TopicArn"],
        Protocol=p["Protocol"],
        Endpoint=p["Endpoint"],
        Attributes=attributes,
    )["SubscriptionArn"]
    return str(arn)


def _topic_policy(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    for topic in p["Topics"]:
        session.client("sns").set_topic_attributes(
            TopicArn=topic, AttributeName="Policy", AttributeValue=_dumped(p["PolicyDocument"])
        )
    return name


def _queue_policy(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    for queue in p["Queues"]:
        session.client("sqs").set_queue_attributes(
            QueueUrl=queue, Attributes={"Policy": _dumped(p["PolicyDocument"])}
        )
    return name


def _bucket_policy(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("s3").put_bucket_policy(Bucket=p["Bucket"], Policy=_dumped(p["PolicyDocument"]))
    return name


def _rule_set(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("ses").create_receipt_rule_set(RuleSetName=p["RuleSetName"])
    return str(p["RuleSetName"])


def _rule(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("ses").create_receipt_rule(RuleSetName=p["RuleSetName"], Rule=p["Rule"])
    return str(p["Rule"]["Name"])


def _configuration_set(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    options = {k: p[k] for k in ("ReputationOptions", "SendingOptions") if k in p}
    session.client("sesv2").create_configuration_set(ConfigurationSetName=p["Name"], **options)
    return str(p["Name"])


def _event_destination(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    # SES v1's API (moto has no v2 event destinations) spells the SNS destination SNSDestination.
    destination = dict(p["EventDestination"])
    destination["SNSDestination"] = destination.pop("SnsDestination")
    session.client("ses").create_configuration_set_event_destination(
        ConfigurationSetName=p["ConfigurationSetName"], EventDestination=destination
    )
    return str(destination["Name"])


def _email_identity(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    identity = p["EmailIdentity"]
    session.client("sesv2").create_email_identity(
        EmailIdentity=identity,
        DkimSigningAttributes=p["DkimSigningAttributes"],
        ConfigurationSetName=p["ConfigurationSetAttributes"]["ConfigurationSetName"],
    )
    # SES v1's call (moto has no v2 one) and its spelling of the v2 values.
    mail_from = p["MailFromAttributes"]
    behaviour = {"USE_DEFAULT_VALUE": "UseDefaultValue", "REJECT_MESSAGE": "RejectMessage"}
    session.client("ses").set_identity_mail_from_domain(
        Identity=identity,
        MailFromDomain=mail_from["MailFromDomain"],
        BehaviorOnMXFailure=behaviour[mail_from["BehaviorOnMxFailure"]],
    )
    return str(identity)


def _budget(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    budget = {**p["Budget"], "BudgetName": name}
    limit = budget["BudgetLimit"]
    budget["BudgetLimit"] = {**limit, "Amount": str(limit["Amount"])}
    session.client("budgets").create_budget(
        AccountId=ACCOUNT,
        Budget=budget,
        NotificationsWithSubscribers=p["NotificationsWithSubscribers"],
    )
    return name


def _http_api(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    client = session.client("apigatewayv2")
    api = client.create_api(Name=name, ProtocolType="HTTP")["ApiId"]
    client.reimport_api(
        ApiId=api, Body=json.dumps(p["Body"]), FailOnWarnings=p.get("FailOnWarnings", False)
    )
    return str(api)


def _stage(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("apigatewayv2").create_stage(
        ApiId=p["ApiId"], StageName=p["StageName"], AutoDeploy=p.get("AutoDeploy", False)
    )
    return str(p["StageName"])


def _domain(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    session.client("apigatewayv2").create_domain_name(**p)
    return str(p["DomainName"])


def _mapping(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    return str(session.client("apigatewayv2").create_api_mapping(**p)["ApiMappingId"])


CREATORS: dict[str, Callable[[Any, str, dict, Resolver], str]] = {
    "AWS::CloudWatch::Alarm": _alarm,
    "AWS::Lambda::EventInvokeConfig": _event_invoke_config,
    "AWS::SNS::Subscription": _subscription,
    "AWS::SNS::TopicPolicy": _topic_policy,
    "AWS::SQS::QueuePolicy": _queue_policy,
    "AWS::S3::BucketPolicy": _bucket_policy,
    "AWS::SES::ReceiptRuleSet": _rule_set,
    "AWS::SES::ReceiptRule": _rule,
    "AWS::SES::ConfigurationSet": _configuration_set,
    "AWS::SES::ConfigurationSetEventDestination": _event_destination,
    "AWS::SES::EmailIdentity": _email_identity,
    "AWS::Budgets::Budget": _budget,
    "AWS::ApiGatewayV2::Api": _http_api,
    "AWS::ApiGatewayV2::Stage": _stage,
    "AWS::ApiGatewayV2::DomainName": _domain,
    "AWS::ApiGatewayV2::ApiMapping": _mapping,
}


def _table_settings(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    """What moto's CloudFormation leaves out of a table: its TTL and point-in-time recovery."""
    dynamodb = session.client("dynamodb")
    dynamodb.update_time_to_live(
        TableName=p["TableName"], TimeToLiveSpecification=p["TimeToLiveSpecification"]
    )
    dynamodb.update_continuous_backups(
        TableName=p["TableName"],
        PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": p["PointInTimeRecoverySpecification"][
                "PointInTimeRecoveryEnabled"
            ]
        },
    )
    return name


def _role_policies(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    """moto's CloudFormation keeps a role's inline policies as objects its IAM check cannot
    read (it reads JSON text) and leaves out its managed policies: both given again here."""
    iam = session.client("iam")
    role = resolve.physical[name]
    for policy in p.get("Policies", []):
        iam.put_role_policy(
            RoleName=role,
            PolicyName=policy["PolicyName"],
            PolicyDocument=json.dumps(policy["PolicyDocument"]),
        )
    for arn in p.get("ManagedPolicyArns", []):
        iam.attach_role_policy(RoleName=role, PolicyArn=arn)
    return name


def _policy(session: Any, name: str, p: dict, resolve: Resolver) -> str:
    for role in p.get("Roles", []):
        session.client("iam").put_role_policy(
            RoleName=role,
            PolicyName=p["PolicyName"],
            PolicyDocument=json.dumps(p["PolicyDocument"]),
        )
    return name


# Properties moto's CloudFormation does not apply (as AWS would) on resources it models.
UNAPPLIED: dict[str, Callable[[Any, str, dict, Resolver], str]] = {
    "AWS::DynamoDB::Table": _table_settings,
    "AWS::IAM::Role": _role_policies,
    "AWS::IAM::Policy": _policy,
}


def deploy(
    session: Any, template: dict[str, Any], parameters: dict[str, str]
) -> tuple[Resolver, dict[str, str]]:
    """Creates the stack (moto's CloudFormation, then the rest through the APIs): the
    resolver over it, and the resources created through the APIs (logical id -> type)."""
    stack, rest = split(template)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not supported by moto's CloudFormation": none left
        session.client("cloudformation").create_stack(
            StackName=STACK,
            TemplateBody=json.dumps(stack),
            Parameters=[{"ParameterKey": k, "ParameterValue": v} for k, v in parameters.items()],
            Capabilities=["CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"],
        )
    status = session.client("cloudformation").describe_stacks(StackName=STACK)["Stacks"][0]
    assert status["StackStatus"] == "CREATE_COMPLETE", status.get("StackStatusReason")
    defaults = {
        name: str(parameter["Default"])
        for name, parameter in template.get("Parameters", {}).items()
        if "Default" in parameter
    }
    resolve = Resolver(session, {**defaults, **parameters}, template.get("Conditions", {}))
    for name, resource in template["Resources"].items():
        if resource["Type"] in UNAPPLIED:
            UNAPPLIED[resource["Type"]](session, name, resolve(resource["Properties"]), resolve)
    return resolve, create_rest(session, rest, resolve)
