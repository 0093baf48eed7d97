"""Opaque page cursors over DynamoDB's LastEvaluatedKey."""

import base64
import json

from .errors import InvalidInput


def encode_cursor(key: dict | None) -> str | None:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode() if key else None


def decode_cursor(cursor: str | None) -> dict | None:
    if not cursor:
        return None
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, UnicodeDecodeError):
        raise InvalidInput("ページの指定が正しくありません") from None
    if not isinstance(key, dict):
        raise InvalidInput("ページの指定が正しくありません")
    return key
