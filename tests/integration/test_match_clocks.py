"""Clocks of games played move by move (decision 49): banks, 秒読み, and the flag that falls
at its time whether or not anyone looks — on any read or write, or by the delayed message a
worker receives. Driven by the clock seam (FakeClock); the queue is a fake that keeps what
was sent."""

import json
from datetime import timedelta

import pytest

from chalicelib import effects, jobs, queues, runtime
from chalicelib.rules.duel import Duel
from chalicelib.services import matches
from chalicelib.services.errors import Conflict
from chalicelib.services.owed import ClockWatch
from chalicelib.services.unit import Unit
from chalicelib.storage import matches as store
from tests.support.queues import sqs_event

GUEST = "g:guest-one"


@pytest.fixture
def now(clock, monkeypatch):
    monkeypatch.setattr(runtime, "_clock", clock)
    return clock


def new_game(clock, control="3m", side="A", unit=None) -> str:
    given = {"preset": "std9", "side": side, "strength": "normal", "clock": control}
    return matches.start("duel", given, GUEST, clock(), unit or Unit())


def item(match_id):
    found = store.load_match(match_id)
    assert found is not None
    return found


def test_the_side_to_move_loses_on_time_at_bank_plus_byoyomi_on_any_read(now):
    match_id = new_game(now)
    start = now()
    assert item(match_id).flag_at == start + timedelta(seconds=180 + 20)
    now.advance(timedelta(seconds=199))
    assert not matches.end_if_due(matches.load(match_id), now())
    assert item(match_id).state == "running"
    now.advance(timedelta(seconds=2))
    assert matches.end_if_due(matches.load(match_id), now())
    ended = item(match_id)
    assert ended.state == "ended" and ended.ended_at == start + timedelta(seconds=200)
    assert Duel.from_json(ended.game).ending == {
        "winner": "wolves",
        "day": 1,
        "at": "time",
        "by": "A",
    }


def test_a_move_spends_the_bank_and_the_countdown_comes_back_every_move(now):
    match_id = new_game(now)
    now.advance(timedelta(seconds=100))
    matches.move(matches.load(match_id), [GUEST], 0, {"do": "co", "roles": ["seer"]}, None, now())
    after = item(match_id)
    assert after.banks["A"] == 80  # the CPU answered in the same moment
    assert after.flag_at == now() + timedelta(seconds=80 + 20)
    now.advance(timedelta(seconds=95))  # into 秒読み: the bank is spent
    game = matches.load(match_id)
    matches.move(game, [GUEST], game.moves, {"do": "co", "roles": ["medium"]}, None, now())
    after = item(match_id)
    assert after.banks["A"] == 0
    assert after.flag_at == now() + timedelta(seconds=20)  # the whole countdown again


def test_a_move_after_the_flag_is_refused_and_the_game_ends_on_time(now):
    """Time is settled once a request (decision 226): the move alone writes no end; the read
    of the request that brought it (``settle``, as every page's) does."""
    match_id = new_game(now)
    now.advance(timedelta(seconds=201))
    game = matches.load(match_id)
    with pytest.raises(matches.Stale):
        matches.move(game, [GUEST], 0, {"do": "co", "roles": ["seer"]}, None, now())
    assert item(match_id).state == "running"
    assert matches.settle(game, now(), "A")
    with pytest.raises(Conflict, match="終わっています"):
        matches.move(matches.load(match_id), [GUEST], 0, {"do": "co"}, None, now())
    assert item(match_id).state == "ended" and store.match_moves(match_id) == []


def test_a_game_without_clocks_never_flags(now):
    match_id = new_game(now, control="none")
    assert item(match_id).flag_at is None
    now.advance(timedelta(days=29))  # (a guest game idle 30 days is gone: decision 58)
    assert not matches.end_if_due(matches.load(match_id), now())


def test_nobody_looking_a_delayed_message_brings_a_worker_within_seconds_of_the_flag(
    now, monkeypatch
):
    monkeypatch.setenv("MOBIUS_QUEUE_URL", "https://sqs.example/advance")
    sent = []

    class Queue:
        def send_message(self, **message):
            sent.append(message)

    monkeypatch.setattr(queues, "_sqs", lambda region, endpoint: Queue())
    with effects.sent_after(Unit()) as unit:
        match_id = new_game(now, unit=unit)
    [message] = sent
    assert message["MessageBody"] == f"M:{match_id}:0"
    assert message["DelaySeconds"] == 201  # a second after the flag (200 s)
    # The worker receives it when SQS delivers it: the game ends on time, nobody on its page.
    now.advance(timedelta(seconds=201))
    jobs.advance_batch(sqs_event(message["MessageBody"]))
    assert item(match_id).state == "ended"
    # A second delivery of the same message changes nothing.
    jobs.advance_batch(sqs_event(message["MessageBody"]))
    assert json.loads(json.dumps(Duel.from_json(item(match_id).game).ending))["at"] == "time"


def test_a_long_bank_is_watched_again_and_a_moved_game_is_left_alone(now):
    unit = Unit()
    match_id = new_game(now, control="day", unit=unit)
    assert list(unit.collect_owed()) == [ClockWatch(match_id, 0, now() + timedelta(days=1))]
    # The longest SQS wait is 15 minutes: the worker comes early and asks again.
    now.advance(timedelta(seconds=effects.MAX_DELAY))
    unit = Unit()
    assert not matches.look(match_id, 0, now(), unit)
    assert list(unit.collect_owed()) == [ClockWatch(match_id, 0, item(match_id).flag_at)]
    # Once the person has moved, a message about the old move count does nothing.
    game = matches.load(match_id)
    matches.move(game, [GUEST], 0, {"do": "co", "roles": ["seer"]}, None, now())
    now.advance(timedelta(days=2))
    unit = Unit()
    assert not matches.look(match_id, 0, now(), unit)
    assert list(unit.collect_owed()) == []
    assert item(match_id).state == "running"
