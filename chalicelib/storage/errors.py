"""What storage tells its callers when a write's condition did not hold."""

from pynamodb.exceptions import TransactWriteError


class Refused(Exception):
    """A conditional write (or transaction) was refused: another request changed what it
    was conditioned on. The caller reloads and looks again, or tells the player."""


class TransactionRefused(Refused, TransactWriteError):
    """A refused transaction; still PynamoDB's ``TransactWriteError`` for code that knows it
    (the cancellation reasons are on ``cause``)."""

    def __init__(self, what: str, cause: Exception) -> None:
        TransactWriteError.__init__(self, what, cause)


CONDITION_FAILED = "ConditionalCheckFailedException"


def condition_failed(error: Exception) -> bool:
    """Whether a PynamoDB write error is a refusal (its condition did not hold) rather than a
    fault. Read from the cause itself: PynamoDB's ``cause_response_code`` raises on a cause
    without an answer (a read timeout, a dropped connection)."""
    response = getattr(getattr(error, "cause", None), "response", None) or {}
    return bool(response.get("Error", {}).get("Code") == CONDITION_FAILED)
