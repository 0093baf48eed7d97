"""今日の盤面パズル as the platform shows it: the duel's position as A sees it, the cards to
execute, and the answer's explanation in the rule book's Japanese.

The engine (``rules/duel/puzzle.py``) generates and judges the position; this module only
reads A's view of it (RULES-DUEL §8, the engine's ``view``), never the true cards, so a
page or a mail made from it cannot show what A may not see.
"""

import random
from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel.puzzle import LOSS, NoPuzzle, Puzzle, Verdict, World, generate

from . import labels
from .ruleset import _board, _log, _rules_line

TITLE = "今日の盤面パズル"
QUESTION = "A(村人陣営)の処刑の場面です。このあとも最善を尽くせば A が必ず勝てる処刑はどれでしょう?"
SHOWN_WORLDS = 6  # the explanation lists at most this many placements


class DuelPuzzle:
    title = TITLE
    question = QUESTION
    page_template = "puzzle.html"

    def generate(self, rng: random.Random) -> dict[str, Any] | None:
        """The JSON of the puzzle the RNG leads to (pure; the seconds it takes: `make bench`),
        or None when its games held none (never seen in the days tested)."""
        try:
            return generate(rng).to_json()
        except NoPuzzle:
            return None

    def parse(self, data: Mapping[str, Any]) -> Puzzle:
        return Puzzle.from_json(data)

    def choices(self, puzzle: Puzzle) -> list[int]:
        """The cards A may execute: every living card."""
        return [v.card for v in puzzle.verdicts]

    def chosen(self, puzzle: Puzzle, value: str) -> int:
        """The card a form names; a ``ValueError`` with the person's sentence otherwise."""
        text = value.strip().removeprefix("#")
        if not text.isdecimal() or len(text) > 3:
            raise ValueError("処刑するカードを選んでください")
        card = int(text)
        if card not in self.choices(puzzle):
            raise ValueError(f"#{card} は処刑できるカード（生きているカード）ではありません")
        return card

    def correct(self, puzzle: Puzzle, card: int) -> bool:
        return card == puzzle.answer

    def page(self, puzzle: Puzzle) -> dict[str, Any]:
        """The position as A sees it, for the page and the mail."""
        seen = puzzle.a_view()
        return {
            "seen": seen,
            "day": seen["day"],
            "board": _board(seen, "A"),
            "columns": 4 if seen["board"] >= 16 else 3,
            "log": _log(seen),
            "rules_line": _rules_line(seen),
            "choices": self.choices(puzzle),
            "L": labels,
        }

    def explanation(self, puzzle: Puzzle) -> dict[str, Any]:
        """Why the answer wins (its line of best play) and what each other execution loses to,
        from what A could know (decision 80)."""
        seen = puzzle.a_view()
        worlds = puzzle.worlds
        shown = "、".join(_world_text(w) for w in worlds[:SHOWN_WORLDS])
        more = f"、ほか {len(worlds) - SHOWN_WORLDS} 通り" if len(worlds) > SHOWN_WORLDS else ""
        why = [
            f"正解は #{puzzle.answer} の処刑です。",
            "公開された CO・お告げと占い・霊能の結果、処刑と襲撃で死んだカード"
            + ("、見えている共有者" if seen.get("masons") else "")
            + f"と矛盾しない人狼・妖狐の配置は {len(worlds)} 通りあります({shown}{more})。",
            "どの配置でも、人狼がどこを襲撃しても、次のように処刑を続ければ村人陣営が勝ちます"
            "(夜に死んだカードを見て次の処刑を選びます)。",
        ]
        others = [
            (verdict.card, _loss_text(verdict, set(seen["alive"])))
            for verdict in puzzle.verdicts
            if verdict.result == LOSS and verdict.world is not None
        ]
        return {
            "answer": puzzle.answer,
            "why": why,
            "line": _line_text(puzzle.line, seen["day"]),
            "others": others,
        }


def _line_text(line: Mapping[str, Any], day: int) -> list[dict[str, Any]]:
    """A's winning strategy as nested steps (``text``, ``children``): an execution, under it
    each group of nights that lead to the same next day, and under each that day's line."""
    card = line["execute"]
    if not line["nights"]:
        text = f"{day}日目に #{card} を処刑すれば、人狼がいなくなり村人陣営の勝ちです。"
        return [{"text": text, "children": []}]
    groups: list[tuple[list[list[int]], Mapping[str, Any]]] = []
    for night in line["nights"]:
        for deaths, then in groups:
            if then == night["then"]:
                deaths.append(night["dead"])
                break
        else:
            groups.append(([night["dead"]], night["then"]))
    nights = [
        {"text": f"その夜、{_deaths_text(deaths)}なら:", "children": _line_text(then, day + 1)}
        for deaths, then in groups
    ]
    text = f"{day}日目に #{card} を処刑します(ここでは勝負がつきません)。"
    return [{"text": text, "children": nights}]


def _deaths_text(deaths: list[list[int]]) -> str:
    """「誰も死ななかった」「#2・#3 のどれかが死んだ」「#4 と #9 が死んだ」, joined by 「か、」."""
    singles = [dead[0] for dead in deaths if len(dead) == 1]
    parts = ["誰も死ななかった"] if [] in deaths else []
    if len(singles) == 1:
        parts.append(f"#{singles[0]} が死んだ")
    elif singles:
        parts.append("・".join(f"#{c}" for c in singles) + " のどれかが死んだ")
    parts += [" と ".join(f"#{c}" for c in dead) + " が死んだ" for dead in deaths if len(dead) > 1]
    return "か、".join(parts)


def _loss_text(verdict: Verdict, alive: set[int]) -> str:
    """One world where executing the card loses, and how (decision 87)."""
    assert verdict.world is not None
    left = alive - {verdict.card}
    wolves = len(left & set(verdict.world.wolves))
    fox = verdict.world.fox in left
    humans = len(left) - wolves - fox
    where = f"#{verdict.card} を処刑すると、{_world_text(verdict.world)} の配置では、"
    if verdict.at == "execution" and wolves == 0:
        return where + "人狼がいなくなりますが妖狐が生き残り、妖狐の勝ちです。"
    if verdict.at == "execution":
        winner = labels.WINNER_LABELS[verdict.winner or "wolves"]
        return where + f"生きている人狼 {wolves} 枚が人間 {humans} 枚に並び、{winner}です。"
    count = f"人狼 {wolves} 枚・人間 {humans} 枚" + ("(ほかに妖狐)" if fox else "")
    winner = "妖狐の勝ち(妖狐が呪殺されても人狼陣営の勝ち)" if fox else "人狼陣営の勝ち"
    return (
        where + f"{count}で夜になります。人狼が狩人を襲撃すると(狩人は自分を護衛できません。"
        "狩人がもういなければ、どの人間でも)必ず人間が 1 枚減り、翌朝には人狼が人間に並んで"
        f"{winner}です。A がこのあと何を尋ね、どう護衛を頼んでも防げません。"
    )


def _world_text(world: World) -> str:
    text = "人狼 " + "・".join(f"#{c}" for c in world.wolves)
    if world.fox is not None:
        text += f"/妖狐 #{world.fox}"
    return text


PUZZLE = DuelPuzzle()
