"""Concurrency (issue #3): every invariant holds when requests race, with real threads on moto
(each moto request atomic, as in DynamoDB)."""

import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from chalicelib.rules.mobius import SLOTS, Village
from chalicelib.services import actions, update, villages
from chalicelib.services.errors import Conflict, InvalidInput, ServiceError
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import account_of, create, join_all, living_seats, to_due
from tests.support.classic_villages import start as start_classic
from tests.support.villages import all_posts, at, fill, persona_of, start, texts, to_update


def race(*calls: Callable[[], object]) -> list[object]:
    """Runs every call at once (released together by a barrier); returns each result or error."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        try:
            return call()
        except ServiceError as error:
            return error

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_concurrency_saves_of_26_members_at_once_lose_nothing(clock, rng, players):
    others = [make_account(f"other{n:02d}", clock()) for n in range(13)]
    first = villages.create_village(
        villages.AskedVillage(pace="short", name="一の村"), now=clock(), rng=rng
    )
    second = villages.create_village(
        villages.AskedVillage(pace="short", name="二の村"), now=clock(), rng=rng
    )
    seats = {first: fill(first, players, clock), second: fill(second, others, clock)}
    to_update(first, clock)
    to_update(second, clock)
    for round_ in range(2):
        at(first, clock, 5 + round_)
        wanted = {
            (village_id, slot): {"pray": SLOTS[(SLOTS.index(slot) + 1 + round_) % 13]}
            for village_id, seated in seats.items()
            for slot in seated
        }
        results = race(
            *(
                (lambda v=v, a=seats[v][s], c=c: actions.save_actions(v, a, c, clock()))
                for (v, s), c in wanted.items()
            )
        )
        assert results == [None] * 26
        for village_id in seats:
            day = load_village(village_id)._days[1]
            assert day.choices.as_dict() == {
                slot: choice for (v, slot), choice in wanted.items() if v == village_id
            }
            assert day.saves == 13 * (round_ + 1)


def test_concurrency_two_joins_for_one_slot_one_wins(clock, village):
    for n, slot in enumerate(SLOTS[:4]):
        left, right = make_account(f"left{n}", clock()), make_account(f"right{n}", clock())
        other = persona_of(SLOTS[12 - n])  # a free persona: only the slot is contended
        results = race(
            lambda a=left, s=slot: villages.join(village, a, s, persona_of(s), clock()),
            lambda a=right, s=slot, p=other: villages.join(village, a, s, p, clock()),
        )
        assert sorted(r is None for r in results) == [False, True]
        [refusal] = [r for r in results if r is not None]
        assert isinstance(refusal, Conflict) and refusal.status == 409
        assert str(refusal) == "その席はすでに埋まっています"
        winner = left if results[0] is None else right
        loser = right if winner == left else left
        record = load_village(village)
        assert record._members[slot].account_id == winner
        assert record.slot_of(loser) is None and loser not in record.presences
        assert load_account(loser).holds == {}
    assert load_village(village)._meta.occupied == 4


def test_concurrency_joins_for_one_slot_one_wins_the_others_get_a_clear_refusal(clock, village):
    contenders = [make_account(f"contender{n}", clock()) for n in range(6)]
    personas = ["kaede", "genzo", "sayo", "tokubei", "hanae", "ryunosuke"]
    results = race(
        *(
            (lambda a=a, p=p: villages.join(village, a, "assassin", p, clock()))
            for a, p in zip(contenders, personas, strict=True)
        )
    )
    winners = [a for a, r in zip(contenders, results, strict=True) if r is None]
    assert len(winners) == 1
    for result in results:
        if result is not None:
            assert isinstance(result, Conflict) and result.status == 409
            assert str(result) == "その席はすでに埋まっています"
    record = load_village(village)
    assert record._members["assassin"].account_id == winners[0]
    assert record._meta.occupied == 1
    assert list(record.presences) == winners
    for account in contenders:
        expected = {"short": village} if account in winners else {}
        assert load_account(account).holds == expected


def test_concurrency_two_joins_choosing_one_persona_one_gets_it(clock, village):
    for n in range(3):
        left, right = make_account(f"left{n}", clock()), make_account(f"right{n}", clock())
        persona = persona_of(SLOTS[n])
        results = race(
            lambda a=left, s=SLOTS[2 * n + 6], p=persona: villages.join(village, a, s, p, clock()),
            lambda a=right, s=SLOTS[2 * n + 7], p=persona: villages.join(village, a, s, p, clock()),
        )
        assert sorted(r is None for r in results) == [False, True]
        [refusal] = [r for r in results if r is not None]
        assert isinstance(refusal, Conflict) and "キャラクター" in str(refusal)
    personas = [m.persona for m in load_village(village)._members.values() if m.account_id]
    assert sorted(personas) == sorted(persona_of(s) for s in SLOTS[:3])


def test_concurrency_one_account_racing_into_two_short_villages_holds_one(clock, rng, village):
    other = villages.create_village(
        villages.AskedVillage(pace="short", name="隣村"), now=clock(), rng=rng
    )
    for n in range(3):
        account = make_account(f"greedy{n}", clock())
        slot = SLOTS[n]
        results = race(
            lambda a=account, s=slot: villages.join(village, a, s, persona_of(s), clock()),
            lambda a=account, s=slot: villages.join(other, a, s, persona_of(s), clock()),
        )
        assert sorted(r is None for r in results) == [False, True]
        refusal = next(r for r in results if r is not None)
        assert "短期" in str(refusal)
        held = load_account(account).holds["short"]
        assert load_village(held).slot_of(account) == slot
        loser = other if held == village else village
        assert load_village(loser).slot_of(account) is None


def test_concurrency_one_account_racing_for_two_slots_of_a_village_takes_one(clock, village):
    account = make_account("twice", clock())
    results = race(
        lambda: villages.join(village, account, "seer_a", "kaede", clock()),
        lambda: villages.join(village, account, "seer_b", "genzo", clock()),
    )
    assert sorted(r is None for r in results) == [False, True]
    record = load_village(village)
    assert record._meta.occupied == 1
    assert [s for s, m in record._members.items() if m.account_id == account] == [
        record.slot_of(account)
    ]


def test_concurrency_thirteen_joins_at_once_fill_the_village(clock, village, players):
    results = race(
        *(
            (lambda a=a, s=s: villages.join(village, a, s, persona_of(s), clock()))
            for a, s in zip(players, SLOTS, strict=True)
        )
    )
    assert results == [None] * 13
    record = load_village(village)
    assert record._meta.occupied == 13
    assert {m.account_id for m in record._members.values()} == set(players)


def test_concurrency_two_advance_at_once_do_one_resolution(clock, village, players):
    fill(village, players, clock)
    clock.now = load_village(village)._meta.next_update
    for day in (1, 2, 3):
        happenings = race(*(lambda: update.advance(village, clock()) for _ in range(3)))
        kinds = Counter(h.kind for result in happenings for h in result)
        assert kinds["started" if day == 1 else "morning"] == 1
        record = load_village(village)
        assert record.game.day == day
        assert len(record.game.mornings) == day - 1
        assert len(texts(village, "public", day, clock())) == 1  # one day start or one morning
        assert sorted(record._days) == list(range(1, day + 1))
        if record._meta.state != "running":
            break
        clock.now = record._meta.next_update
    # One day start and one morning report per update, nothing twice.
    assert len(all_posts(village, "public")) == 3


def test_concurrency_saves_racing_the_update_are_used_or_refused(clock, village, players):
    seated = start(village, players, clock)
    before = load_village(village)
    snapshot, seed = before._meta.game, before._meta.seed
    at(village, clock, 59)
    picks = random.Random(7)
    choices = {slot: {"pray": picks.choice([s for s in SLOTS if s != slot])} for slot in seated}
    results = race(
        lambda: update.advance(village, clock() + timedelta(minutes=1)),
        *(
            (lambda a=seated[s], c=c: actions.save_actions(village, a, c, clock()))
            for s, c in choices.items()
        ),
    )
    for result in results[1:]:
        # Refused: the update sealed the day under the save (409), or the save landed on
        # day 2 where its target had died in the night (400).
        assert result is None or isinstance(result, Conflict | InvalidInput)
    record = load_village(village)
    assert record.game.day == 2 and record._days[1].sealed
    # Every save that succeeded is in day 1 (and was resolved) or in day 2.
    day1, day2 = record._days[1].choices.as_dict(), record._days[2].choices.as_dict()
    for (slot, choice), result in zip(choices.items(), results[1:], strict=True):
        if result is None:
            assert day1.get(slot) == choice or day2.get(slot) == choice
        else:
            assert slot not in day2
    # The night was resolved with exactly the choices stored in the sealed day.
    replay = Village.from_json(snapshot)
    morning = replay.resolve_night(record.choices_of(1), random.Random(f"{seed}:1"))
    assert record.game.mornings[0].to_json() == morning.to_json()
    assert record._days[1].saves == len(day1)


def test_concurrency_a_short_classic_vote_is_final_when_four_are_sent_at_once(clock, rng):
    """RULES-CLASSIC §2.3.2: in a short village a cast vote cannot be changed, even by votes
    sent at the same instant: one counts, the others are refused with the reason."""
    accounts = [make_account(f"fv{n:02d}", clock()) for n in range(5)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    start_classic(vid, accounts, clock)
    to_due(vid, clock)  # night 1 closes: day 2, round 1
    voter, *targets = living_seats(vid)
    account = account_of(vid, voter)
    results = race(
        *((lambda t=t: actions.save_actions(vid, account, {"vote": t}, clock())) for t in targets)
    )
    accepted = [t for t, result in zip(targets, results, strict=True) if result is None]
    assert len(accepted) == 1
    refusals = [r for r in results if r is not None]
    assert all(isinstance(r, InvalidInput) and r.status == 400 for r in refusals)
    assert {str(r) for r in refusals} == {"この村では一度投じた票は変えられません"}
    assert actions.own_choices(load_village(vid), account) == {"vote": accepted[0]}
