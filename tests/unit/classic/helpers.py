"""Shared helpers of the classic tests: villages built from a one-line deck spec."""

import random
import re
from collections.abc import Mapping

from chalicelib.rules.classic import NightChoices, Options, Village

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")

# Seat order p1…pn, then the scapegoat last.
N4 = "seer werewolf villager villager villager"
N9 = "seer medium werewolf werewolf madman villager villager villager villager villager"
N10 = "seer medium hunter werewolf werewolf madman villager villager villager villager villager"
N13 = (
    "seer medium hunter mason mason werewolf werewolf madman fox"
    " villager villager villager villager villager"
)


def make(spec: str, *, seed: int = 0, pace: str = "short", **options: object) -> Village:
    """A started village: ``spec`` lists p1…pn's roles, then the scapegoat's."""
    *cards, npc = spec.split()
    roles = {f"p{i}": role for i, role in enumerate(cards, 1)} | {"npc": npc}
    return Village.create(len(cards), random.Random(seed), Options.create(pace, **options), roles)


def choices(**by_actor: Mapping[str, str]) -> dict[str, NightChoices]:
    """Saved night choices, in the order given (the save order)."""
    return {actor: NightChoices(**dict(made)) for actor, made in by_actor.items()}


def night(village: Village, seed: int = 0, **by_actor: Mapping[str, str]):
    """Resolves the current night with the given choices."""
    return village.resolve_night(choices(**by_actor), random.Random(seed))


def everyone_votes(village: Village, target: str, **exceptions: str) -> dict[str, str]:
    """Every voter votes ``target`` (``target`` itself votes for the first other voter)."""
    voters = village.voters()
    votes = {}
    for voter in voters:
        if voter in exceptions:
            votes[voter] = exceptions[voter]
        elif voter == target:
            votes[voter] = next(v for v in voters if v != target)
        else:
            votes[voter] = target
    return votes


def close(village: Village, votes: Mapping[str, str], seed: int = 0):
    return village.close_round(votes, random.Random(seed))
