"""Fixtures every suite may use."""

pytest_plugins = ["tests.support.dynamo_faults", "tests.support.aws_calls"]
