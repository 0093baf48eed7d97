"""Roles, teams and colors of the duel game (RULES-DUEL §1)."""

from typing import Final

# Table order of RULES-DUEL §1; every list of roles this package prints follows it.
ROLES: Final = (
    "villager",
    "seer",
    "medium",
    "hunter",
    "mason",
    "cat",
    "werewolf",
    "madman",
    "fox",
)

WHITE: Final = "human"  # 白 (RULES-DUEL §1 color tokens)
BLACK: Final = "wolf"  # 黒
COLORS: Final = (WHITE, BLACK)

# Roles a CO request can name, in the order a request prints them (§9).
REQUEST_ORDER: Final = ("seer", "medium", "hunter", "gidra")
# Roles a GJ-CO order may add to its automatic request (§9).
GJ_CO_EXTRAS: Final = ("seer", "medium")


def color_of(role: str | None) -> str:
    """The judgment (§1): only a werewolf is black."""
    return BLACK if role == "werewolf" else WHITE


def is_human(role: str | None) -> bool:
    """A human for victory (§7): neither werewolf nor fox (the madman is one)."""
    return role is not None and role not in ("werewolf", "fox")


def request_sort(roles: list[str]) -> list[str]:
    return sorted(roles, key=REQUEST_ORDER.index)
