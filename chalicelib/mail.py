"""Mail through Amazon SES: Japanese text and HTML parts from Jinja2 templates."""

import os
from datetime import datetime
from email.header import Header
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formataddr, make_msgid
from functools import cache

import boto3

from . import runtime
from .services.accounts import VERIFY_FOR
from .storage.repository import load_account
from .web.render import render

SENDER_NAME = "メビウス人狼"


def sender() -> str:
    return os.environ.get("MOBIUS_MAIL_FROM", "noreply@mobius.example")


@cache
def _ses(region: str, endpoint: str | None):
    return boto3.client("ses", region_name=region, endpoint_url=endpoint)


def ses():
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION", "ap-northeast-1")
    return _ses(region, os.environ.get("SES_ENDPOINT") or None)


def compose(
    to: str, subject: str, text: str, html: str, headers: dict[str, str] | None = None
) -> bytes:
    """A multipart/alternative message in UTF-8 with an encoded Japanese subject."""
    message = MIMEMultipart("alternative")
    message["Subject"] = Header(subject, "utf-8").encode()
    message["From"] = formataddr((str(Header(SENDER_NAME, "utf-8")), sender()))
    message["To"] = to
    message["Message-ID"] = make_msgid(domain=sender().split("@")[-1])
    for name, value in (headers or {}).items():
        message[name] = value
    message.attach(MIMEText(text, "plain", "utf-8"))
    message.attach(MIMEText(html, "html", "utf-8"))
    return message.as_bytes()


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
