"""Reading members' posts by the names they write, and writing the computers' lines: what the
village games' computer players share (each game's own reading of claims is its own). Pure."""

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from random import Random

COMPUTER_MARK = "（CPU）"
# >>12 (post 12 of this board and day) and >>2:12 (day 2); full-width forms too, as Japanese
# phone keyboards type them. The board pages link them; a computer reads one to its own post
# as a word addressed to it.
ANCHOR = re.compile(r"(?:>>|＞＞|≫)(?:([0-9０-９]{1,3})[:：])?([0-9０-９]{1,4})")
# What makes a sentence that names someone a question to them (a mark, or a question's ending).
QUESTION_WORDS = (
    "?",
    "？",
    "ですか",
    "ますか",
    "でしょうか",
    "どう",
    "なぜ",
    "教えて",
    "聞かせて",
)


def core(name: str) -> str:
    """A name as people write it: without the computer's mark."""
    return name.replace(COMPUTER_MARK, "").strip()


def aliases(name: str) -> list[str]:
    """Every form a player calls a member by: the whole name without the computer's mark
    (「占い師B 権六」) and, for a name of several words, each word alone (the seat 「占い師B」,
    the character's given name 「権六」)."""
    whole = core(name)
    words = whole.split()
    return [whole, *words] if len(words) > 1 else [whole] if whole else []


def cores(names: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(seat, a name it is written by)`` for every form of each of ``names`` (seat ->
    public name), longest first: what ``named_in`` looks for."""
    named = [(seat, alias) for seat, name in names.items() for alias in aliases(name)]
    return sorted(named, key=lambda sc: -len(sc[1]))


def named_in(names: Sequence[tuple[str, str]], text: str) -> list[str]:
    """The seats a text names (``cores``: longest names first, so one name inside another
    is not read twice), each once, in the order they first appear."""
    found: dict[str, int] = {}
    rest = text
    for seat, name in names:
        if name not in rest:
            continue
        at = rest.index(name)
        found[seat] = min(at, found.get(seat, at))
        rest = rest.replace(name, "\0" * len(name))
    return sorted(found, key=found.__getitem__)


def without_names(names: Sequence[tuple[str, str]], text: str) -> str:
    """``text`` with every name blanked out: a word looked for in it is never part of a name."""
    for _, name in names:
        text = text.replace(name, "\0")
    return text


def anchors(text: str, day: int) -> set[int]:
    """The numbers of the posts of day ``day`` (on the same board) that ``text`` anchors."""
    found = set()
    for match in ANCHOR.finditer(text):
        on = match.group(1)
        if on is None or number(on) == day:
            found.add(number(match.group(2)))
    return found


def number(digits: str) -> int:
    """An anchor's digits, half- or full-width."""
    return int(unicodedata.normalize("NFKC", digits))


def addressed(
    names: Sequence[tuple[str, str]],
    seat: str,
    own: Iterable[int],
    text: str,
    day: int,
    words: Sequence[str] = QUESTION_WORDS,
) -> bool:
    """Whether ``text`` asks ``seat`` something: it names the seat by any of its forms
    (``cores``) or anchors one of its posts (``own``: their numbers on the board and day),
    with one of ``words`` (a question, or what a game counts as an accusation)."""
    plain = without_names(names, text)
    if not any(w in plain for w in words):
        return False
    return seat in named_in(names, text) or bool(anchors(text, day) & set(own))


# Asides a computer adds to a line when every phrasing of it is taken today.
ASIDES = (
    "よろしくお願いします。",
    "皆さんの考えも聞かせてください。",
    "また後で考えを書きます。",
    "気になることがあれば聞いてください。",
)


def fresh(rng: Random, lines: Sequence[str], said: Iterable[str]) -> str:
    """One of ``lines`` (the phrasings of what a computer means to say) none of whose lines
    anybody has said on the board today (``said``: the day's posts), drawn with the
    computer's own ``rng``; when every phrasing is taken, one with an aside, and at worst with
    a count, so that no two posts of the day say the same line."""
    taken = {line for text in said for line in (text, *text.split("\n"))}
    for choices in (lines, [f"{line}{aside}" for line in lines for aside in ASIDES]):
        unsaid = [text for text in choices if not taken & {text, *text.split("\n")}]
        if unsaid:
            return rng.choice(unsaid)
    line = rng.choice(list(lines))
    n = 2
    while f"{line}（{n}回目）" in taken:
        n += 1
    return f"{line}（{n}回目）"
