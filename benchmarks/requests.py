"""DynamoDB requests per use case, counted under moto (capacity there is a constant)."""

import os
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import boto3
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends
from pynamodb.connection.base import Connection

from chalicelib import effects, runtime
from chalicelib.inbound import message
from chalicelib.inbound.words import reply_address
from chalicelib.links import MemberLink, member_token
from chalicelib.notify import match_notices
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets import match_rules
from chalicelib.services import (
    accounts,
    actions,
    matches,
    outbox,
    posts,
    replies,
    sessions,
    update,
    villages,
)
from chalicelib.services.unit import Unit
from chalicelib.storage import db
from chalicelib.storage.repository import load_account, load_village
from chalicelib.web import mail_links, village_view
from chalicelib.web.http import fresh_session
from chalicelib.web.pages import Request
from devserver.moto_local import like_dynamodb

POSTS_BEFORE_VIEW = 200  # the page must not cost more with a long day


@contextmanager
def counting() -> Iterator[Counter]:
    """Counts every DynamoDB API call made through PynamoDB inside the block."""
    calls: Counter = Counter()
    original = Connection._make_api_call

    def counted(self, operation_name, operation_kwargs):
        calls[operation_name] += 1
        return original(self, operation_name, operation_kwargs)

    Connection._make_api_call = counted
    try:
        yield calls
    finally:
        Connection._make_api_call = original


def view_village(
    village_id: str, grant: sessions.Grant, now: datetime, touch: bool = False
) -> None:
    """What one village page needs, as the page builds it: the session, the village, the day's
    posts (numbered, anchors, unread marks from the recorded access), own choices, the full
    record. ``touch``: the access write a member's view makes at most once a minute, after
    the session item said the session is live (decision 65)."""
    record = load_village(village_id)
    live = sessions.check(grant.account_id, grant.session_id, now, writes=False)
    assert live is not None
    if touch:
        villages.touch(village_id, live.account_id, now, record)
    viewer = posts.viewer_of(record, live.account_id)
    village_view.build(record, viewer, now)


def quick_link(village_id: str, account_id: str, now: datetime) -> int:
    """A one-tap link from mail, posted from a browser without a session: the link's check,
    the narrow session, the access and the save, with one load of the village."""
    record = load_village(village_id)
    assert record is not None
    slot = record.slot_of(account_id)
    assert slot is not None
    target = next(s for s in record.game.legal_targets(slot, "pray"))
    link = MemberLink(account_id, village_id, record.game.day, "pray", target, None, 1)
    token = member_token(link, now + timedelta(hours=1))
    cookie = fresh_session()
    runtime.set_clock(lambda: now)
    try:
        with counting() as calls:
            response = mail_links.member_link(
                Request(
                    method="POST",
                    path=f"/m/{token}",
                    headers={
                        "content-type": "application/x-www-form-urlencoded",
                        "cookie": cookie.cookie(now).split(";")[0],
                    },
                    query={},
                    raw_body=f"csrf={cookie.csrf}".encode(),
                    context={},
                ),
                token,
            )
    finally:
        runtime.set_clock(runtime.system_clock)
    assert response.status_code == 303, response.body
    return sum(calls.values())


def reply_mail(
    village_id: str, account_id: str, now: datetime, text: str = "祈り 占い師A\n占い なし"
) -> int:
    """A member's reply to the village's mail (``text``), accepted and answered, as
    the deployed function handles it: the receipt handed to the mail workers (SQS, not
    counted here; its sending is the mail worker's, counted with the village's mail)."""
    record = load_village(village_id)
    assert record is not None
    slot = record.slot_of(account_id)
    assert slot is not None
    account = load_account(account_id)
    assert account is not None
    raw = message.as_sent_by(account.email, reply_address(record, slot), text, now)
    with counting() as calls:
        received = replies.receive(raw, now, Unit(), hand_over=lambda *_: None)
    assert received.outcome == "applied", received
    return sum(calls.values())


def duel_reply_mail(now: datetime) -> tuple[int, int]:
    """A correspondence duel's player replies to their turn's mail with a move, played and
    confirmed (decision 128), as the deployed function handles it: the confirmation and the
    other player's turn handed to the mail workers (SQS, not counted here); then the other
    replies 投了, the move that ends the game and counts it in both accounts' records."""
    alice, bob = verified_accounts("duel", 2, now)
    given = {"preset": "std9", "side": "A", "strength": "normal", "clock": "day"}
    match_id = matches.start("duel", {**given, "opponent": "invite"}, f"a:{alice}", now, Unit())
    matches.join(matches.load(match_id), f"a:{bob}", now)

    def reply(account_id: str, side: str, moves: int, text: str) -> int:
        """The requests of ``account_id``'s reply to its mail of move ``moves``."""
        to = match_notices.reply_address(match_rules("duel"), match_id, side, moves)
        account = load_account(account_id)
        assert to is not None and account is not None
        raw = message.as_sent_by(account.email, to, text, now)
        with counting() as calls:
            received = replies.receive(raw, now, Unit())
        assert received.outcome == "applied", received
        return sum(calls.values())

    move = reply(alice, "A", 0, "CO要請 占い師")
    assert matches.load(match_id).moves == 1
    ending = reply(bob, "B", 1, "投了")
    assert matches.load(match_id).ended
    return move, ending


def verified_accounts(
    name: str, count: int, now: datetime, password: str = "bench-password"
) -> list[str]:
    """``count`` accounts ``<name>00``… with verified addresses ``<name>0@example.jp``…"""
    players = []
    for n in range(count):
        token = accounts.register(f"{name}{n:02d}", password, f"{name}{n}@example.jp", now).token
        players.append(accounts.verify_email(token, now).account_id)
    return players


def fake_aws() -> None:
    """Benchmarks run on moto in this process: fake credentials, no endpoints."""
    os.environ.update(
        AWS_DEFAULT_REGION="ap-northeast-1",
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        MOBIUS_SECRET="bench-secret",
        MOBIUS_TABLE="mobius-bench",
    )
    for name in ("DYNAMODB_ENDPOINT", "SES_ENDPOINT", "MOBIUS_QUEUE_URL", "MOBIUS_MAIL_QUEUE_URL"):
        os.environ.pop(name, None)


def figures() -> dict[str, int]:
    fake_aws()
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        boto3.client("ses", region_name="ap-northeast-1").verify_email_identity(
            EmailAddress="noreply@mobius.example"
        )
        now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
        players = verified_accounts("bench", 13, now)
        village = villages.create_village(
            villages.AskedVillage(pace="short", name="計測村"), now=now, rng=random.Random(1)
        )
        for n, slot in enumerate(SLOTS[:12]):
            villages.join(village, players[n], slot, YAMAZATO[n].key, now)
        result: dict[str, int] = {}
        with counting() as calls:
            villages.join(village, players[12], SLOTS[12], YAMAZATO[12].key, now)
        result["join"] = sum(calls.values())
        now += timedelta(hours=6)
        update.advance(village, now)
        now += timedelta(minutes=1)
        target = SLOTS[1]
        with counting() as calls:
            actions.save_actions(village, players[0], {"pray": target}, now)
        result["save_actions"] = sum(calls.values())
        for n in range(POSTS_BEFORE_VIEW):
            posts.post(village, players[n % 13], "public", f"発言{n}", now)
            if n % 13 == 12:
                now += timedelta(seconds=6)
        with counting() as calls:
            posts.post(village, players[1], "public", "計測用の発言", now + timedelta(seconds=6))
        result["post"] = sum(calls.values())
        grant = sessions.open_session(players[2], now)
        with counting() as calls:
            view_village(village, grant, now)
        result["view_village"] = sum(calls.values())
        grant = sessions.open_session(players[3], now)
        with counting() as calls:
            view_village(village, grant, now, touch=True)
        result["view_village_with_access"] = sum(calls.values())
        result["quick_link"] = quick_link(village, players[4], now)
        result["reply_mail"] = reply_mail(village, players[5], now)
        result["duel_reply_mail"], result["duel_reply_mail_ending"] = duel_reply_mail(now)
        with counting() as calls:
            villages.lounge("running")
        result["lounge_page"] = sum(calls.values())  # one query per shard, all at once
        for account, slot in zip(players, SLOTS, strict=True):
            if slot != target:
                actions.save_actions(village, account, {"pray": target}, now)
        with counting() as calls:
            update.advance(village, now + timedelta(hours=1))
        result["update_village"] = sum(calls.values())
        # The scheduled worker on the next night: the update, its 13 mails, the next look.
        record = load_village(village)
        due = record._meta.next_update
        now = due - timedelta(minutes=5)  # every member saved (and so was seen) lately
        for account in players:
            slot = record.slot_of(account)
            if slot and slot not in record.game.deaths:
                actions.save_actions(village, account, {}, now)
        outbox.deliver(now)  # the mail of the days before is out of the way
        sent = _sent()
        with counting() as calls:
            effects.advance_village(village, due)
        result["process_village"] = sum(calls.values())
        result["process_village_mails"] = _sent() - sent
        result |= classic_figures(players[:5], now + timedelta(days=1))
    return result


def classic_figures(players: list[str], now: datetime) -> dict[str, int]:
    """The requests of a five-player short classic village (issue 13): a page view, a vote, a
    vote by reply mail (issue 27), a night choice, the last start vote (the start), a round's
    close, a night's close with its mails (the mails are counted on their own)."""
    from chalicelib.rules.classic import NPC

    for account in players:  # free of their Mobius village (it ended or they died)
        accounts_store_release(account)
    village = villages.create_village(
        villages.AskedVillage(pace="short", name="計測BBS村", rules="classic"),
        now=now,
        rng=random.Random(2),
    )
    for n, account in enumerate(players):
        villages.join(village, account, f"s{n + 1}", YAMAZATO[n].key, now)
    result: dict[str, int] = {}
    for account in players[:-1]:
        actions.prologue(village, account, "start", None, now)
    with counting() as calls:
        assert actions.prologue(village, players[-1], "start", None, now) == "started"
    result["classic_start"] = sum(calls.values())
    # Night 1 closes (the scheduler): day 2 and its first round.
    record = load_village(village)
    outbox.deliver(now)
    now = record._meta.next_update
    sent = _sent()
    with counting() as calls:
        effects.advance_village(village, now)
    result["classic_night_close"] = sum(calls.values())
    result["classic_night_close_mails"] = _sent() - sent
    record = load_village(village)
    game = record.game
    living = [game.seats[c] for c in game.village.living() if c != NPC]
    account_of = {seat: record.seats()[seat].account_id for seat in living}
    grant = sessions.open_session(account_of[living[0]], now)
    with counting() as calls:
        view_village(village, grant, now)
    result["classic_view"] = sum(calls.values())
    wolf = next(game.seats[c] for c, r in game.village.roles.items() if r == "werewolf")
    prey = next(s for s in living if s != wolf)
    with counting() as calls:
        actions.save_actions(village, account_of[wolf], {"attack": prey}, now)
    result["classic_night_choice"] = sum(calls.values())
    # Everyone but one votes (a vote each); the round closes at its deadline with a sudden death.
    voters = [s for s in living if s != living[-1]]
    with counting() as calls:
        actions.save_actions(village, account_of[voters[0]], {"vote": voters[1]}, now)
    result["classic_vote"] = sum(calls.values())
    # The second voter votes by replying to the village's mail (issue 27), by character number.
    character = {s: c for c, s in game.seats.items()}
    result["classic_reply_mail"] = reply_mail(
        village, account_of[voters[1]], now, f"投票 {character[voters[0]]}"
    )
    for seat in voters[2:]:
        actions.save_actions(village, account_of[seat], {"vote": voters[0]}, now)
    record = load_village(village)
    with counting() as calls:
        update.advance(village, record._meta.next_update)
    result["classic_round_close"] = sum(calls.values())
    # The combined log (decision 52): the village, then each readable board read whole; the
    # first voter, executed, reads every board (each player's monologue apart, found through
    # the presences).
    viewer = posts.viewer_of(record, account_of[living[0]])
    with counting() as calls:
        village_view.build_log(load_village(village), viewer, now)
    result["classic_log"] = sum(calls.values())
    return result


def accounts_store_release(account_id: str) -> None:
    """Clears an account's holds (the bench reuses the Mobius village's players)."""
    from chalicelib.storage.accounts import account_item
    from chalicelib.storage.models import AccountItem

    account = load_account(account_id)
    assert account is not None
    account_item(account).update(actions=[AccountItem.holds.set({})])


def _sent() -> int:
    return len(ses_backends[DEFAULT_ACCOUNT_ID]["ap-northeast-1"].sent_messages)
