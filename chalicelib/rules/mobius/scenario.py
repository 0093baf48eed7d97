"""Scenario runner of the Mobius rules: ``python -m chalicelib.scenario`` (issue #2's contract).

Each JSON line's scenario is handed to :func:`run`; the same scenario always gives the same answer.
"""

import random
from collections.abc import Mapping
from typing import Any

from ..answers import answer
from . import SLOTS, Choices, RuleError, UnknownSlotError, Village


def run(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Plays one scenario; a refused choice gives ``{"id": ..., "error": message}``."""
    return answer(scenario, _play, RuleError)


def _play(scenario: Mapping[str, Any]) -> dict[str, Any]:
    rng = random.Random(scenario.get("seed", 0))
    village = Village.create(rng, scenario.get("sides"))
    random_divination = village.random_divination()
    village.start(dead=scenario.get("dead", ()))
    vacant = set(scenario.get("vacant", ()))
    for slot in vacant:
        if slot not in SLOTS:
            raise UnknownSlotError(slot)
    empathy = village.empathy()
    for day in scenario.get("days", ()):
        choices = {}
        for slot, data in day.get("actions", {}).items():
            made = Choices.from_dict(data)
            if slot in vacant:
                continue  # a vacant slot has every choice undecided
            village.validate(slot, made)
            choices[slot] = made
        command = village.command(choices)
        if command is not None:
            village.end_by_command(command, at_night=_at_night(day))
        else:
            village.resolve_night(choices, rng)
        if village.ending is not None:
            break
    return {
        "id": scenario.get("id"),
        "sides": {slot: str(side) for slot, side in village.sides.items()},
        "random_divination": {
            seer: {"target": r.target, "result": r.verdict} for seer, r in random_divination.items()
        },
        "empathy": {empath: r.verdict for empath, r in empathy.items()},
        "mornings": [morning.to_json() for morning in village.mornings],
        "ending": village.ending.to_json() if village.ending else None,
    }


def _at_night(day: Mapping[str, Any]) -> bool:
    declared_at: str = day.get("declared_at", "day")
    if declared_at not in ("day", "night"):
        raise ValueError(f"declared_at は day か night です: {declared_at}")
    return declared_at == "night"
