"""What keeps the deployed app operable: failures that land in a queue, alarms that reach the
operator, logs kept a while, tracing and a budget (issue 35; docs/decisions.md 200–203).

Merged into Chalice's template (infra/build.py) beside infra/resources.py: the properties
added to Chalice's own functions and events are merged into them by their logical ids.
"""

from typing import Any

from chalicelib import jobs, observability

# Chalice's logical ids of the app's functions (app.py), and whether each is invoked
# asynchronously (by SES, SNS or EventBridge): those get an on-failure destination.
FUNCTIONS = {
    "APIHandler": False,
    "Tick": True,
    "PuzzleDaily": True,
    "AdvanceWorker": False,
    "MailWorker": False,
    "SesNotifications": True,
    "ReplyMail": True,
    "GmCreateVillage": False,
}
ROLES = {name: ("ApiHandlerRole" if name == "APIHandler" else f"{name}Role") for name in FUNCTIONS}
FAILED_EVENTS = "FailedEvents"
DEAD_LETTER_QUEUES = ("AdvanceDeadLetters", "MailDeadLetters", FAILED_EVENTS)
# API Gateway ends an integration at 30 s (HTTP and REST APIs alike): the function must end first.
API_TIMEOUT = 29
KEPT = 1209600  # 14 days, SQS's longest: an operator has two weeks to look
# The tick's custom metric (EMF, chalicelib/jobs.py): no data for five minutes is an alarm.
METRICS_NAMESPACE = observability.METRICS_NAMESPACE
TICK_METRIC = observability.TICK_METRIC
SERVICE = observability.SERVICE
# SES reviews an account at 5 % bounces and 0.1 % complaints (its documented thresholds);
# the alarms fire there, before SES's own review levels (10 %, 0.5 %).
BOUNCE_RATE = 0.05
COMPLAINT_RATE = 0.001
# What Lambda's active tracing sends with the function's role (X-Ray takes no resource ARN).
XRAY_WRITE = ["xray:PutTraceSegments", "xray:PutTelemetryRecords"]


def on_failure(retries: int, max_age: int) -> dict[str, Any]:
    return {
        "MaximumRetryAttempts": retries,
        "MaximumEventAgeInSeconds": max_age,
        "DestinationConfig": {
            "OnFailure": {"Type": "SQS", "Destination": {"Fn::GetAtt": [FAILED_EVENTS, "Arn"]}}
        },
    }


def function_settings() -> dict[str, Any]:
    """Merged into Chalice's functions: what each does with a failure, tracing, the API's
    timeout, the workers' partial batches and the advance worker's cap."""
    target_failures = {"DeadLetterConfig": {"Arn": {"Fn::GetAtt": [FAILED_EVENTS, "Arn"]}}}
    partial = {"FunctionResponseTypes": ["ReportBatchItemFailures"]}
    return {
        "APIHandler": {"Properties": {"Timeout": API_TIMEOUT}},
        # The next minute's tick does the work again: a late tick is not worth retrying long.
        "Tick": {
            "Properties": {
                "EventInvokeConfig": on_failure(retries=0, max_age=60),
                "Events": {
                    "TickEvent": {
                        "Properties": {
                            "RetryPolicy": {
                                "MaximumRetryAttempts": 2,
                                "MaximumEventAgeInSeconds": 60,
                            },
                            **target_failures,
                        }
                    }
                },
            }
        },
        "PuzzleDaily": {
            "Properties": {
                "EventInvokeConfig": on_failure(retries=2, max_age=3600),
                "Events": {
                    "PuzzleDailyEvent": {
                        "Properties": {
                            "RetryPolicy": {
                                "MaximumRetryAttempts": 5,
                                "MaximumEventAgeInSeconds": 3600,
                            },
                            **target_failures,
                        }
                    }
                },
            }
        },
        "AdvanceWorker": {
            "Properties": {
                "Events": {
                    "AdvanceWorkerSqsEventSource": {
                        "Properties": {
                            **partial,
                            "ScalingConfig": {"MaximumConcurrency": jobs.ADVANCE_WORKERS},
                        }
                    }
                }
            }
        },
        "MailWorker": {
            "Properties": {"Events": {"MailWorkerSqsEventSource": {"Properties": partial}}}
        },
        "SesNotifications": {
            "Properties": {
                "EventInvokeConfig": on_failure(retries=2, max_age=6 * 3600),
                "Events": {
                    "SesNotificationsSnsSubscription": {
                        "Properties": {
                            "RedrivePolicy": {
                                "deadLetterTargetArn": {"Fn::GetAtt": [FAILED_EVENTS, "Arn"]}
                            }
                        }
                    }
                },
            }
        },
        "ReplyMail": {"Properties": {"EventInvokeConfig": on_failure(retries=2, max_age=6 * 3600)}},
    }


def failed_events() -> dict[str, Any]:
    """One queue for whatever an asynchronous invoke, EventBridge or SNS could not deliver."""
    queue_arn = {"Fn::GetAtt": [FAILED_EVENTS, "Arn"]}
    return {
        FAILED_EVENTS: {
            "Type": "AWS::SQS::Queue",
            "Properties": {
                "QueueName": "mobius-failed-events",
                "MessageRetentionPeriod": KEPT,
            },
        },
        "FailedEventsPolicy": {
            "Type": "AWS::SQS::QueuePolicy",
            "Properties": {
                "Queues": [{"Ref": FAILED_EVENTS}],
                "PolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [
                        {
                            "Sid": "SnsRedrive",
                            "Effect": "Allow",
                            "Principal": {"Service": "sns.amazonaws.com"},
                            "Action": "sqs:SendMessage",
                            "Resource": queue_arn,
                            "Condition": {
                                "ArnEquals": {"aws:SourceArn": {"Ref": "SesNotificationsTopic"}}
                            },
                        },
                        {
                            "Sid": "EventBridgeTargets",
                            "Effect": "Allow",
                            "Principal": {"Service": "events.amazonaws.com"},
                            "Action": "sqs:SendMessage",
                            "Resource": queue_arn,
                            "Condition": {
                                "StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
                            },
                        },
                    ],
                },
            },
        },
        # Lambda sends an asynchronous invoke's failure with the function's own role.
        "FailedEventsSend": {
            "Type": "AWS::IAM::Policy",
            "Properties": {
                "PolicyName": "failed-events",
                "Roles": [{"Ref": ROLES[name]} for name, event in FUNCTIONS.items() if event],
                "PolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [
                        {"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": queue_arn}
                    ],
                },
            },
        },
    }


def tracing() -> dict[str, Any]:
    return {
        "TracingWrite": {
            "Type": "AWS::IAM::Policy",
            "Properties": {
                "PolicyName": "tracing",
                "Roles": [{"Ref": role} for role in ROLES.values()],
                "PolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [{"Effect": "Allow", "Action": XRAY_WRITE, "Resource": "*"}],
                },
            },
        }
    }


def _alarm(description: str, **properties: Any) -> dict[str, Any]:
    return {
        "Type": "AWS::CloudWatch::Alarm",
        "Properties": {
            "AlarmDescription": description,
            "AlarmActions": [{"Ref": "AlarmTopic"}],
            "OKActions": [{"Ref": "AlarmTopic"}],
            "EvaluationPeriods": 1,
            "TreatMissingData": "notBreaching",
            **properties,
        },
    }


def alarms() -> dict[str, Any]:
    """The operator's topic and every alarm; one e-mail subscription to confirm (docs/deploy.md)."""
    result: dict[str, Any] = {
        "AlarmTopic": {
            "Type": "AWS::SNS::Topic",
            "Properties": {
                "TopicName": "mobius-alarms",
                "Subscription": [{"Protocol": "email", "Endpoint": {"Ref": "OperatorEmail"}}],
            },
        }
    }
    for function in FUNCTIONS:
        for metric in ("Errors", "Throttles"):
            result[f"{function}{metric}Alarm"] = _alarm(
                f"{function}: {metric.lower()} in the last 5 minutes",
                Namespace="AWS/Lambda",
                MetricName=metric,
                Dimensions=[{"Name": "FunctionName", "Value": {"Ref": function}}],
                Statistic="Sum",
                Period=300,
                Threshold=1,
                ComparisonOperator="GreaterThanOrEqualToThreshold",
            )
    for queue in DEAD_LETTER_QUEUES:
        result[f"{queue}Alarm"] = _alarm(
            f"{queue}: a message is waiting (work that failed for good)",
            Namespace="AWS/SQS",
            MetricName="ApproximateNumberOfMessagesVisible",
            Dimensions=[{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue, "QueueName"]}}],
            Statistic="Maximum",
            Period=300,
            Threshold=1,
            ComparisonOperator="GreaterThanOrEqualToThreshold",
        )
    result["TickMissingAlarm"] = _alarm(
        "No successful tick for 5 minutes: nothing advances, no mail is handed over",
        Namespace=METRICS_NAMESPACE,
        MetricName=TICK_METRIC,
        Dimensions=[{"Name": "service", "Value": SERVICE}],
        Statistic="Sum",
        Period=60,
        EvaluationPeriods=5,
        DatapointsToAlarm=5,
        Threshold=1,
        ComparisonOperator="LessThanThreshold",
        TreatMissingData="breaching",
    )
    for name, metric, threshold in (
        ("SesBounceRateAlarm", "Reputation.BounceRate", BOUNCE_RATE),
        ("SesComplaintRateAlarm", "Reputation.ComplaintRate", COMPLAINT_RATE),
    ):
        result[name] = _alarm(
            f"SES {metric} above {threshold:.1%}: SES reviews the account past this",
            Namespace="AWS/SES",
            MetricName=metric,
            Statistic="Maximum",
            Period=3600,
            Threshold=threshold,
            ComparisonOperator="GreaterThanThreshold",
        )
    return result


def log_groups() -> dict[str, Any]:
    """Each function's log group, made before Lambda would make it (kept forever) on first use."""
    return {
        f"{function}Logs": {
            "Type": "AWS::Logs::LogGroup",
            "DeletionPolicy": "Delete",
            "UpdateReplacePolicy": "Delete",
            "Properties": {
                "LogGroupName": {"Fn::Sub": f"/aws/lambda/${{{function}}}"},
                "RetentionInDays": {"Ref": "LogRetentionDays"},
            },
        }
        for function in FUNCTIONS
    }


def budget() -> dict[str, Any]:
    def alert(kind: str, percent: int) -> dict[str, Any]:
        return {
            "Notification": {
                "NotificationType": kind,
                "ComparisonOperator": "GREATER_THAN",
                "Threshold": percent,
                "ThresholdType": "PERCENTAGE",
            },
            "Subscribers": [{"SubscriptionType": "EMAIL", "Address": {"Ref": "OperatorEmail"}}],
        }

    return {
        "Budget": {
            "Type": "AWS::Budgets::Budget",
            "Condition": "HasBudget",
            "Properties": {
                "Budget": {
                    "BudgetType": "COST",
                    "TimeUnit": "MONTHLY",
                    "BudgetLimit": {"Amount": {"Ref": "MonthlyBudgetUsd"}, "Unit": "USD"},
                },
                "NotificationsWithSubscribers": [alert("ACTUAL", 80), alert("FORECASTED", 100)],
            },
        }
    }


def operations() -> dict[str, Any]:
    return {
        **function_settings(),
        **failed_events(),
        **tracing(),
        **alarms(),
        **log_groups(),
        **budget(),
    }


CONDITIONS = {"HasBudget": {"Fn::Not": [{"Fn::Equals": [{"Ref": "MonthlyBudgetUsd"}, "0"]}]}}
