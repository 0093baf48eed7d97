"""Mail and the domain in the template (issue 35): the sending identity with Easy DKIM and a
custom MAIL FROM domain, the configuration set whose bounce and complaint events reach the
SES notice handler, and the API's optional custom domain (docs/decisions.md 204).

The DNS records themselves stay with the operator (docs/deploy.md): the stack's outputs
give the DKIM records' names and values.
"""

from typing import Any

# The configuration set's name (its Ref): the policies scope SES to it (.chalice/policy-*.json).
CONFIGURATION_SET = "mobius-mail"
DKIM_RECORDS = 3  # Easy DKIM publishes three CNAMEs


def identity() -> dict[str, Any]:
    return {
        "MailConfigurationSet": {
            "Type": "AWS::SES::ConfigurationSet",
            "Properties": {
                "Name": CONFIGURATION_SET,
                "ReputationOptions": {"ReputationMetricsEnabled": True},
                "SendingOptions": {"SendingEnabled": True},
            },
        },
        # Hard bounces and complaints go to the topic the SES notice handler reads.
        "MailBounceEvents": {
            "Type": "AWS::SES::ConfigurationSetEventDestination",
            "Properties": {
                "ConfigurationSetName": {"Ref": "MailConfigurationSet"},
                "EventDestination": {
                    "Name": "bounces-and-complaints",
                    "Enabled": True,
                    "MatchingEventTypes": ["bounce", "complaint"],
                    "SnsDestination": {"TopicARN": {"Ref": "SesNotificationsTopic"}},
                },
            },
        },
        "SesNotificationsTopicPolicy": {
            "Type": "AWS::SNS::TopicPolicy",
            "Properties": {
                "Topics": [{"Ref": "SesNotificationsTopic"}],
                "PolicyDocument": {
                    "Version": "2012-10-17",
                    "Statement": [
                        {
                            "Sid": "SesPublishes",
                            "Effect": "Allow",
                            "Principal": {"Service": "ses.amazonaws.com"},
                            "Action": "sns:Publish",
                            "Resource": {"Ref": "SesNotificationsTopic"},
                            "Condition": {
                                "StringEquals": {"AWS:SourceAccount": {"Ref": "AWS::AccountId"}}
                            },
                        }
                    ],
                },
            },
        },
        "MailIdentity": {
            "Type": "AWS::SES::EmailIdentity",
            "Properties": {
                "EmailIdentity": {"Ref": "MailDomain"},
                "DkimAttributes": {"SigningEnabled": True},
                "DkimSigningAttributes": {"NextSigningKeyLength": "RSA_2048_BIT"},
                # SPF aligns with the sending domain only through a MAIL FROM of its own.
                "MailFromAttributes": {
                    "MailFromDomain": {"Fn::Sub": "bounce.${MailDomain}"},
                    "BehaviorOnMxFailure": "USE_DEFAULT_VALUE",
                },
                "ConfigurationSetAttributes": {
                    "ConfigurationSetName": {"Ref": "MailConfigurationSet"}
                },
                "FeedbackAttributes": {"EmailForwardingEnabled": False},
            },
        },
    }


def outputs() -> dict[str, Any]:
    dkim = {}
    for n in range(1, DKIM_RECORDS + 1):
        dkim[f"DkimRecord{n}"] = {
            "Description": "A CNAME to publish in the mail domain's DNS (Easy DKIM)",
            "Value": {
                "Fn::Join": [
                    " CNAME ",
                    [
                        {"Fn::GetAtt": ["MailIdentity", f"DkimDNSTokenName{n}"]},
                        {"Fn::GetAtt": ["MailIdentity", f"DkimDNSTokenValue{n}"]},
                    ],
                ]
            },
        }
    return {
        **dkim,
        "MailFromDomain": {
            "Description": "MX 10 feedback-smtp.<region>.amazonses.com and SPF for this name",
            "Value": {"Fn::Sub": "bounce.${MailDomain}"},
        },
    }


def custom_domain() -> dict[str, Any]:
    """The HTTP API under the operator's host name, when a certificate is given."""
    return {
        "ApiDomain": {
            "Type": "AWS::ApiGatewayV2::DomainName",
            "Condition": "HasCustomDomain",
            "Properties": {
                "DomainName": {"Ref": "ApiDomainName"},
                "DomainNameConfigurations": [
                    {
                        "CertificateArn": {"Ref": "CertificateArn"},
                        "EndpointType": "REGIONAL",
                        "SecurityPolicy": "TLS_1_2",
                    }
                ],
            },
        },
        "ApiDomainMapping": {
            "Type": "AWS::ApiGatewayV2::ApiMapping",
            "Condition": "HasCustomDomain",
            # SAM's logical id for the HTTP API's $default stage.
            "DependsOn": ["HttpApiApiGatewayDefaultStage"],
            "Properties": {
                "ApiId": {"Ref": "HttpApi"},
                "DomainName": {"Ref": "ApiDomain"},
                "Stage": "$default",
            },
        },
    }


CUSTOM_DOMAIN_OUTPUTS = {
    "ApiDomainTarget": {
        "Condition": "HasCustomDomain",
        "Description": "CNAME (or alias) the API's host name to this",
        "Value": {"Fn::GetAtt": ["ApiDomain", "RegionalDomainName"]},
    }
}
CONDITIONS = {
    "HasCustomDomain": {
        "Fn::And": [
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "ApiDomainName"}, ""]}]},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "CertificateArn"}, ""]}]},
        ]
    }
}
