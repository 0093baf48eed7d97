"""The mail moto's SES sent, read as a person reads it, and SES set up for the mail tests."""

import email
import re
from email.header import decode_header, make_header

import boto3
import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from chalicelib import runtime

REGION = "ap-northeast-1"
SENDER = "noreply@mobius.example"


@pytest.fixture(autouse=True)
def ses(aws, monkeypatch):
    monkeypatch.setenv("MOBIUS_BASE_URL", "https://mobius.example")
    boto3.client("ses", region_name=REGION).verify_email_identity(EmailAddress=SENDER)


@pytest.fixture(autouse=True)
def app_clock(clock):
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


def sent_messages() -> list:
    """What moto's SES kept of each mail sent, in order."""
    return list(ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages)


def sent_mails() -> list[Mail]:
    return [Mail(m.raw_data) for m in sent_messages() if hasattr(m, "raw_data")]


def mail_text(message) -> str:
    """The plain-text part of a raw mail moto kept."""
    parsed = email.message_from_string(message.raw_data)
    for part in parsed.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode("utf-8")
    raise AssertionError("no text part")


def _last_to(to: str, pattern: str) -> re.Match[str]:
    """``pattern`` in the text of the last mail to ``to`` that has it."""
    for message in reversed(sent_messages()):
        if to in message.destinations and hasattr(message, "raw_data"):
            match = re.search(pattern, mail_text(message))
            if match:
                return match
    raise AssertionError(f"no verification mail to {to}")


def verification_token(to: str) -> str:
    """The token of the last verification mail sent to ``to``."""
    return _last_to(to, r"/verify\?token=([A-Za-z0-9_\-.]+)").group(1)


def verification_link(to: str) -> str:
    """The link of the last verification mail sent to ``to``."""
    return _last_to(to, r"https?://\S+/verify\?token=\S+").group(0)
