"""Mail through Amazon SES: Japanese text and HTML parts from Jinja2 templates."""

import base64
import logging
import os
import secrets
import time
from collections.abc import Callable
from email import policy
from email.header import Header
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr, make_msgid
from functools import cache

from .. import runtime
from ..labels import SITE_NAME
from .text import wrap

log = logging.getLogger("mobius.ses")

SENDER_NAME = SITE_NAME
# RFC 5322 lines end in CRLF. The subject is folded once, here; nothing folds headers again,
# so a List-Unsubscribe URL stays whole on its line.
WIRE = policy.compat32.clone(linesep="\r\n", max_line_length=0)
# Bytes of text per encoded word: base64 of 39 bytes is 52 characters, so a word
# "=?utf-8?b?...?=" is 64 (RFC 2047 allows 75) and "Subject: " plus one stays within 78.
WORD_BYTES = 39


def encode_subject(subject: str) -> str:
    """RFC 2047 encoded words, each whole characters of at most WORD_BYTES bytes, folded."""
    words: list[bytes] = []
    for char in subject:
        encoded = char.encode("utf-8")
        if words and len(words[-1]) + len(encoded) <= WORD_BYTES:
            words[-1] += encoded
        else:
            words.append(encoded)
    return "\r\n ".join(f"=?utf-8?b?{base64.b64encode(w).decode('ascii')}?=" for w in words)


def sender() -> str:
    return os.environ.get("MOBIUS_MAIL_FROM", "noreply@mobius.example")


@cache
def _ses(region: str, endpoint: str | None):
    import boto3  # here, not at the top: most requests never need it (cold start)

    return boto3.client("ses", region_name=region, endpoint_url=endpoint)


def ses():
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION", "ap-northeast-1")
    return _ses(region, os.environ.get("SES_ENDPOINT") or None)


# How long a container trusts the quota it read: SES raises a rate on request, rarely, and a
# container lives minutes to hours; ten minutes costs one GetSendQuota per container and period.
QUOTA_FOR = 600.0
SANDBOX_RATE = 1.0  # mail a second while the quota cannot be read: SES's smallest rate
_quota: tuple[float, float] | None = None  # (rate, monotonic time read)


def max_send_rate(clock: Callable[[], float] = time.monotonic) -> float:
    """The account's MaxSendRate (mails a second), read once per QUOTA_FOR in this container."""
    global _quota
    if _quota is not None and clock() - _quota[1] < QUOTA_FOR:
        return _quota[0]
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        rate = float(ses().get_send_quota()["MaxSendRate"])
    except (BotoCoreError, ClientError, KeyError, ValueError):
        log.warning("GetSendQuota failed; sending at %s mail/s for now", SANDBOX_RATE)
        rate = SANDBOX_RATE
    _quota = (max(rate, SANDBOX_RATE), clock())
    return _quota[0]


def compose(
    to: str, subject: str, text: str, html: str, headers: dict[str, str] | None = None
) -> bytes:
    """A multipart/alternative message in UTF-8 with an encoded Japanese subject; the text
    part's lines cut to 78 octets."""
    # A short boundary keeps the Content-Type line within 78 characters (Python's default
    # is 31 characters); "=_" never occurs in base64 parts.
    message = MIMEMultipart("alternative", boundary=f"=_{secrets.token_hex(12)}")
    message["Subject"] = encode_subject(subject)
    message["From"] = formataddr((str(Header(SENDER_NAME, "utf-8")), sender()))
    message["To"] = to
    message["Date"] = format_datetime(runtime.now())
    message["Message-ID"] = make_msgid(domain=sender().split("@")[-1])
    # RFC 3834: machine-made mail, so that vacation responders do not answer it.
    message["Auto-Submitted"] = "auto-generated"
    for name, value in (headers or {}).items():
        message[name] = value
    for body, subtype in ((wrap(text), "plain"), (html, "html")):
        part = MIMEText(body, subtype, "utf-8")
        # MIMEText heads every part with its own MIME-Version; RFC 2045 wants it once, on
        # the message: strict parsers and spam filters count the extra ones as defects.
        del part["MIME-Version"]
        message.attach(part)
    return message.as_bytes(policy=WIRE)


def send(to: str, subject: str, text: str, html: str, headers: dict[str, str] | None = None):
    raw = compose(to, subject, text, html, headers)
    # Deployed, the configuration set whose event destination reports bounces and complaints
    # (infra/mail.py); it is also the identity's default, named here so that IAM scopes the send.
    named = os.environ.get("MOBIUS_MAIL_CONFIGURATION_SET")
    options = {"ConfigurationSetName": named} if named else {}
    return ses().send_raw_email(
        Source=sender(), Destinations=[to], RawMessage={"Data": raw}, **options
    )
