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


class AlreadyOwed(Exception):
    """A mail owed once (a reply's receipt, keyed by the reply's Message-ID) is owed already:
    the same message was delivered again, and nothing was written."""
