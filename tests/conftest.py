"""Fixtures every suite may use."""

pytest_plugins = ["tests.dynamo_faults", "tests.aws_calls"]
