"""The text part as a mail reader keeps it: lines of at most 78 octets (RFC 5322 §2.1.1).

Japanese has no spaces to break at, and one character is three octets in UTF-8, so a long
line is cut after each sentence (「。」) first, then between phrases (BudouX, Google's phrase
segmenter: 「メールアドレスを」 stays whole) and, inside an overlong phrase, between
characters. A URL is never cut: it stands alone on its line, however long (998 octets at
most, which our links are far below).
"""

import re
from functools import cache

LIMIT = 78  # octets a line, not counting CRLF
URL = re.compile(r"https?://\S+")
INDENT = re.compile(r"[ \u3000]*")
SENTENCE_END = re.compile(r"(?<=[。！？])(?![」』）)])")  # not before a closing bracket


@cache
def _parser():
    import budoux  # here: only mail needs it (cold start of the page Lambda)

    return budoux.load_default_japanese_parser()


def octets(line: str) -> int:
    return len(line.encode("utf-8"))


def wrap(text: str, limit: int = LIMIT) -> str:
    """Every line of ``text`` cut to at most ``limit`` octets where its content allows."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(_wrap_line(line, limit))
    return "\n".join(lines)


def _wrap_line(line: str, limit: int) -> list[str]:
    if octets(line) <= limit:
        return [line]
    indent = INDENT.match(line).group()  # type: ignore[union-attr]  # matches every string
    out: list[str] = []
    start = 0
    for url in URL.finditer(line):  # a URL alone on its line, the words around it wrapped
        out.extend(_fill(line[start : url.start()], indent, limit))
        out.append(url.group())
        start = url.end()
    out.extend(_fill(line[start:], indent, limit))
    return out


def _fill(words: str, indent: str, limit: int) -> list[str]:
    """Each sentence from a line of its own, its phrases packed greedily."""
    lines: list[str] = []
    for sentence in SENTENCE_END.split(words):
        lines.extend(_pack(sentence, indent, limit))
    return lines


def _pack(words: str, indent: str, limit: int) -> list[str]:
    """Phrases packed greedily into lines, each line starting with ``indent``."""
    words = words.strip()
    if not words:
        return []
    room = limit - octets(indent)
    lines: list[str] = []
    current = ""
    for token in _tokens(words, room):
        if current and octets(current + token.rstrip()) > room:
            lines.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    if current.strip():
        lines.append(current.rstrip())
    return [indent + line for line in lines]


def _tokens(words: str, room: int) -> list[str]:
    """Where a line may break: between phrases, at spaces, and (inside a phrase longer
    than a line) between characters."""
    tokens: list[str] = []
    for phrase in _parser().parse(words):
        for token in re.findall(r"\s*\S+\s*|\s+", phrase):
            if octets(token.strip()) <= room:
                tokens.append(token)
            else:
                tokens.extend(token)
    return tokens
