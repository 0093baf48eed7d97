"""Scenario runner: ``python -m chalicelib.scenario [--rules mobius|classic|duel]``.

Reads one JSON scenario per line on stdin and writes one JSON line per input
line on stdout, in order. The same input always gives the same output. Without
``--rules`` it plays Mobius (the contract of issue #2); the other rule sets'
runners live in their own packages (``chalicelib.rules.<name>.scenario``) and
follow their rule books' contracts.
"""

import argparse
import importlib
import json
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .rules.mobius import SLOTS, Choices, RuleError, UnknownSlotError, Village


def run(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Plays one scenario; a refused choice gives ``{"id": ..., "error": message}``."""
    try:
        return _play(scenario)
    except RuleError as error:
        return {"id": scenario.get("id"), "error": str(error)}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        return {"id": scenario.get("id"), "error": f"シナリオの形式が正しくありません: {error}"}


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
    declared_at = day.get("declared_at", "day")
    if declared_at not in ("day", "night"):
        raise ValueError(f"declared_at は day か night です: {declared_at}")
    return declared_at == "night"


RULE_SETS = ("mobius", "classic", "duel")


def runner(rules: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """The ``run`` function of a rule set's scenario runner."""
    if rules == "mobius":
        return run
    module = importlib.import_module(f"chalicelib.rules.{rules}.scenario")
    play: Callable[[Mapping[str, Any]], dict[str, Any]] = module.run
    return play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="シナリオランナー (JSON Lines)")
    parser.add_argument("--rules", choices=RULE_SETS, default="mobius")
    args = parser.parse_args(argv)
    play = runner(args.rules)
    # A rule set whose contract skips blank lines says so (RULES-DUEL §9); Mobius answers them.
    skip_blank = getattr(sys.modules.get(play.__module__), "SKIP_BLANK_LINES", False)
    for line in sys.stdin:
        if skip_blank and not line.strip():
            continue
        try:
            scenario = json.loads(line)
        except json.JSONDecodeError as error:
            # Even a blank line gets its answer: one output line per input line.
            out: dict[str, Any] = {"id": None, "error": f"JSON として読めません: {error.msg}"}
        else:
            if isinstance(scenario, dict):
                out = play(scenario)
            else:
                out = {"id": None, "error": "シナリオは JSON オブジェクトです"}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
