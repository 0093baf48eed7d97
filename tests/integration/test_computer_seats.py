"""Computer members who wait for the start (issue 24, decision 125): a village created with
``cpu_members`` N (not a practice village) keeps its seats open to people, and when it starts
the computers take up to N of the seats still open, in the same conditioned write as the start
(RULES §2.2: the start check counts them; RULES-CLASSIC §2.1: the last person's start vote
starts the game when the computers bring the members to ``min_members``)."""

import pytest

from chalicelib.personas import YAMAZATO
from chalicelib.rulesets.base import State, is_computer
from chalicelib.services import actions, update, villages
from chalicelib.services.errors import Conflict, Forbidden, InvalidInput
from chalicelib.services.unit import Unit
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import game, join_all
from tests.support.classic_villages import start as start_votes
from tests.support.villages import fill, persona_of, to_update


def mobius(clock, rng, cpus: int) -> str:
    return villages.create_village(
        villages.AskedVillage(pace="short", name="CPUつきの村", cpu_members=cpus),
        now=clock(),
        rng=rng,
    )


def create_classic(clock, rng, cpu_members: int, **given) -> str:
    return villages.create_village(
        villages.AskedVillage(
            pace="short",
            name="CPUつきの人狼BBS村",
            rules="classic",
            given=given,
            cpu_members=cpu_members,
        ),
        now=clock(),
        rng=rng,
    )


def join_later(vid: str, account: str, n: int, clock) -> None:
    """One more person joins the classic village, with the ``n``-th persona."""
    seat = next(s for s, m in load_village(vid).seats().items() if m.account_id is None)
    villages.join(vid, account, seat, YAMAZATO[n].key, clock())


def computers(vid: str) -> list[str]:
    return [s for s, m in load_village(vid).seats().items() if m.computer]


def test_a_real_village_keeps_its_seats_open_to_people_until_the_start(clock, rng):
    vid = mobius(clock, rng, 3)
    record = load_village(vid)
    assert computers(vid) == [] and record._meta.occupied == 0
    assert record.waiting_computers == 3


def test_rules_2_2_the_start_check_counts_the_computers_that_fill_the_open_seats(
    clock, rng, players
):
    vid = mobius(clock, rng, 3)
    seated = fill(vid, players[:10], clock)
    assert [h.kind for h in to_update(vid, clock)] == ["started"]
    record = load_village(vid)
    assert record.state is State.RUNNING and record._meta.occupied == 13
    assert len(computers(vid)) == 3
    assert all(record.seats()[slot].account_id == account for slot, account in seated.items())
    assert all(record.seats()[s].name.endswith("（CPU）") for s in computers(vid))
    assert record.waiting_computers == 0  # seated: nothing waits any more
    assert record._meta.open_seats == 0


def test_rules_2_2_up_to_n_computers_fill_the_seats_people_left_open(clock, rng, players):
    """Twelve people would start the village alone; the GM's computers still fill what is
    open (one seat), never more than the village has."""
    vid = mobius(clock, rng, 3)
    fill(vid, players[:12], clock)
    assert [h.kind for h in to_update(vid, clock)] == ["started"]
    assert len(computers(vid)) == 1 and load_village(vid)._meta.occupied == 13


def test_rules_2_2_fewer_than_twelve_with_the_computers_extends_and_seats_none(clock, rng, players):
    vid = mobius(clock, rng, 2)
    fill(vid, players[:9], clock)
    assert [h.kind for h in to_update(vid, clock)] == ["extended"]
    record = load_village(vid)
    assert record.state is State.OPENING and computers(vid) == []
    assert record._meta.occupied == 9 and record.waiting_computers == 2


def test_computers_alone_never_start_a_village(clock, rng):
    vid = mobius(clock, rng, 12)
    assert [h.kind for h in to_update(vid, clock)] == ["extended"]
    assert computers(vid) == []


def test_a_duplicate_update_seats_the_computers_once(clock, rng, players):
    """Two workers read the village before either starts it: one start commits, the other's
    is refused (the village's version) and finds nothing due."""
    vid = mobius(clock, rng, 3)
    fill(vid, players[:10], clock)
    clock.now = load_village(vid)._meta.next_update
    late = Unit()
    late.village(vid)  # read before the other worker's start
    assert [h.kind for h in update.advance(vid, clock())] == ["started"]
    assert update.advance(vid, clock(), unit=late) == []
    record = load_village(vid)
    assert len(computers(vid)) == 3 and record._meta.occupied == 13


def test_a_person_who_joins_as_the_village_starts_keeps_the_seat(clock, rng, players):
    """The worker read the village with ten people; an eleventh joins before its start
    commits: the start is refused (the village changed), taken again with the newcomer
    seated, and the computers fill only the seats still open: never more than thirteen."""
    vid = mobius(clock, rng, 3)
    fill(vid, players[:10], clock)
    clock.now = load_village(vid)._meta.next_update
    worker = Unit()
    worker.village(vid)  # the worker's read, before the join
    villages.join(vid, players[10], "commoner_c", persona_of("commoner_c"), clock())
    assert [h.kind for h in update.advance(vid, clock(), unit=worker)] == ["started"]
    record = load_village(vid)
    assert record.seats()["commoner_c"].account_id == players[10]
    assert len(computers(vid)) == 2 and record._meta.occupied == 13
    assert sum(1 for s in record.seats().values() if s.account_id) == 13


def test_a_seat_a_computer_took_at_the_start_is_no_longer_free(clock, rng, players):
    vid = mobius(clock, rng, 3)
    fill(vid, players[:10], clock)
    to_update(vid, clock)
    taken = computers(vid)[0]
    with pytest.raises((Conflict, Forbidden, InvalidInput)):
        villages.join(vid, players[11], taken, persona_of(taken), clock())
    assert is_computer(load_village(vid).seats()[taken].account_id)


@pytest.fixture
def people(clock):
    return [make_account(f"cs{n:02d}", clock()) for n in range(8)]


def test_classic_s2_1_the_last_persons_start_vote_starts_with_the_computers(clock, rng, people):
    vid = create_classic(clock, rng, cpu_members=3)
    seated = join_all(vid, people[:2], clock)
    assert start_votes(vid, people[:2], clock) == ["start", "started"]
    record = load_village(vid)
    assert record.state is State.RUNNING and record._meta.occupied == 5
    g = game(vid)
    assert len(g.seats) == 5  # five players dealt in: the two people and three computers
    assert [g.seats["p1"], g.seats["p2"]] == [seated[people[0]], seated[people[1]]]
    assert sorted(g.seats[c] for c in ("p3", "p4", "p5")) == sorted(computers(vid))
    assert record.waiting_computers == 0


def test_classic_s2_1_not_enough_even_with_the_computers_waits_and_seats_none(clock, rng, people):
    vid = create_classic(clock, rng, cpu_members=3, min_members=8)
    join_all(vid, people[:4], clock)
    assert start_votes(vid, people[:4], clock)[-1] == "start"  # 4 + 3 < 8
    assert load_village(vid).state is State.OPENING and computers(vid) == []
    join_later(vid, people[4], 4, clock)
    assert start_votes(vid, people[4:5], clock) == ["started"]  # 5 + 3 = 8
    assert len(game(vid).seats) == 8 and len(computers(vid)) == 3


def test_classic_s2_1_every_person_must_have_voted(clock, rng, people):
    vid = create_classic(clock, rng, cpu_members=3)
    join_all(vid, people[:2], clock)
    assert start_votes(vid, people[:1], clock) == ["start"]
    assert load_village(vid).state is State.OPENING and computers(vid) == []


def test_classic_a_person_who_joins_as_the_last_vote_is_cast_refuses_that_start(clock, rng, people):
    """The vote was checked on the village before a third person joined: its start (with
    three computers) is refused by the join, and the vote taken again no longer starts the
    game, since the newcomer has not voted."""
    vid = create_classic(clock, rng, cpu_members=3)
    join_all(vid, people[:2], clock)
    actions.prologue(vid, people[0], "start", None, clock())
    voter = Unit()
    voter.village(vid)  # the vote's read, before the join
    join_later(vid, people[2], 2, clock)
    assert actions.prologue(vid, people[1], "start", None, clock(), unit=voter) == "start"
    record = load_village(vid)
    assert record.state is State.OPENING and computers(vid) == []
    assert actions.prologue(vid, people[2], "start", None, clock()) == "started"
    assert len(game(vid).seats) == 6 and len(computers(vid)) == 3


def test_a_practice_village_needs_computers(clock, rng):
    with pytest.raises(InvalidInput, match="練習村"):
        villages.create_village(
            villages.AskedVillage(pace="short", name="練習村", cpu_members=0, practice=True),
            now=clock(),
            rng=rng,
        )
