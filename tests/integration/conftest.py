"""Integration fixtures: a fresh moto DynamoDB table per test, a fake clock, a seeded RNG."""

from tests.support.services import aws, clock, players, rng, village  # noqa: F401
