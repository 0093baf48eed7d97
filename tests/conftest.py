"""The plugins every folder uses (``tests/support/``): DynamoDB's faults, the check of every AWS
call against its function's policy, and the queues as deployed."""

pytest_plugins = ["tests.support.dynamo_faults", "tests.support.aws_calls", "tests.support.queues"]
