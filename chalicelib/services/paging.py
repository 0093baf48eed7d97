"""Opaque page cursors over DynamoDB's LastEvaluatedKey."""

import base64
import json
from collections.abc import Callable, Mapping

from .. import bounded
from .errors import InvalidInput

# Our cursors are a few hundred characters; a longer one could only name keys DynamoDB
# refuses (over 1,024 bytes) or nest JSON deep enough to exhaust the parser.
MAX_CURSOR = 1000


def encode_cursor(key: dict | None) -> str | None:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode() if key else None


def decode_cursor(cursor: str | None, expected: Mapping[str, Callable[[str], bool]]) -> dict | None:
    """The start key a cursor names, refused unless it is one of this query's keys.

    ``expected`` maps each key attribute of the query to a test of its (string) value, so
    that a crafted cursor, or one made for another board, day or state, is an invalid
    request rather than a query DynamoDB rejects.
    """
    if not cursor:
        return None
    if len(cursor) > MAX_CURSOR:
        raise InvalidInput("ページの指定が正しくありません")
    try:
        # A key is {name: {"S": text}}: two levels (nothing deeper is parsed).
        key = bounded.loads(base64.urlsafe_b64decode(cursor.encode()), MAX_CURSOR, 2)
    except (ValueError, UnicodeDecodeError):
        raise InvalidInput("ページの指定が正しくありません") from None
    if not isinstance(key, dict) or set(key) != set(expected):
        raise InvalidInput("ページの指定が正しくありません")
    for name, value in key.items():
        if not (
            isinstance(value, dict)
            and list(value) == ["S"]
            and isinstance(value["S"], str)
            and expected[name](value["S"])
        ):
            raise InvalidInput("ページの指定が正しくありません")
    return key
