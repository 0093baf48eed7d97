"""Deployed, each function hands work to the queues, and the mail worker sends at the
account's rate through the stage's configuration set: the paths no local run takes (locally
there are no queues, and whoever owes work does it inline), run here as the stack runs them,
on moto's SQS and SES. tests/support/aws_calls.py checks each of their calls against the
policy of the function that makes it."""

from datetime import timedelta

import boto3
import pytest

import app as handlers
from chalicelib import effects, jobs
from chalicelib.notify import ses as mail
from chalicelib.storage import matches as store
from chalicelib.storage.keys import puzzle_mail_owner
from tests.support.accounts import make_account
from tests.support.mail import REGION
from tests.support.queues import sqs_event
from tests.web.test_matches import start
from tests.web.test_puzzle import TODAY, puzzle_mails, subscribe


class Context:
    """What Lambda gives a handler: here, a minute left."""

    def get_remaining_time_in_millis(self) -> int:
        return 60_000


def invoke(function: str, event: dict):
    """The function's handler, as Lambda calls it."""
    return getattr(handlers, function)(event, Context())


def test_a_clocked_game_started_on_its_page_is_watched_through_the_advance_queue(
    browser, clock, deployed_queues
):
    """The API hands the game's flag to the advance queue (a delayed message); the advance
    worker that receives it before the flag (SQS delays at most 15 minutes) asks again."""
    match_id = start(browser, clock="day")
    assert deployed_queues.count(jobs.QUEUE_NAME) == 1
    watch = f"{effects.WATCH_PREFIX}{match_id}:{store.load_match(match_id).moves}"
    clock.advance(timedelta(seconds=effects.MAX_DELAY))
    answer = invoke("advance_worker", sqs_event(watch))
    assert answer == {"batchItemFailures": []}
    assert deployed_queues.count(jobs.QUEUE_NAME) == 2  # watched again, the flag still ahead
    assert store.load_match(match_id).state == "running"


@pytest.fixture
def sending_as_deployed(monkeypatch):
    """The mail worker as deployed: paced at the account's rate, through the configuration
    set that carries bounces to their handler."""
    boto3.client("ses", region_name=REGION).create_configuration_set(
        ConfigurationSet={"Name": "mobius-mail"}
    )
    monkeypatch.setenv("MOBIUS_MAIL_CONFIGURATION_SET", "mobius-mail")
    monkeypatch.setenv("MOBIUS_STAGE", "prod")
    monkeypatch.setattr(mail, "_quota", None)
    monkeypatch.setattr(jobs, "_sender", None)


def test_the_daily_puzzle_mail_goes_to_the_mail_workers_which_send_it(
    new_browser, clock, todays_puzzle, deployed_queues, sending_as_deployed
):
    make_account("fan", clock())
    subscribe(new_browser(), "fan")
    assert jobs.puzzle_daily() == 1
    assert deployed_queues.bodies(jobs.MAIL_QUEUE_NAME) == [puzzle_mail_owner(TODAY.isoformat())]
    assert not puzzle_mails("fan@example.jp")  # handed over, not sent by the daily job
    owner = puzzle_mail_owner(TODAY.isoformat())
    assert invoke("mail_worker", sqs_event(owner)) == {"batchItemFailures": []}
    assert len(puzzle_mails("fan@example.jp")) == 1
    assert jobs.mail_sender() is not None  # paced at the quota it read
