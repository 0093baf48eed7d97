"""Villages: create, the lounge, join, leave (ID locks), access tracking, auto-departure."""

import random
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from pynamodb.exceptions import TransactWriteError, UpdateError

from ..clock import jst
from ..labels import PACE_LABELS
from ..personas import CHARACTER_SETS, DEFAULT_CHARACTER_SET, persona
from ..rules import SLOTS, Village
from ..storage.db import ensure_configured, transaction
from ..storage.models import (
    AccountItem,
    CounterItem,
    DayItem,
    MemberItem,
    PresenceItem,
    SessionItem,
    VillageItem,
)
from ..storage.repository import (
    VillageRecord,
    load_account,
    load_village,
    plain,
    presence_sk,
    slot_sk,
    state_key,
    time_key,
    village_pk,
)
from ..timeline import (
    MIN_PLAYERS,
    OPENING_IDLE_LIMIT,
    OPENING_SPEECH_BAN,
    SHORT_FIRST_ACCESS_LIMIT,
    TIMINGS,
    Pace,
    State,
)
from . import posts, sessions
from .errors import Conflict, Forbidden, InvalidInput, NotFound
from .paging import decode_cursor, encode_cursor

# Retries of a use case whose transaction lost a race: each retry reloads and re-checks.
# Each lost race means another join or leave committed in between, so with every slot
# joined at once (a village's 13) the last one still gets through.
RETRIES = len(SLOTS) + 1

MAX_NAME = 40


def _retrying(use_case):
    """Runs ``use_case`` again after a lost race; the re-check then gives the right answer."""

    def run(*args, **kwargs):
        for attempt in range(RETRIES):
            try:
                return use_case(*args, **kwargs)
            except TransactWriteError:
                if attempt == RETRIES - 1:
                    raise Conflict("混み合っています。もう一度お試しください") from None
        raise AssertionError("unreachable")

    run.__name__ = use_case.__name__
    run.__doc__ = use_case.__doc__
    return run


def next_village_id() -> str:
    """Village numbers count up from 1 (an atomic counter)."""
    counter = CounterItem("SEQ#village", "SEQ")
    counter.update(actions=[CounterItem.count.add(1)])
    return str(counter.count)


def create_village(
    *,
    pace: str,
    name: str,
    now: datetime,
    rng: random.Random,
    first_update: datetime | None = None,
    character_set: str = DEFAULT_CHARACTER_SET,
) -> str:
    """Creates a village in the opening; returns its id. ``rng`` draws the game's seed."""
    try:
        pace_ = Pace(pace)
    except ValueError:
        raise InvalidInput("村の種類は長期か短期を選んでください") from None
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidInput(f"村の名前は1〜{MAX_NAME}文字にしてください")
    if character_set not in CHARACTER_SETS:
        raise InvalidInput("そのキャラクターセットはありません")
    first = first_update or now + TIMINGS[pace_].first_update
    if first <= now:
        raise InvalidInput("最初の更新時刻は未来にしてください")
    ensure_configured()
    village_id = next_village_id()
    seed = rng.getrandbits(63)
    game = Village.create(random.Random(seed))
    meta = VillageItem(
        village_pk(village_id),
        "META",
        village_id=village_id,
        name=name,
        pace=pace_.value,
        state=State.OPENING.value,
        character_set=character_set,
        created_at=now,
        next_update=first,
        occupied=0,
        seed=seed,
        game=game.to_json(),
        gsi1pk=state_key(State.OPENING),
        gsi1sk=time_key(first),
    )
    with transaction() as t:
        t.save(meta, condition=VillageItem.pk.does_not_exist())
        for slot in SLOTS:
            t.save(
                MemberItem(village_pk(village_id), slot_sk(slot), village_id=village_id, slot=slot)
            )
        t.save(posts.oni_world_random_targets(village_id, game, now))
    return village_id


# ----- the lounge -----


@dataclass(frozen=True)
class LoungePage:
    villages: list[VillageItem]
    cursor: str | None


def lounge(
    state: str, cursor: str | None = None, limit: int = 20, free_only: bool = False
) -> LoungePage:
    """Villages in one state, in the order the scheduler looks at them (ended: latest first).

    ``free_only``: only villages with a free slot (the lounge's opening list).
    """
    try:
        state_ = State(state)
    except ValueError:
        raise InvalidInput("村の状態の指定が正しくありません") from None
    ensure_configured()
    latest_first = state_ in (State.ENDED, State.ABANDONED)
    result = VillageItem.by_state.query(
        state_key(state_),
        scan_index_forward=not latest_first,
        limit=limit,
        filter_condition=VillageItem.occupied < len(SLOTS) if free_only else None,
        last_evaluated_key=decode_cursor(
            cursor,
            {
                "pk": lambda pk: pk.startswith("V#"),
                "sk": "META".__eq__,
                "gsi1pk": state_key(state_).__eq__,
                "gsi1sk": lambda _: True,
            },
        ),
    )
    villages = list(result)
    return LoungePage(villages, encode_cursor(result.last_evaluated_key))


# ----- joining and leaving -----


def _require(record: VillageRecord | None) -> VillageRecord:
    if record is None:
        raise NotFound("その村は見つかりません")
    return record


@_retrying
def join(village_id: str, account_id: str, slot: str, persona_key: str, now: datetime) -> None:
    """Takes a free slot (RULES §9) with a persona; refused with the reason."""
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    record = _require(load_village(village_id))
    meta = record.meta
    pace = Pace(meta.pace)
    if not account.email_verified:
        raise Forbidden("メールアドレスの確認がまだです。届いたメールのリンクを開いてください")
    if account.lock_until and now < account.lock_until:
        raise Forbidden(f"IDロック中のため参加できません（{jst(account.lock_until)}まで）")
    presence = record.presences.get(account_id)
    if presence is not None:
        if presence.left:
            raise Forbidden("一度離脱した村には参加できません")
        raise Conflict("すでにこの村に参加しています")
    holds = plain(account.holds)
    if pace.value in holds:
        raise Forbidden(f"すでに{PACE_LABELS[pace.value]}村に参加しています")
    state = State(meta.state)
    if state not in (State.OPENING, State.RUNNING):
        raise Forbidden("この村にはもう参加できません")
    member = record.members.get(slot)
    if member is None:
        raise InvalidInput("その席はありません")
    if member.account_id is not None:
        raise Conflict("その席はすでに埋まっています")
    game = record.game
    if slot in game.deaths:
        raise Forbidden("亡くなったキャラクターの席には参加できません")
    chosen = persona(meta.character_set, persona_key)
    if state is State.OPENING:
        if chosen is None:
            raise InvalidInput("そのキャラクターは選べません")
        taken = {m.persona for m in record.members.values() if m.account_id is not None}
        if persona_key in taken:
            raise Conflict("そのキャラクターはほかの人が選んでいます")
        member_actions = [
            MemberItem.persona.set(persona_key),
            MemberItem.speech_ban_until.set(now + OPENING_SPEECH_BAN),
            MemberItem.public_ban_until.remove(),
        ]
    else:
        # A takeover plays the character as it is: the persona stays. A character nobody has
        # played yet gets the persona the newcomer chooses, like a join in the opening.
        member_actions = []
        if member.persona is None:
            if chosen is None:
                raise InvalidInput("そのキャラクターは選べません")
            taken = {m.persona for m in record.members.values() if m.persona is not None}
            if persona_key in taken:
                raise Conflict("そのキャラクターはほかの人が選んでいます")
            member_actions.append(MemberItem.persona.set(persona_key))
        member_actions += [
            MemberItem.speech_ban_until.remove(),
            MemberItem.public_ban_until.set(now + TIMINGS[pace].public_ban_on_takeover),
        ]
    meta_actions = [VillageItem.occupied.add(1)]
    if state is State.RUNNING:
        meta_actions.append(VillageItem.open_seats.set(record.open_seats(game) - 1))
    if state is State.OPENING:
        # The scheduler must look in by the time this member could be idle (RULES §9).
        idle_check = time_key(now + OPENING_IDLE_LIMIT)
        if meta.gsi1sk is None or idle_check < meta.gsi1sk:
            meta_actions.append(VillageItem.gsi1sk.set(idle_check))
    with transaction() as t:
        t.update(
            meta,
            actions=meta_actions,
            condition=VillageItem.state.is_in(State.OPENING.value, State.RUNNING.value),
        )
        t.update(
            member,
            actions=[
                MemberItem.account_id.set(account_id),
                MemberItem.joined_at.set(now),
                MemberItem.last_access.set(now),
                *member_actions,
            ],
            condition=MemberItem.account_id.does_not_exist(),
        )
        t.save(
            PresenceItem(
                village_pk(village_id), presence_sk(account_id), account_id=account_id, slot=slot
            ),
            condition=PresenceItem.pk.does_not_exist(),
        )
        t.update(
            account,
            actions=[AccountItem.holds[pace.value].set(village_id)],
            condition=AccountItem.holds[pace.value].does_not_exist(),
        )


# ID lock (RULES §9): the formula is not shown to players, only the lock's end.
LOCK_BASE = timedelta(hours=3)
LOCK_MAX = timedelta(days=14)
LOCK_MEMORY = timedelta(days=30)  # departures older than this no longer count


def lock_length(recent_departures: int) -> timedelta:
    """3 h for the first departure in 30 days, doubling with each further one, at most 14 days."""
    return min(LOCK_BASE * 2 ** max(recent_departures - 1, 0), LOCK_MAX)


@_retrying
def leave(village_id: str, account_id: str, now: datetime) -> datetime | None:
    """Departure (幽体離脱). Free in the opening; otherwise returns the end of the new ID lock."""
    record = _require(load_village(village_id))
    slot = record.slot_of(account_id)
    if slot is None:
        raise Forbidden("この村に参加していません")
    account = load_account(account_id)
    if account is None:
        raise NotFound("アカウントが見つかりません")
    return _depart(record, account, slot, now)


def _depart(
    record: VillageRecord, account: AccountItem, slot: str, now: datetime, idle: bool = False
) -> datetime | None:
    """Vacates the slot. ``idle``: an auto-departure, undone by any access since the read."""
    meta = record.meta
    state = State(meta.state)
    if state in (State.ENDED, State.ABANDONED):
        raise Forbidden("終わった村からは離脱できません")
    pace = meta.pace
    opening = state is State.OPENING
    account_actions = []
    if plain(account.holds).get(pace) == meta.village_id:
        account_actions.append(AccountItem.holds[pace].remove())
    lock_until = None
    if not opening:
        recent = [d for d in account.departures if datetime.fromisoformat(d) > now - LOCK_MEMORY]
        recent.append(now.isoformat())
        lock_until = now + lock_length(len(recent))
        if account.lock_until and account.lock_until > lock_until:
            lock_until = account.lock_until
        account_actions += [
            AccountItem.departures.set(recent),
            AccountItem.lock_until.set(lock_until),
        ]
    member = record.members[slot]
    member_actions = [
        MemberItem.account_id.remove(),
        MemberItem.speech_ban_until.remove(),
        MemberItem.public_ban_until.remove(),
    ]
    if opening:
        member_actions.append(MemberItem.persona.remove())
    name = posts.display_name(meta.character_set, member)
    with transaction() as t:
        meta_actions = [VillageItem.occupied.add(-1)]
        if state is State.RUNNING:
            game = record.game
            seat_opens = 1 if slot not in game.deaths else 0
            meta_actions.append(VillageItem.open_seats.set(record.open_seats(game) + seat_opens))
        t.update(meta, actions=meta_actions)
        member_condition = MemberItem.account_id == account.account_id
        if idle:
            # A login since the idle check moved last_access: then nobody departs.
            member_condition &= (
                MemberItem.last_access == member.last_access
                if member.last_access
                else MemberItem.last_access.does_not_exist()
            )
        t.update(member, actions=member_actions, condition=member_condition)
        t.update(
            record.presences[account.account_id],
            actions=[PresenceItem.left.set(True)],
            condition=PresenceItem.left == False,  # noqa: E712 (a DynamoDB condition)
        )
        if account_actions:
            t.update(account, actions=account_actions)
        day = record.days.get(record.game.day)
        if day is not None and not opening:
            # A vacant slot has every choice undecided (RULES §3); a save since the idle
            # check (it counts as access) also calls the auto-departure off.
            t.update(
                day,
                actions=[DayItem.choices[slot].remove()],
                condition=DayItem.saves == day.saves if idle else None,
            )
        t.save(posts.system(meta.village_id, record.game.day, f"{name}が村を去りました。", now))
    return lock_until


def touch(
    village_id: str, account_id: str, now: datetime, record: VillageRecord | None = None
) -> None:
    """Access tracking (RULES §9): a member logging in to the village.

    ``record``: the village the caller just loaded, to save a read.
    """
    record = record or _require(load_village(village_id))
    slot = record.slot_of(account_id)
    if slot is None:
        return
    with suppress(UpdateError):  # the member left meanwhile: nothing to track
        MemberItem(village_pk(village_id), slot_sk(slot)).update(
            actions=[MemberItem.last_access.set(now)],
            condition=MemberItem.account_id == account_id,
        )


def touch_checking_session(
    record: VillageRecord, claim: sessions.Grant, now: datetime
) -> sessions.Grant | None:
    """Records a member's access in the same write that checks its session item: the claim
    back if the session is live (whether or not the access was recorded), else None."""
    slot = record.slot_of(claim.account_id)
    try:
        with transaction() as t:
            session_pk, session_sk = sessions.key(claim)
            t.condition_check(
                SessionItem, session_pk, range_key=session_sk, condition=sessions.live(claim, now)
            )
            if slot is not None:
                t.update(
                    MemberItem(village_pk(record.village_id), slot_sk(slot)),
                    actions=[MemberItem.last_access.set(now)],
                    condition=MemberItem.account_id == claim.account_id,
                )
    except TransactWriteError as error:
        codes = [reason.code if reason else None for reason in error.cancellation_reasons or []]
        if codes[:1] == ["ConditionalCheckFailed"]:
            return None
        if codes[:1] != [None] and codes[:1] != ["None"]:
            # Not the member leaving meanwhile (a conflict, a throttle): read the session.
            return sessions.check(claim.account_id, claim.session_id, now)
    return claim


def last_access(record: VillageRecord, slot: str) -> datetime | None:
    """The later of the last login to the village and the last save of actions."""
    times = [record.members[slot].last_access]
    for day in record.days.values():
        saved = plain(day.saved_at)
        if slot in saved:
            times.append(datetime.fromisoformat(saved[slot]))
    known = [t for t in times if t is not None]
    return max(known) if known else None


def idle_members(record: VillageRecord, now: datetime) -> list[str]:
    """Members due for auto-departure (RULES §9) at ``now``."""
    meta = record.meta
    state = State(meta.state)
    if state not in (State.OPENING, State.RUNNING):
        return []
    pace = Pace(meta.pace)
    game = record.game
    idle = []
    for slot, member in record.members.items():
        if member.account_id is None:
            continue
        if state is State.RUNNING and slot in game.deaths:
            continue  # the dead no longer hold the game up ([decided], docs/decisions.md)
        seen = last_access(record, slot) or member.joined_at
        if state is State.OPENING:
            limit = OPENING_IDLE_LIMIT
        else:
            limit = TIMINGS[pace].idle_limit
            if (
                pace is Pace.SHORT
                and meta.day_started_at is not None
                and seen < meta.day_started_at
                and game.day == 1
            ):
                # A short village wants every member back within 10 min of day 1's start.
                if now - meta.day_started_at >= SHORT_FIRST_ACCESS_LIMIT:
                    idle.append(slot)
                continue
        if now - seen >= limit:
            idle.append(slot)
    return idle


def depart_idle(village_id: str, now: datetime, record: VillageRecord | None = None) -> list[str]:
    """Auto-departure of every idle member; returns their former accounts.

    ``record``: the village just loaded, to save a read when nobody is idle.
    """
    departed = []
    for _ in range(len(SLOTS)):
        record = record or load_village(village_id)
        if record is None:
            return departed
        idle = idle_members(record, now)
        if not idle:
            return departed
        member = record.members[idle[0]]
        account = load_account(member.account_id)
        if account is None:
            return departed
        with suppress(TransactWriteError):  # raced with a save or a login: look again
            _depart(record, account, idle[0], now, idle=True)
            departed.append(account.account_id)
        record = None
    return departed


def occupied(record: VillageRecord) -> int:
    return sum(1 for m in record.members.values() if m.account_id is not None)


def can_start(record: VillageRecord) -> bool:
    return occupied(record) >= MIN_PLAYERS
