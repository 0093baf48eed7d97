"""Local-only pages: every mail sent (links clickable) and a clock to move forward.

They exist only under the local runner (runtime.dev_tools()); elsewhere, 404.
"""

import math
import re
from dataclasses import dataclass
from datetime import datetime

from chalice import Response

from .. import runtime
from ..clock import jst
from ..rulesets.base import State
from ..services import villages
from ..storage.models import VillageItem
from ..storage.repository import village_header
from .http import BadRequest, redirect
from .pages import Ctx, page

MAX_MINUTES = 7 * 24 * 60
# The moments "to the next phase" may jump to, in a day's order.
STEPS = ("loss_time", "night", "update")


def _tools():
    tools = runtime.dev_tools()
    if tools is None:
        raise BadRequest("ページが見つかりません", 404)
    return tools


def _sent_at(value: str) -> str:
    """A mail's sending time (ISO, as the local runner logs it) in JST, as every page shows."""
    try:
        return jst(datetime.fromisoformat(value))
    except (TypeError, ValueError):
        return value


@page
def outbox(ctx: Ctx) -> Response:
    mails = [
        {**mail, "sent_at_jst": _sent_at(mail.get("sent_at"))}
        for mail in reversed(_tools().mails())
    ]
    return ctx.page("dev_outbox.html", mails=mails)


@dataclass(frozen=True)
class LocalVillage:
    """One village as the clock page shows it: its phase and the moments ahead of it."""

    meta: VillageItem
    phase: str
    phase_text: str  # how the village's rule set names the phase
    steps: dict[str, datetime]  # step -> when it comes (only those still ahead)


def _steps(meta: VillageItem, now: datetime) -> dict[str, datetime]:
    header = village_header(meta)
    return header.rules.moments(header, now)


def _villages(now: datetime) -> list[LocalVillage]:
    shown = []
    for state in (State.RUNNING, State.OPENING, State.ENDING):
        for meta in villages.lounge(state.value, limit=20).villages:
            header = village_header(meta)
            phase = header.rules.phase(header, now)
            text = header.rules.labels()["phase_label"].get(phase, phase)
            shown.append(LocalVillage(meta, phase, text, _steps(meta, now)))
    return shown


@page
def clock(ctx: Ctx) -> Response:
    tools = _tools()
    if ctx.request.method == "GET":
        return ctx.page("dev_clock.html", villages=_villages(ctx.now))
    to = ctx.form.get("to")
    if to is not None:
        # To the next phase of one village: the whole minutes that reach it.
        village = ctx.form.get("village", "")
        meta = next((v.meta for v in _villages(ctx.now) if v.meta.village_id == village), None)
        ahead = _steps(meta, ctx.now) if meta is not None else {}
        if to not in STEPS or to not in ahead:
            raise BadRequest("その村の、その時刻へは進められません")
        minutes = max(1, math.ceil((ahead[to] - ctx.now).total_seconds() / 60))
    else:
        text = ctx.form.get("minutes", "")
        # ASCII digits only: isdigit() also takes "²", which int() refuses.
        if not re.fullmatch(r"[0-9]{1,5}", text) or not 1 <= int(text) <= MAX_MINUTES:
            raise BadRequest(f"進める分数は1〜{MAX_MINUTES}で指定してください")
        minutes = int(text)
    tools.advance_clock(minutes)
    return redirect("/dev/clock")
