"""The duel rule set (RULES-DUEL): two sides, played move by move, against a person or the CPU.

What the top page offers of it is here, readable without its engine (``rulesets.offers``).
"""

from ..match import Offer
from . import labels

OFFER = Offer(
    rules="duel",
    label=labels.GAME_LABEL,
    presets=tuple(labels.PRESET_LABELS.items()),  # the engine's ``PRESETS``, in its order
    sides=(
        ("A", labels.SIDE_LABELS["A"]),
        ("B", labels.SIDE_LABELS["B"]),
        ("random", "ランダム"),
    ),
    strengths=tuple(labels.STRENGTH_LABELS.items()),
    choices=(("placement", "人狼の配置(B のとき)", tuple(labels.PLACEMENTS.items())),),
    feats=tuple((key, *words) for key, words in labels.FEATS.items()),
)
