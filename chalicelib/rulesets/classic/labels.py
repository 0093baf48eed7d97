"""How classic villages name things to players: natural Japanese for every id (RULES-CLASSIC)."""

from ...rules.classic import Cause, Role, TieRule, Winner, deck
from ...rules.classic.cast import MIN_PLAYERS
from ...rules.classic.visibility import Board, Moment

ROLE_LABELS = {
    Role.VILLAGER: "村人",
    Role.SEER: "占い師",
    Role.MEDIUM: "霊能者",
    Role.HUNTER: "狩人",
    Role.MASON: "共有者",
    Role.WEREWOLF: "人狼",
    Role.MADMAN: "狂人",
    Role.FOX: "妖狐",
}
BOARD_LABELS = {
    Board.PUBLIC: "表",
    Board.WOLVES: "囁き",
    Board.MASONS: "共鳴",
    Board.MONOLOGUE: "独り言",
    Board.HEAVEN: "墓下",
}
# What a howl or a whisper shows to the other readers of the public board (§6).
HIDDEN_POST_LABELS = {Board.WOLVES: "遠吠えが聞こえた", Board.MASONS: "小声が聞こえた"}
MOMENT_LABELS = {
    Moment.PROLOGUE: "プロローグ",
    Moment.DAY: "昼",
    Moment.OVERTIME: "超過時間",
    Moment.NIGHT: "夜",
    Moment.EPILOGUE: "エピローグ",
}
WINNER_LABELS = {
    Winner.VILLAGE: "村人の勝利",
    Winner.WOLVES: "人狼の勝利",
    Winner.FOX: "妖狐の勝利",
    Winner.DRAW: "引き分け",
}
TIE_LABELS = {
    TieRule.RANDOM: "同票ならランダムに処刑",
    TieRule.BBS: "同票なら再投票（5回まで、その後は引き分け）",
    TieRule.RUNOFF: "同票なら再投票、4回目は決選投票",
}

CAUSE_LABELS = {
    Cause.EXECUTION: "処刑",
    Cause.ATTACK: "襲撃",
    Cause.CURSE: "呪殺",
    Cause.SUDDEN: "突然死",
}


def death_text(day: int, cause: Cause, shown: bool) -> str:
    """When and how a character died, as far as the viewer may know: a night's death (§4) is
    counted as that night's day; unshown, it is only found dead the next morning (§4.6)."""
    if cause in (Cause.ATTACK, Cause.CURSE):
        return f"{day}日目の夜に{CAUSE_LABELS[cause]}" if shown else f"{day + 1}日目の朝に発見"
    return f"{day}日目に{CAUSE_LABELS[cause]}"


# The local clock page's buttons for the events that need no number (timeline.Event values).
CLOCK_LABELS = {
    "abandon": "廃村の時刻へ（始まっていなければ廃村になります）",
    "sunset": "日没へ（1日目の夜になります）",
    "close": "エピローグの終わりへ（村が閉じます）",
}


# RULES-CLASSIC §9: where a player joins, and in the role mail.
CONDUCT = (
    "ゲーム中は、この村の掲示板の外でゲームの話をしないでください（外部相談の禁止）。"
    "自分の役職・占いなどの結果・届いたメールを誰にも伝えないでください。"
    "死んだあとは、生きている人に何も伝えないでください。"
)


def cast_line(players: int) -> str:
    """The cast list (配役) a village of ``players`` would have, the scapegoat's card included;
    below the minimum, a sentence saying how many more are needed."""
    if players < MIN_PLAYERS:
        return f"あと{MIN_PLAYERS - players}人集まると配役が決まります"
    cards = deck(players)
    listed = "、".join(f"{ROLE_LABELS[role]}{count}" for role, count in cards.items())
    return f"{players}人（身代わり君を含めて{players + 1}枚）：{listed}"
