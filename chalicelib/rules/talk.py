"""Reading members' posts by the names they write: what the village games' computer players
use to find whom a post names (each game's own reading of claims is its own). Pure."""

from collections.abc import Mapping, Sequence

COMPUTER_MARK = "（CPU）"


def core(name: str) -> str:
    """A name as people write it: without the computer's mark."""
    return name.replace(COMPUTER_MARK, "").strip()


def cores(names: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(seat, name as written)`` of ``names`` (seat -> public name), longest first: what
    ``named_in`` looks for."""
    named = [(seat, core(name)) for seat, name in names.items()]
    return sorted(((s, c) for s, c in named if c), key=lambda sc: -len(sc[1]))


def named_in(names: Sequence[tuple[str, str]], text: str) -> list[str]:
    """The seats a text names (``cores``: longest names first, so one name inside another
    is not read twice), in the order they appear."""
    found: list[tuple[int, str]] = []
    rest = text
    for seat, name in names:
        if name not in rest:
            continue
        found.append((rest.index(name), seat))
        rest = rest.replace(name, "\0" * len(name))
    return [seat for _, seat in sorted(found)]


def without_names(names: Sequence[tuple[str, str]], text: str) -> str:
    """``text`` with every name blanked out: a word looked for in it is never part of a name."""
    for _, name in names:
        text = text.replace(name, "\0")
    return text
