"""An ended game's review (感想戦) and a what-if from one of its positions (もしも).

Only the game's two players (a guest by its cookie, an account, a mail link's pass) open
either, and only once the game is over (409 before). Positions are links
(``?move=N``), so the review works without JavaScript.
"""

from chalice import Response

from ..services import reviews
from .http import redirect
from .matches import _seat
from .pages import Ctx, page


@page
def review(ctx: Ctx, match_id: str) -> Response:
    """The game replayed to move ``?move=N`` (none: its end), with both sides' views."""
    match, _ = _seat(ctx, match_id)
    shown = reviews.review(match, ctx.players(match_id), ctx.request.query.get("move"))
    return ctx.page(
        match.rules.review_template,
        match_id=match_id,
        number=shown.number,
        last=shown.last,
        side=shown.side,
        origin=reviews.origin(match),
        **shown.context,
    )


@page
def what_if(ctx: Ctx, match_id: str) -> Response:
    """「ここからCPUと続ける」: the new game's page."""
    match, _ = _seat(ctx, match_id)
    new_id = reviews.what_if(match, ctx.players(match_id), ctx.player(), ctx.form, ctx.now)
    return redirect(f"/matches/{new_id}", ctx.set_cookie)
