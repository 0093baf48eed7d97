"""The stack's parameters: what an operator sets before the first deploy (docs/deploy.md).

The addresses the code reads from its environment come from here, not from
.chalice/config.json: config.json's stage values are only the parameters' defaults, so one
package deploys to any domain (``sam deploy --parameter-overrides``).
"""

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Environment variable -> what it becomes in the template (every function reads them).
PARAMETERIZED: dict[str, Any] = {
    "MOBIUS_BASE_URL": {"Ref": "BaseUrl"},
    "MOBIUS_MAIL_FROM": {"Fn::Sub": "noreply@${MailDomain}"},
    "MOBIUS_REPLY_DOMAIN": {"Ref": "ReplyDomain"},
}
LOG_RETENTION_DAYS = (30, 60, 90)


def stage_variables(stage: str) -> dict[str, str]:
    """The stage's environment variables in .chalice/config.json (the parameters' defaults)."""
    config = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))
    return {**config["environment_variables"], **config["stages"][stage]["environment_variables"]}


def parameters(stage: str) -> dict[str, Any]:
    variables = stage_variables(stage)
    mail_domain = variables["MOBIUS_MAIL_FROM"].partition("@")[2]
    return {
        "BaseUrl": {
            "Type": "String",
            "Default": variables["MOBIUS_BASE_URL"],
            "AllowedPattern": "https://[^/]+",
            "Description": "Where links in mail point: https:// and the host, no path",
        },
        "MailDomain": {
            "Type": "String",
            "Default": mail_domain,
            "Description": "The sending domain (SES identity, Easy DKIM); mail comes from noreply@",
        },
        "ReplyDomain": {
            "Type": "String",
            "Default": variables["MOBIUS_REPLY_DOMAIN"],
            "Description": "The domain SES receives replies for (its MX record points at SES)",
        },
        "OperatorEmail": {
            "Type": "String",
            "AllowedPattern": ".+@.+",
            "Description": "Alarms and the budget's alerts go to this address",
        },
        "MonthlyBudgetUsd": {
            "Type": "Number",
            "Default": 20,
            "MinValue": 0,
            "Description": "Monthly cost budget in USD (alerts at 80 %, forecast 100 %); 0: none",
        },
        "LogRetentionDays": {
            "Type": "Number",
            "Default": LOG_RETENTION_DAYS[0],
            "AllowedValues": list(LOG_RETENTION_DAYS),
            "Description": "How long the functions' logs are kept",
        },
        "ApiDomainName": {
            "Type": "String",
            "Default": "",
            "Description": "Optional: the API's host name (BaseUrl's), with CertificateArn",
        },
        "CertificateArn": {
            "Type": "String",
            "Default": "",
            "Description": "Optional: an ACM certificate for ApiDomainName, in the stack's region",
        },
    }


def use_parameters(template: dict[str, Any]) -> dict[str, Any]:
    """Every function reads the parameterized variables from the Globals, not config.json."""
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Serverless::Function":
            variables = resource["Properties"]["Environment"]["Variables"]
            for name in PARAMETERIZED:
                variables.pop(name, None)
    template["Globals"]["Function"]["Environment"]["Variables"].update(PARAMETERIZED)
    return template
