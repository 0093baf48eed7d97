"""The GM's pages: the village list, 村建て (with a preview of what players will read), and
a village's management (廃村 with a reason, moving its next update), each action behind a
confirmation page. Every handler checks the GM role first (``hosting.require_gm``): a
session's login alone is not enough, and a mail link's session never is."""

from datetime import timedelta
from typing import Any

from chalice import Response

from .. import rulesets
from ..personas import CHARACTER_SET_LABELS
from ..services import hosting
from ..services import villages as village_service
from ..services.errors import InvalidInput
from .http import BadRequest, redirect
from .pages import Ctx, page, require_login
from .villages import LOUNGE_STATES, NUMBER, _check_village_id

ACTIVE = LOUNGE_STATES[:3]  # opening, running, ending: what a GM may still act on
EXTENSIONS = (6, 12, 24, 48)  # hours an opening's recruiting time may be extended by


def _gm(ctx: Ctx) -> str:
    return hosting.require_gm(require_login(ctx))


def _actor(account_id: str) -> str:
    return f"account:{account_id}"


def _common() -> dict[str, Any]:
    return {
        "rules_label": rulesets.labels(),
        "next_words": rulesets.next_update_words(),
    }


@page
def home(ctx: Ctx) -> Response:
    """Every village a GM may still act on, by state, and the latest GM actions."""
    _gm(ctx)
    sections = {state: village_service.lounge(state, limit=50) for state in ACTIVE}
    return ctx.page(
        "gm_home.html", sections=sections, log=hosting.recent(ctx.now)[:10], **_common()
    )


# ----- 村建て -----


def _form_event(form: dict[str, str], rules: str) -> dict[str, Any]:
    """The page's fields as the GM's request (the rule set's declared options only)."""
    event: dict[str, Any] = {key: form.get(key, "") for key in hosting.COMMON_KEYS}
    event["rules"] = rules
    for option in rulesets.get(rules).options:
        event[option.key] = form.get(option.key, "")
    return event


def _rules_of(name: str | None) -> str:
    name = name or rulesets.DEFAULT
    if name not in rulesets.PLACES:
        raise BadRequest("そのルールはありません", 404)
    return name


@page
def new(ctx: Ctx) -> Response:
    """GET: the form of one rule set (``?rules=``); POST: ``do=preview`` shows the village as
    players will read it, ``do=create`` creates it (checked again) and opens it. A GM's page,
    and a player's where the operator allows players to build villages (decision 106)."""
    host = hosting.require_host(require_login(ctx), ctx.now)
    if ctx.request.method == "GET":
        rules = _rules_of(ctx.request.query.get("rules"))
        return _new_page(ctx, host.gm, rules, {"pace": "short", "rules": rules}, None)
    rules = _rules_of(ctx.form.get("rules"))
    event = _form_event(ctx.form, rules)
    try:
        if ctx.form.get("do") == "create":
            village_id = hosting.create(event, _actor(host.account_id), ctx.now, host)
            return redirect(f"/villages/{village_id}", ctx.set_cookie)
        checked = hosting.check(event, ctx.now)
    except InvalidInput as error:
        return _new_page(ctx, host.gm, rules, event, None, str(error))
    return _new_page(ctx, host.gm, rules, event, checked)


def _new_page(
    ctx: Ctx,
    gm: bool,
    rules: str,
    values: dict[str, Any],
    checked: village_service.NewVillage | None,
    error: str | None = None,
) -> Response:
    game = rulesets.get(rules)
    preview = None
    if checked is not None:
        preview = {
            "name": checked.name,
            "pace": checked.pace.value,
            "seats": checked.seats - (checked.cpu_members if checked.practice else 0),
            "cpu_members": checked.cpu_members,
            "practice": checked.practice,
            "first_update": checked.first_update,
            "options": [
                (o.label, o.words(checked.options[o.key]))
                for o in game.options
                if o.key in checked.options and o.kind != "text"
            ],
            "texts": [
                (o.label, checked.options[o.key])
                for o in game.options
                if o.kind == "text" and checked.options.get(o.key)
            ],
        }
    return ctx.page(
        "gm_new.html",
        status=400 if error else 200,
        message=error,
        rules=rules,
        game=game,
        values=values,
        preview=preview,
        gm=gm,
        character_sets=CHARACTER_SET_LABELS,
        **_common(),
    )


# ----- one village -----


def _seen(ctx: Ctx) -> int:
    seen = ctx.form.get("seen", "")
    if not NUMBER.fullmatch(seen) or len(seen) > 12:
        raise BadRequest("ページを開き直してください")
    return int(seen)


@page
def village(ctx: Ctx, village_id: str) -> Response:
    _gm(ctx)
    _check_village_id(village_id)
    record = ctx.unit.village(village_id)
    if record is None:
        raise BadRequest("その村は見つかりません", 404)
    names = {slot: seat.name for slot, seat in record.seats().items() if seat.account_id}
    return ctx.page(
        "gm_village.html",
        village=record.village,
        members=names,
        seen=record.village.version,
        extensions=EXTENSIONS,
        **_common(),
    )


@page
def abandon(ctx: Ctx, village_id: str) -> Response:
    account_id = _gm(ctx)
    _check_village_id(village_id)
    seen = _seen(ctx)
    reason = ctx.form.get("reason", "")
    if ctx.form.get("confirm") != "yes":
        record = ctx.unit.require(village_id)
        return ctx.page(
            "gm_confirm.html",
            village=record.village,
            action=f"/gm/villages/{village_id}/abandon",
            title="この村を廃村にしますか？",
            lines=[("理由（参加者に伝わります）", reason.strip() or "（未記入）")],
            fields={"seen": str(seen), "reason": reason},
            button="廃村にする",
            **_common(),
        )
    hosting.abandon(village_id, reason, _actor(account_id), ctx.now, seen, ctx.unit)
    return redirect(f"/gm/villages/{village_id}", ctx.set_cookie)


@page
def move(ctx: Ctx, village_id: str) -> Response:
    """Moves the next update: to a time (``to``, JST) or, for an opening, by hours
    (``extend``: its recruiting time)."""
    account_id = _gm(ctx)
    _check_village_id(village_id)
    seen = _seen(ctx)
    record = ctx.unit.require(village_id)
    notice = ctx.form.get("notice", "")
    extend = ctx.form.get("extend", "")
    if extend:
        if not NUMBER.fullmatch(extend) or int(extend) not in EXTENSIONS:
            raise BadRequest("延ばす時間を選んでください")
        if record.next_update is None:
            raise BadRequest("この村に次の予定はありません", 409)
        to = record.next_update + timedelta(hours=int(extend))
        hosting.within_reach(to, ctx.now)  # before the preview shows it
    else:
        moved = hosting.when(ctx.form.get("to", ""), ctx.now, "新しい時刻")
        if moved is None:
            raise BadRequest("新しい時刻を入れてください")
        to = moved
    if ctx.form.get("confirm") != "yes":
        return ctx.page(
            "gm_confirm.html",
            village=record.village,
            action=f"/gm/villages/{village_id}/move",
            title="次の更新を動かしますか？",
            lines=[
                ("いまの予定", record.next_update),
                ("新しい予定", to),
                ("お知らせ（表に書き込まれます）", notice.strip() or "（未記入）"),
            ],
            fields={"seen": str(seen), "to": to.isoformat(), "notice": notice},
            button="この時刻にする",
            **_common(),
        )
    hosting.reschedule(village_id, to, notice, _actor(account_id), ctx.now, seen, ctx.unit)
    return redirect(f"/gm/villages/{village_id}", ctx.set_cookie)
