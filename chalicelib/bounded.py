"""JSON from outside, bounded before it is parsed: its length and its nesting.

Python's ``json`` parses nested arrays and objects by recursion, so a few thousand ``[`` in
a small body raise ``RecursionError`` (not ``ValueError``) and cost a deep stack first. A
text longer than ``max_chars`` or nested deeper than ``max_depth`` is refused as any
malformed JSON is, with ``ValueError``, before ``json`` sees it.
"""

import json
from typing import Any


def loads(text: str | bytes, max_chars: int, max_depth: int) -> Any:
    """``json.loads`` of ``text`` if it is at most ``max_chars`` long and its arrays and
    objects nest at most ``max_depth`` deep; ``ValueError`` otherwise."""
    if len(text) > max_chars:
        raise ValueError("JSON too long")
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if _depth(text) > max_depth:
        raise ValueError("JSON nested too deep")
    return json.loads(text)


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a malformed text is left to json)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
