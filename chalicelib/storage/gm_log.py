"""The GM's role and log: who may host villages, and what each GM did (who, when, what).

A GM action's log item is written in the same transaction as the action (``log`` of
``villages.create_village`` and ``villages.commit_step``; ``set_gm`` here), so an action is
never without its line and a line never without its action.
"""

import secrets
from datetime import datetime, timedelta

from msgspec import Struct

from .db import ensure_configured, transaction
from .errors import conditioned
from .keys import account_pk, gm_log_pk, time_key
from .models import AccountItem, GmLogItem, record_of


class GmLogLine(Struct, frozen=True):
    """One GM action, to write or as read (``GmLogItem``'s fields)."""

    actor: str  # "account:<id>", "cli:<user>" or "lambda"
    action: str  # create | abandon | reschedule | grant | revoke
    target: str  # the village id, or the account granted / revoked
    detail: str | None  # the reason, the new time, the notice …
    at: datetime


def log_item(line: GmLogLine) -> GmLogItem:
    """The line's item, its key drawn once: a retried transaction writes the same item."""
    return GmLogItem(
        gm_log_pk(line.at),
        f"{time_key(line.at)}#{secrets.token_hex(4)}",  # two in one microsecond both stay
        actor=line.actor,
        action=line.action,
        target=line.target,
        detail=line.detail,
        at=line.at,
    )


def set_gm(account_id: str, gm: bool, line: GmLogLine) -> None:
    """Makes the account a GM, or no longer one, with its log line (``TransactionRefused``:
    no such account)."""
    ensure_configured()
    log = log_item(line)

    def write() -> None:
        with transaction() as t:
            t.update(
                AccountItem(account_pk(account_id), "ACCOUNT"),
                actions=[AccountItem.gm.set(gm)],
                condition=AccountItem.pk.exists(),
                add_version_condition=False,  # the role alone: no other field is read or set
            )
            t.save(log, condition=GmLogItem.pk.does_not_exist())

    conditioned("set_gm", write)


def recent(now: datetime, limit: int = 50) -> list[GmLogLine]:
    """The latest GM actions, newest first: this month's and last month's."""
    ensure_configured()
    found: list[GmLogLine] = []
    for month in (now, now.replace(day=1) - timedelta(days=1)):
        found += [
            record_of(GmLogLine, item)
            for item in GmLogItem.query(gm_log_pk(month), scan_index_forward=False, limit=limit)
        ]
        if len(found) >= limit:
            break
    return found[:limit]
