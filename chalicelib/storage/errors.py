"""What storage tells its callers when a write did not happen.

A *refusal* (``Refused``): the write's condition did not hold, because another request
changed what it was conditioned on (or the player asked for what is not allowed). The caller
reloads and looks again, or tells the player why.

A *fault*: AWS failed (throttled after the SDK's own retries, a 5xx, a timeout). Nothing
about the player's request was wrong; it propagates as PynamoDB's or botocore's exception
(``FAULTS``) and the page says that we are busy (web/pages.py), never the player's fault.

A write that met another transaction in progress (a conflict) wrote nothing: it is tried
again, a few times, before it is a fault (``conditioned``).
"""

import time
from collections.abc import Callable
from typing import TypeVar

from botocore.exceptions import BotoCoreError, ClientError
from pynamodb.exceptions import CancellationReason, PynamoDBException, TransactWriteError

T = TypeVar("T")

# What a DynamoDB call raises when AWS fails: PynamoDB's errors wrap botocore's ClientError;
# botocore's own (a connection or a read timeout) come through as they are.
FAULTS = (PynamoDBException, BotoCoreError, ClientError)

CONDITION_FAILED = "ConditionalCheckFailedException"
CANCELLED = "TransactionCanceledException"
CONFLICT = "TransactionConflictException"  # a single write met a transaction in progress
WRITE_TRIES = 3  # a conflict clears as soon as the other transaction ends
CONFLICT_PAUSE = 0.02  # seconds, times the tries so far


class Refused(Exception):
    """A conditional write (or transaction) was refused: another request changed what it
    was conditioned on. The caller reloads and looks again, or tells the player."""


class TransactionRefused(Refused, TransactWriteError):
    """A refused transaction; still PynamoDB's ``TransactWriteError`` for code that knows it
    (the cancellation reasons are on ``cause``)."""

    def __init__(self, what: str, cause: Exception) -> None:
        TransactWriteError.__init__(self, what, cause)

    @property
    def cancellation_reasons(self) -> list[CancellationReason | None]:
        """The refused transaction's own reasons (``cause`` is PynamoDB's error)."""
        cause = self.cause
        return cause.cancellation_reasons if isinstance(cause, TransactWriteError) else []


def _code(error: Exception) -> str | None:
    """AWS's error code, read from the cause itself: PynamoDB's ``cause_response_code``
    raises on a cause without an answer (a read timeout, a dropped connection)."""
    response = getattr(getattr(error, "cause", None), "response", None) or {}
    code = response.get("Error", {}).get("Code")
    return str(code) if code is not None else None


def _reasons(error: Exception) -> set[str]:
    """The codes a cancelled transaction gives, one per item that cancelled it."""
    if not isinstance(error, TransactWriteError) or _code(error) != CANCELLED:
        return set()
    return {reason.code for reason in error.cancellation_reasons if reason is not None}


def is_refusal(error: Exception) -> bool:
    """A condition that did not hold (alone, or as what cancelled a transaction)."""
    return _code(error) == CONDITION_FAILED or "ConditionalCheckFailed" in _reasons(error)


def is_conflict(error: Exception) -> bool:
    """Another transaction had one of the items: nothing was written, trying again is safe."""
    return _code(error) == CONFLICT or (
        "TransactionConflict" in _reasons(error) and not is_refusal(error)
    )


def conditioned(what: str, write: Callable[[], T]) -> T:
    """Runs one conditioned write (a request or a whole transaction, built by ``write``):
    a failed condition is ``Refused`` (``TransactionRefused`` for a transaction); a conflict
    is tried again up to ``WRITE_TRIES`` times, nothing having been written; anything else is
    a fault and propagates as it is."""
    tried = 1
    while True:
        try:
            return write()
        except PynamoDBException as error:
            if is_refusal(error):
                if isinstance(error, TransactWriteError):
                    raise TransactionRefused(what, error) from error
                raise Refused(what) from error
            if not is_conflict(error) or tried == WRITE_TRIES:
                raise
        time.sleep(CONFLICT_PAUSE * tried)  # the other transaction is milliseconds long
        tried += 1


def retried(write: Callable[[], T]) -> T:
    """Runs a write that is the same whenever it is repeated (unconditioned, its keys drawn
    before): a fault is tried again up to ``WRITE_TRIES`` times before it propagates."""
    tried = 1
    while True:
        try:
            return write()
        except FAULTS:
            if tried == WRITE_TRIES:
                raise
        time.sleep(CONFLICT_PAUSE * tried)
        tried += 1


class AlreadyOwed(Exception):
    """A mail owed once (a reply's receipt, keyed by the reply's Message-ID) is owed already:
    the same message was delivered again, and nothing was written."""
