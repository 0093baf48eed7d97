"""今日の盤面パズル as the platform shows it: the duel's position as A sees it, the cards to
execute, and the answer's explanation in the rule book's Japanese.

The engine (``rules/duel/puzzle.py``) generates and judges the position; this module only
reads A's view of it (RULES-DUEL §8, the engine's ``view``), never the true cards, so a
page or a mail made from it cannot show what A may not see.
"""

import random
from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel.puzzle import LOSS, NoPuzzle, Puzzle, World, generate

from . import labels
from .ruleset import _board, _log, _rules_line

TITLE = "今日の盤面パズル"
QUESTION = "A(村人陣営)の処刑の場面です。A が確実に勝てる処刑はどれでしょう?"
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
        """Why the answer wins and what each other execution loses to."""
        seen = puzzle.a_view()
        fox_in_deck = bool(seen["rules"]["deck"].get("fox", 0))
        worlds = puzzle.worlds
        shown = "、".join(_world_text(w) for w in worlds[:SHOWN_WORLDS])
        more = f"ほか {len(worlds) - SHOWN_WORLDS} 通り" if len(worlds) > SHOWN_WORLDS else ""
        why = [
            f"正解は #{puzzle.answer} の処刑です。",
            "公開された CO・お告げと占い・霊能の結果、処刑と襲撃で死んだカード"
            + ("、見えている共有者" if seen.get("masons") else "")
            + f"と矛盾しない配置は {len(worlds)} 通りあります"
            + f"({shown}{'、' + more if more else ''})。",
            f"そのどれでも、生きている人狼は #{puzzle.answer} だけです"
            + ("(妖狐はもう生きていません)" if fox_in_deck else "")
            + "。",
            f"#{puzzle.answer} を処刑すれば人狼がいなくなり、村人陣営の勝ちです。",
        ]
        others = []
        alive = set(seen["alive"])
        for verdict in puzzle.verdicts:
            if verdict.result != LOSS or verdict.world is None:
                continue
            left = alive - {verdict.card}
            wolves = len(left & set(verdict.world.wolves))
            fox = verdict.world.fox in left
            humans = len(left) - wolves - fox
            winner = labels.WINNER_LABELS[verdict.winner or "wolves"]
            others.append(
                (
                    verdict.card,
                    f"#{verdict.card} を処刑すると、{_world_text(verdict.world)}の配置では"
                    f"生きている人狼 {wolves} 枚が人間 {humans} 枚に並び、{winner}です。",
                )
            )
        return {"answer": puzzle.answer, "why": why, "others": others}


def _world_text(world: World) -> str:
    text = "人狼 " + "・".join(f"#{c}" for c in world.wolves)
    if world.fox is not None:
        text += f"/妖狐 #{world.fox}"
    return text


PUZZLE = DuelPuzzle()
