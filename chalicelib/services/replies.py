"""Play by mail (issue 27): a member's reply to the village's mail, read and applied through
the same service as the action form, and one receipt owed for it through the outbox.

A reply is answered only when its reply address verifies, its From is the address the seat's
account verified, and SES's SPF, DKIM and DMARC verdicts hold for that address; anything else
is logged and dropped (no backscatter). From the seat's own address, a reply to another
member's address or to an earlier day's mail is answered with why, and nothing is saved. The
same message delivered twice is applied once: the receipt, keyed by its Message-ID, is written
in the same transaction as the choices, on condition that it is not owed already. A reply to a
game's mail (a correspondence duel) is played by ``match_replies`` after the same checks."""

import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from msgspec import Struct

from .. import rulesets
from ..inbound import address, commands, message
from ..inbound.words import vocabulary
from ..notify import ses
from ..rulesets import DEFAULT
from ..storage import accounts as accounts_store
from ..storage import matches as match_store
from ..storage import outbox as outbox_store
from ..storage.errors import AlreadyOwed
from ..storage.repository import VillageRecord
from . import actions, match_replies, outbox, villages
from .errors import ServiceError
from .unit import Unit

log = logging.getLogger("mobius.replies")

NOT_YOURS = (
    "この返信先は、あなたあてのメールのものではありません。"
    "ご自分あてに届いたお知らせメールに返信してください"
)
STALE = (
    "このメールは{then}日目のお知らせへの返信でした。いまは{now}日目です。"
    "最新のお知らせメールに返信してください"
)

HandOver = Callable[[str, outbox_store.Mail, datetime], None]


class Received(Struct, frozen=True):
    """What became of one message: ``applied`` (a receipt owed), ``refused`` (a reply saying
    why owed), ``duplicate``, or ``dropped`` with the reason logged."""

    outcome: str
    reason: str = ""
    village_id: str | None = None


UNKNOWN_SENDER = "no account verified the sender's address"


def receive(raw: bytes, now: datetime, unit: Unit, hand_over: HandOver | None = None) -> Received:
    """A reply to a game's mail plays a move (decision 128): what its write owes (the game's
    clock watch, its mail's hand-over) is owed on ``unit``, for the entrypoint to send."""
    hand_over = hand_over or outbox.hand_over_village_mail
    incoming = message.read(raw)
    sender = incoming.sender
    if not sender or sender == ses.sender().lower() or address.on_our_domain(sender):
        return _drop("from our own address", incoming)
    if incoming.machine is not None:
        return _drop(f"written by a machine ({incoming.machine})", incoming)
    ours = [a for a in incoming.recipients if address.on_our_domain(a)]
    to = next((t for a in ours if (t := address.read(a)) is not None), None)
    if to is None:
        return _drop("a reply address that does not verify" if ours else "not to us", incoming)
    if not incoming.verdicts.pass_for(sender):
        return _drop(f"SPF/DKIM/DMARC do not hold for the sender: {incoming.verdicts}", incoming)
    if to.rules in rulesets.MATCH_PLACES:
        # The game and the address's owner in one read: a move by mail that ends the game
        # is that read, its accounts' records and the transaction (decision duel 102).
        found, owner = match_store.load_match_and_owner(to.village_id, sender)
        if owner is None:
            return _drop(UNKNOWN_SENDER, incoming)
        outcome, why = match_replies.receive(to, owner, found, incoming, now, unit)
        return Received(outcome, why)
    owner = accounts_store.address_owner(sender)
    if owner is None:
        return _drop(UNKNOWN_SENDER, incoming)
    record = unit.village(to.village_id)
    if record is None or (record.village.rules or DEFAULT) != to.rules:
        return _drop("no such village for the reply address", incoming)
    if record.player(to.slot) != owner:
        return _refuse(record, owner, incoming, NOT_YOURS, now, hand_over)
    if to.day != record.day:
        # Still the member at their seat (an idle warning sent before the update, answered
        # after it): the reply counts as access all the same (decision 141).
        access = villages.touch(record.village_id, owner, now, record)
        why = STALE.format(then=to.day, now=record.day)
        return _refuse(record, owner, incoming, why, now, hand_over, access)
    return _apply(unit, record, to.slot, owner, incoming, now, hand_over)


def _drop(reason: str, incoming: message.Incoming) -> Received:
    log.warning("reply mail %s dropped: %s", incoming.message_id, reason)
    return Received("dropped", reason)


def _detail(incoming: message.Incoming, **more: Any) -> str:
    return json.dumps({"message_id": incoming.message_id, **more}, ensure_ascii=False)


def _refuse(
    record: VillageRecord,
    owner: str,
    incoming: message.Incoming,
    why: str,
    now: datetime,
    hand_over: HandOver,
    access: bool = False,
) -> Received:
    receipt = outbox_store.reply_receipt(
        record.village_id,
        record.day,
        owner,
        incoming.message_id,
        _detail(incoming, refusal=why, access=access),
        now,
    )
    try:
        outbox_store.owe_receipt(receipt)
    except AlreadyOwed:
        return Received("duplicate", village_id=record.village_id)
    hand_over(record.village_id, receipt, now)
    return Received("refused", why, record.village_id)


def _checked_lines(
    record: VillageRecord, slot: str, text: str, now: datetime
) -> tuple[list[dict[str, str]], dict[str, str | None]]:
    """Each line of the reply as it will be answered (understood? saved or refused, and
    why), and the choices of the lines that passed their check alone."""
    lines: list[dict[str, str]] = []
    wanted: dict[str, str | None] = {}
    for line in commands.read(text, vocabulary(record)):
        if line.key is None:
            lines.append({"text": line.text, "status": "unknown", "why": line.problem or ""})
            continue
        try:
            record.rules.check_choices(record, slot, {line.key: line.target}, now)
        except ValueError as error:
            lines.append({"text": line.text, "status": "refused", "why": str(error)})
            continue
        wanted[line.key] = line.target
        lines.append({"text": line.text, "status": "saved", "why": ""})
    return lines, wanted


def _apply(
    unit: Unit,
    record: VillageRecord,
    slot: str,
    owner: str,
    incoming: message.Incoming,
    now: datetime,
    hand_over: HandOver,
) -> Received:
    """Each understood line is checked alone (so that each is answered with its own reason);
    those that pass are saved together, as the action form saves, with the receipt. A reply
    that saves nothing (「了解」, or every line refused) is recorded as the member's access
    (RULES §9, decision 141): a save is one already."""
    lines, wanted = _checked_lines(record, slot, incoming.text, now)

    def receipt(access: bool = False) -> outbox_store.Mail:
        return outbox_store.reply_receipt(
            record.village_id,
            record.day,
            owner,
            incoming.message_id,
            _detail(incoming, lines=lines, access=access),
            now,
        )

    def access() -> bool:
        return villages.touch(record.village_id, owner, now, unit.village(record.village_id))

    item = receipt()
    try:
        if wanted:
            try:
                actions.save_actions(record.village_id, owner, wanted, now, unit, receipt=item)
            except ServiceError as error:  # together refused (or the day moved on): say why
                lines = [
                    {**line, "status": "refused", "why": str(error)}
                    if line["status"] == "saved"
                    else line
                    for line in lines
                ]
                item = receipt(access())
                outbox_store.owe_receipt(item)
        else:
            item = receipt(access())
            outbox_store.owe_receipt(item)
    except AlreadyOwed:
        return Received("duplicate", village_id=record.village_id)
    hand_over(record.village_id, item, now)
    return Received("applied", village_id=record.village_id)
