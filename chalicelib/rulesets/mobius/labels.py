"""Japanese words of the Mobius game's names, for pages, mail and system posts."""

SLOT_LABELS: dict[str, str] = {
    "seer_a": "占い師A",
    "seer_b": "占い師B",
    "medium_a": "霊能者A",
    "medium_b": "霊能者B",
    "guard_a": "守護者A",
    "guard_b": "守護者B",
    "empath_a": "共感者A",
    "empath_b": "共感者B",
    "commoner_a": "庶民A",
    "commoner_b": "庶民B",
    "commoner_c": "庶民C",
    "commoner_d": "庶民D",
    "assassin": "暗殺者",
}

SIDE_LABELS = {"human": "人", "madman": "狂人", "oni": "鬼"}
VERDICT_LABELS = {"human": "人", "oni": "鬼", "unknown": "不明"}
BOARD_LABELS = {"public": "表", "oni": "鬼の世界", "grave": "墓の下", "inner": "心の中"}

# The full record's words: choices, abilities whose results reached a member, causes of death.
CHOICE_LABELS_SHORT = {
    "pray": "祈り",
    "divine": "占い",
    "guard": "警備",
    "assassinate": "暗殺",
    "attack": "襲撃先",
    "attacker": "実行犯",
    "dm": "偽のDM",
    "victory": "勝利宣言",
    "resign": "投了",
    "force": "強制裁き",
}
ABILITY_LABELS = {
    "random": "初日ランダム占い",
    "empathy": "共感",
    "divine": "占い",
    "medium": "霊能",
    "assassinate": "暗殺",
}

# Phases as the local clock page names them.
PHASE_LABELS = {
    "opening": "募集中",
    "day": "昼",
    "loss_time": "ロスタイム",
    "night": "夜",
    "ending": "エンディング",
}
