"""The GM's work: the GM role, 村建て (creating a village), 廃村 with a reason, moving an
update (an opening's recruiting time included), and the GM's log.

Every action is written with its log line (who, when, what) in one transaction; an action
on a village is conditioned on the version the GM's page showed (``seen``), so a stale page
never acts on a village that changed since, and two GMs never both act on one state.
"""

import random
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from msgspec.structs import replace

from .. import rulesets, runtime
from ..clock import JST
from ..personas import DEFAULT_CHARACTER_SET
from ..rulesets.base import CLOSED_STATES, Step
from ..storage import gm_log
from ..storage.accounts import Account
from ..storage.errors import Refused
from ..storage.gm_log import GmLogLine
from ..storage.repository import VillageRecord, load_account, load_village
from . import update, villages
from .errors import Conflict, Forbidden, InvalidInput, NotFound
from .unit import Unit

# The keys every village has; any other key of a GM's request is an option of its rule set.
COMMON_KEYS = (
    "pace",
    "name",
    "first_update",
    "character_set",
    "rules",
    "cpu_members",
    "practice",
)
REASON_LENGTH = 400  # characters of a 廃村's reason or a moved update's notice
STALE = "この村はページを開いたあとに変わりました。ページを開き直してください"


def grant(account_id: str, gm: bool, actor: str, now: datetime) -> None:
    """Makes ``account_id`` a GM (``gm``) or no longer one: the command line's and the GM
    lambda's alone, never a web page's."""
    log = GmLogLine(actor, "grant" if gm else "revoke", account_id, None, now)
    try:
        gm_log.set_gm(account_id, gm, log)
    except Refused:
        raise NotFound("そのアカウントは見つかりません") from None


GM_ONLY = "このページは管理人（GM）だけが使えます"


def require_gm(account_id: str | None) -> str:
    """The account, if it is a GM now (read at every GM request: a revoke counts at once)."""
    account = load_account(account_id) if account_id else None
    if account is None or not account.gm:
        raise Forbidden(GM_ONLY)
    return account.account_id


def host_refusal(account: Account, now: datetime) -> str | None:
    """Why this account may not build a village now (None: it may). GMs always may; players
    only where the operator allows it (``runtime.player_villages``): a verified account old
    enough, with enough games played to their end, and no village of its own still open."""
    if account.gm:
        return None
    allowed = runtime.player_villages()
    if allowed is None:
        return GM_ONLY
    days, games = allowed
    if (
        not account.email_verified
        or account.created_at > now - timedelta(days=days)
        or account.finished_games < games
    ):
        return (
            f"村を建てられるのは、メールアドレスを確認済みで、登録から{days}日以上たち、"
            f"{games}回以上最後まで遊んだアカウントです"
        )
    if account.hosted_village:
        built = load_village(account.hosted_village)
        if built is not None and built.state not in CLOSED_STATES:
            return (
                f"あなたが建てた村（{built.village_id}番）がまだ終わっていません。"
                "村は一人一つまでです"
            )
    return None


def require_host(account_id: str | None, now: datetime) -> Account:
    """The account, if it may build a village now (``host_refusal``)."""
    account = load_account(account_id) if account_id else None
    if account is None:
        raise Forbidden(GM_ONLY)
    refusal = host_refusal(account, now)
    if refusal is not None:
        raise Forbidden(refusal)
    return account


# How far ahead a GM may set an update (a village's first, or a moved one): a long
# village recruits for days and a GM moves an update by hours or days, so a time months away
# is a slip of the keyboard; and a time near year 9999 no longer fits a datetime once shown
# in JST or a deadline is added to it (decision 151).
FURTHEST = timedelta(days=90)


def when(value: object, now: datetime, what: str = "first_update") -> datetime | None:
    """An ISO 8601 time (a form's datetime-local is one); without an offset it is Japan
    time, as players read it. Empty: None. A time more than ``FURTHEST`` from ``now``, ahead
    or behind, is refused before anything computes with it (``within_reach``)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_MOMENT:
        moment = None
    else:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None:
        raise InvalidInput(f"{what} は ISO 8601 の日時で指定してください")
    moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=JST)
    within_reach(moment, now)
    return moment


MAX_MOMENT = 40  # characters: the longest ISO 8601 time with microseconds and an offset


def within_reach(moment: datetime, now: datetime) -> None:
    """``InvalidInput`` unless ``moment`` lies within ``FURTHEST`` of ``now`` (compared as
    aware times, which never overflows, unlike converting one to another zone)."""
    if not now - FURTHEST <= moment <= now + FURTHEST:
        raise InvalidInput(f"日時は今から{FURTHEST.days}日以内で指定してください")


def asked(event: Mapping[str, Any], now: datetime) -> villages.AskedVillage:
    """A new village as the lambda's event, the command line or the 村建て page names it
    (every key not common to all villages is an option of its rule set)."""
    return villages.AskedVillage(
        pace=str(event.get("pace", "")),
        name=str(event.get("name", "")),
        first_update=when(event.get("first_update"), now),
        character_set=str(event.get("character_set") or DEFAULT_CHARACTER_SET),
        rules=str(event.get("rules") or rulesets.DEFAULT),
        given={k: v for k, v in event.items() if k not in COMMON_KEYS},
        cpu_members=event.get("cpu_members") or 0,
        practice=event.get("practice") or False,
    )


def check(event: Mapping[str, Any], now: datetime) -> villages.NewVillage:
    """The village ``event`` asks for, checked."""
    return villages.check_new(asked(event, now), now)


def create(event: Mapping[str, Any], actor: str, now: datetime, host: Account | None = None) -> str:
    """村建て: the village ``event`` asks for, checked, in the opening, with its log line.
    ``host``: a player (not a GM) who builds it: the village becomes the player's one open
    village."""
    wanted = asked(event, now)
    new = villages.check_new(wanted, now)
    what = f"{new.rules.name}・{new.pace.value}・{new.name}"
    try:
        return villages.create_village(
            wanted,
            now=now,
            rng=random.Random(secrets.randbits(64)),
            log=lambda vid: GmLogLine(actor, "create", vid, what, now),
            host=host if host is not None and not host.gm else None,
        )
    except Refused:  # the player's other browser built one in between
        raise Conflict("村は一人一つまでです。あなたの村がほかの画面で建てられました") from None


def abandon(
    village_id: str,
    reason: str,
    actor: str,
    now: datetime,
    seen: int | None = None,
    unit: Unit | None = None,
) -> None:
    """廃村: the village closes whatever its day, its members' holds end, and they are told
    why, on its public board and in their mail."""
    reason = _words(reason, "廃村の理由")
    record = _village(village_id, seen, unit)
    step = replace(
        record.rules.abandon(record, now, f"管理人がこの村を廃村にしました。\n理由: {reason}"),
        gm_reason=reason,
    )
    _commit(record, step, now, GmLogLine(actor, "abandon", village_id, reason, now))


def reschedule(
    village_id: str,
    to: datetime,
    notice: str,
    actor: str,
    now: datetime,
    seen: int | None = None,
    unit: Unit | None = None,
) -> None:
    """Moves the village's next update (an opening's: its recruiting time) to ``to``, with a
    notice to the members on its public board."""
    notice = _words(notice, "お知らせ")
    record = _village(village_id, seen, unit)
    within_reach(to, now)  # an opening extended by hours, over and over, too
    if to <= now:
        raise InvalidInput("新しい時刻は未来にしてください")
    if record.next_update is not None and to == record.next_update:
        raise InvalidInput("いまの時刻と同じです")
    try:
        step = record.rules.reschedule(record, to, now, f"管理人からのお知らせ: {notice}")
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    detail = f"{to.isoformat()}: {notice}"
    _commit(record, step, now, GmLogLine(actor, "reschedule", village_id, detail, now))


def recent(now: datetime) -> list[GmLogLine]:
    return gm_log.recent(now)


def _village(village_id: str, seen: int | None, unit: Unit | None) -> VillageRecord:
    record = (unit or Unit()).require(village_id)
    if seen is not None and record.village.version != seen:
        raise Conflict(STALE)
    if record.state in CLOSED_STATES:
        raise Conflict("その村はもう終わっています")
    return record


def _commit(record: VillageRecord, step: Step, now: datetime, log: GmLogLine) -> None:
    try:
        update.commit(record, step, now, log)
    except Refused:
        raise Conflict(STALE) from None  # a step, a join or another GM came first


def _words(text: str, what: str) -> str:
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise InvalidInput(f"{what}を書いてください")
    if len(text) > REASON_LENGTH:
        raise InvalidInput(f"{what}は{REASON_LENGTH}文字までです")
    return text
