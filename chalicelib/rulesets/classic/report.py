"""The village's own posts on the public board (RULES-CLASSIC §2.3, §4.6, §5): closed vote
rounds, sudden deaths, mornings with their wills, the ending's reveal. Pure: names are given."""

from collections.abc import Callable, Mapping

from ...rules.classic import NPC, Morning, News, Outcome, RoundResult, Village
from .labels import ROLE_LABELS, WINNER_LABELS


def _judged(wolf: bool) -> str:
    return "人狼" if wolf else "人間"


def news_lines(news: News, name: Callable[[str], str]) -> list[str]:
    """One player's private news of a morning (§4.6), as their page and mail say it."""
    lines = []
    if news.divination is not None:
        target = name(news.divination.target)
        lines.append(f"占い：{target}は{_judged(news.divination.result == 'wolf')}でした。")
    if news.medium is not None:
        target = name(news.medium.target)
        lines.append(f"霊能：{target}は{_judged(news.medium.result == 'wolf')}でした。")
    if news.gj:
        lines.append("護衛成功：昨夜、あなたの護衛が襲撃を防ぎました。")
    if news.attacked:
        lines.append("昨夜、あなたは人狼に襲われましたが、生き延びました。")
    return lines


def start_lines(village: Village, character: str, name: Callable[[str], str]) -> list[str]:
    """What a player learns at the start (§1): their role, and their partners if any."""
    info = village.start_info(character)
    lines = [f"あなたは{ROLE_LABELS[village.roles[character]]}です。"]
    if info["partners"]:
        lines.append("仲間: " + "、".join(name(p) for p in info["partners"]))
    return lines


def round_report(result: RoundResult, names: Mapping[str, str]) -> str:
    """One closed round: the sudden deaths by name, or the full vote list and its outcome."""
    title = f"{result.day}日目・第{result.round}回投票"
    if result.outcome is Outcome.SUDDEN:
        who = "、".join(names[c] for c in result.sudden)
        return f"{title}：投票しなかった {who} が突然死しました。同じ投票をやり直します。"
    lines = [f"{title}の結果"]
    tally: dict[str, int] = {}
    for target in result.votes.values():
        tally[target] = tally.get(target, 0) + 1
    for voter, target in result.votes.items():
        lines.append(f"{names[voter]} → {names[target]}")
    if tally:
        counted = "、".join(
            f"{names[c]} {n}票" for c, n in sorted(tally.items(), key=lambda kv: -kv[1])
        )
        lines.append(f"得票：{counted}")
    if result.outcome is Outcome.EXECUTED and result.executed is not None:
        lines.append(f"{names[result.executed]} が処刑されました。")
    elif result.outcome is Outcome.TIE:
        lines.append(f"{_tied(result, names)}ため、第{result.round + 1}回投票を行います。")
    elif result.outcome is Outcome.DRAW:
        lines.append("決着がつかず、引き分けになりました。")
    return "\n".join(lines)


def _tied(result: RoundResult, names: Mapping[str, str]) -> str:
    tally: dict[str, int] = {}
    for target in result.votes.values():
        tally[target] = tally.get(target, 0) + 1
    top = max(tally.values(), default=0)
    tied = "、".join(names[c] for c in names if tally.get(c) == top)  # seat order
    return f"{tied} が{top}票ずつの同数だった"


def revote_reason(result: RoundResult, names: Mapping[str, str]) -> str:
    """Why a vote is held again (the re-vote mail): the round that closed without an execution."""
    title = f"{result.day}日目・第{result.round}回投票"
    if result.outcome is Outcome.SUDDEN:
        who = "、".join(names[c] for c in result.sudden)
        return f"{title}で、投票しなかった {who} が突然死しました。"
    return f"{title}は、{_tied(result, names)}ため決まりませんでした。"


def single_candidate(result: RoundResult, names: Mapping[str, str]) -> str:
    """A run-off reopened with one living candidate executes them at once (§2.3.4)."""
    assert result.executed is not None
    return f"候補者が {names[result.executed]} だけになったため、処刑されました。"


def morning_report(morning: Morning, names: Mapping[str, str], wills: Mapping[str, str]) -> str:
    """§4.6: the dead in seat order, no causes; then the published wills."""
    lines = [f"{morning.day}日目の朝になりました。"]
    if morning.found_dead:
        who = "、".join(names[c] for c in morning.found_dead)
        lines.append(f"{who} が無残な姿で発見されました。")
    else:
        lines.append("今朝は犠牲者がいませんでした。")
    for character in morning.wills:
        text = wills.get(character)
        if text:
            lines.append(f"\n{names[character]} の遺書：\n{text}")
    return "\n".join(lines)


def ending_report(village: Village, names: Mapping[str, str]) -> str:
    """§2.5: the winner and every role, the scapegoat's card included."""
    assert village.ending is not None
    lines = [f"ゲームが終わりました。{WINNER_LABELS[village.ending.winner]}です。", "配役："]
    for character, role in village.roles.items():
        lines.append(f"{names[character]}：{ROLE_LABELS[role]}")
    if village.roles[NPC] is not None:
        lines.append("エピローグでは全員が表で話せます。すべての掲示板が公開されました。")
    return "\n".join(lines)
