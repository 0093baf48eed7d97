"""Local-only pages: every mail sent (links clickable) and a clock to move forward.

They exist only under the local runner (runtime.dev_tools()); elsewhere, 404.
"""

from chalice import Response

from .. import runtime
from .http import BadRequest, redirect
from .pages import Ctx, page

MAX_MINUTES = 7 * 24 * 60


def _tools():
    tools = runtime.dev_tools()
    if tools is None:
        raise BadRequest("ページが見つかりません", 404)
    return tools


@page
def outbox(ctx: Ctx) -> Response:
    mails = list(reversed(_tools().mails()))
    return ctx.page("dev_outbox.html", mails=mails)


@page
def clock(ctx: Ctx) -> Response:
    tools = _tools()
    if ctx.request.method == "GET":
        return ctx.page("dev_clock.html")
    minutes = ctx.form.get("minutes", "")
    if not minutes.isdigit() or not 1 <= int(minutes) <= MAX_MINUTES:
        raise BadRequest(f"進める分数は1〜{MAX_MINUTES}で指定してください")
    tools.advance_clock(int(minutes))
    return redirect("/dev/clock")
