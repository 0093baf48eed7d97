"""Claims and their reports, late reports included (RULES-DUEL §5).

A claim on day d reports at once everything its role would have reported since
the start: the real holders their true results, the fox and the madman drawn
results under the §5 constraints, a werewolf what B supplies.
"""

from collections.abc import Mapping
from typing import Any

from .draws import Draws
from .errors import MoveError
from .roles import BLACK, COLORS, WHITE, color_of
from .state import Duel

# The keys a B claim entry may have, by claimed role (§9).
REPORT_KEYS = {"seer": ("oracle", "nights"), "medium": ("results",), "hunter": ("guards",)}


def fixed_color(
    duel: Duel, divined: Mapping[int, str], target: int, attacked: int | None
) -> str | None:
    """The §5 constraints on a madman's or fox's result, or None when the color is free."""
    if target in divined:
        return divined[target]
    if target == attacked:
        return WHITE
    if duel.cards[target] == "mason":
        return WHITE
    return None


def divined_by(claim: Mapping[str, Any]) -> dict[int, str]:
    """Cards a seer claimer has reported so far, with their colors."""
    seen: dict[int, str] = {}
    oracle = claim.get("oracle")
    if oracle:
        seen[oracle["target"]] = oracle["result"]
    for item in claim.get("nights", []):
        seen[item["target"]] = item["result"]
    return seen


def attack_of(duel: Duel, night: int) -> int | None:
    return duel.nights[night - 1]["attack"] if night <= len(duel.nights) else None


def guard_order(duel: Duel, night: int, card: int) -> tuple[list[int], list[int]] | None:
    """A's guard order to ``card`` on ``night``: candidates and weights, or None."""
    if night > len(duel.orders):
        return None
    for entry in duel.orders[night - 1]["guard"]:
        if entry["card"] == card:
            return list(entry["to"]), list(entry["weights"])
    return None


def fox_first_day(duel: Duel, draws: Draws) -> dict[str, Any]:
    """The fox's first-day result, drawn once when first needed (§9): target, then color."""
    if duel.fox_oracle is None:
        fox = duel.card_of("fox")
        assert fox is not None
        target = draws.card("fox", [c for c in range(1, duel.board + 1) if c != fox])
        color = fixed_color(duel, {}, target, None)
        if color is None:
            color = (
                WHITE
                if duel.rules.first_day == "white"
                else draws.color("fox", duel.rules.fox_black)
            )
        duel.fox_oracle = {"target": target, "result": color}
    return dict(duel.fox_oracle)


def madman_first_day(duel: Duel, card: int, color: str, draws: Draws) -> dict[str, Any]:
    target = draws.card("madman", [c for c in range(1, duel.board + 1) if c != card])
    return {"target": target, "result": WHITE if duel.cards[target] == "mason" else color}


def real_claim(duel: Duel, card: int, role: str) -> dict[str, Any]:
    """A real holder's claim with its true reports."""
    claim: dict[str, Any] = {"card": card, "role": role}
    if role == "seer":
        assert duel.oracle is not None
        claim["oracle"] = dict(duel.oracle)
        claim["nights"] = [
            {"night": n, "target": r["seer"], "result": color_of(duel.cards[r["seer"]])}
            for n, r in enumerate(duel.nights, start=1)
        ]
    elif role == "medium":
        claim["results"] = medium_results(duel, lambda e: color_of(duel.cards[e]))
    elif role == "hunter":
        claim["guards"] = [{"night": n, "target": r["guard"]} for n, r in enumerate(duel.nights, 1)]
    return claim


def medium_results(duel: Duel, color: Any) -> list[dict[str, Any]]:
    return [
        {"day": e["day"], "target": e["card"], "result": color(e["card"])} for e in duel.executions
    ]


def fox_claim(duel: Duel, card: int, role: str, draws: Draws) -> dict[str, Any]:
    """The fox's claim: targets drawn like the madman's, colors by §5 or with p."""
    claim: dict[str, Any] = {"card": card, "role": role}
    p = duel.rules.fox_black
    if role == "seer":
        claim["oracle"] = fox_first_day(duel, draws)
        claim["nights"] = []
        for n in range(1, duel.day):
            seen = divined_by(claim)
            target = draws.card("fox", [c for c in duel.nights_alive[n - 1] if c != card])
            color = fixed_color(duel, seen, target, attack_of(duel, n))
            if color is None:
                color = draws.color("fox", p)
            claim["nights"].append({"night": n, "target": target, "result": color})
    elif role == "medium":
        claim["results"] = medium_results(
            duel, lambda e: WHITE if duel.cards[e] == "mason" else draws.color("fox", p)
        )
    return claim


def check_keys(entry: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in entry:
        if key not in allowed:
            raise MoveError(f"この答えに「{key}」は書けません")


def _color(value: Any, what: str) -> str:
    if value not in COLORS:
        raise MoveError(f"{what}の結果は human(白)か wolf(黒)で指定してください")
    return str(value)


def _list(entry: Mapping[str, Any], key: str, length: int, what: str) -> list[Any]:
    value = entry.get(key, [])
    if not isinstance(value, list):
        raise MoveError(f"{key} はリストで指定してください")
    if len(value) != length:
        raise MoveError(f"{what}は{length}件必要です({len(value)}件あります)")
    return value


def madman_claim(
    duel: Duel, card: int, role: str, entry: Mapping[str, Any], draws: Draws, black_only: bool
) -> dict[str, Any]:
    """The madman's claim: B's colors (already checked), drawn targets, §5 constraints."""
    claim: dict[str, Any] = {"card": card, "role": role}
    if role == "seer":
        claim["oracle"] = madman_first_day(duel, card, str(entry["oracle"]), draws)
        colors = entry.get("nights", [])
        claim["nights"] = []
        for n in range(1, duel.day):
            target = draws.card("madman", [c for c in duel.nights_alive[n - 1] if c != card])
            color = fixed_color(duel, divined_by(claim), target, attack_of(duel, n))
            claim["nights"].append({"night": n, "target": target, "result": color or colors[n - 1]})
    elif role == "medium":
        colors = entry.get("results", [])
        claim["results"] = [
            {
                "day": e["day"],
                "target": e["card"],
                "result": WHITE if duel.cards[e["card"]] == "mason" else colors[i],
            }
            for i, e in enumerate(duel.executions)
        ]
    elif role == "hunter":
        claim["guards"] = madman_guards(duel, card, draws)
    return claim


def madman_guards(duel: Duel, card: int, draws: Draws) -> list[dict[str, Any]]:
    """A drawn hunter history, one per night in night order; by A's order where it had one."""
    guards = []
    for n in range(1, duel.day):
        order = guard_order(duel, n, card)
        if order is not None:
            target = draws.card("madman", *order)
        else:
            target = draws.card("madman", [c for c in duel.nights_alive[n - 1] if c != card])
        guards.append({"night": n, "target": target})
    return guards


def check_madman_entry(duel: Duel, role: str, entry: Mapping[str, Any], black_only: bool) -> None:
    """B's colors for a madman claim (§5): colors only, no targets."""
    check_keys(
        entry,
        ("card", "role", *REPORT_KEYS.get(role, ())) if role != "hunter" else ("card", "role"),
    )
    if role == "seer":
        if "oracle" not in entry:
            raise MoveError("占い師の騙りには初日の結果(oracle)が必要です")
        color = _color(entry["oracle"], "初日の占い")
        if black_only and color != BLACK:
            raise MoveError("黒引き占い師のみのCO要請では、初日の結果は黒です")
        if duel.rules.first_day == "white" and color != WHITE:
            raise MoveError("初日白の配役では、初日の占い結果は白だけです")
        for c in _list(entry, "nights", duel.day - 1, "夜の占い結果"):
            _color(c, "夜の占い")
    elif role == "medium":
        for c in _list(entry, "results", len(duel.executions), "霊能結果"):
            _color(c, "霊能")


def _board_card(duel: Duel, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= duel.board:
        raise MoveError(f"{value} は盤面のカードではありません")
    return value


def wolf_claim(
    duel: Duel, card: int, role: str, entry: Mapping[str, Any], black_only: bool
) -> dict[str, Any]:
    """A werewolf's claim: every report supplied by B, checked against §5."""
    check_keys(entry, ("card", "role", *REPORT_KEYS.get(role, ())))
    claim: dict[str, Any] = {"card": card, "role": role}
    if role == "seer":
        oracle = entry.get("oracle")
        if not isinstance(oracle, Mapping) or set(oracle) != {"target", "result"}:
            raise MoveError("占い師の騙りには初日の結果 oracle {target, result} が必要です")
        target = _board_card(duel, oracle["target"])
        if target == card:
            raise MoveError("初日の占い先は自分以外のカードです")
        color = _color(oracle["result"], "初日の占い")
        if black_only and color != BLACK:
            raise MoveError("黒引き占い師のみのCO要請では、初日の結果は黒です")
        if duel.rules.first_day == "white" and color != WHITE:
            raise MoveError("初日白の配役では、初日の占い結果は白だけです")
        claim["oracle"] = {"target": target, "result": color}
        claim["nights"] = []
        for n, item in enumerate(_list(entry, "nights", duel.day - 1, "夜の占い結果"), start=1):
            if not isinstance(item, Mapping) or set(item) != {"target", "result"}:
                raise MoveError("夜の占い結果は {target, result} で指定してください")
            target = _night_target(duel, n, item["target"], card)
            color = _color(item["result"], "夜の占い")
            claim["nights"].append({"night": n, "target": target, "result": color})
    elif role == "medium":
        colors = _list(entry, "results", len(duel.executions), "霊能結果")
        claim["results"] = [
            {"day": e["day"], "target": e["card"], "result": _color(colors[i], "霊能")}
            for i, e in enumerate(duel.executions)
        ]
    elif role == "hunter":
        claim["guards"] = wolf_guards(duel, card, entry)
    return claim


def wolf_guards(duel: Duel, card: int, entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    guards = []
    for n, value in enumerate(_list(entry, "guards", duel.day - 1, "護衛先"), start=1):
        target = _night_target(duel, n, value, card)
        order = guard_order(duel, n, card)
        if order is not None and target not in order[0]:
            raise MoveError(f"{n}夜目の護衛先は、その夜の指示の候補から選んでください")
        guards.append({"night": n, "target": target})
    return guards


def _night_target(duel: Duel, night: int, value: Any, card: int) -> int:
    target = _board_card(duel, value)
    if target == card or target not in duel.nights_alive[night - 1]:
        raise MoveError(f"{night}夜目の対象は、その夜に生きていた自分以外のカードです")
    return target
