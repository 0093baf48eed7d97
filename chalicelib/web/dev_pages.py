"""Local-only pages: every mail sent (links clickable), a clock to move forward, and test
accounts made and logged in with one click.

They exist only under the local runner (runtime.dev_tools()); elsewhere, 404.
"""

import re
from datetime import datetime

from chalice import Response
from msgspec import Struct

from .. import runtime
from ..clock import jst
from ..inbound import message
from ..inbound.words import reply_address
from ..notify import match_notices
from ..rulesets.base import Ahead, State, is_computer
from ..services import accounts, matches, replies, villages
from ..services.errors import Conflict, NotFound
from ..storage.repository import load_account
from ..storage.villages import VillageSummary
from .http import BadRequest, redirect
from .pages import Ctx, page

MAX_MINUTES = 7 * 24 * 60


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
        {**mail, "sent_at_jst": _sent_at(mail.get("sent_at")), "framed": _framed(mail)}
        for mail in reversed(_tools().mails())
    ]
    return ctx.page("dev_outbox.html", mails=mails)


def _framed(mail: dict) -> str | None:
    """A mail's HTML part as the outbox's sandboxed frame shows it (no script, no access to
    this page): its links open in the window itself, as a mail client's open the browser,
    so a one-tap link works as it would from the mail."""
    html = mail.get("html")
    if not html:
        return None
    return html.replace("<head>", '<head><base target="_top">', 1)


class LocalVillage(Struct, frozen=True):
    """One village as the clock page shows it: its phase and the moments ahead of it."""

    village: VillageSummary
    phase: str
    phase_text: str  # how the village's rule set names the phase
    steps: dict[str, Ahead]  # step -> what comes and when (only those still ahead)


def _villages(ctx: Ctx) -> list[LocalVillage]:
    """The active villages, each loaded through the request's unit (the inbox's seats read
    them again from it)."""
    shown = []
    for state in (State.RUNNING, State.OPENING, State.ENDING):
        for village in villages.lounge(state.value, limit=20).villages:
            record = ctx.unit.village(village.village_id)
            if record is None:
                continue
            phase = record.rules.phase(record, ctx.now)
            text = record.rules.labels()["phase_label"].get(phase, phase)
            steps = record.rules.moments(record, ctx.now)
            shown.append(LocalVillage(village, phase, text, steps))
    return shown


@page
def clock(ctx: Ctx) -> Response:
    tools = _tools()
    if ctx.request.method == "GET":
        return ctx.page("dev_clock.html", villages=_villages(ctx))
    to = ctx.form.get("to")
    if to is not None:
        # Exactly to the chosen moment of one village (a 5-minute round is not jumped past).
        village = ctx.form.get("village", "")
        ahead = next((v.steps for v in _villages(ctx) if v.village.village_id == village), {})
        if to not in ahead:
            raise BadRequest("その村の、その時刻へは進められません")
        tools.advance_to(ahead[to].at)
        return redirect("/dev/clock")
    text = ctx.form.get("minutes", "")
    # ASCII digits only: isdigit() also takes "²", which int() refuses.
    if not re.fullmatch(r"[0-9]{1,5}", text) or not 1 <= int(text) <= MAX_MINUTES:
        raise BadRequest(f"進める分数は1〜{MAX_MINUTES}で指定してください")
    tools.advance_clock(int(text))
    return redirect("/dev/clock")


# Test accounts (local only): verified at once, no mail, the production limits untouched
# (they bind registration through the web form, which these skip). A Mobius practice village
# needs one; every seat of a 13-seat village by hand needs 13.
TEST_ACCOUNTS = tuple(f"test{n:02d}" for n in range(1, 17))
TEST_PASSWORD = "mura-no-renshuu-2026"  # shown on the page: these accounts are for local play


def _test_accounts() -> list[str]:
    return [a for a in TEST_ACCOUNTS if (account := load_account(a)) and account.email_verified]


@page
def test_accounts(ctx: Ctx) -> Response:
    _tools()
    if ctx.request.method == "GET":
        return ctx.page(
            "dev_accounts.html",
            accounts=_test_accounts(),
            password=TEST_PASSWORD,
            most=len(TEST_ACCOUNTS),
        )
    login = ctx.form.get("login")
    if login is not None:
        if login not in _test_accounts():
            raise BadRequest("そのテスト用アカウントはありません")
        ctx.login_as(login)
        return redirect("/", ctx.set_cookie)
    text = ctx.form.get("count", "")
    if not re.fullmatch(r"[0-9]{1,2}", text) or not 1 <= int(text) <= len(TEST_ACCOUNTS):
        raise BadRequest(f"作る数は1〜{len(TEST_ACCOUNTS)}で指定してください")
    made = 0
    for account_id in TEST_ACCOUNTS:
        if made == int(text):
            break
        try:
            registration = accounts.register(
                account_id, TEST_PASSWORD, f"{account_id}@example.com", ctx.now
            )
        except Conflict:
            continue  # made before
        if registration.token is not None:
            accounts.verify_email(registration.token, ctx.now)
            made += 1
    return redirect("/dev/accounts")


# ----- the inbox: a reply as a member, or a raw message, through the reply service -----

OUTCOMES = {
    "applied": "受け付けました。確認のメールが送信メールに届いています。",
    "refused": "この返信先では受け付けられないため、理由を返信しました（送信メールにあります）。",
    "duplicate": "同じメール（同じ Message-ID）はすでに受け付けています。何もしていません。",
    "dropped": "返信しないメールとして捨てました。",
}
MAX_RAW = 200_000  # octets of a pasted message


def _seats(ctx: Ctx) -> list[dict[str, str]]:
    """Every seat a person plays in the local villages, for the inbox's choice of sender (a
    computer member reads no mail: it is never offered, nor chosen first)."""
    seats = []
    for local in _villages(ctx):
        record = ctx.unit.village(local.village.village_id)
        if record is None:
            continue
        for slot, seat in record.seats().items():
            if seat.account_id and not is_computer(seat.account_id):
                seats.append(
                    {
                        "value": f"{record.village_id}:{slot}",
                        "label": f"{record.village_id}番 {record.village.name}・{seat.name}"
                        f"（{seat.account_id}）",
                    }
                )
    return seats


GAME = "M:"  # the inbox's value of a game's side: "M:<match id>:<side>"


def _game_sides(ctx: Ctx) -> list[dict[str, str]]:
    """Each side of the running correspondence games of the test accounts and of the person
    logged in, for the inbox's choice of sender (a duel played by mail, issue 27)."""
    players = [f"a:{a}" for a in (*_test_accounts(), ctx.account_id) if a]
    sides = []
    games = matches.games_of(list(dict.fromkeys(players)))
    # A game two of these accounts play is on both their lists: its sides are offered once.
    for listed in {g.match_id: g for g in games}.values():
        try:
            match = ctx.unit.match(listed.match_id)
        except NotFound:
            continue
        if match.ended or not match.correspondence:
            continue
        for side, player in match.players.items():
            if player.startswith("a:"):
                sides.append(
                    {
                        "value": f"{GAME}{match.match_id}:{side}",
                        "label": f"{listed.title}・{side}（{player[2:]}）・{match.moves}手目",
                    }
                )
    return sides


def _as_player(ctx: Ctx, value: str, text: str) -> bytes:
    """A reply as a game's player writes it to the mail of the game's move now."""
    match_id, _, side = value.removeprefix(GAME).rpartition(":")
    try:
        match = ctx.unit.match(match_id)
    except NotFound:
        raise BadRequest("その対局はありません") from None
    player = match.players.get(side, "")
    account = load_account(player[2:]) if player.startswith("a:") else None
    to = match_notices.reply_address(match.rules, match_id, side, match.moves)
    if account is None or to is None:
        raise BadRequest("その対局の、その側の人はいません")
    return message.as_sent_by(account.email, to, text, ctx.now)


def _as_member(ctx: Ctx, value: str, text: str) -> bytes:
    """A reply as the seat's player writes it from their verified address."""
    if value.startswith(GAME):
        return _as_player(ctx, value, text)
    village_id, _, slot = value.partition(":")
    record = ctx.unit.village(village_id)
    seat = record.seats().get(slot) if record is not None else None
    account = load_account(seat.account_id) if seat is not None and seat.account_id else None
    if record is None or account is None:
        raise BadRequest("その村の、その席の人はいません")
    return message.as_sent_by(account.email, reply_address(record, slot), text, ctx.now)


@page
def inbox(ctx: Ctx) -> Response:
    _tools()
    said = None
    if ctx.request.method == "POST":
        raw_text = ctx.form.get("raw", "")
        if raw_text.strip():
            raw = raw_text.encode("utf-8")[:MAX_RAW]
        else:
            raw = _as_member(ctx, ctx.form.get("seat", ""), ctx.form.get("text", ""))
        received = replies.receive(raw, ctx.now, ctx.unit)
        said = {"text": OUTCOMES[received.outcome], "reason": received.reason}
    return ctx.page("dev_inbox.html", seats=_seats(ctx) + _game_sides(ctx), said=said)
