"""Secrecy on twins through everything a game between two people serves (issue 25, decision
84): over random games of every preset, a game's state and its twin — the same public game
with everything a side may not see drawn afresh (RULES-DUEL §8, ``tests/unit/duel/helpers.twin``;
after the end, B's own secrets only) — give that side byte-identical pages (board, log, chat
pane, presence token), JSON views and mail of every kind, a reply's confirmation included
(issue 27). The shared record (decision 62) is the same whatever B's own secrets were, whoever
played and whatever was said in the chat, and shows what §8 makes public at the end: every
card, and the review."""

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from msgspec.structs import astuple

from chalicelib.notify import match_notices
from chalicelib.rules.duel import Draws, Duel, play, preset
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rulesets.duel.labels import ROLE_LABELS
from chalicelib.rulesets.duel.ruleset import SUBJECTS
from chalicelib.services import matches, receipts
from chalicelib.storage import outbox as outbox_store
from chalicelib.storage.repository import load_account
from tests.support.clients import text
from tests.support.duels import twin
from tests.web.test_match_mail import two_people
from tests.web.test_matches import stored

SNAPSHOTS = 6  # states of each random game checked
MOST_MOVES = 2000
ACCOUNTS = {"A": "alice", "B": "bob"}


def random_states(name: str, seed: int) -> list[Duel]:
    """States of one random game (both sides random legal players), its end included."""
    rng = random.Random(seed)
    duel = Duel.setup(preset(name), Draws(rng))
    states = [Duel.from_json(duel.to_json())]
    for _ in range(MOST_MOVES):
        if duel.phase == "end":
            break
        side = duel.phase[0]
        legal = legal_moves(duel, side)
        play(duel, side, legal.random_move(rng), rng)
        states.append(Duel.from_json(duel.to_json()))
    assert duel.phase == "end"
    picked = rng.sample(states[:-1], min(SNAPSHOTS - 1, len(states) - 1))
    return [*picked, states[-1]]


def after_the_end(duel: Duel, side: str, rng: random.Random) -> Duel:
    """After the end everything is revealed (§8) but B's own: its PP guesses and whether its
    madman's one claim was spent, which stay hidden from A."""
    double = Duel.from_json(duel.to_json())
    if side == "A":
        double.guesses = [
            {"day": rng.randint(1, duel.day), "guess": rng.randint(1, duel.board), "correct": False}
        ]
        double.madman_used = not duel.madman_used
    return double


def put(match_id: str, duel: Duel) -> None:
    """The stored game becomes ``duel`` (the test writes the state; the app serves it)."""
    item = stored(match_id)
    item.game = duel.to_json()
    item.state = "ended" if duel.phase == "end" else "running"
    item.save()


def served(match_id: str, side: str, phone) -> tuple:
    """Everything the game serves ``side``: its page, its JSON view, its mail of every kind."""
    page = phone.get(f"/matches/{match_id}")
    assert page.status_code == 200
    view = phone.get(f"/matches/{match_id}/view")
    match = matches.load(match_id)
    account = load_account(ACCOUNTS[side])
    mails = [
        astuple(
            match_notices.compose(
                match.rules,
                match.game,
                match_id,
                side,
                account,
                kind,
                match.record.created_at + timedelta(days=1),
                match.record.created_at,
                match.moves,
            )
        )
        for kind in SUBJECTS
    ]
    # A reply's confirmation (issue 27): the board as the side sees it, and replies valid now.
    confirmation = receipts.compose_for_game(match, account, reply_item(match, side), NOW)
    return text(page), text(view), mails, astuple(confirmation)


NOW = datetime(2026, 12, 1, 3, tzinfo=UTC)


def reply_item(match: matches.Match, side: str):
    """A confirmation owed for a reply the side sent on this move (the move it played)."""
    detail = {
        "message_id": "<twin@example.jp>",
        "lines": [{"text": "処刑 1", "status": "read", "why": ""}],
        "done": "#1 を処刑",
    }
    return outbox_store.reply_receipt(
        outbox_store.match_mail(match.match_id),
        match.moves,
        ACCOUNTS[side],
        "<twin@example.jp>",
        json.dumps(detail, ensure_ascii=False),
        NOW,
    )


@pytest.mark.parametrize("name", ["std9", "10A", "12A", "12B", "17A"])
def test_twins_differing_only_in_what_a_side_may_not_see_are_served_alike(
    browser, new_browser, clock, name
):
    match_id, friend = two_people(browser, new_browser, clock, control="none")
    phones = {"A": browser, "B": friend}
    for side, phone in phones.items():  # a chat to show on every page
        phone.get(f"/matches/{match_id}")
        assert phone.post(f"/matches/{match_id}/chat", {"text": f"{side}です"}).status_code == 303
        clock.advance(timedelta(seconds=6))
    rng = random.Random(f"twins-{name}")
    for duel in random_states(name, rng.randrange(2**32)):
        for side, phone in phones.items():
            double = (after_the_end if duel.phase == "end" else twin)(
                duel, side, random.Random(rng.random())
            )
            put(match_id, duel)
            first = served(match_id, side, phone)
            put(match_id, double)
            second = served(match_id, side, phone)
            assert first == second, (name, side, duel.phase)
            assert "Aです" in first[0] and "Bです" in first[0]  # the chat pane was there
    assert stored(match_id).state == "ended"


def shared_record(match_id: str, phone, reader) -> str:
    """The ended game's shared record as a logged-out reader opens it (its own link's token
    taken out: each share is a new link)."""
    phone.get(f"/matches/{match_id}")
    assert phone.post(f"/matches/{match_id}/share", {"do": "share"}).status_code == 303
    token = str(stored(match_id).share)
    page = reader.get(f"/records/{token}")
    assert page.status_code == 200
    phone.post(f"/matches/{match_id}/share", {"do": "withdraw"})
    return text(page).replace(token, "<token>")


@pytest.mark.parametrize("name", ["std9", "12B", "17A"])
def test_the_shared_record_shows_the_public_end_and_nothing_of_the_players(
    browser, new_browser, clock, name
):
    match_id, friend = two_people(browser, new_browser, clock, control="none")
    reader = new_browser()
    rng = random.Random(f"record-{name}")
    duel = random_states(name, rng.randrange(2**32))[-1]
    put(match_id, duel)
    record = shared_record(match_id, browser, reader)
    # What the rule book makes public at the end: every card's role, and the review.
    assert 'id="review"' in record
    for c, role in enumerate(duel.cards):
        if role is not None and c > 0:
            assert f'id="card-{c}"' in record and ROLE_LABELS[role] in record
    # The same record whatever B's own secrets were (its PP guesses, its madman's claim),
    # whoever played, and whatever the two said to each other.
    secret = Duel.from_json(duel.to_json())
    secret.guesses = [{"day": 1, "guess": 1, "correct": False}]
    secret.madman_used = not duel.madman_used
    put(match_id, secret)
    for side, phone in (("A", browser), ("B", friend)):
        phone.get(f"/matches/{match_id}")
        phone.post(f"/matches/{match_id}/chat", {"text": f"内緒の話{side}"})
        clock.advance(timedelta(seconds=6))
    item = stored(match_id)
    item.players = {"A": "a:alice", "B": "g:someone-else"}  # another person in B's seat
    item.save()
    again = shared_record(match_id, browser, reader)
    assert again == record
    assert "内緒の話" not in again and "alice" not in again and "bob" not in again
