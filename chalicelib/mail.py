"""Mail through Amazon SES: Japanese text and HTML parts from Jinja2 templates."""

import os
from datetime import datetime
from email import policy
from email.header import Header
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr, make_msgid
from functools import cache

from . import runtime
from .services.accounts import VERIFY_FOR
from .storage.repository import load_account
from .web.render import render

SENDER_NAME = "メビウス人狼"
# RFC 5322 lines end in CRLF. Headers are folded once, by Header (the subject's encoded words
# stay within RFC 2047's 75 characters); nothing folds them again, so a List-Unsubscribe URL
# stays whole on its line.
WIRE = policy.compat32.clone(linesep="\r\n", max_line_length=0)


def sender() -> str:
    return os.environ.get("MOBIUS_MAIL_FROM", "noreply@mobius.example")


@cache
def _ses(region: str, endpoint: str | None):
    import boto3  # here, not at the top: most requests never need it (cold start)

    return boto3.client("ses", region_name=region, endpoint_url=endpoint)


def ses():
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION", "ap-northeast-1")
    return _ses(region, os.environ.get("SES_ENDPOINT") or None)


def compose(
    to: str, subject: str, text: str, html: str, headers: dict[str, str] | None = None
) -> bytes:
    """A multipart/alternative message in UTF-8 with an encoded Japanese subject."""
    message = MIMEMultipart("alternative")
    message["Subject"] = Header(subject, "utf-8", header_name="Subject").encode(
        linesep=WIRE.linesep
    )
    message["From"] = formataddr((str(Header(SENDER_NAME, "utf-8")), sender()))
    message["To"] = to
    message["Date"] = format_datetime(runtime.now())
    message["Message-ID"] = make_msgid(domain=sender().split("@")[-1])
    for name, value in (headers or {}).items():
        message[name] = value
    message.attach(MIMEText(text, "plain", "utf-8"))
    message.attach(MIMEText(html, "html", "utf-8"))
    return message.as_bytes(policy=WIRE)


def send(to: str, subject: str, text: str, html: str, headers: dict[str, str] | None = None):
    raw = compose(to, subject, text, html, headers)
    return ses().send_raw_email(Source=sender(), Destinations=[to], RawMessage={"Data": raw})


def send_verification(account_id: str, token: str, now: datetime) -> None:
    """The registration (or new address) verification mail."""
    account = load_account(account_id)
    if account is None:
        return
    link = f"{runtime.base_url()}/verify?token={token}"
    context = {"account_id": account_id, "link": link, "expires": now + VERIFY_FOR}
    send(
        account.email,
        "【メビウス人狼】メールアドレスの確認",
        render("mail/verify.txt", **context),
        render("mail/verify.html", **context),
    )
