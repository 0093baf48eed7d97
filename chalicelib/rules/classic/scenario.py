"""Scenario runner for classic villages: ``python -m chalicelib.scenario --rules classic``.

One scenario in, one answer out (the contract of issue #12). A scenario plays night 1, then for
each later day its vote rounds and its night. Any choice or vote that is invalid when made makes
the whole answer ``{"id": ..., "error": "<Japanese sentence>"}``. The same input always gives the
same output: the only randomness is ``random.Random(seed)``, drawn in this order: the deal (when
``roles`` is absent), then, as the game goes, each night's defaults (§3) and each ``random`` tie.
"""

import random
from collections.abc import Mapping
from typing import Any

from ..answers import answer
from .abilities import Ability, NightChoices, refusal
from .cast import NPC, check_players, partners, public_cast
from .errors import ChoiceError, RuleError, SetupError, UnknownCharacterError, VoteError
from .night import Morning
from .options import Options
from .village import Village

TOP_KEYS = ("id", "seed", "players", "roles", "options", "turns")
REQUIRED_KEYS = ("id", "players", "turns")
OPTION_KEYS = ("tie", "npc_villager")


class ScenarioError(RuleError):
    """The scenario itself is malformed (not a refusal of the rules)."""


def run(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Plays one scenario; a refused or malformed one gives ``{"id": ..., "error": message}``."""
    return answer(scenario, _play, RuleError)


def _play(scenario: Mapping[str, Any]) -> dict[str, Any]:
    for key in scenario:
        if key not in TOP_KEYS:
            raise ScenarioError(f"「{key}」という項目はありません")
    for key in REQUIRED_KEYS:
        if key not in scenario:
            raise ScenarioError(f"「{key}」がありません")
    seed = scenario.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError("seed は整数です")
    n = check_players(scenario["players"])
    options = _options(scenario.get("options", {}))
    roles = scenario.get("roles")
    if "roles" in scenario and not isinstance(roles, Mapping):
        raise ScenarioError("roles はキャラクターから役職へのオブジェクトです")
    turns = scenario["turns"]
    if not isinstance(turns, list):
        raise ScenarioError("turns は配列です")

    rng = random.Random(seed)
    village = Village.create(n, rng, options, roles)
    played: list[dict[str, Any]] = []
    stopped = False
    for index, turn in enumerate(turns):
        if village.ending is not None:
            break
        if not isinstance(turn, Mapping):
            raise ScenarioError("turns の各要素はオブジェクトです")
        out, stopped = _turn(village, index, turn, rng)
        played.append(out)
        if stopped:
            break
    answer: dict[str, Any] = {
        "id": scenario["id"],
        "roles": {c: str(r) for c, r in village.roles.items()},
        "cast": public_cast(village.roles),
        "partners": partners(village.roles),
        "turns": played,
        "ending": village.ending.to_json() if village.ending else None,
    }
    if stopped:
        answer["stopped"] = True
    return answer


def _options(given: object) -> Options:
    if not isinstance(given, Mapping):
        raise ScenarioError("options はオブジェクトです")
    for key in given:
        if key not in OPTION_KEYS:
            raise SetupError(f"「{key}」という村の設定はありません")
    return Options.create("short", **dict(given))


def _turn(
    village: Village, index: int, turn: Mapping[str, Any], rng: random.Random
) -> tuple[dict[str, Any], bool]:
    """Plays ``turns[index]``: day ``index + 1``'s rounds (none on day 1), then its night."""
    allowed = ("night",) if index == 0 else ("rounds", "night")
    for key in turn:
        if key == "rounds" and index == 0:
            raise ScenarioError("1日目には投票がありません（turns[0] は night だけです）")
        if key not in allowed:
            raise ScenarioError(f"「{key}」という項目はありません")
    dawn = village.alive  # night choices may be set from the start of the day (§2.4)
    rounds = turn.get("rounds", [])
    if not isinstance(rounds, list):
        raise ScenarioError("rounds は配列です")
    out: dict[str, Any] = {"day": village.day, "rounds": [], "executed": None}
    deaths: dict[str, str] = {}
    stopped = False
    if village.voting:
        remaining = iter(rounds)
        while village.voting:
            votes = next(remaining, None)
            if votes is None:
                stopped = True
                break
            for result in village.close_round(_votes(village, votes), rng):
                out["rounds"].append(
                    {
                        "round": result.round,
                        "votes": dict(result.votes),
                        "sudden": list(result.sudden),
                        "outcome": str(result.outcome),
                    }
                )
                deaths.update(dict.fromkeys(result.sudden, "sudden"))
                if result.executed is not None:
                    out["executed"] = result.executed
                    deaths[result.executed] = "execution"
    morning: Morning | None = None
    if not stopped and village.ending is None:
        saved = _night(village, turn.get("night", {}), dawn)
        morning = village.resolve_night(saved, rng)
        deaths.update({c: str(cause) for c, cause in morning.deaths.items()})
    out["night"] = (
        {
            "attack": morning.attack,
            "divination": morning.divination.to_json() if morning.divination else None,
            "guard": morning.guard,
            "gj": morning.gj,
        }
        if morning
        else None
    )
    out["deaths"] = deaths
    out["news"] = {p: news.to_json() for p, news in morning.news.items()} if morning else {}
    if morning:
        out["found_dead"] = list(morning.found_dead)
    return out, stopped


def _votes(village: Village, votes: object) -> dict[str, str]:
    """One round's votes, each checked as it was cast (§2.3)."""
    if not isinstance(votes, Mapping):
        raise ScenarioError("rounds の各要素は投票者から投票先へのオブジェクトです")
    checked: dict[str, str] = {}
    for voter, target in votes.items():
        if not isinstance(target, str):
            raise VoteError(f"{voter} の投票先が正しくありません")
        village.validate_vote(voter, target)
        checked[voter] = target
    return checked


def _night(village: Village, night: object, dawn: frozenset[str]) -> dict[str, NightChoices]:
    """The night's choices in save order, each checked as made: with who was alive at dawn.

    A choice whose actor or target died during the day is kept: it is not an error, it only does
    not count when the night closes (§2.4).
    """
    if not isinstance(night, Mapping):
        raise ScenarioError("night は行動者から行動へのオブジェクトです")
    saved: dict[str, NightChoices] = {}
    for actor, data in night.items():
        if actor not in village.roles:
            raise UnknownCharacterError(actor)
        if actor == NPC:
            raise ChoiceError("身代わり君は行動しません")
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{actor} の行動はオブジェクトです")
        choices = NightChoices.from_dict(data)
        for ability in Ability:
            target = choices.get(ability)
            if target is None:
                continue
            error = refusal(
                actor, ability, target, roles=village.roles, alive=dawn, night=village.day
            )
            if error is not None:
                raise error
        saved[actor] = choices
    return saved
