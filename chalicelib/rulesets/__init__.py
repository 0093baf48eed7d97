"""The one registry of rule sets: a village's ``rules`` name to the object owning its game.

Adding a game is adding a package here with an object implementing ``base.RuleSet`` and one
line in ``REGISTRY`` (README: "How to add a rule set"). Nothing else names a game.
"""

from .base import RuleSet
from .classic.ruleset import CLASSIC
from .mobius.ruleset import MOBIUS

DEFAULT = "mobius"  # villages stored before rule sets had names play Mobius

REGISTRY: dict[str, RuleSet] = {MOBIUS.name: MOBIUS, CLASSIC.name: CLASSIC}


def get(name: str | None) -> RuleSet:
    """The rule set of that name (a village without one: ``DEFAULT``)."""
    try:
        return REGISTRY[name or DEFAULT]
    except KeyError:
        raise ValueError(f"unknown rule set: {name}") from None


def labels() -> dict[str, str]:
    """Each rule set's name as the lounge shows it."""
    return {name: rules.label for name, rules in REGISTRY.items()}
