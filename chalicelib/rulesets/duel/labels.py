"""The duel's words as its pages and mail say them (the rule book's Japanese, RULES-DUEL)."""

from typing import Any

from ..match import RESIGN, Verbs

GAME_LABEL = "2人で遊ぶ人狼"

PRESET_LABELS = {
    "std9": "スタンダード9人",
    "10A": "10A狩",
    "12A": "12A猫",
    "12B": "12B",
    "17A": "17A",
}
SIDE_LABELS = {"A": "A(村人陣営・推理する側)", "B": "B(人狼陣営・騙す側)"}
SIDE_SHORT = {"A": "A(村人陣営)", "B": "B(人狼陣営)"}
PLACEMENTS = {"random": "完全ランダム", "hand": "手動配置(自分で置く)"}  # §3.1
STRENGTH_LABELS = {"beginner": "入門", "normal": "普通", "strong": "強い"}
ROLE_LABELS = {
    "villager": "村人",
    "seer": "占い師",
    "medium": "霊能者",
    "hunter": "狩人",
    "mason": "共有者",
    "cat": "猫又",
    "werewolf": "人狼",
    "madman": "狂人",
    "fox": "妖狐",
    "gidra": "ギドラ",
    "none": "役職なし",
}
COLOR_LABELS = {"human": "白", "wolf": "黒"}
WINNER_LABELS = {"village": "村人陣営の勝ち", "wolves": "人狼陣営の勝ち", "fox": "妖狐の勝ち"}
FOX_MODE_LABELS = {"latent": "潜伏", "seer": "占い騙り", "medium": "霊能騙り"}
TURN_LABELS = {
    "A:day": "A の昼(質問か処刑)",
    "B:answer": "B の回答",
    "B:pp": "B の確認(処刑のあと)",
    "A:night": "A の夜の指示",
    "B:night": "B の夜(襲撃)",
}
# The duel's own achievements (実績): key -> (title, what earns it).
FEATS = {
    "pp_won": ("PPで勝利", "B で PP か RPP を決めて勝つ"),
    "seer_kept_12b": ("占い師を守り抜く", "12B で A を持ち、本物の占い師を一度も失わずに勝つ"),
}
# The platform's verbs, in the duel's words.
VERBS = Verbs(
    resign="投了",
    resign_question="投了します。対局はあなたの負けで終わります。よろしいですか？",
    abort_question=(
        "対局を中止します。双方が最初の手を指す前なので、勝ち負けもレーティングもつきません。"
        "よろしいですか？"
    ),
)
AT_LABELS = {
    "execution": "処刑のあと",
    "morning": "朝",
    RESIGN: VERBS.resign,
    "time": "時間切れ",
    "gone": "接続切れ（1分）",
}


def card(c: Any) -> str:
    return "狂人" if c == "madman" else f"#{c}"


def cards(items: list[Any]) -> str:
    return "・".join(card(c) for c in items) if items else "なし"


def roles(items: list[str]) -> str:
    return "・".join(ROLE_LABELS.get(r, r) for r in items)


def claim_text(claim: dict[str, Any]) -> str:
    """A public claim with its reports, in one line."""
    parts = [f"{card(claim['card'])} {ROLE_LABELS.get(claim['role'], claim['role'])}CO"]
    if "oracle" in claim:
        o = claim["oracle"]
        parts.append(f"お告げ {card(o['target'])}{COLOR_LABELS[o['result']]}")
    for n in claim.get("nights", []):
        parts.append(f"{n['night']}夜 {card(n['target'])}{COLOR_LABELS[n['result']]}")
    for r in claim.get("results", []):
        parts.append(f"{r['day']}日目 {card(r['target'])}{COLOR_LABELS[r['result']]}")
    for g in claim.get("guards", []):
        parts.append(f"{g['night']}夜 {card(g['target'])}護衛")
    return "、".join(parts)


def event_lines(event: dict[str, Any]) -> list[str]:
    """One public event (RULES-DUEL §9) as the log's lines (none: it says nothing)."""
    kind = event["type"]
    if kind == "first_victim":
        return ["初日犠牲者 #0 が亡くなりました(欠けあり)"]
    if kind == "co":
        claims = [claim_text(c) for c in event["claims"]]
        return [_request_text(event["request"]), *(claims or ["名乗り出る者はいませんでした"])]
    if kind == "named":
        head = f"指名CO {cards(event['cards'])}" + (
            "(狩人か猫又ならギドラCO)" if event["gidra"] else ""
        )
        return [head, *(claim_text(c) for c in event["answers"])]
    if kind == "release":
        return ["ギドラ解除要請", *(claim_text(c) for c in event["lands"])]
    if kind == "execution":
        return _execution_lines(event)
    if kind == "orders":
        return _order_lines(event)
    if kind == "morning":
        return _morning_lines(event)
    return [kind]


def _request_text(request: dict[str, Any]) -> str:
    """A CO request's heading: its roles and scope (or the black-seer-only request)."""
    if request["black_only"]:
        return "黒引き占い師のみCO要請"
    scope = "全体" if request["cards"] is None else f"範囲 {cards(request['cards'])}"
    head = f"{roles(request['roles'])}のCO要請({scope})"
    return "GJならCO: " + head if request["auto"] else head


def _execution_lines(event: dict[str, Any]) -> list[str]:
    """An execution, a PP's end told as such, and the cat's revenge."""
    lines = [f"{card(event['card'])} を処刑しました"]
    pp = event["pp"]
    if pp:
        who = "人狼陣営" if pp["winner"] == "B" else "村人陣営"
        lines = [
            f"{pp['kind']}: 狂人は {card(pp['madman'])}。{who}の吊り先 {card(event['card'])}"
            " が処刑されました"
        ]
    if event["revenge"] is not None:
        lines.append(f"猫又の道連れで {card(event['revenge'])} が亡くなりました")
    return lines


def _weights(to: list[Any], weights: list[Any]) -> str:
    return "・".join(f"{card(t)}({w})" for t, w in zip(to, weights, strict=True))


def _order_lines(event: dict[str, Any]) -> list[str]:
    """A night's public orders under their heading (none given: no lines at all)."""
    lines = [f"{event['day']}日目の夜の指示"]
    for d in event["divine"]:
        lines.append(f"占い: {card(d['card'])} → {cards(d['to'])}")
    for g in event["guard"]:
        lines.append(f"護衛: {card(g['card'])} → {_weights(g['to'], g['weights'])}")
    if event["latent_divine"]:
        lines.append(f"潜伏中の占い師: {cards(event['latent_divine'])}")
    latent = event["latent_guard"]
    if latent == "same":
        lines.append("潜伏中の狩人: 昨夜と同じ")
    elif latent:
        lines.append(f"潜伏中の狩人: {_weights(latent['to'], latent['weights'])}")
    if event["gj_co"]:
        lines.append(f"GJならCO: {card(event['gj_co']['card'])}({roles(event['gj_co']['roles'])})")
    return lines if len(lines) > 1 else []  # a night nobody gave orders for: no heading


def _morning_lines(event: dict[str, Any]) -> list[str]:
    """A morning: its dead, then each result and guard report told."""
    dead = event["dead"]
    lines = [
        f"{event['day']}日目の朝: " + (f"{cards(dead)} が亡くなりました" if dead else "犠牲者なし")
    ]
    for d in event["divine"]:
        lines.append(
            f"占い結果: {card(d['card'])} → {card(d['target'])}{COLOR_LABELS[d['result']]}"
        )
    for m in event["medium"]:
        lines.append(
            f"霊能結果: {card(m['card'])} → {card(m['target'])}{COLOR_LABELS[m['result']]}"
        )
    for g in event["guard"]:
        lines.append(f"護衛報告: {card(g['card'])} → {card(g['target'])}")
    return lines


def _color(value: Any) -> str:
    return COLOR_LABELS.get(value, str(value))


def _report(item: Any) -> str:
    """A fake report as B gave it: a card and a color, or a color alone (the madman's)."""
    if isinstance(item, dict):
        return f"{card(item['target'])}{_color(item['result'])}"
    return _color(item)


def _fake(claim: dict[str, Any]) -> str:
    """One claim of B's answer (a fake, or what the madman says if named)."""
    role = ROLE_LABELS.get(claim["role"], claim["role"])
    if claim["card"] == "madman":
        head = "狂人なら役職なし" if claim["role"] == "none" else f"狂人に{role}を騙らせる"
    else:
        head = f"{card(claim['card'])} {role}" + ("" if claim["role"] == "none" else "CO")
    parts = [head]
    if "oracle" in claim:
        parts.append(f"お告げ {_report(claim['oracle'])}")
    parts += [f"{n}夜 {_report(r)}" for n, r in enumerate(claim.get("nights", []), start=1)]
    parts += [f"霊能 {_color(r)}" for r in claim.get("results", [])]
    parts += [f"{n}夜 {card(t)}護衛" for n, t in enumerate(claim.get("guards", []), start=1)]
    return " ".join(parts)


def move_text(side: str, move: dict[str, Any]) -> str:
    """One stored move (RULES-DUEL §9) in a line, as the review (感想戦) lists it: A's
    questions and orders, and B's instructions that nobody saw during the game (its fakes as
    given, the madman's, its PP guess, its attack)."""
    do = move.get("do")
    if do == RESIGN:
        return VERBS.resign
    if side == "A":
        if do == "co":
            scope = "全体" if move.get("cards") is None else f"範囲 {cards(move['cards'])}"
            return f"{roles(move['roles'])}のCO要請({scope})"
        if do == "black_seer_co":
            return "黒引き占い師のみCO要請"
        if do == "named":
            return f"指名CO {cards(move['cards'])}" + ("(ギドラ)" if move.get("gidra") else "")
        if do == "release":
            return "ギドラ解除要請"
        if do == "execute":
            return f"{card(move['card'])} を処刑"
        return "夜の指示"
    if do == "answer":
        given = [_fake(c) for c in move.get("claims", [])]
        given += [
            f"{card(land['card'])} {ROLE_LABELS[land['as']]}で着地" for land in move.get("land", [])
        ]
        return "回答: " + ("、".join(given) if given else "騙りなし")
    if do == "pp":
        if move.get("guess") is None:
            return "PP: 見送り"
        return f"PP: 狂人は {card(move['guess'])} と予想・吊り先 {card(move['target'])}"
    lines = [f"襲撃 {card(move['attack'])}"]
    lines += [f"偽の占い {card(d['card'])}→{_report(d)}" for d in move.get("divine", [])]
    lines += [f"偽の霊能 {card(m['card'])} {_color(m['result'])}" for m in move.get("medium", [])]
    lines += [f"偽の護衛 {card(g['card'])}→{card(g['target'])}" for g in move.get("guard", [])]
    madman = move.get("madman") or {}
    if "divine" in madman:
        lines.append(f"狂人の占い {_color(madman['divine'])}")
    if "medium" in madman:
        lines.append(f"狂人の霊能 {_color(madman['medium'])}")
    return "夜: " + "、".join(lines)
