"""What a player of a game played move by move is told by mail: its turn, a deadline near,
the end (decision 56). Like a village's notices, only which mail is owed is stored; the text
is made at send time from the game as it is, by the game's rule set from the player's side's
view, so it tells nothing the side's page would not.
"""

from datetime import datetime, timedelta

from ..labels import SITE_NAME
from ..links import match_url, unsubscribe_url
from ..rulesets.base import MatchRules
from ..storage.models import AccountItem
from .notices import Notice, rendered

# The end's link opens the revealed board this long; a turn's and a reminder's until the
# deadline (the game is lost on time after it).
REVIEW_LINK_FOR = timedelta(days=7)


def compose(
    rules: MatchRules,
    game: object,
    match_id: str,
    side: str,
    account: AccountItem,
    kind: str,
    deadline: datetime | None,
    now: datetime,
) -> Notice:
    said = rules.notice(game, side, kind)
    expires = deadline if kind != "end" and deadline is not None else now + REVIEW_LINK_FOR
    unsubscribe = unsubscribe_url(account.account_id, now)
    context = {
        **said.context,
        "kind": kind,
        "subject": said.subject,
        "label": rules.label,
        "deadline": deadline if kind != "end" else None,
        "link": match_url(account.account_id, match_id, expires),
        "link_until": expires,
        "unsubscribe": unsubscribe,
    }
    subject = f"【{SITE_NAME}・{rules.label}】{said.subject}"
    return rendered(account.email, subject, rules.notice_templates, context, unsubscribe)
