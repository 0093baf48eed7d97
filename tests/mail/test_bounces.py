"""SES bounces and complaints through SNS: the address is marked undeliverable, mail to it
stops, and its owner sees why on the account page."""

import json
from datetime import timedelta

import pytest

from chalicelib import jobs
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import accounts, sessions
from chalicelib.storage.repository import load_account, load_village
from chalicelib.web.http import Session
from tests.support.mailbox import MailBox, account_of, body_of, seat, tick

SHORT = TIMINGS[Pace.SHORT]
NOTICE = "このメールアドレスにはメールが届かないため"


def bounce(address: str, kind: str = "Permanent") -> str:
    """An SES bounce notification as SNS delivers it (the message is a JSON string)."""
    return json.dumps(
        {
            "notificationType": "Bounce",
            "bounce": {
                "bounceType": kind,
                "bounceSubType": "General",
                "bouncedRecipients": [{"emailAddress": address, "status": "5.1.1"}],
                "timestamp": "2026-12-01T09:00:00.000Z",
            },
            "mail": {"destination": [address], "source": "noreply@mobius.example"},
        }
    )


def complaint(address: str) -> str:
    return json.dumps(
        {
            "notificationType": "Complaint",
            "complaint": {"complainedRecipients": [{"emailAddress": address}]},
            "mail": {"destination": [address]},
        }
    )


def test_a_permanent_bounce_marks_the_address_undeliverable(players):
    assert jobs.ses_notification(bounce("PLAYER00@Example.JP")) == ["player00"]
    assert load_account("player00").undeliverable is True
    # Twice is harmless.
    jobs.ses_notification(bounce("player00@example.jp"))
    assert load_account("player00").undeliverable is True
    assert not any(load_account(a).undeliverable for a in players[1:])


def test_a_complaint_marks_the_address_too(players):
    assert jobs.ses_notification(complaint("player01@example.jp")) == ["player01"]
    assert load_account("player01").undeliverable is True


@pytest.mark.parametrize(
    "message",
    [
        bounce("player00@example.jp", kind="Transient"),  # a soft bounce: the outbox retries
        bounce("nobody@example.jp"),  # not ours
        bounce("not an address"),
        json.dumps({"notificationType": "Delivery", "mail": {}}),
        json.dumps({"notificationType": "Bounce"}),
        json.dumps([1, 2]),
        json.dumps({"notificationType": "Bounce", "bounce": "Permanent"}),
        json.dumps({"notificationType": "Complaint", "complaint": {"complainedRecipients": 3}}),
        json.dumps({"notificationType": "Bounce", "bounce": {"bounceType": "Permanent"}}),
        "not json",
    ],
)
def test_other_notifications_change_nothing(players, message):
    assert jobs.ses_notification(message) == []
    assert not any(load_account(a).undeliverable for a in players)


def test_a_bounce_for_an_address_the_account_has_left_is_ignored(players, clock):
    change = accounts.change_email("player02", "correct horse battery", "new02@example.jp", clock())
    accounts.verify_email(change.token, clock())
    assert jobs.ses_notification(bounce("player02@example.jp")) == []
    assert load_account("player02").undeliverable is False


def test_the_sns_lambda_marks_and_the_mail_to_that_address_stops(
    players, clock, rng, village, client
):
    seated = seat(village, players, clock)
    event = client.events.generate_sns_event(
        message=bounce("player03@example.jp"), subject="Amazon SES Email Event Notification"
    )
    client.lambda_.invoke("ses_notifications", event)
    assert load_account("player03").undeliverable is True
    box = MailBox()
    clock.advance(SHORT.first_update)
    tick(clock, rng)
    assert load_village(village).game.day == 1
    got = sorted(account_of(m) for m in box.new())
    assert got == sorted(set(seated.values()) - {"player03"})


def test_the_account_page_says_mail_is_not_delivered_until_the_address_changes(
    players, clock, client
):
    grant = sessions.open_session("player04", clock())
    session = Session(account_id="player04", csrf="c", session_id=grant.session_id)
    cookie = session.cookie(clock()).split(";", 1)[0]
    before = client.http.get("/account", headers={"cookie": cookie})
    assert before.status_code == 200
    assert NOTICE not in body_of(before)
    jobs.ses_notification(complaint("player04@example.jp"))
    after = client.http.get("/account", headers={"cookie": cookie})
    assert after.status_code == 200
    assert NOTICE in body_of(after)
    # A new address clears the mark once it is verified.
    change = accounts.change_email("player04", "correct horse battery", "p4@example.jp", clock())
    accounts.verify_email(change.token, clock())
    assert load_account("player04").undeliverable is False
    clock.advance(timedelta(minutes=1))
    assert NOTICE not in body_of(client.http.get("/account", headers={"cookie": cookie}))
