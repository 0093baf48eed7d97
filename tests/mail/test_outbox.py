"""The outbox: one mail per (village, day, kind, member), sent once, retried after a failure."""

from datetime import timedelta

import pytest
from botocore.exceptions import ClientError
from pynamodb.exceptions import PutError

from chalicelib.notify import ses as mail
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import accounts, outbox, update
from chalicelib.storage.accounts import account_item
from chalicelib.storage.keys import outbox_pk
from chalicelib.storage.models import AccountItem, OutboxItem
from chalicelib.storage.outbox import owed_item
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import (
    MailBox,
    account_of,
    assert_tells_nothing_of_others,
    facts_in,
    names_of,
    news_of,
    seat,
    tick,
    touch_all,
)

SHORT = TIMINGS[Pace.SHORT]
THROTTLED = ClientError(
    {"Error": {"Code": "Throttling", "Message": "Maximum sending rate exceeded."}}, "SendRawEmail"
)


def items(village_id: str) -> list[OutboxItem]:
    return list(OutboxItem.query(outbox_pk(village_id), consistent_read=True))


def started(village_id, players, clock, rng) -> dict[str, str]:
    seated = seat(village_id, players, clock)
    clock.advance(SHORT.first_update)
    return seated


def test_the_outbox_keys_each_mail_by_village_day_kind_and_member(players, clock, rng, village):
    seated = started(village, players, clock, rng)
    tick(clock, rng)
    owed = items(village)
    assert sorted(i.sk for i in owed) == sorted(f"001#start#{a}" for a in seated.values())
    assert {(i.village_id, i.day, i.mail_kind, i.status) for i in owed} == {
        (village, 1, "start", "sent")
    }
    # Sent mails leave the index the ticks read.
    assert outbox.pending(clock() + timedelta(days=1)).found == []
    assert all(i.sent_at == clock() and i.attempts == 1 for i in owed)


def test_a_throttled_send_is_retried_on_the_next_tick_and_sent_once(
    players, clock, rng, village, monkeypatch
):
    started(village, players, clock, rng)
    box = MailBox()
    real_send = mail.send
    calls = {"n": 0}

    def rate_limited(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 7:  # SES refuses everything after the 7th mail of this tick
            raise THROTTLED
        return real_send(*args, **kwargs)

    monkeypatch.setattr(mail, "send", rate_limited)
    tick(clock, rng)
    first = box.new()
    assert len(first) == 7  # the village advanced anyway; 6 mails wait
    assert load_village(village).game.day == 1
    # They wait a minute: not due now, due at the next tick.
    assert outbox.pending(clock()).found == []
    waiting = outbox.pending(clock() + timedelta(minutes=1)).found
    assert len(waiting) == 6
    assert {i.status for i in waiting} == {"pending"}
    # SES works again: the next tick sends exactly the six that failed.
    monkeypatch.setattr(mail, "send", real_send)
    clock.advance(timedelta(minutes=1))
    assert tick(clock, rng).mail_villages == [village]
    second = box.new()
    assert len(second) == 6
    assert sorted(account_of(m) for m in first + second) == sorted(players)
    assert outbox.pending(clock() + timedelta(days=1)).found == []
    # And then nothing more, however many ticks.
    for _ in range(3):
        clock.advance(timedelta(minutes=1))
        assert tick(clock, rng).mail_villages == []
    assert box.new() == []


def test_a_send_that_keeps_failing_is_retried_then_given_up(
    players, clock, rng, village, monkeypatch
):
    seated = started(village, players[:12], clock, rng)
    monkeypatch.setattr(outbox, "MAX_ATTEMPTS", 3)
    monkeypatch.setattr(mail, "send", lambda *a, **k: (_ for _ in ()).throw(THROTTLED))
    tick(clock, rng)
    touch_all(village, seated, clock)  # the members stay (RULES §9)
    for attempt in range(1, outbox.MAX_ATTEMPTS + 1):
        # Each failure waits longer before the next try (1, 2, 4 minutes).
        assert {i.retry_at for i in items(village)} == {clock() + outbox.retry_delay(attempt)}
        clock.advance(outbox.retry_delay(attempt) - timedelta(seconds=1))
        tick(clock, rng)
        assert all(i.attempts == attempt for i in items(village))  # not yet
        clock.advance(timedelta(seconds=1))
        tick(clock, rng)
    assert all(i.status == "skipped" for i in items(village))
    assert all(i.attempts == 4 for i in items(village))
    assert outbox.pending(clock() + timedelta(days=1)).found == []


def test_a_sender_that_died_mid_send_is_taken_over_after_the_claim_expires(
    players, clock, rng, village, monkeypatch
):
    started(village, players, clock, rng)
    update.advance(village, clock())  # the start owes 13 mails
    box = MailBox()
    real_send = mail.send

    def crash(*args, **kwargs):
        raise SystemExit("the lambda timed out")

    monkeypatch.setattr(mail, "send", crash)
    with pytest.raises(SystemExit):
        outbox.deliver(clock())
    claimed = [i for i in items(village) if i.status == "sending"]
    assert len(claimed) == 1
    monkeypatch.setattr(mail, "send", real_send)
    # Another tick within the claim leaves that one alone but sends the others.
    clock.advance(timedelta(minutes=1))
    outbox.deliver(clock())
    assert len(box.new()) == 12
    assert [i.status for i in items(village) if i.sk == claimed[0].sk] == ["sending"]
    clock.advance(outbox.CLAIM_FOR)
    outbox.deliver(clock())
    [late] = box.new()
    assert account_of(late) == claimed[0].account_id
    assert {i.status for i in items(village)} == {"sent"}


def test_owing_the_same_mail_twice_keeps_one_item(players, clock, rng, village):
    started(village, players, clock, rng)
    box = MailBox()
    tick(clock, rng)
    assert len(box.new()) == 13
    record = load_village(village)
    # The same (village, day, kind, member) written again by a retried step: still one mail.
    for member in record._members.values():
        item = owed_item(village, 1, "start", member.account_id, clock())
        with pytest.raises(PutError):
            item.save(condition=OutboxItem.pk.does_not_exist())
    tick(clock, rng)
    assert len(items(village)) == 13
    assert box.new() == []


def test_preferences_and_undeliverable_addresses_stop_the_mail(players, clock, rng, village):
    seated = started(village, players, clock, rng)
    quiet, bounced, unverified = players[0], players[1], players[2]
    accounts.set_preferences(quiet, {"morning_mail": False})
    account_item(load_account(bounced)).update(actions=[AccountItem.undeliverable.set(True)])
    account_item(load_account(unverified)).update(actions=[AccountItem.email_verified.set(False)])
    box = MailBox()
    tick(clock, rng)
    assert sorted(account_of(m) for m in box.new()) == sorted(
        set(seated.values()) - {quiet, bounced, unverified}
    )
    skipped = {i.account_id for i in items(village) if i.status == "skipped"}
    assert skipped == {quiet, bounced, unverified}
    # Skipped mails are not retried.
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    tick(clock, rng)
    assert box.new() == []


def test_a_mail_sent_late_still_tells_its_own_morning_and_no_secret(
    players, clock, rng, village, monkeypatch
):
    seated = started(village, players, clock, rng)
    start = clock()
    tick(clock, rng)
    box = MailBox()
    box.new()
    real_send = mail.send
    monkeypatch.setattr(mail, "send", lambda *a, **k: (_ for _ in ()).throw(THROTTLED))
    # SES is down for two updates; the members keep coming.
    for minutes in (50, 60, 110, 120):
        clock.now = start + timedelta(minutes=minutes)
        alive = load_village(village).game.alive
        touch_all(village, {s: a for s, a in seated.items() if s in alive}, clock)
        tick(clock, rng)
    record = load_village(village)
    assert record.game.day == 3
    assert box.new() == []
    monkeypatch.setattr(mail, "send", real_send)
    # The next tick after the last of them is due again (each failure waits longer).
    clock.now = max(i.retry_at for i in items(village) if i.status == "pending")
    tick(clock, rng)
    late = box.new()
    assert len(late) == 26
    names = names_of(record)
    for day in (2, 3):
        morning = next(m for m in record.game.mornings if m.day == day)
        mails = [m for m in late if m.subject.endswith(f"{day}日目の朝になりました")]
        assert sorted(account_of(m) for m in mails) == sorted(seated.values())
        for notice in mails:
            slot = record.slot_of(account_of(notice))
            assert f"{day}日目の朝になりました。" in notice.text
            for dead, how in morning.deaths.items():
                assert f"{'灰' if how == 'ash' else '遺体'}: {names[dead]}" in notice.text
            other = next(m for m in record.game.mornings if m.day == 5 - day)
            for dead in set(other.deaths) - set(morning.deaths):
                assert f": {names[dead]}\n" not in notice.text
            assert facts_in(notice, record, slot) == news_of(record.game, names, slot, day)
            assert_tells_nothing_of_others(notice, record, slot)
