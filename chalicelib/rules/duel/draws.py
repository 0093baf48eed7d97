"""The one seam for chance (§9 `draws`): every draw goes through :class:`Draws`.

A draw names its kind; a pinned value of that kind is used first (it must be a
possible outcome), then the injected ``random.Random``. A draw with one possible
outcome consumes nothing.
"""

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import DrawError
from .roles import BLACK, WHITE

KINDS = ("oracle", "fox_mode", "fox", "madman", "seer", "guard", "cat", "rpp")


class Draws:
    def __init__(self, rng: random.Random, pins: Mapping[str, Sequence[Any]] | None = None) -> None:
        self.rng = rng
        self.pins: dict[str, list[Any]] = {}
        for kind, values in (pins or {}).items():
            if kind not in KINDS:
                raise DrawError(f"draws に「{kind}」という種類はありません")
            if not isinstance(values, list):
                raise DrawError(f"draws の {kind} はリストで指定してください")
            self.pins[kind] = list(values)

    def _pinned(self, kind: str) -> tuple[bool, Any]:
        queue = self.pins.get(kind)
        if queue:
            return True, queue.pop(0)
        return False, None

    def card(self, kind: str, support: Sequence[int], weights: Sequence[int] | None = None) -> int:
        """One card of ``support``, uniform or proportional to positive ``weights``."""
        if weights is not None:
            pairs = [(c, w) for c, w in zip(support, weights, strict=True) if w > 0]
            support = [c for c, _ in pairs]
            weights = [w for _, w in pairs]
        if not support:
            raise DrawError("引けるカードがありません")
        if len(set(support)) == 1:
            return support[0]
        pinned, value = self._pinned(kind)
        if pinned:
            if isinstance(value, bool) or value not in support:
                raise DrawError(
                    f"draws の {kind} に指定された {value} は引けるカードではありません"
                )
            return int(value)
        if weights is None:
            return support[self.rng.randrange(len(support))]
        return self.rng.choices(list(support), weights=list(weights))[0]

    def option(self, kind: str, options: Sequence[str]) -> str:
        """One of ``options``, uniform."""
        if len(options) == 1:
            return options[0]
        pinned, value = self._pinned(kind)
        if pinned:
            if value not in options:
                raise DrawError(f"draws の {kind} に指定された {value} は選べる値ではありません")
            return str(value)
        return options[self.rng.randrange(len(options))]

    def color(self, kind: str, p_black: float) -> str:
        """Black with probability ``p_black``."""
        if p_black >= 1:
            return BLACK
        if p_black <= 0:
            return WHITE
        pinned, value = self._pinned(kind)
        if pinned:
            if value not in (WHITE, BLACK):
                raise DrawError(f"draws の {kind} に指定された {value} は色ではありません")
            return str(value)
        return BLACK if self.rng.random() < p_black else WHITE
