"""Opaque page cursors over DynamoDB's LastEvaluatedKey."""

import base64
import json
from collections.abc import Callable, Mapping

from .errors import InvalidInput


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
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
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
