"""The daily puzzle's mail to an account that asked for it: the day's position as A sees it
(the puzzle rule set's page of it, never the answer) and a link to answer on the page."""

from datetime import date, datetime
from typing import Any

from ..labels import SITE_NAME
from ..links import unsubscribe_url
from ..runtime import base_url
from ..storage.accounts import Account
from .notices import Notice, rendered

TEMPLATES = ("mail/puzzle.txt", "mail/puzzle.html")


def compose(rules: Any, puzzle: Any, day: date, account: Account, now: datetime) -> Notice:
    page = rules.page(puzzle)
    unsubscribe = unsubscribe_url(account.account_id, now)
    subject = f"{rules.title}（{day.month}月{day.day}日）"
    context = {
        **page,
        "subject": subject,
        "question": rules.question,
        "link": f"{base_url()}/puzzle/{day.isoformat()}",
        "unsubscribe": unsubscribe,
        "settings": f"{base_url()}/puzzle#mail",
    }
    return rendered(account.email, f"【{SITE_NAME}】{subject}", TEMPLATES, context, unsubscribe)
