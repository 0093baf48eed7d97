"""A reply to a game's mail (issue 27, decision 128): its lines read by the game's rule set for
the player's side, played through ``matches.move`` on the move count the mail was written for,
and one confirmation owed for it.

``replies`` has already checked the reply address, the From address's account and SES's
verdicts. Here: a reply to another player's mail, or to a game that has moved on since its
mail (or ended), is answered with why and never played on a later move; otherwise the move
and its confirmation are written in one transaction (``matches.move``'s), so that the same
message delivered twice is played once: the second finds its confirmation owed already
(keyed by its Message-ID), whatever the game has become since."""

import json
import logging
from datetime import datetime
from typing import Any

from ..inbound import message
from ..inbound.address import ReplyTo
from ..storage import matches as match_store
from ..storage import outbox as outbox_store
from ..storage.errors import AlreadyOwed
from . import matches
from .errors import NotFound, ServiceError
from .owed import MailHandOver
from .unit import Unit

log = logging.getLogger("mobius.replies")

NOT_YOURS = (
    "この返信先は、あなたあてのメールのものではありません。"
    "ご自分あてに届いたお知らせメールに返信してください"
)
STALE = (
    "このメールは{then}手目のお知らせへの返信でしたが、対局はその後{now}手目まで進んでいます。"
    "返信の手は指していません。最新のお知らせメールに返信してください"
)
ENDED = "対局はもう終わっています。返信の手は指していません"
NOTHING = "指す手が見つからなかったため、何も指していません"
ENDED_FIRST = "この手の前に、時間切れか接続切れで対局が終わりました"


def receive(
    to: ReplyTo,
    owner: str,
    found: match_store.MatchRecord | None,
    incoming: message.Incoming,
    now: datetime,
    unit: Unit,
) -> tuple[str, str]:
    """What became of the reply to the game ``found`` (as read with the address's owner):
    ``replies.Received``'s outcome and reason."""
    try:
        match: matches.Match | None = unit.known_match(found)
    except NotFound:
        match = None
    side = next((s for s in match.rules.sides if s.lower() == to.slot), None) if match else None
    if match is None or match.record.rules != to.rules or side is None:
        log.warning("reply mail %s dropped: no such game", incoming.message_id)
        return "dropped", "no such game for the reply address"
    player = f"a:{owner}"
    if match.players.get(side) != player:
        return _refused(match, to, owner, incoming, NOT_YOURS, now)
    if match.ended:
        return _refused(match, to, owner, incoming, ENDED, now)
    if to.day != match.moves:
        why = STALE.format(then=to.day, now=match.moves)
        return _refused(match, to, owner, incoming, why, now)
    rules = match.rules
    reading = rules.read_reply(match.game, side, incoming.text)
    lines = [{"text": ln.text, "status": ln.status, "why": ln.why} for ln in reading.lines]
    if reading.form is None:
        why = "\n".join(reading.problems) or NOTHING
        return _refused(match, to, owner, incoming, why, now, lines)
    try:
        move = matches.move_of_form(rules, match.game, side, reading.form)
    except ValueError as error:
        return _refused(match, to, owner, incoming, str(error), now, lines)
    done = rules.move_line(side, move)
    receipt = _receipt(match, to, owner, incoming, now, lines=lines, done=done)
    # Time is settled once a request, before its move (decision 226): a flag fallen or the
    # player gone since the mail ends the game now, and the reply is refused.
    if matches.end_if_due(match, now, side):
        return _refused(match, to, owner, incoming, ENDED_FIRST, now, lines)
    try:
        matches.move(match, [player], to.day, move, None, now, receipt=receipt)
    except ServiceError as error:  # illegal, out of turn, or the game moved on meanwhile
        return _refused(match, to, owner, incoming, str(error), now, lines)
    return "applied", ""


def _receipt(
    match: matches.Match,
    to: ReplyTo,
    owner: str,
    incoming: message.Incoming,
    now: datetime,
    **detail: Any,
) -> outbox_store.Mail:
    said = json.dumps({"message_id": incoming.message_id, **detail}, ensure_ascii=False)
    owner_key = outbox_store.match_mail(match.match_id)
    return outbox_store.reply_receipt(owner_key, to.day, owner, incoming.message_id, said, now)


def _refused(
    match: matches.Match,
    to: ReplyTo,
    owner: str,
    incoming: message.Incoming,
    why: str,
    now: datetime,
    lines: list[dict[str, str]] | None = None,
) -> tuple[str, str]:
    """Nothing played: the reason owed once (a second delivery of the same message finds it
    owed already, and is a duplicate). A reply read but refused is answered like one played
    ("applied", as a village's reply whose every line was refused); one to the wrong mail is
    "refused"."""
    receipt = _receipt(match, to, owner, incoming, now, lines=lines or [], refusal=why)
    try:
        outbox_store.owe_receipt(receipt)
    except AlreadyOwed:
        return "duplicate", ""
    match.owe(MailHandOver(outbox_store.match_mail(match.match_id)))
    return ("applied" if lines is not None else "refused"), why
