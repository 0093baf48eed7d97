"""The one registry of rule sets: a game's ``rules`` name to the object owning its game.

Adding a game is adding a package here with an object implementing ``base.RuleSet`` (a
village: seats, days, a scheduled update) or ``base.MatchRules`` (two sides playing move by
move), and one line in ``PLACES`` or ``MATCH_PLACES`` (README: "How to add a rule set").
Nothing else names a game.

A rule set's package is imported the first time a game of it is met, so a Lambda that
serves only Mobius villages never pays the classic engine's import at its cold start.
"""

from collections.abc import Mapping
from functools import cache
from importlib import import_module

from .base import MatchRules, Offer, RuleSet

DEFAULT = "mobius"  # villages stored before rule sets had names play Mobius

# name -> (module, the rule set object's name in it)
PLACES: dict[str, tuple[str, str]] = {
    "mobius": (f"{__name__}.mobius.ruleset", "MOBIUS"),
    "classic": (f"{__name__}.classic.ruleset", "CLASSIC"),
}
# Games played move by move: never villages, never in the lounge.
MATCH_PLACES: dict[str, tuple[str, str]] = {
    "duel": (f"{__name__}.duel.ruleset", "DUEL"),
}


@cache
def get(name: str | None) -> RuleSet:
    """The rule set of that name (a village without one: ``DEFAULT``)."""
    try:
        module, attribute = PLACES[name or DEFAULT]
    except KeyError:
        raise ValueError(f"unknown rule set: {name}") from None
    rules: RuleSet = getattr(import_module(module), attribute)
    return rules


@cache
def match_rules(name: str) -> MatchRules:
    """The rule set of a game played move by move."""
    try:
        module, attribute = MATCH_PLACES[name]
    except KeyError:
        raise ValueError(f"unknown rule set: {name}") from None
    rules: MatchRules = getattr(import_module(module), attribute)
    return rules


def next_update_words() -> dict[str, Mapping[str, str]]:
    """How the lounge names each rule set's next update, by village state."""
    return {name: get(name).next_update_words for name in PLACES}


def labels() -> dict[str, str]:
    """Each village rule set's name as the lounge shows it (imports every rule set)."""
    return {name: get(name).label for name in PLACES}


def offers() -> list[Offer]:
    """What the top page offers to play against the computer, game by game."""
    return [match_rules(name).offer() for name in MATCH_PLACES]
