"""What a game costs: the list prices (the one table) and the arithmetic over counted usage.

Prices are AWS's public on-demand list prices for Asia Pacific (Tokyo), ap-northeast-1, in
US dollars, without free tiers (a free tier is shared by the whole account, not a game).
"""

from dataclasses import dataclass, fields

PRICES = {
    # aws.amazon.com/api-gateway/pricing/ — HTTP APIs, first 300 million requests a month
    # (decision 43; the REST API would be 4.25). Read 2026-11.
    "http_api_per_million_requests": 1.29,
    # aws.amazon.com/lambda/pricing/ — Tokyo, x86 (Chalice's default architecture).
    "lambda_per_million_requests": 0.20,
    "lambda_per_gb_second": 0.0000166667,
    # aws.amazon.com/dynamodb/pricing/on-demand/ — Tokyo, Standard table class, after the
    # on-demand price cut of 1 November 2024 (before it: 1.4269 and 0.285). Storage is left
    # out: a finished game's few hundred KB cost about $0.0001 a month.
    "dynamodb_per_million_wru": 0.715,
    "dynamodb_per_million_rru": 0.1425,
    # aws.amazon.com/ses/pricing/ — outbound mail sent from Lambda; no attachments.
    "ses_per_thousand_mails": 0.10,
    # aws.amazon.com/ec2/pricing/on-demand/ (data transfer) — out of Tokyo to the internet,
    # the first 10 TB a month.
    "data_out_per_gb": 0.114,
    # aws.amazon.com/sqs/pricing/ — standard queue, per request (each 64 KB is one).
    "sqs_per_million_requests": 0.40,
}


@dataclass
class Usage:
    """What a game used, as counted; fractional where a shared cost is amortized."""

    http_requests: float = 0
    lambda_invocations: float = 0
    lambda_gb_seconds: float = 0
    rru: float = 0
    wru: float = 0
    mails: float = 0
    bytes_out: float = 0
    sqs_requests: float = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    def scaled(self, factor: float) -> "Usage":
        return Usage(**{f.name: getattr(self, f.name) * factor for f in fields(self)})


def cost(usage: Usage, prices: dict[str, float] = PRICES) -> dict[str, float]:
    """Dollars by service, and their ``total``."""
    million = 1_000_000
    by_service = {
        "api_gateway": usage.http_requests / million * prices["http_api_per_million_requests"],
        "lambda": usage.lambda_invocations / million * prices["lambda_per_million_requests"]
        + usage.lambda_gb_seconds * prices["lambda_per_gb_second"],
        "dynamodb": usage.wru / million * prices["dynamodb_per_million_wru"]
        + usage.rru / million * prices["dynamodb_per_million_rru"],
        "ses": usage.mails / 1000 * prices["ses_per_thousand_mails"],
        "data_out": usage.bytes_out / 1024**3 * prices["data_out_per_gb"],
        "sqs": usage.sqs_requests / million * prices["sqs_per_million_requests"],
    }
    return {**by_service, "total": sum(by_service.values())}
