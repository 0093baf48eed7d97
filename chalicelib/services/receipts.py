"""What a reply mail's receipt says (issue 27), made by the mail worker from the owed item:
what each line of the reply became, and the member's full current choices, written as commands
that read back as the same choices (``inbound.words``). A game's (a correspondence duel's):
what was played or why nothing was, and the board as the player's side sees it now."""

import json
from datetime import datetime
from typing import Any

from msgspec import Struct

from ..inbound.words import choices_now, example, reply_address
from ..labels import SITE_NAME
from ..links import MemberLink, match_url, member_url
from ..notify.match_notices import REVIEW_LINK_FOR, replying
from ..notify.notices import tidy
from ..render import render
from ..runtime import base_url
from ..storage.accounts import Account
from ..storage.outbox import OutboxRecord
from ..storage.repository import VillageRecord
from .matches import Match


class Receipt(Struct, frozen=True):
    to: str
    subject: str
    text: str
    html: str
    headers: dict[str, str]


def compose(
    record: VillageRecord | None, account: Account | None, item: OutboxRecord, now: datetime
) -> Receipt | None:
    """The receipt an owed reply item is, or None when there is no one to send it to."""
    if record is None or account is None or account.undeliverable or not account.email_verified:
        return None
    detail: dict[str, Any] = json.loads(str(item.detail or "{}"))
    slot = record.slot_of(account.account_id)
    link = f"{base_url()}/villages/{record.village_id}"
    if slot is not None and record.next_update is not None:
        link = member_url(
            MemberLink(account.account_id, record.village_id, record.day), record.next_update
        )
    current = choices_now(record, slot) if slot is not None and not detail.get("refusal") else []
    context = {
        "village": record.village,
        "name": record.names().get(slot or "", account.account_id),
        "lines": detail.get("lines", []),
        "refusal": detail.get("refusal"),
        "access": detail.get("access", False),  # a reply that saved nothing (decision 141)
        "current": current,
        "example": example(record, slot) if slot is not None else None,
        "link": link,
        "signed_link": slot is not None and record.next_update is not None,
        "subject": "返信を受け付けました"
        if not detail.get("refusal")
        else "返信は使えませんでした",
    }
    open_now = slot is not None and record.state.value in ("opening", "running")
    return _made(
        account.email,
        f"{record.rules.label}】{record.village_id}番 {record.name}：{context['subject']}",
        "mail/reply",
        context,
        _under(detail, reply_address(record, slot) if open_now and slot else None),
    )


def _under(detail: dict[str, Any], reply_to: str | None) -> dict[str, str]:
    """The headers that put an answer under the player's reply, and where to reply again."""
    headers = {}
    message_id = detail.get("message_id", "")
    if message_id.startswith("<"):
        headers = {"In-Reply-To": message_id, "References": message_id}
    if reply_to:
        headers["Reply-To"] = reply_to
    return headers


def _made(
    to: str, subject: str, template: str, context: dict[str, Any], headers: dict[str, str]
) -> Receipt:
    return Receipt(
        to=to,
        subject=f"【{SITE_NAME}・{subject}",
        text=tidy(render(f"{template}.txt", **context)),
        html=render(f"{template}.html", **context),
        headers=headers,
    )


def compose_for_game(
    match: Match | None, account: Account | None, item: OutboxRecord, now: datetime
) -> Receipt | None:
    """The confirmation of a reply to a game's mail (decision 128): each line's fate, the move
    played (or why none was), the board as the player's side sees it now (its rule set's
    view only) and, while it is their move, how to reply again; or None: nobody to send to."""
    if match is None or account is None or account.undeliverable or not account.email_verified:
        return None
    side = match.side_of([f"a:{account.account_id}"])
    if side is None:
        return None
    detail: dict[str, Any] = json.loads(str(item.detail or "{}"))
    rules, game = match.rules, match.game
    said = rules.notice(game, side, "turn")
    reply = {} if match.ended else replying(rules, game, match.match_id, side, match.moves)
    deadline = match.record.flag_at
    until = deadline if deadline is not None and not match.ended else now + REVIEW_LINK_FOR
    context = {
        **said.context,
        **reply,
        "label": rules.label,
        "lines": detail.get("lines", []),
        "done": detail.get("done"),
        "refusal": detail.get("refusal"),
        "board": rules.board_lines(game, side),
        # The deadline is the side to move's: shown only while it is this player's.
        "deadline": deadline if rules.to_move(game) == side else None,
        "link": match_url(account.account_id, match.match_id, until),
        "link_until": until,
        "subject": "返信を受け付けました" if detail.get("done") else "返信の手は指していません",
    }
    # The game's title and the player's side, as its other mail names them (decision 56).
    title = f"{said.subject.rpartition('：')[0]}：{context['subject']}"
    return _made(
        account.email,
        f"{rules.label}】{title}",
        "mail/match_reply",
        context,
        _under(detail, reply.get("reply_to")),
    )
