"""What each member is told by mail, from what the village's rule set allows (RULES §5, §8).

The outbox keeps only *which* notice is owed to whom; the text is made here at
send time from the village as it is recorded, so a retried send says the same.
"""

from datetime import datetime
from typing import Any

from msgspec import Struct

from ..inbound import words
from ..labels import SITE_NAME
from ..links import MemberLink, member_url, unsubscribe_url
from ..render import render
from ..runtime import base_url
from ..storage.accounts import Account
from ..storage.repository import VillageRecord


class Notice(Struct, frozen=True):
    to: str
    subject: str
    text: str
    html: str
    unsubscribe: str
    concerns: bool = True
    reply_to: str | None = None  # the member's reply address while the game takes choices


def tidy(text: str) -> str:
    """A plain-text mail as it should read: no trailing spaces, never two blank lines in a
    row, none at the start or the end."""
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def compose(
    record: VillageRecord,
    account: Account,
    kind: str,
    day: int,
    now: datetime,
) -> Notice | None:
    """One member's mail, or None when that account no longer plays a slot here."""
    slot = record.slot_of(account.account_id)
    if slot is None:
        return None
    rules = record.rules
    said = rules.notice(record, slot, kind, day, now)
    if said is None:
        return None
    village_id = record.village_id
    if record.next_update is not None:
        link = member_url(
            MemberLink(account.account_id, village_id, record.day), record.next_update
        )
    else:  # over (abandoned): no update to sign in until, the page stays open to read
        link = f"{base_url()}/villages/{village_id}"
    quick = _quick_choices(record, account, slot, now) if kind in QUICK_KINDS else []
    unsubscribe = unsubscribe_url(account.account_id, now)
    # Replies act while the game is open: each mail says how, with a command valid today.
    replying = record.state.value in ("opening", "running")
    reply_to = words.reply_address(record, slot) if replying else None
    context = {
        **said.context,
        "kind": kind,
        "subject": said.subject,  # the HTML part's heading
        "village": record.village,
        "day": day,
        "next_update": record.next_update,
        "link": link,
        "signed_link": record.next_update is not None,
        "quick": quick,
        "unsubscribe": unsubscribe,
        "gm_reason": record.village.gm_reason if kind == "abandoned" else None,
        "replying": replying,
        "reply_example": words.example(record, slot) if replying else None,
    }
    return rendered(
        account.email,
        # The site, then the game: each rule set names its own mail (its label).
        f"【{SITE_NAME}・{rules.label}】{village_id}番 {record.name}：{said.subject}",
        rules.notice_templates,
        context,
        unsubscribe,
        said.concerns,
        reply_to,
    )


# The mails that ask for today's choices, and so offer them one tap each.
QUICK_KINDS = ("start", "morning", "round", "reminder")


def _quick_choices(
    record: VillageRecord, account: Account, slot: str, now: datetime
) -> list[dict[str, Any]]:
    """One-tap choices (the HTML part), grouped by action: one line of short target links
    each, signed until the village's next update."""
    expires = record.next_update or now
    quick: list[dict[str, Any]] = []
    for choice in record.rules.quick_choices(record, slot):
        links = [
            {
                "target": target,
                "url": member_url(
                    MemberLink(
                        account.account_id,
                        record.village_id,
                        record.day,
                        choice.key,
                        target,
                        choice.was,
                        int(now.timestamp()),
                    ),
                    expires,
                ),
            }
            for target in choice.targets
        ]
        quick.append({"key": choice.key, "links": links})
    return quick


IDLE_WARNING_SUBJECT = "まもなく自動で村から退出になります"


def idle_warning(
    record: VillageRecord, account: Account, slot: str, due: datetime, now: datetime
) -> Notice:
    """The idle warning (decision 140): when the member will be auto-departed (RULES §9) unless
    they open the village page or reply to this mail (any reply counts as access)."""
    # The link works until the departure it announces, which may come after the village's
    # next update (a warning in the opening, or late in a short village's turn).
    expires = due
    context = {
        "subject": IDLE_WARNING_SUBJECT,
        "name": record.names()[slot],
        "village": record.village,
        "due": due,
        "locks": record.state.value == "running",  # outside the opening a departure locks
        "link": member_url(MemberLink(account.account_id, record.village_id, record.day), expires),
        "replying": False,  # any reply keeps the seat: no "nothing to reply with" line
        "reply_example": words.example(record, slot),
    }
    return rendered(
        account.email,
        f"【{SITE_NAME}・{record.rules.label}】{record.village_id}番 {record.name}："
        f"{IDLE_WARNING_SUBJECT}",
        ("mail/idle_warning.txt", "mail/idle_warning.html"),
        context,
        unsubscribe_url(account.account_id, now),
        reply_to=words.reply_address(record, slot),
    )


def rendered(
    to: str,
    subject: str,
    templates: tuple[str, str],
    context: dict[str, Any],
    unsubscribe: str,
    concerns: bool = True,
    reply_to: str | None = None,
) -> Notice:
    """A game's mail made from its rule set's two templates (text, HTML) and their context."""
    text_template, html_template = templates
    return Notice(
        to=to,
        subject=subject,
        text=tidy(render(text_template, **context)),
        html=render(html_template, **context),
        unsubscribe=unsubscribe,
        concerns=concerns,
        reply_to=reply_to,
    )
