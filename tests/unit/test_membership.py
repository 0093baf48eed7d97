"""RULES §8, §9 seat rules (chalicelib.membership): pure, no DynamoDB."""

from datetime import UTC, datetime, timedelta

from chalicelib.membership import (
    ACCESS_RESOLUTION,
    Applicant,
    IdleWindow,
    Vacancies,
    access_due,
    idle_windows,
    join_refusal,
    last_access,
    lock_length,
    new_lock,
    occupied,
    open_seats,
    persona_refusal,
    unread_since,
)
from chalicelib.rulesets.base import Pace, Seat, SeatRules, State


def idle_times(*facts) -> dict[str, datetime]:
    """When each member becomes due for an auto-departure (RULES §9)."""
    return {slot: window.due for slot, window in idle_windows(*facts).items()}


NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
RULES = SeatRules(
    first_update=timedelta(hours=6),
    opening_speech_ban=timedelta(minutes=10),
    opening_idle_limit=timedelta(hours=24),
    idle_limit=timedelta(minutes=60),
    public_ban_on_takeover=timedelta(minutes=10),
    first_access_limit=timedelta(minutes=10),
)


def seat(
    slot: str, account: str | None = None, persona: str | None = None, seen=None, posted=None
) -> Seat:
    return Seat(slot, account, persona, slot, last_access=seen, last_post_at=posted)


def seats(*given: Seat) -> dict[str, Seat]:
    return {s.slot: s for s in given}


def applicant(**changes) -> Applicant:
    values = {"account_id": "ann", "verified": True, "lock_until": None, "holds": {}}
    values.update(changes)
    return Applicant(**values)


def refusal(
    given: Applicant | None = None, slot: str = "a", presence: bool | None = None, **village
):
    """The refusal of a join to ``slot`` of an opening short village with ``b`` taken, but
    for what is ``village`` changes."""
    values = {
        "state": State.OPENING,
        "pace": Pace.SHORT,
        "seats": seats(seat("a"), seat("b", "ben")),
        "dead": frozenset(),
    }
    values.update(village)
    return join_refusal(given or applicant(), Vacancies(**values), slot, presence, NOW)


def test_s9_lock_doubles_with_each_departure_up_to_14_days():
    assert lock_length(1) == timedelta(hours=3)
    assert lock_length(2) == timedelta(hours=6)
    assert lock_length(4) == timedelta(hours=24)
    assert lock_length(20) == timedelta(days=14)


def test_s9_lock_forgets_departures_older_than_30_days_and_keeps_a_longer_lock():
    old = (NOW - timedelta(days=31)).isoformat()
    recent = (NOW - timedelta(days=1)).isoformat()
    lock = new_lock([old, recent], None, NOW)
    assert lock.departures == [recent, NOW.isoformat()]
    assert lock.until == NOW + timedelta(hours=6)
    longer = NOW + timedelta(days=3)
    assert new_lock([], longer, NOW).until == longer


def test_s9_join_refusals_name_the_reason():
    assert refusal() is None
    assert refusal(applicant(verified=False)).kind == "forbidden"
    locked = refusal(applicant(lock_until=NOW + timedelta(hours=1)))
    assert "IDロック中" in str(locked)
    assert str(refusal(presence=True)) == "一度離脱した村には参加できません"
    assert refusal(presence=False).kind == "conflict"
    assert "短期村" in str(refusal(applicant(holds={"short": "9"})))
    assert refusal(state=State.ENDING).kind == "forbidden"
    assert refusal(slot="zz").kind == "invalid"
    assert str(refusal(slot="b")) == "その席はすでに埋まっています"
    assert refusal(state=State.RUNNING, dead=frozenset({"a"})).kind == "forbidden"
    # A vacant seat of a running game is taken over, unless the rule set says never (classic).
    assert refusal(state=State.RUNNING) is None
    assert refusal(state=State.RUNNING, takeovers=False).kind == "forbidden"


def test_s9_personas_are_one_per_member_and_kept_by_a_takeover():
    taken = seats(seat("a"), seat("b", "ben", "kaede"))
    assert persona_refusal(State.OPENING, taken, "a", "kaede", True).kind == "conflict"
    assert persona_refusal(State.OPENING, taken, "a", "nobody", False).kind == "invalid"
    assert persona_refusal(State.OPENING, taken, "a", "genzo", True) is None
    played = seats(seat("a", None, "sayo"), seat("b", "ben", "kaede"))
    assert persona_refusal(State.RUNNING, played, "a", "anything", False) is None


def test_open_seats_are_the_vacant_living_characters():
    given = seats(seat("a"), seat("b", "ben"), seat("c"))
    assert open_seats(given, frozenset({"c"})) == 1
    assert occupied(given) == 1


def test_s9_access_is_the_later_of_login_and_save():
    member = seat("a", "ann", seen=NOW - timedelta(hours=2))
    assert last_access(member, [{"a": (NOW - timedelta(hours=1)).isoformat()}]) == NOW - timedelta(
        hours=1
    )
    assert last_access(seat("a", "ann"), []) is None


def test_s9_a_post_is_an_access_too():
    """Posting is done logged in to the village as its member (decision 66)."""
    member = seat("a", "ann", seen=NOW - timedelta(hours=2), posted=NOW - timedelta(minutes=30))
    assert last_access(member, [{"a": (NOW - timedelta(hours=1)).isoformat()}]) == NOW - timedelta(
        minutes=30
    )
    joined = {"a": NOW - timedelta(days=2)}
    due = idle_times(State.OPENING, RULES, seats(member), joined, [], frozenset(), 0, None)
    assert due == {"a": NOW - timedelta(minutes=30) + RULES.opening_idle_limit}


def test_decision_66_a_view_within_the_minute_of_any_access_is_not_recorded():
    minute = ACCESS_RESOLUTION
    assert access_due(seat("a", "ann"), [], NOW)
    assert access_due(seat("a", "ann", seen=NOW - minute), [], NOW)
    assert not access_due(seat("a", "ann", seen=NOW - minute / 2), [], NOW)
    posted = seat("a", "ann", seen=NOW - timedelta(hours=1), posted=NOW - minute / 2)
    assert not access_due(posted, [], NOW)
    saved = [{"a": (NOW - minute / 2).isoformat()}]
    assert not access_due(seat("a", "ann", seen=NOW - timedelta(hours=1)), saved, NOW)


def test_decision_66_unread_posts_begin_at_the_visit_before_a_fresh_post_or_save():
    visit = NOW - timedelta(hours=1)
    act = NOW - timedelta(seconds=20)
    # The page right after a post or a save: from the visit it was written on.
    assert unread_since(seat("a", "ann", seen=visit, posted=act), [], NOW) == visit
    assert unread_since(seat("a", "ann", seen=visit), [{"a": act.isoformat()}], NOW) == visit
    # Later on, the post or save was the last visit.
    later = NOW + ACCESS_RESOLUTION
    assert unread_since(seat("a", "ann", seen=visit, posted=act), [], later) == act
    assert unread_since(seat("a", "ann", seen=visit), [{"a": act.isoformat()}], later) == act
    # A save right after a post (from the page the post led to): from the post.
    saved = [{"a": act.isoformat()}]
    posted_before = seat("a", "ann", seen=visit, posted=act - timedelta(seconds=20))
    assert unread_since(posted_before, saved, NOW) == act - timedelta(seconds=20)
    # A visit after the post: from that visit.
    assert unread_since(seat("a", "ann", seen=NOW, posted=act), [], later) == NOW
    assert unread_since(seat("a", "ann"), [], NOW) is None


def idle_members(*facts, now):
    """Who is idle at ``now``: those whose idle time is not after it."""
    return [slot for slot, at in idle_times(*facts).items() if at <= now]


def test_s9_idle_members_in_the_opening_after_24_hours():
    given = seats(seat("a", "ann", seen=NOW - timedelta(hours=24)), seat("b", "ben", seen=NOW))
    joined = {"a": NOW - timedelta(days=2), "b": NOW - timedelta(days=2)}
    idle = idle_members(State.OPENING, RULES, given, joined, [], frozenset(), 0, None, now=NOW)
    assert idle == ["a"]


def test_decision_12_the_dead_are_never_auto_departed():
    given = seats(seat("a", "ann", seen=NOW - timedelta(hours=5)))
    joined = {"a": NOW - timedelta(days=1)}
    args = (joined, [], frozenset({"a"}), 2, NOW - timedelta(hours=1))
    assert idle_members(State.RUNNING, RULES, given, *args, now=NOW) == []


def test_s9_short_village_wants_every_member_back_soon_after_day_1():
    start = NOW - timedelta(minutes=10)
    given = seats(seat("a", "ann", seen=start - timedelta(minutes=1)), seat("b", "ben", seen=NOW))
    joined = {"a": start - timedelta(hours=1), "b": start - timedelta(hours=1)}
    assert idle_members(
        State.RUNNING, RULES, given, joined, [], frozenset(), 1, start, now=NOW
    ) == ["a"]
    early = NOW - timedelta(minutes=1)
    assert (
        idle_members(State.RUNNING, RULES, given, joined, [], frozenset(), 1, start, now=early)
        == []
    )


def test_s9_idle_times_name_the_exact_moment_each_member_becomes_idle():
    """The scheduler looks at a village at the earliest of these, not every hour."""
    start = NOW - timedelta(minutes=10)
    given = seats(
        seat("a", "ann", seen=start - timedelta(minutes=1)),  # day 1: back by start + 10 min
        seat("b", "ben", seen=NOW),  # saved later still: the later time counts
        seat("c", "cid", seen=NOW - timedelta(minutes=30)),  # dead: never idle
        seat("d"),  # vacant
    )
    joined = {"a": start - timedelta(hours=1), "b": start, "c": start}
    saves = [{"b": (NOW + timedelta(minutes=5)).isoformat()}]
    due = idle_times(State.RUNNING, RULES, given, joined, saves, frozenset({"c"}), 1, start)
    assert due == {
        "a": start + RULES.first_access_limit,
        "b": NOW + timedelta(minutes=5) + RULES.idle_limit,
    }
    opening = idle_times(State.OPENING, RULES, given, joined, [], frozenset(), 0, None)
    assert opening["c"] == NOW - timedelta(minutes=30) + RULES.opening_idle_limit
    assert idle_times(State.ENDING, RULES, given, joined, [], frozenset(), 3, start) == {}


def test_the_idle_warning_comes_3_hours_or_a_quarter_of_the_window_before_the_departure():
    """Decision 140: a long village's 24 h, 3 h before; a running short village's 60 min,
    15 min before; a short village's 10 min from day 1's start, 2½ min before."""
    for window, lead in (
        (timedelta(hours=24), timedelta(hours=3)),
        (timedelta(minutes=60), timedelta(minutes=15)),
        (timedelta(minutes=10), timedelta(minutes=2, seconds=30)),
    ):
        assert IdleWindow(NOW, NOW + window).warn == NOW + window - lead
