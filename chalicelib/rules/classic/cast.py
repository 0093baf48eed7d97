"""The cast of a classic village (RULES-CLASSIC §1): characters, roles, teams, the deck, dealing.

Characters are the players ``p1``…``pn`` in seat order, then the scapegoat ``npc``. Every listing
walks them in that order, so that a seed always gives the same game.
"""

import random
from collections import Counter
from collections.abc import Mapping
from enum import StrEnum

from .errors import SetupError, UnknownCharacterError

NPC = "npc"
MIN_PLAYERS = 4
MAX_PLAYERS = 16


class Role(StrEnum):
    VILLAGER = "villager"
    SEER = "seer"
    MEDIUM = "medium"
    HUNTER = "hunter"
    MASON = "mason"
    WEREWOLF = "werewolf"
    MADMAN = "madman"
    FOX = "fox"


class Team(StrEnum):
    VILLAGE = "village"
    WOLVES = "wolves"
    FOX = "fox"


class Judgment(StrEnum):
    WOLF = "wolf"
    HUMAN = "human"


ROLE_IDS: frozenset[str] = frozenset(str(role) for role in Role)

TEAM: dict[Role, Team] = {
    Role.VILLAGER: Team.VILLAGE,
    Role.SEER: Team.VILLAGE,
    Role.MEDIUM: Team.VILLAGE,
    Role.HUNTER: Team.VILLAGE,
    Role.MASON: Team.VILLAGE,
    Role.WEREWOLF: Team.WOLVES,
    Role.MADMAN: Team.WOLVES,
    Role.FOX: Team.FOX,
}

# The order of the deck table of §1: the public cast list is given in this order.
DECK_ORDER: tuple[Role, ...] = (
    Role.SEER,
    Role.MEDIUM,
    Role.HUNTER,
    Role.MASON,
    Role.WEREWOLF,
    Role.MADMAN,
    Role.FOX,
    Role.VILLAGER,
)

# Roles whose holders know each other at the start (§1).
PARTNER_ROLES: frozenset[Role] = frozenset({Role.WEREWOLF, Role.MASON})

# Cards the scapegoat may never hold (§1).
NOT_FOR_NPC: frozenset[Role] = frozenset({Role.WEREWOLF, Role.FOX, Role.SEER})


def judgment_of(role: Role) -> Judgment:
    """What the seer and the medium see: ``wolf`` for a werewolf only (madman and fox: human)."""
    return Judgment.WOLF if role is Role.WEREWOLF else Judgment.HUMAN


def players(n: int) -> tuple[str, ...]:
    """``p1``…``pn`` in seat order."""
    return tuple(f"p{i}" for i in range(1, n + 1))


def characters(n: int) -> tuple[str, ...]:
    """Every character in seat order: the players, then the scapegoat."""
    return (*players(n), NPC)


def check_players(n: object) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SetupError(f"プレイヤーは{MIN_PLAYERS}人から{MAX_PLAYERS}人までです")
    return n


def deck(n: int) -> dict[Role, int]:
    """The n + 1 cards for n players (§1), in deck-table order, roles with no card left out."""
    check_players(n)
    counts = {
        Role.SEER: 1,
        Role.MEDIUM: 1 if n >= 9 else 0,
        Role.HUNTER: 1 if n >= 10 else 0,
        Role.MASON: 2 if n >= 13 else 0,
        Role.WEREWOLF: 1 if n <= 8 else (2 if n <= 15 else 3),
        Role.MADMAN: 1 if n >= 9 else 0,
        Role.FOX: 1 if n >= 13 else 0,
    }
    counts[Role.VILLAGER] = n + 1 - sum(counts.values())
    return {role: count for role, count in counts.items() if count}


def deal(n: int, rng: random.Random, *, npc_villager: bool = False) -> dict[str, Role]:
    """Deals the deck (§1): the scapegoat's card first, then the other n cards to the players.

    Draws, in this order: the scapegoat's card (uniform among the allowed cards of the deck,
    cards listed in deck-table order), then one shuffle of the remaining cards dealt p1…pn.
    """
    cards = [role for role, count in deck(n).items() for _ in range(count)]
    allowed = [
        i
        for i, role in enumerate(cards)
        if (role is Role.VILLAGER if npc_villager else role not in NOT_FOR_NPC)
    ]
    npc_card = cards.pop(rng.choice(allowed))
    rng.shuffle(cards)
    dealt = dict(zip(players(n), cards, strict=True))
    dealt[NPC] = npc_card
    return dealt


def checked_roles(given: Mapping[str, object], n: int, *, npc_villager: bool) -> dict[str, Role]:
    """Roles given by the caller: every character once, the deck of §1 exactly, a legal npc card."""
    everyone = characters(n)
    for character in given:
        if character not in everyone:
            raise UnknownCharacterError(character)
    missing = [c for c in everyone if c not in given]
    if missing:
        raise SetupError(f"{missing[0]} の役職がありません。全員の役職を指定してください")
    roles: dict[str, Role] = {}
    for character in everyone:
        value = given[character]
        if not isinstance(value, str) or value not in ROLE_IDS:
            raise SetupError(f"「{value}」という役職はありません")
        roles[character] = Role(value)
    if Counter(roles.values()) != Counter(deck(n)):
        raise SetupError(f"{n}人村の配役と一致しません")
    if roles[NPC] in NOT_FOR_NPC:
        raise SetupError("身代わり君は人狼・妖狐・占い師にはなれません")
    if npc_villager and roles[NPC] is not Role.VILLAGER:
        raise SetupError("身代わり君は村人でなければなりません（欠けなしの村です）")
    return roles


def public_cast(roles: Mapping[str, Role]) -> dict[str, int]:
    """The public cast list (配役): each role's count in the deck, the scapegoat's card included."""
    counts = Counter(roles.values())
    return {str(role): counts[role] for role in DECK_ORDER if counts[role]}


def partners(roles: Mapping[str, Role]) -> dict[str, list[str]]:
    """Each werewolf and mason player's fellow holders of that role (the scapegoat included)."""
    return {
        character: [c for c, r in roles.items() if r is role and c != character]
        for character, role in roles.items()
        if role in PARTNER_ROLES and character != NPC
    }


class Cause(StrEnum):
    """How a character died."""

    SUDDEN = "sudden"  # 突然死: did not vote (§2.3.4.1)
    EXECUTION = "execution"  # 処刑 (§2.3.4.2)
    ATTACK = "attack"  # 襲撃 (§4.3)
    CURSE = "curse"  # 呪殺: the fox divined (§4.2)
