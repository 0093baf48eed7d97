"""What a player of a game played move by move is told by mail: its turn, a deadline near,
the end (decision 56). Like a village's notices, only which mail is owed is stored; the text
is made at send time from the game as it is, by the game's rule set from the player's side's
view, so it tells nothing the side's page would not.
"""

from datetime import datetime, timedelta
from typing import Any

from ..inbound import address
from ..labels import SITE_NAME
from ..links import match_url, unsubscribe_url
from ..rulesets.match import MatchEngine, MatchReplyMail, MatchRules
from ..storage.accounts import Account
from .notices import Notice, rendered

# The end's link opens the revealed board this long; a turn's and a reminder's until the
# deadline (the game is lost on time after it).
REVIEW_LINK_FOR = timedelta(days=7)


def reply_address(rules: MatchEngine[Any], match_id: str, side: str, moves: int) -> str | None:
    """The side's reply address for the game's mail of move ``moves`` (issue 27), or None for
    a game whose id no address can carry."""
    try:
        return address.address(address.ReplyTo(rules.name, match_id, side.lower(), moves))
    except ValueError:
        return None


def replying(
    rules: MatchReplyMail[Any], game: object, match_id: str, side: str, moves: int
) -> dict:
    """How a mail to ``side`` says it may be answered by reply: its reply address and replies
    valid now (none when it is not the side's move)."""
    examples = rules.reply_examples(game, side) if rules.to_move(game) == side else []
    to = reply_address(rules, match_id, side, moves) if examples else None
    return {"reply_to": to, "reply_examples": examples if to else []}


def compose(
    rules: MatchRules[Any],
    game: object,
    match_id: str,
    side: str,
    account: Account,
    kind: str,
    deadline: datetime | None,
    now: datetime,
    moves: int,
    aborted: bool = False,
) -> Notice:
    """``moves``: the game's move count now (a turn's or a reminder's reply plays on it);
    ``aborted``: the game ended before both sides moved, 中止 (decision 150)."""
    said = rules.notice(game, side, kind)
    expires = deadline if kind != "end" and deadline is not None else now + REVIEW_LINK_FOR
    unsubscribe = unsubscribe_url(account.account_id, now)
    reply = replying(rules, game, match_id, side, moves) if kind != "end" else {}
    context = {
        **said.context,
        **reply,
        "kind": kind,
        "aborted": aborted,
        "subject": said.subject,
        "label": rules.label,
        "deadline": deadline if kind != "end" else None,
        "link": match_url(account.account_id, match_id, expires),
        "link_until": expires,
        "unsubscribe": unsubscribe,
    }
    subject = f"【{SITE_NAME}・{rules.label}】{said.subject}"
    return rendered(
        account.email,
        subject,
        rules.notice_templates,
        context,
        unsubscribe,
        reply_to=reply.get("reply_to"),
    )
