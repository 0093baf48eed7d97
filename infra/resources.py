"""The project's own CloudFormation resources, merged into Chalice's SAM template.

The DynamoDB table is built from the PynamoDB models, so tests, the local
runner and AWS share one definition of keys, indexes and TTL.
"""

from typing import Any

from chalicelib import jobs
from chalicelib.storage.models import Item

from . import mail, operations
from .parameters import parameters

TABLE_NAME = "mobius"
NOT_FOUND_PAGE = (
    '<!doctype html><html lang="ja"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>ページが見つかりません — メビウス人狼</title></head>"
    '<body><h1>ページが見つかりません</h1><p><a href="/api/">ラウンジへ戻る</a></p></body></html>'
)


def table() -> dict[str, Any]:
    schema = Item._get_schema()
    return {
        "Type": "AWS::DynamoDB::Table",
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": {
            "TableName": TABLE_NAME,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": schema["attribute_definitions"],
            "KeySchema": schema["key_schema"],
            "GlobalSecondaryIndexes": [
                {
                    "IndexName": index["index_name"],
                    "KeySchema": [
                        {"AttributeName": k["AttributeName"], "KeyType": k["KeyType"]}
                        for k in index["key_schema"]
                    ],
                    "Projection": {"ProjectionType": index["projection"]["ProjectionType"]},
                }
                for index in schema["global_secondary_indexes"]
            ],
            "TimeToLiveSpecification": {"AttributeName": "expires_at", "Enabled": True},
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
            "DeletionProtectionEnabled": True,
        },
    }


def not_found_response() -> dict[str, Any]:
    """The REST API answers unknown paths itself (403): players get a 404 page instead.

    (Behind the HTTP API they reach the app's ``$default`` route: infra/front.py.)
    """
    return {
        "Type": "AWS::ApiGateway::GatewayResponse",
        "Properties": {
            "RestApiId": {"Ref": "RestAPI"},
            "ResponseType": "MISSING_AUTHENTICATION_TOKEN",
            "StatusCode": "404",
            "ResponseParameters": {
                "gatewayresponse.header.Content-Type": "'text/html; charset=utf-8'"
            },
            "ResponseTemplates": {"application/json": NOT_FOUND_PAGE},
        },
    }


def resources(front: str = "http", stage: str = "dev") -> dict[str, Any]:
    merged = _resources()
    merged["Parameters"] = parameters(stage)
    merged["Conditions"] = dict(operations.CONDITIONS)
    merged["Resources"].update(inbound_mail())
    merged["Resources"].update(mail.identity())
    merged["Resources"].update(operations.operations())
    merged["Outputs"].update(mail.outputs())
    variables = merged["Globals"]["Function"]["Environment"]["Variables"]
    variables["MOBIUS_INBOUND_BUCKET"] = {"Ref": "InboundMailBucket"}
    variables["MOBIUS_MAIL_CONFIGURATION_SET"] = {"Ref": "MailConfigurationSet"}
    # X-Ray traces of every function: the API and the workers (the HTTP API itself has none).
    merged["Globals"]["Function"]["Tracing"] = "Active"
    if front == "rest":
        merged["Resources"]["NotFoundResponse"] = not_found_response()
    else:
        merged["Conditions"].update(mail.CONDITIONS)
        merged["Resources"].update(mail.custom_domain())
        merged["Outputs"].update(mail.CUSTOM_DOMAIN_OUTPUTS)
    return merged


INBOUND_RULE_SET = "mobius-inbound"
INBOUND_KEPT_DAYS = 30  # a received reply is read at once; kept a while for an operator


def inbound_mail() -> dict[str, Any]:
    """Replies to game mail (issue 27): SES receives mail for the reply domain (its MX record
    points at SES's inbound endpoint; the rule set is made active once by an operator), its
    rule stores each message in the bucket, then invokes the reply_mail function."""
    bucket_name = {"Fn::Sub": "mobius-inbound-mail-${AWS::AccountId}-${AWS::Region}"}
    rule_arn = {
        "Fn::Sub": "arn:aws:ses:${AWS::Region}:${AWS::AccountId}:receipt-rule-set/"
        f"{INBOUND_RULE_SET}:receipt-rule/replies"
    }
    return {
        "InboundMailBucket": {
            "Type": "AWS::S3::Bucket",
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
            "Properties": {
                "BucketName": bucket_name,
                "PublicAccessBlockConfiguration": {
                    "BlockPublicAcls": True,
                    "BlockPublicPolicy": True,
                    "IgnorePublicAcls": True,
                    "RestrictPublicBuckets": True,
                },
                "BucketEncryption": {
                    "ServerSideEncryptionConfiguration": [
                        {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}
                    ]
                },
                "LifecycleConfiguration": {
                    "Rules": [
                        {
                            "Id": "ExpireReplies",
                            "Status": "Enabled",
                            "ExpirationInDays": INBOUND_KEPT_DAYS,
                        }
                    ]
                },
            },
        },
        # Only SES, for this account's reply rule, may write into the bucket.
        "InboundMailBucketPolicy": {
            "Type": "AWS::S3::BucketPolicy",
            "Properties": {
                "Bucket": {"Ref": "InboundMailBucket"},
                "PolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [
                        {
                            "Sid": "SesWritesReplies",
                            "Effect": "Allow",
                            "Principal": {"Service": "ses.amazonaws.com"},
                            "Action": "s3:PutObject",
                            "Resource": {"Fn::Sub": "${InboundMailBucket.Arn}/replies/*"},
                            "Condition": {
                                "StringEquals": {"AWS:SourceAccount": {"Ref": "AWS::AccountId"}},
                                "ArnLike": {"AWS:SourceArn": rule_arn},
                            },
                        }
                    ],
                },
            },
        },
        "ReplyMailInvokedBySes": {
            "Type": "AWS::Lambda::Permission",
            "Properties": {
                "Action": "lambda:InvokeFunction",
                "FunctionName": {"Ref": "ReplyMail"},
                "Principal": "ses.amazonaws.com",
                "SourceAccount": {"Ref": "AWS::AccountId"},
                "SourceArn": rule_arn,
            },
        },
        "InboundRuleSet": {
            "Type": "AWS::SES::ReceiptRuleSet",
            "Properties": {"RuleSetName": INBOUND_RULE_SET},
        },
        "InboundReplyRule": {
            "Type": "AWS::SES::ReceiptRule",
            "DependsOn": ["InboundMailBucketPolicy", "ReplyMailInvokedBySes"],
            "Properties": {
                "RuleSetName": {"Ref": "InboundRuleSet"},
                "Rule": {
                    "Name": "replies",
                    "Enabled": True,
                    "Recipients": [{"Ref": "ReplyDomain"}],
                    "ScanEnabled": True,  # spam and virus verdicts for the function
                    "TlsPolicy": "Optional",
                    "Actions": [
                        {
                            "S3Action": {
                                "BucketName": {"Ref": "InboundMailBucket"},
                                "ObjectKeyPrefix": jobs.INBOUND_PREFIX,
                            }
                        },
                        {
                            "LambdaAction": {
                                "FunctionArn": {"Fn::GetAtt": ["ReplyMail", "Arn"]},
                                "InvocationType": "Event",
                            }
                        },
                    ],
                },
            },
        },
    }


def _resources() -> dict[str, Any]:
    return {
        "Globals": {
            "Function": {
                "Environment": {
                    "Variables": {
                        "MOBIUS_QUEUE_URL": {"Ref": "AdvanceQueue"},
                        "MOBIUS_MAIL_QUEUE_URL": {"Ref": "MailQueue"},
                    }
                }
            }
        },
        "Resources": {
            # Chalice names the topic by name only: create it first. (The queues are
            # already first: every function's MOBIUS_*QUEUE_URL refers to them.)
            "SesNotifications": {"DependsOn": ["SesNotificationsTopic"]},
            "MobiusTable": table(),
            "AdvanceDeadLetters": {
                "Type": "AWS::SQS::Queue",
                "Properties": {
                    "QueueName": f"{jobs.QUEUE_NAME}-dead",
                    "MessageRetentionPeriod": 1209600,
                },
            },
            "AdvanceQueue": {
                "Type": "AWS::SQS::Queue",
                "Properties": {
                    "QueueName": jobs.QUEUE_NAME,
                    # Longer than a worker may run, so a message is not handed out twice at once.
                    "VisibilityTimeout": 360,
                    "RedrivePolicy": {
                        "deadLetterTargetArn": {"Fn::GetAtt": ["AdvanceDeadLetters", "Arn"]},
                        "maxReceiveCount": 5,
                    },
                },
            },
            "MailDeadLetters": {
                "Type": "AWS::SQS::Queue",
                "Properties": {
                    "QueueName": f"{jobs.MAIL_QUEUE_NAME}-dead",
                    "MessageRetentionPeriod": 1209600,
                },
            },
            # One message a village whose mail is owed; the mail workers drain it at the
            # account's SES rate (decision 58).
            "MailQueue": {
                "Type": "AWS::SQS::Queue",
                "Properties": {
                    "QueueName": jobs.MAIL_QUEUE_NAME,
                    # Six times the worker's timeout, as AWS advises for SQS event sources.
                    "VisibilityTimeout": 360,
                    "RedrivePolicy": {
                        "deadLetterTargetArn": {"Fn::GetAtt": ["MailDeadLetters", "Arn"]},
                        "maxReceiveCount": 5,
                    },
                },
            },
            "SesNotificationsTopic": {
                "Type": "AWS::SNS::Topic",
                "Properties": {"TopicName": jobs.SES_TOPIC_NAME},
            },
        },
        "Outputs": {
            "TableName": {"Value": {"Ref": "MobiusTable"}},
            "AdvanceQueueUrl": {"Value": {"Ref": "AdvanceQueue"}},
            "MailQueueUrl": {"Value": {"Ref": "MailQueue"}},
            "SesNotificationsTopicArn": {"Value": {"Ref": "SesNotificationsTopic"}},
            "InboundMailBucketName": {"Value": {"Ref": "InboundMailBucket"}},
        },
    }
