"""Mail fixtures: the integration fixtures plus a verified SES sender and the sent mails."""

import email
from email.header import decode_header, make_header

import boto3
import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib import runtime
from tests.integration.conftest import aws, clock, players, rng, village  # noqa: F401

REGION = "ap-northeast-1"


@pytest.fixture(autouse=True)
def ses(aws, monkeypatch):  # noqa: F811
    monkeypatch.setenv("MOBIUS_BASE_URL", "https://mobius.example")
    boto3.client("ses", region_name=REGION).verify_email_identity(
        EmailAddress="noreply@mobius.example"
    )


@pytest.fixture(autouse=True)
def app_clock(clock):  # noqa: F811
    runtime.set_clock(clock)
    yield
    runtime.set_clock(runtime.system_clock)


class Mail:
    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.message = email.message_from_string(raw)
        self.to = self.message["To"]
        self.subject = str(make_header(decode_header(self.message["Subject"])))
        parts = {p.get_content_type(): p for p in self.message.walk() if not p.is_multipart()}
        self.text = parts["text/plain"].get_payload(decode=True).decode("utf-8")
        # The text without its line breaks: what a sentence cut at 78 octets says (decision 88).
        self.joined = self.text.replace("\n", "")
        self.html = parts["text/html"].get_payload(decode=True).decode("utf-8")


def sent_mails() -> list[Mail]:
    backend = ses_backends[DEFAULT_ACCOUNT_ID][REGION]
    return [Mail(m.raw_data) for m in backend.sent_messages if hasattr(m, "raw_data")]
