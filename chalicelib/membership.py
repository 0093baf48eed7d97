"""Who may take, hold and lose a seat (RULES §8, §9), for every rule set. Pure.

The services read a village and an account, ask these functions, and hand what they
answer to storage's conditional writes; the conditions there keep the same rules
against concurrent requests.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from msgspec import Struct

from .clock import jst
from .labels import PACE_LABELS
from .rulesets.base import Pace, Seat, SeatRules, State

# ID lock (RULES §9): the formula is not shown to players, only the lock's end.
LOCK_BASE = timedelta(hours=3)
LOCK_MAX = timedelta(days=14)
LOCK_MEMORY = timedelta(days=30)  # departures older than this no longer count
# A member's page view counts as access (RULES §9); one write a minute is plenty.
ACCESS_RESOLUTION = timedelta(minutes=1)


def lock_length(recent_departures: int) -> timedelta:
    """3 h for the first departure in 30 days, doubling with each further one, at most 14 days."""
    length: timedelta = LOCK_BASE * 2 ** max(recent_departures - 1, 0)
    return min(length, LOCK_MAX)


class Lock(Struct, frozen=True):
    departures: list[str]  # ISO times of the departures within LOCK_MEMORY, this one included
    until: datetime


def new_lock(departures: Iterable[str], lock_until: datetime | None, now: datetime) -> Lock:
    """The lock a departure outside the opening sets; a longer lock already set stays."""
    recent = [d for d in departures if datetime.fromisoformat(d) > now - LOCK_MEMORY]
    recent.append(now.isoformat())
    until = now + lock_length(len(recent))
    if lock_until is not None and lock_until > until:
        until = lock_until
    return Lock(recent, until)


class Applicant(Struct, frozen=True):
    """What a join needs to know of the account."""

    account_id: str
    verified: bool
    lock_until: datetime | None
    holds: Mapping[str, str]  # pace -> village id


class Vacancies(Struct, frozen=True):
    """What a join needs to know of the village."""

    state: State
    pace: Pace
    seats: Mapping[str, Seat]
    dead: frozenset[str]
    # Whether the rule set lets a newcomer take a vacant seat of a running game (classic:
    # never).
    takeovers: bool = True


class Refusal(ValueError):
    """A join refused, with the player's sentence and what kind of refusal it is."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind  # forbidden | conflict | invalid


def join_refusal(
    applicant: Applicant,
    village: Vacancies,
    slot: str,
    presence: bool | None,
    now: datetime,
) -> Refusal | None:
    """Why this account may not take ``slot`` now (RULES §9), or None.

    ``presence``: None if the account never was in the village, else whether it left.
    """
    if not applicant.verified:
        return Refusal(
            "メールアドレスの確認がまだです。届いたメールのリンクを開いてください", "forbidden"
        )
    if applicant.lock_until and now < applicant.lock_until:
        return Refusal(
            f"IDロック中のため参加できません（{jst(applicant.lock_until)}まで）", "forbidden"
        )
    if presence is not None:
        if presence:
            return Refusal("一度離脱した村には参加できません", "forbidden")
        return Refusal("すでにこの村に参加しています", "conflict")
    pace, state = village.pace, village.state
    if pace.value in applicant.holds:
        return Refusal(f"すでに{PACE_LABELS[pace.value]}村に参加しています", "forbidden")
    if state not in (State.OPENING, State.RUNNING) or (
        state is State.RUNNING and not village.takeovers
    ):
        return Refusal("この村にはもう参加できません", "forbidden")
    seat = village.seats.get(slot)
    if seat is None:
        return Refusal("その席はありません", "invalid")
    if seat.account_id is not None:
        return Refusal("その席はすでに埋まっています", "conflict")
    if slot in village.dead:
        return Refusal("亡くなったキャラクターの席には参加できません", "forbidden")
    return None


def leave_refusal(state: State, dead: bool, leaving_in_game: bool) -> str | None:
    """Why a member may not leave now (RULES §9, RULES-CLASSIC §8), or None. ``dead``: the
    member's character is dead; ``leaving_in_game``: whether the rule set lets members leave
    a running game (classic: never). Leaving makes no sense once the game is over (the hold
    was released, the log is everyone's) nor for the dead (their hold was released at death;
    a seat of the dead is never taken over): decision 79."""
    if state not in (State.OPENING, State.RUNNING):
        return "ゲームが終わった村からは離脱できません"
    if state is State.RUNNING and not leaving_in_game:
        return "ゲームが始まった後は村を出られません"
    if state is State.RUNNING and dead:
        return "亡くなったキャラクターは離脱できません"
    return None


def persona_refusal(
    state: State, seats: Mapping[str, Seat], slot: str, persona: str, known: bool
) -> Refusal | None:
    """Whether the chosen persona may be taken (RULES §9; decisions 17): in the opening, one
    no other member holds; on a takeover, only for a character nobody has played yet."""
    if state is State.OPENING:
        taken = {s.persona for s in seats.values() if s.account_id is not None}
    elif seats[slot].persona is None:
        taken = {s.persona for s in seats.values() if s.persona is not None}
    else:
        return None  # a takeover plays the character as it is: the persona stays
    if not known:
        return Refusal("そのキャラクターは選べません", "invalid")
    if persona in taken:
        return Refusal("そのキャラクターはほかの人が選んでいます", "conflict")
    return None


def open_seats(seats: Mapping[str, Seat], dead: frozenset[str]) -> int:
    """Vacant characters still alive: the seats a newcomer may take over."""
    return sum(1 for slot, s in seats.items() if s.account_id is None and slot not in dead)


def occupied(seats: Mapping[str, Seat]) -> int:
    return sum(1 for s in seats.values() if s.account_id is not None)


def _acts(seat: Seat, saved_at: Iterable[Mapping[str, str]]) -> list[datetime]:
    """The moments of the member's last post and saves of choices, oldest first: each made as
    a logged-in member, so each an access (RULES §9) with no write of its own (decision 66)."""
    times = [seat.last_post_at]
    for saved in saved_at:
        if seat.slot in saved:
            times.append(datetime.fromisoformat(saved[seat.slot]))
    return sorted(t for t in times if t is not None)


def last_access(seat: Seat, saved_at: Iterable[Mapping[str, str]]) -> datetime | None:
    """The latest of the last recorded visit to the village, post and save."""
    return _latest(seat.last_access, *_acts(seat, saved_at))


def access_due(seat: Seat, saved_at: Iterable[Mapping[str, str]], now: datetime) -> bool:
    """Whether a member's page view is to be recorded: not when an access lies within the
    last ``ACCESS_RESOLUTION`` (the page that follows a post or a save writes nothing)."""
    seen = last_access(seat, saved_at)
    return seen is None or now - seen >= ACCESS_RESOLUTION


def unread_since(
    seat: Seat, saved_at: Iterable[Mapping[str, str]], now: datetime
) -> datetime | None:
    """Where a member's unread posts begin: their previous visit. The page that follows a
    post or a save (within ``ACCESS_RESOLUTION``) marks what came since the page it was
    made on: the recorded visit (a post records the page it was written on) or the act
    before it; after that, the act counts as the visit."""
    acts = _acts(seat, saved_at)
    if acts and now - acts[-1] < ACCESS_RESOLUTION:
        acts = acts[:-1]
    return _latest(seat.last_access, *acts)


def _latest(*times: datetime | None) -> datetime | None:
    return max((t for t in times if t is not None), default=None)


class IdleWindow(Struct, frozen=True):
    """One member's time to access before an auto-departure: from ``since`` (their last
    access, or day 1's start) to ``due``; the idle warning (decision 140) is owed at ``warn``."""

    since: datetime
    due: datetime

    @property
    def warn(self) -> datetime:
        return self.due - min(IDLE_WARNING_LEAD, (self.due - self.since) / 4)


# The idle warning comes this long before the departure (a long village's day), or a quarter
# of the member's window when that is shorter (60 min → 15 min; 10 min → 2½ min).
IDLE_WARNING_LEAD = timedelta(hours=3)


def idle_windows(
    state: State,
    rules: SeatRules,
    seats: Mapping[str, Seat],
    joined: Mapping[str, datetime],
    saved_at: Iterable[Mapping[str, str]],
    dead: frozenset[str],
    day: int,
    day_shown_at: datetime | None,
) -> dict[str, IdleWindow]:
    """When each member who can be auto-departed (RULES §9) becomes due, as things stand, in
    seat order (idle at ``now`` are those whose due time is not after it), with where their
    window began: the access it counts from. A login or a save only moves a member's window
    later; the scheduler looks at the earliest due time and warning. ``day_shown_at``: when
    members could first see the current day (the update's commit, never a schedule the
    scheduler missed: a late start must not cost them the time they never had)."""
    if state not in (State.OPENING, State.RUNNING):
        return {}
    saves = list(saved_at)
    due = {}
    for slot, seat in seats.items():
        if seat.account_id is None or seat.computer:
            continue  # a computer member never idles: it is asked on every look
        if state is State.RUNNING and slot in dead:
            continue  # the dead no longer hold the game up ([decided], docs/decisions.md)
        seen = last_access(seat, saves) or joined[slot]
        if state is State.OPENING:
            due[slot] = IdleWindow(seen, seen + rules.opening_idle_limit)
        elif (
            rules.first_access_limit is not None
            and day_shown_at is not None
            and seen < day_shown_at
            and day == 1
        ):
            # A short village wants every member back soon after day 1's start.
            due[slot] = IdleWindow(day_shown_at, day_shown_at + rules.first_access_limit)
        else:
            due[slot] = IdleWindow(seen, seen + rules.idle_limit)
    return due
