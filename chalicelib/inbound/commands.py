"""Commands in the new text of a reply: one a line, ``<word> <target>`` or ``<word>:<target>``,
Japanese or English; nothing guessed. Pure.

The words for each choice and the names of each target come from the village's rule set and
its seats (``Vocabulary``); a target may also be written as undecided (なし, 未定, none)."""

import re
import unicodedata
from collections.abc import Iterable, Mapping

from msgspec import Struct

UNDECIDED = ("なし", "無し", "未定", "none", "undecided", "-")
MAX_LINES = 40  # lines read as commands: a reply is a few of them
# How mail shows a command (decision 161): 「例: 投票 ボブ」, 「・投票 ボブ」. Written so, the
# line is no command: a quote of the mail, recognised as one or not, plays nothing.
EXAMPLE = "例"
BULLET = "・"
AS_SHOWN = "メールの例の行のままです。「例:」や「・」を付けずに、行動と相手だけを書いてください"
# "<word><spaces or a colon><target>": after NFKC a full-width colon or space is ASCII.
_LINE = re.compile(r"(?P<word>[^\s:]+)\s*(?::|\s)\s*(?P<target>.+)")


def fold(text: str) -> str:
    """How words and names are compared: NFKC, case folded, without spaces or 「」."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\s「」『』\"']", "", text)


class Vocabulary(Struct, frozen=True):
    words: Mapping[str, Iterable[str]]  # choice key -> the words that name it
    names: Mapping[str, Iterable[str]]  # target (slot) -> the names it goes by

    def key(self, word: str) -> str | None:
        folded = fold(word)
        for key, words in self.words.items():
            if folded in {fold(key), *(fold(w) for w in words)}:
                return key
        return None

    def targets(self, name: str) -> list[str]:
        folded = fold(name)
        return [t for t, names in self.names.items() if folded in {fold(t), *map(fold, names)}]


class Line(Struct, frozen=True):
    text: str  # the line as written (NFKC)
    key: str | None = None  # the choice, when understood
    target: str | None = None  # None with a key: undecided
    problem: str | None = None  # why it was not understood


def read(text: str, vocabulary: Vocabulary) -> list[Line]:
    """Every non-blank line of the new text, each understood (a key and a target) or with the
    reason it was not; the same choice given twice is a problem on each line."""
    lines = [line.strip() for line in text.split("\n") if line.strip()][:MAX_LINES]
    read_lines = [_line(line, vocabulary) for line in lines]
    keys = [line.key for line in read_lines if line.key is not None]
    twice = {key for key in keys if keys.count(key) > 1}
    return [
        Line(line.text, problem="同じ行動が2回以上書かれています。1行にしてください")
        if line.key in twice
        else line
        for line in read_lines
    ]


def _line(line: str, vocabulary: Vocabulary) -> Line:
    match = _LINE.fullmatch(line)
    if match is None:
        return Line(line, problem="読み取れませんでした（「行動 相手」の形で書いてください）")
    key = vocabulary.key(match["word"])
    if key is None and (match["word"] == EXAMPLE or match["word"].startswith(BULLET)):
        return Line(line, problem=AS_SHOWN)
    if key is None:
        return Line(line, problem="その行動はわかりませんでした")
    target = match["target"].strip()
    if fold(target) in {fold(u) for u in UNDECIDED}:
        return Line(line, key=key, target=None)
    found = vocabulary.targets(target)
    if len(found) != 1:
        why = "その相手はわかりませんでした" if not found else "その名前の人が複数います"
        return Line(line, problem=why)
    return Line(line, key=key, target=found[0])


def line_for(word: str, name: str | None) -> str:
    """How a confirmation writes a choice, so that it reads back as the same command."""
    return f"{word} {name if name is not None else UNDECIDED[0]}"
