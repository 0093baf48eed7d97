"""The fault run (issue 28), small and seeded: a Mobius village whose scheduler is down across
its start, and a classic village, each played by diligent members through the handlers, the
minute tick and the SQS workers while DynamoDB and SES fail now and then and SQS delivers
again. Nobody departs or dies for our faults, nothing accepted is lost, no answer is a 500 and
no tick fails."""

from datetime import timedelta

import pytest

from benchmarks import faults


@pytest.fixture(autouse=True)
def own_aws():
    """The run brings its own moto (and queues); not the mail suite's."""


def test_a_late_start_under_faults_departs_nobody_and_loses_nothing():
    outcome = faults.run(
        "mobius",
        30,
        rate=0.05,
        ses_rate=0.1,
        redelivery=0.1,
        seed=28,
        opening=timedelta(minutes=8),
    )
    assert outcome.state == "running"  # the village started late, after the outage
    assert sum(outcome.injected.values()) > 0
    assert outcome.departures == 0
    assert outcome.accepted > 0
    assert outcome.accepted_lost == 0
    assert outcome.mails >= 13  # the start mail, each at least once
    assert outcome.statuses[500] == 0 and outcome.statuses[503] > 0  # a fault is a 503 page
    assert outcome.failed_ticks == 0  # a failed shard leaves only its villages


def test_a_classic_village_under_faults_loses_nobody_and_nothing_accepted():
    """Day 1, its sunset and night 1 (closed at dawn by the tick) while AWS fails."""
    outcome = faults.run("classic", 60, rate=0.05, ses_rate=0.1, redelivery=0.1, seed=28, players=5)
    assert outcome.state in ("running", "ending")  # a night's attack may end a game of 5
    assert sum(outcome.injected.values()) > 0
    assert outcome.departures == 0
    assert outcome.sudden_deaths == 0
    assert outcome.accepted > 0
    assert outcome.accepted_lost == 0
    assert outcome.mails >= 5  # the dawn's morning mail, each at least once
    assert outcome.statuses[500] == 0
    assert outcome.failed_ticks == 0
