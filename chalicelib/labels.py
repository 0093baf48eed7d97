"""Japanese words of the platform (every game's): the site's name, paces and village states."""

# The site hosts every game (Mobius, the classic BBS village, the duel): its name is none of
# theirs. Mail subjects read 【<site>・<the game's label>】 (notify/notices.py).
SITE_NAME = "人狼ひろば"

PACE_LABELS = {"long": "長期", "short": "短期"}
STATE_LABELS = {
    "opening": "募集中",
    "running": "進行中",
    "ending": "エンディング",
    "ended": "終了",
    "abandoned": "廃村",
}
