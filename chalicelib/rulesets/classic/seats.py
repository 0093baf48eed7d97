"""Storage seats and engine characters of a classic village. Pure.

The platform keeps one member item per seat, ``s1``…``s16``, created with the village; members
take any free seat and the prologue keeps their join order. At the start the engine numbers the
players ``p1``…``pn`` in that order (RULES-CLASSIC §1), so ``ClassicGame.seats`` maps each
character to its seat; the scapegoat's seat is ``npc`` (no member item). Everything the
platform sees (saved choices, their targets, names, forms) is keyed by seat; everything the
engine sees, by character: this module translates.
"""

from collections.abc import Mapping

from ...rules.classic import NPC, NightChoices
from .game import ClassicGame

SEATS: tuple[str, ...] = tuple(f"s{i}" for i in range(1, 17))
NPC_NAME = "身代わり君"


def character(game: ClassicGame, seat: str | None) -> str | None:
    """The character a seat plays (None before the start, or for a seat not dealt in)."""
    if seat is None:
        return None
    if seat == NPC:
        return NPC if game.village is not None else None
    return next((c for c, s in game.seats.items() if s == seat), None)


def seat(game: ClassicGame, character_: str) -> str | None:
    """The seat of a character; the scapegoat's is ``npc`` (no member item)."""
    return NPC if character_ == NPC else game.seats.get(character_)


def order(game: ClassicGame) -> list[str]:
    """Every seat in the order pages list them: the players (join order before the start,
    seat order after it), then the seats nobody plays."""
    if game.village is not None:
        played = [game.seats[c] for c in game.village.players]
    else:
        played = list(game.prologue.members)
    return played + [s for s in SEATS if s not in played]


def names(game: ClassicGame, seat_names: Mapping[str, str]) -> dict[str, str]:
    """Every seat's name, the scapegoat's (seat ``npc``) included once the game has begun."""
    named = dict(seat_names)
    if game.village is not None:
        named[NPC] = NPC_NAME
    return named


def votes(game: ClassicGame, saved: Mapping[str, Mapping[str, str]], key: str) -> dict[str, str]:
    """The open round's votes by character, from the saved choices by seat."""
    out = {}
    for seat_, data in saved.items():
        voter = character(game, seat_)
        target = data.get(key)
        if voter is not None and target is not None:
            out[voter] = character(game, target) or target
    return out


# When a member's attack was last saved (RULES-CLASSIC §3 counts the most recent), kept beside
# it in the member's saved choices: the member's save time also moves with a vote.
ATTACK_AT = "attack_at"


def night_choices(
    game: ClassicGame,
    saved: Mapping[str, Mapping[str, str]],
    saved_at: Mapping[str, str],
) -> dict[str, NightChoices]:
    """Tonight's choices by character, in the order their attacks were last saved (most recent
    last; a choice saved before ``ATTACK_AT`` was kept goes by the member's last save)."""
    keys = ("attack", "divine", "guard")
    ordered = sorted(saved, key=lambda s: saved[s].get(ATTACK_AT) or saved_at.get(s, ""))
    out = {}
    for seat_ in ordered:
        actor = character(game, seat_)
        made = {k: character(game, v) or v for k, v in saved[seat_].items() if k in keys}
        if actor is not None and made:
            out[actor] = NightChoices.from_dict(made)
    return out


def character_names(game: ClassicGame, seat_names: Mapping[str, str]) -> dict[str, str]:
    """Every character's name, by character (the engine's reports)."""
    named = {c: seat_names.get(s, s) for c, s in game.seats.items()}
    named[NPC] = NPC_NAME
    return named
