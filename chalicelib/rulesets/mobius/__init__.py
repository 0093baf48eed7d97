"""The Mobius rule set: its seam object, visibility (RULES §8), timeline (§2), full record.

What the lounge shows of it is here, readable without its engine (``rulesets.labels``).
"""

from collections.abc import Mapping

LABEL = "メビウス"
NEXT_UPDATE_WORDS: Mapping[str, str] = {}  # every state's is the lounge's own 次の更新
