"""Japanese words of the platform (every game's): paces and village states."""

PACE_LABELS = {"long": "長期", "short": "短期"}
STATE_LABELS = {
    "opening": "募集中",
    "running": "進行中",
    "ending": "エンディング",
    "ended": "終了",
    "abandoned": "廃村",
}
