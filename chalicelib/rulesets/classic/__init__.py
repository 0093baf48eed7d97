"""The classic rule set (RULES-CLASSIC, 人狼BBS式) behind the seam: its stored game, timeline,
GM options, seats, reports, views and words (``ruleset.CLASSIC``).

What the lounge shows of it is here, readable without its engine (``rulesets.labels``).
"""

from collections.abc import Mapping

LABEL = "人狼BBS式"
# The prologue's only timed event is the abandonment: the start comes with the last start vote
# (§2.1); in the game, the next deadline is a sunset, a round or a dawn.
NEXT_UPDATE_WORDS: Mapping[str, str] = {
    "opening": "全員の開始投票で開始・廃村になる時刻",
    "running": "次の締め切り",
    "ending": "村が閉じる時刻",
}
