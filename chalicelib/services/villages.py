"""Villages: create, the lounge, join, leave (ID locks), access tracking, auto-departure."""

import logging
import random
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from msgspec import Struct, field

from .. import membership, rulesets
from ..personas import CHARACTER_SETS, DEFAULT_CHARACTER_SET, persona
from ..rulesets.base import CLOSED_STATES, NotNow, Pace, State, SystemPost, VillageEngine
from ..rulesets.options import read as read_options
from ..storage import villages as store
from ..storage.accounts import Account
from ..storage.errors import Refused
from ..storage.gm_log import GmLogLine
from ..storage.keys import is_state_sk
from ..storage.repository import Presence, VillageRecord, load_account, load_joiner
from . import computer_seats
from .errors import Conflict, Forbidden, InvalidInput, NotFound
from .paging import decode_cursor, encode_cursor
from .unit import Unit

MAX_SEATS = 16  # the most seats any rule set has (classic: 16 players)
# Retries of a use case whose transaction lost a race: each retry reloads and re-checks.
# Each lost race means another join or leave committed in between, so with every seat
# joined at once the last one still gets through.
RETRIES = MAX_SEATS + 1

MAX_NAME = 40
# A member's access write that failed (AWS, after the SDK's retries) is tried this often in
# all, a little later each time, before the page says the visit was not recorded.
ACCESS_TRIES = 3
ACCESS_PAUSE = 0.05  # seconds, times the tries so far
NOT_RECORDED = (
    "混み合っているため、今回の訪問を記録できませんでした。"
    "放置による離脱を避けるため、少し待ってからもう一度この村を開いてください。"
)

log = logging.getLogger("mobius.villages")

P = ParamSpec("P")
R = TypeVar("R")


def _retrying(use_case: Callable[P, R]) -> Callable[P, R]:
    """Runs ``use_case`` again after a lost race; the re-check then gives the right answer."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(RETRIES):
            try:
                return use_case(*args, **kwargs)
            except Refused:
                if attempt == RETRIES - 1:
                    raise Conflict("混み合っています。もう一度お試しください") from None
        raise AssertionError("unreachable")

    run.__name__ = use_case.__name__
    run.__doc__ = use_case.__doc__
    return run


def next_village_id() -> str:
    return store.next_village_id()


class AskedVillage(Struct, frozen=True):
    """A new village as a GM or a player asks for it, nothing checked yet: the 村建て page's
    form, the GM lambda's event, the command line, the scheduler's hourly long village.
    ``given``: the GM's options for the rule set ``rules`` (classic: RULES-CLASSIC §7 and
    the template); ``cpu_members``: computer members who take the seats still open when the
    village starts, or at once in a ``practice`` village (decisions 108, 125): platform
    options of every village rule set, as typed (``check_new`` reads them)."""

    pace: str
    name: str
    first_update: datetime | None = None  # None: the rule set's first update after creation
    character_set: str = DEFAULT_CHARACTER_SET
    rules: str = rulesets.DEFAULT
    given: Mapping[str, Any] = field(default_factory=dict)
    cpu_members: object = 0
    practice: object = False


class NewVillage(Struct, frozen=True):
    """A village as a GM asked for it, every part checked, nothing written yet: what the
    村建て page previews and ``create_village`` writes."""

    rules: VillageEngine[Any]
    pace: Pace
    name: str
    character_set: str
    first_update: datetime
    given: Mapping[str, Any]
    options: dict[str, Any]  # every declared option of the pace: given, or its default
    seats: int
    cpu_members: int  # computer members: seated at the start, or at once (``practice``)
    practice: bool = False  # a practice village: the computers take their seats at once


def check_new(asked: AskedVillage, now: datetime) -> NewVillage:
    """Checks the village ``asked`` for (``InvalidInput``: one Japanese sentence)."""
    try:
        pace_ = Pace(asked.pace)
    except ValueError:
        raise InvalidInput("村の種類は長期か短期を選んでください") from None
    name = asked.name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidInput(f"村の名前は1〜{MAX_NAME}文字にしてください")
    if asked.character_set not in CHARACTER_SETS:
        raise InvalidInput("そのキャラクターセットはありません")
    if asked.rules not in rulesets.PLACES:
        raise InvalidInput("そのルールはありません")
    game_rules = rulesets.get(asked.rules)
    given = dict(asked.given)
    try:
        game_rules.check_setup(pace_, given)
        typed = read_options(game_rules.label, game_rules.options, pace_.value, given)
        # The seats as the game is dealt (a draw with a throwaway seed: nothing is kept).
        seats = len(game_rules.create(random.Random(0), pace_, now, given).seats)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    first = asked.first_update or now + game_rules.seat_rules(pace_).first_update
    if first <= now:
        raise InvalidInput("最初の更新時刻は未来にしてください")
    computers_ = computer_seats.check_count(asked.cpu_members, seats)
    at_once = _flag(asked.practice)
    if at_once and not computers_:
        raise InvalidInput("練習村にはCPUの人数を1人以上にしてください")
    effective = {
        o.key: typed.get(o.key, o.default[pace_.value])
        for o in game_rules.options
        if pace_.value in o.paces
    }
    return NewVillage(
        game_rules,
        pace_,
        name,
        asked.character_set,
        first,
        given,
        effective,
        seats,
        computers_,
        at_once,
    )


def _flag(value: object) -> bool:
    """A yes/no of the lambda's JSON, the command line or a form."""
    if isinstance(value, bool):
        return value
    words = str(value or "").strip().lower()
    if words in ("", "0", "false", "no", "off"):
        return False
    if words in ("1", "true", "yes", "on"):
        return True
    raise InvalidInput("練習村（practice）は true か false で指定してください")


def create_village(
    asked: AskedVillage,
    *,
    now: datetime,
    rng: random.Random,
    log: Callable[[str], GmLogLine] | None = None,
    host: Account | None = None,
) -> str:
    """Creates the village ``asked`` for in the opening (checked first by ``check_new``,
    nothing written on a refusal); returns its id. ``rng`` draws the game's seed; ``log``:
    the GM's log line of it (by the new id), written with it; ``host``: the player who builds
    it (``store.create_village``)."""
    new = check_new(asked, now)
    village_id = store.next_village_id()
    seed = rng.getrandbits(63)
    game = new.rules.create(random.Random(seed), new.pace, now, new.given)
    opening = store.Opening(
        village_id=village_id,
        name=new.name,
        pace=new.pace.value,
        rules=new.rules.name,
        character_set=new.character_set,
        created_at=now,
        first_update=new.first_update,
        seed=seed,
        game=new.rules.dump(game.game),
        seats=tuple(game.seats),
        posts=tuple(game.posts),
        cpu_members=0 if new.practice else new.cpu_members,
    )
    store.create_village(opening, log(village_id) if log else None, host)
    if new.practice:
        computer_seats.seat(village_id, new.cpu_members, now)
    return village_id


# ----- the lounge -----


class LoungePage(Struct, frozen=True):
    villages: list[store.VillageSummary]
    cursor: str | None


def lounge(
    state: str, cursor: str | None = None, limit: int = 20, free_only: bool = False
) -> LoungePage:
    """Villages in one state, soonest update first (closed: latest closed first).

    ``free_only``: only villages with a free slot (the lounge's opening list).
    """
    try:
        state_ = State(state)
    except ValueError:
        raise InvalidInput("村の状態の指定が正しくありません") from None
    start = decode_cursor(cursor, {"state": state_.value.__eq__, "gsi1sk": is_state_sk})
    page = store.villages_in_state(
        state_.value,
        limit,
        start,
        latest_first=state_ in CLOSED_STATES,
        free_only=free_only,
    )
    return LoungePage(page.items, encode_cursor(page.last_key))


# ----- joining and leaving -----


_KINDS: dict[str, type[Exception]] = {
    "forbidden": Forbidden,
    "conflict": Conflict,
    "invalid": InvalidInput,
}


def _refused(refusal: membership.Refusal) -> Exception:
    return _KINDS[refusal.kind](str(refusal))


@_retrying
def join(
    village_id: str,
    account_id: str,
    slot: str,
    persona_key: str,
    now: datetime,
    unit: Unit | None = None,
) -> None:
    """Takes a free slot (RULES §9) with a persona; refused with the reason."""
    unit = unit or Unit()
    account, presence = load_joiner(account_id, village_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    record = unit.require(village_id)
    try:
        _join(record, account, presence, slot, persona_key, now)
    except Refused:
        unit.reload(village_id)  # lost a race: look again
        raise


def _join(
    record: VillageRecord,
    account: Account,
    presence: Presence | None,
    slot: str,
    persona_key: str,
    now: datetime,
) -> None:
    """``presence``: the account's in this village, if it ever joined (read with it)."""
    state, pace, seats = record.state, record.pace, record.seats()
    applicant = membership.Applicant(
        account.account_id, account.email_verified, account.lock_until, account.holds
    )
    dead = record.dead()
    takeovers = record.rules.seat_rules(pace).takeovers
    refusal = membership.join_refusal(
        applicant,
        membership.Vacancies(state, pace, seats, dead, takeovers),
        slot,
        None if presence is None else presence.left,
        now,
    )
    chosen = persona(record.village.character_set, persona_key)
    refusal = refusal or membership.persona_refusal(
        state, seats, slot, persona_key, chosen is not None
    )
    if refusal is not None:
        raise _refused(refusal)
    rules = record.rules.seat_rules(pace)
    if state is State.OPENING:
        change = store.SeatChange(
            persona=persona_key, speech_ban_until=now + rules.opening_speech_ban
        )
        open_seats = None
        # The newcomer's idle warning, their first moment to be looked at (decision 140).
        look_by = membership.IdleWindow(now, now + rules.opening_idle_limit).warn
        if any(s.computer for s in seats.values()):
            look_by = now  # the computer members answer a newcomer at once (classic: start votes)
    else:
        # A takeover plays the character as it is: the persona stays. A character nobody has
        # played yet gets the persona the newcomer chooses, like a join in the opening.
        change = store.SeatChange(
            persona=persona_key if seats[slot].persona is None else None,
            public_ban_until=now + rules.public_ban_on_takeover,
        )
        open_seats = membership.open_seats(seats, dead) - 1
        look_by = membership.IdleWindow(now, now + rules.idle_limit).warn
    try:
        game = record.rules.on_join(record, slot, now)
    except NotNow as error:
        raise Forbidden(str(error)) from error
    if game is not None:
        game = record.rules.dump(game)
    store.claim_slot(record, account, slot, now, change, open_seats, look_by, game)


@_retrying
def leave(
    village_id: str, account_id: str, now: datetime, unit: Unit | None = None
) -> datetime | None:
    """Departure (幽体離脱). Free in the opening; otherwise returns the end of the new ID lock."""
    unit = unit or Unit()
    record = unit.require(village_id)
    slot = record.slot_of(account_id)
    if slot is None:
        raise Forbidden("この村に参加していません")
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    try:
        return _depart(record, account, slot, now)
    except Refused:
        unit.reload(village_id)
        raise


def _depart(
    record: VillageRecord, account: Account, slot: str, now: datetime, idle: bool = False
) -> datetime | None:
    """Vacates the slot. ``idle``: an auto-departure, undone by any access since the read."""
    state = record.state
    refusal = leave_refusal(record, slot)
    if refusal is not None:
        raise Forbidden(refusal)
    opening = state is State.OPENING
    game, note = record.rules.on_departure(record, slot, now)
    lock = None
    if not opening:
        lock = membership.new_lock(account.departures, account.lock_until, now)
    open_seats = None
    if state is State.RUNNING:
        dead = record.dead()
        open_seats = membership.open_seats(record.seats(), dead) + (0 if slot in dead else 1)
    name = record.seats()[slot].name
    departure = store.Departure(
        slot=slot,
        post=SystemPost(
            record.rules.public_board, record.day, f"{name}が村を去りました。{note}", now
        ),
        release_hold=account.holds.get(record.village.pace) == record.village_id,
        lock=store.Lock(lock.departures, lock.until) if lock else None,
        open_seats=open_seats,
        idle=idle,
        game=record.rules.dump(game) if game is not None else None,
    )
    store.vacate_slot(record, account, departure)
    return lock.until if lock else None


def leave_refusal(record: VillageRecord, slot: str) -> str | None:
    """Why the member in ``slot`` may not leave now, or None (the page offers leaving only
    when this is None)."""
    return membership.leave_refusal(
        record.state,
        slot in record.dead(),
        record.rules.seat_rules(record.pace).leaving_in_game,
    )


def kick_out(record: VillageRecord, slot: str, now: datetime, unit: Unit) -> None:
    """A prologue member kicked by three others leaves at once (RULES-CLASSIC §2.1)."""
    for _ in range(RETRIES):
        player = record.player(slot)
        if player is None:
            return
        account = load_account(player)
        if account is None:
            return
        try:
            _depart(record, account, slot, now)
            unit.reload(record.village_id)
            return
        except Refused:
            fresh = unit.reload(record.village_id)
            if fresh is None:
                return
            record = fresh


def touch(
    village_id: str, account_id: str, now: datetime, record: VillageRecord | None = None
) -> bool:
    """Access tracking (RULES §9): a member logging in to the village. Returns False when
    the visit could not be recorded (AWS kept failing): the page must say so, since an idle
    departure may follow only accesses that truly did not happen.

    ``record``: the village the caller just loaded, to save a read.
    """
    record = record or Unit().require(village_id)
    slot = record.slot_of(account_id)
    if slot is None:
        return True
    for attempt in range(ACCESS_TRIES):
        if store.record_access(record, slot, account_id, now):
            return True
        log.warning("access of %s to village %s not recorded", account_id, village_id)
        if attempt + 1 < ACCESS_TRIES:
            time.sleep(ACCESS_PAUSE * (attempt + 1))
    return False


def idle_members(record: VillageRecord, now: datetime) -> list[str]:
    """Members due for auto-departure (RULES §9) at ``now``."""
    return [slot for slot, window in idle_windows(record).items() if window.due <= now]


def idle_windows(record: VillageRecord) -> dict[str, membership.IdleWindow]:
    """Each member's window before an auto-departure (RULES §9), and its idle warning."""
    return membership.idle_windows(
        record.state,
        record.rules.seat_rules(record.pace),
        record.seats(),
        record.joined(),
        record.recent_saves(),
        record.dead() if record.state is State.RUNNING else frozenset(),
        record.day,
        record.day_shown_at,
    )


def depart_idle(
    village_id: str, now: datetime, record: VillageRecord | None = None, unit: Unit | None = None
) -> list[str]:
    """Auto-departure of every idle member; returns their former accounts.

    ``record``: the village just loaded, to save a read when nobody is idle.
    """
    unit = unit or Unit()
    if record is not None:
        unit.known(record)
    departed: list[str] = []
    for _ in range(RETRIES):
        current = unit.village(village_id)
        if current is None:
            return departed
        idle = idle_members(current, now)
        if not idle:
            return departed
        player = current.player(idle[0])
        account = load_account(player) if player else None
        if account is None:
            return departed
        try:
            _depart(current, account, idle[0], now, idle=True)
            departed.append(account.account_id)
        except Refused:
            pass  # raced with a save or a login: look again
        unit.reload(village_id)
    return departed


def occupied(record: VillageRecord) -> int:
    return membership.occupied(record.seats())
