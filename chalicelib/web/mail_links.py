"""Pages behind mail links: a member's signed way in, one-tap choices, one-click unsubscribe.

A GET only shows a confirmation page (mail scanners open links); the POST acts,
and doing it twice changes nothing more.
"""

from datetime import timedelta

from chalice import Response

from ..links import (
    MemberLink,
    claimed_village,
    read_member_token,
    read_unsubscribe_token,
    used_key,
)
from ..services import accounts, actions, puzzles, villages
from ..services.errors import ServiceError
from ..storage.repository import VillageRecord
from .http import BadRequest, redirect
from .pages import Ctx, page

EXPIRED = "このリンクは正しくないか、期限が切れています。村のページからログインしてください"
CHANGED_SINCE = (
    "このメールが届いた後で{choice}が変更されているため、リンクは使えません。"
    "村のページで決め直してください"
)
PASS_WITHOUT_UPDATE = timedelta(days=1)


def _link(ctx: Ctx, token: str) -> tuple[MemberLink, VillageRecord]:
    link = read_member_token(token, ctx.now)
    if link is None:
        raise BadRequest(EXPIRED, 400)
    record = ctx.unit.village(link.village_id)
    # A one-tap choice is the day's: bound to it. A plain way in is bound by its signed
    # deadline alone, which may lie past the day's end (an idle warning's departure).
    if record is None or (link.key is not None and record.day != link.day):
        raise BadRequest(EXPIRED, 400)
    slot = record.slot_of(link.account_id)
    if slot is None:
        raise BadRequest("このリンクの持ち主は、いまこの村の村民ではありません", 403)
    if link.key is not None and link.key not in record.rules.choice_labels:
        raise BadRequest(EXPIRED, 400)
    return link, record


@page
def member_link(ctx: Ctx, token: str) -> Response:
    """One village load for the whole request: the link's check and the save. The save is
    the member's access, and the page the link leads to records one when due (decision 66),
    so that page still marks what came since the member's last visit; a link refused here
    leads to no such page, so its use is recorded as the access.

    A refused link's page offers the login and the village the link names, if it exists
    (its public page is everyone's): expired or tampered with, the mail still says where the
    member was going (decision 82)."""
    try:
        return _member_link(ctx, token)
    except (BadRequest, ServiceError) as error:
        village_id = claimed_village(token)
        record = ctx.unit.village(village_id) if village_id else None
        return ctx.page(
            "error.html",
            error.status,
            message=str(error),
            village=record.village if record else None,
            offer_login=True,
        )


def _member_link(ctx: Ctx, token: str) -> Response:
    link, record = _link(ctx, token)
    labels = record.rules.choice_labels
    if ctx.request.method == "GET":
        return ctx.page(
            "member_link.html",
            village=record.village,
            link=link,
            choice_label=labels.get(link.key or ""),
            names=record.names(),
            token=token,
        )
    # Only this village, until its next update: a forwarded mail lends nothing more.
    until = record.next_update or ctx.now + PASS_WITHOUT_UPDATE
    ctx.village_pass(link.account_id, link.village_id, until)
    if link.key is None:
        return redirect(f"/villages/{link.village_id}", ctx.set_cookie)
    choices: dict[str, str | None] = dict(actions.own_choices(record, link.account_id))
    current = choices.get(link.key)
    if current != link.target:
        try:
            # Set back by hand to what it was, after this link had set it: changed since.
            if current != link.was or actions.quick_link_used(used_key(link)):
                raise BadRequest(CHANGED_SINCE.format(choice=labels[link.key]), 409)
            choices[link.key] = link.target
            actions.save_actions(link.village_id, link.account_id, choices, ctx.now, ctx.unit)
        except (BadRequest, ServiceError):
            villages.touch(link.village_id, link.account_id, ctx.now, record)
            raise
        actions.mark_quick_link_used(used_key(link), until)
    return redirect(f"/villages/{link.village_id}?done=saved#actions", ctx.set_cookie)


def _unsubscribe(ctx: Ctx, token: str) -> Response:
    account_id = read_unsubscribe_token(token, ctx.now)
    if account_id is None:
        raise BadRequest("このリンクは正しくないか、期限が切れています", 400)
    if ctx.request.method == "GET":
        return ctx.page("unsubscribe.html", token=token)
    accounts.set_preferences(account_id, dict.fromkeys(accounts.PREFERENCES, False))
    puzzles.set_mail(account_id, False)  # the daily puzzle's mail stops with the rest
    return ctx.page("unsubscribed.html")


unsubscribe = page(_unsubscribe, csrf=False)
