"""What a game's write owes besides itself — its clock's watch, its mail handed to the mail
workers — is collected by the request's unit of work and sent by the request once the use
case has returned (decision 225): after the commit, never for a refusal, and still for a
write committed before the request was refused."""

import json
from datetime import timedelta

import pytest

from chalicelib import effects
from chalicelib.services import matches
from chalicelib.services.errors import Conflict
from chalicelib.services.owed import ClockWatch, MailHandOver
from chalicelib.services.unit import Unit
from chalicelib.storage import outbox as mailbox
from tests.support.accounts import make_account
from tests.support.clients import text
from tests.web.test_match_mail import two_people
from tests.web.test_matches import play_json, start, stored


@pytest.fixture
def sent(monkeypatch):
    """Each effect sent, in order, with the game's stored move count at that moment."""
    log: list[tuple] = []

    def watch(match_id: str, moves: int, at) -> None:
        log.append(("watch", moves, at, stored(match_id).moves))

    def hand_over(handed, unit=None) -> None:
        log.extend(("mail", handing.owner) for handing in handed)

    monkeypatch.setattr(effects, "watch_clock", watch)
    monkeypatch.setattr(effects, "hand_over_mail", hand_over)
    return log


def test_a_moves_watch_is_sent_after_the_move_returned_and_its_write_committed(
    browser, clock, sent, monkeypatch
):
    match_id = start(browser, clock="3m")
    assert sent == [("watch", 0, clock() + timedelta(seconds=200), 0)]  # the start's flag
    real = matches.move

    def move(*args, **kwargs):
        real(*args, **kwargs)
        sent.append(("move returned",))

    monkeypatch.setattr(matches, "move", move)
    clock.advance(timedelta(seconds=30))
    assert play_json(browser, match_id, {"do": "co", "roles": ["seer"]}).status_code == 303
    moves = stored(match_id).moves  # the person's move and the computer's replies
    assert moves > 1
    flag = stored(match_id).flag_at
    assert sent[1:] == [("move returned",), ("watch", moves, flag, moves)]


def test_a_refused_move_sends_nothing(browser, clock, sent):
    match_id = start(browser, clock="3m")
    sent.clear()
    stale = play_json(browser, match_id, {"do": "co", "roles": ["seer"]}, moves=5)
    assert "stale=1" in stale.headers["Location"]
    illegal = play_json(browser, match_id, {"do": "co", "roles": ["king"]})
    assert illegal.status_code == 400
    assert sent == [] and stored(match_id).moves == 0


def test_an_end_written_before_a_move_is_refused_still_hands_its_mail_over(
    browser, new_browser, clock, sent
):
    """alice's flag fell before her move: the request's read ends the game and owes bob the
    end; the move is then refused, and the end's mail goes to the workers all the same."""
    match_id, _bob = two_people(browser, new_browser, clock, control="3m")
    sent.clear()
    clock.advance(timedelta(seconds=201))
    form = {"moves": "0", "move": json.dumps({"do": "co", "roles": ["seer"]})}
    refused = browser.post(f"/matches/{match_id}/moves", form)
    assert refused.status_code == 409 and "終わっています" in text(refused)
    assert stored(match_id).state == "ended"
    assert sent == [("mail", mailbox.match_mail(match_id))]


def test_a_join_owes_the_turns_mail_and_the_clock_only_once_it_is_written(clock):
    """The use case records what it owes on the game only after its write: a join refused
    (the seat taken meanwhile) owes nothing."""
    make_account("alice", clock())
    make_account("bob", clock())
    given = {"preset": "std9", "side": "A", "strength": "normal", "clock": "day"}
    unit = Unit()
    match_id = matches.start("duel", {**given, "opponent": "invite"}, "a:alice", clock(), unit)
    assert list(unit.collect_owed()) == []  # no clock runs before both sit
    first, late = matches.load(match_id), matches.load(match_id)
    matches.join(first, "a:bob", clock())
    flag = stored(match_id).flag_at
    assert first.owed == [
        MailHandOver(mailbox.match_mail(match_id)),  # alice's turn, by mail
        ClockWatch(match_id, 0, flag),
    ]
    with pytest.raises(Conflict):
        matches.join(late, "a:carol", clock())
    assert late.owed == []


def test_the_unit_collects_each_effect_once_a_reloaded_games_too(browser, clock):
    match_id = start(browser, clock="3m")
    unit = Unit()
    before = unit.match(match_id)
    before.owe(MailHandOver("first"))
    after = unit.reload_match(match_id)
    after.owe(MailHandOver("second"))
    assert list(unit.collect_owed()) == [MailHandOver("first"), MailHandOver("second")]
    assert list(unit.collect_owed()) == []
