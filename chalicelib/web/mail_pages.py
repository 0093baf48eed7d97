"""Pages behind mail links: a member's signed way in, one-tap choices, one-click unsubscribe.

A GET only shows a confirmation page (mail scanners open links); the POST acts,
and doing it twice changes nothing more.
"""

from datetime import timedelta

from chalice import Response

from ..links import MemberLink, read_member_token, read_unsubscribe_token
from ..services import accounts, actions, villages
from ..services.posts import display_name
from ..storage.repository import load_village
from .http import BadRequest, redirect
from .pages import Ctx, Handler, page
from .village_view import CHOICE_LABELS

EXPIRED = "このリンクは正しくないか、期限が切れています。村のページからログインしてください"
CHANGED_SINCE = (
    "このメールが届いた後で{choice}が変更されているため、リンクは使えません。"
    "村のページで決め直してください"
)
PASS_WITHOUT_UPDATE = timedelta(days=1)


def _link(ctx: Ctx, token: str) -> tuple[MemberLink, object]:
    link = read_member_token(token, ctx.now)
    if link is None:
        raise BadRequest(EXPIRED, 400)
    record = load_village(link.village_id)
    if record is None or record.game.day != link.day:
        raise BadRequest(EXPIRED, 400)
    slot = record.slot_of(link.account_id)
    if slot is None:
        raise BadRequest("このリンクの持ち主は、いまこの村の村民ではありません", 403)
    if link.key is not None and link.key not in CHOICE_LABELS:
        raise BadRequest(EXPIRED, 400)
    return link, record


def member_link(token: str) -> Handler:
    @page
    def handle(ctx: Ctx) -> Response:
        link, record = _link(ctx, token)
        if ctx.request.method == "GET":
            names = {
                s: display_name(record.meta.character_set, m) for s, m in record.members.items()
            }
            return ctx.page(
                "member_link.html",
                village=record.meta,
                link=link,
                choice_label=CHOICE_LABELS.get(link.key or ""),
                names=names,
                token=token,
            )
        # Only this village, until its next update: a forwarded mail lends nothing more.
        until = record.meta.next_update or ctx.now + PASS_WITHOUT_UPDATE
        ctx.village_pass(link.account_id, link.village_id, until)
        villages.touch(link.village_id, link.account_id, ctx.now, record)
        if link.key is None:
            return redirect(f"/villages/{link.village_id}", ctx.set_cookie)
        viewer_choices = actions.own_choices(record, link.account_id)
        current = viewer_choices.get(link.key)
        if current != link.target:
            # Set back by hand to what it was, after this link had set it: still changed since.
            if current != link.was or actions.quick_link_used(token):
                raise BadRequest(CHANGED_SINCE.format(choice=CHOICE_LABELS[link.key]), 409)
            viewer_choices[link.key] = link.target
            actions.save_actions(link.village_id, link.account_id, viewer_choices, ctx.now)
            actions.mark_quick_link_used(token, until)
        return redirect(f"/villages/{link.village_id}?done=saved#actions", ctx.set_cookie)

    return handle


def unsubscribe(token: str) -> Handler:
    def handle(ctx: Ctx) -> Response:
        account_id = read_unsubscribe_token(token, ctx.now)
        if account_id is None:
            raise BadRequest("このリンクは正しくないか、期限が切れています", 400)
        if ctx.request.method == "GET":
            return ctx.page("unsubscribe.html", token=token)
        accounts.set_preferences(account_id, dict.fromkeys(accounts.PREFERENCES, False))
        return ctx.page("unsubscribed.html")

    return page(handle, csrf=False)
