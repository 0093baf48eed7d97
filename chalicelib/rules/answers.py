"""What every game's scenario runner answers to one scenario: its result, or the error line of
a refusal or of a malformed scenario (``python -m chalicelib.scenario``). Pure."""

from collections.abc import Callable, Mapping
from typing import Any

# What a scenario that is not of the contract's shape raises on its way through a runner.
MALFORMED: tuple[type[Exception], ...] = (KeyError, TypeError, ValueError, AttributeError)


def answer(
    scenario: Mapping[str, Any],
    play: Callable[[Mapping[str, Any]], dict[str, Any]],
    refusal: type[Exception],
    malformed: tuple[type[Exception], ...] = MALFORMED,
) -> dict[str, Any]:
    """``play``'s answer to ``scenario``; a ``refusal`` of the rules gives
    ``{"id": ..., "error": its sentence}``, a malformed scenario the same with why."""
    try:
        return play(scenario)
    except refusal as error:
        return {"id": scenario.get("id"), "error": str(error)}
    except malformed as error:
        return {"id": scenario.get("id"), "error": f"シナリオの形式が正しくありません: {error}"}
