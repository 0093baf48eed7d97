"""The 戦績・実績 page: the logged-in account's records of games played move by move (counts
by side, preset and opponent, ratings and their history, achievements), one rule set after
another; each is one GetItem and one query of the account's own partition, and one GetItem
for the daily puzzle's record."""

from chalice import Response

from .. import rulesets
from ..services import puzzles, records
from .pages import Ctx, page, require_login


@page
def records_page(ctx: Ctx) -> Response:
    account_id = require_login(ctx)
    found = [records.records_of(account_id, name) for name in rulesets.MATCH_PLACES]
    # The daily puzzle's streak and solved count, once the account has answered one.
    puzzle = puzzles.record_of(account_id, ctx.now)
    return ctx.page("records.html", records=found, puzzle=puzzle if puzzle.answered else None)
