"""A correspondence duel played by replying to its mail (issue 27): the lines of a reply read
into the fields a phone's form sends (``forms`` then makes the §9 move and the engine checks
it), a move written back as such lines, the examples a turn's mail gives, and the board as
one side may see it, in a few lines of text.

One line a command, Japanese or English, ``<word> <arguments>`` (a colon after the word is
allowed); cards by number (``3``, ``#3``, ``3番``), roles and colors by their labels. A line
that starts with no word of the turn is listed back as not understood and ignored; a line
with a word of the turn but arguments that do not read refuses the whole reply (decision
duel 93): a move cannot be taken back, so nothing is guessed.
"""

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from chalicelib.rules.duel import Duel, view
from chalicelib.rules.duel.legal import legal_moves

from ..match import RESIGN, MailLine, MailReading
from . import labels

# Each command's words, folded (NFKC, case folded, no spaces); the first is how mail writes it.
WORDS: dict[str, tuple[str, ...]] = {
    RESIGN: (labels.VERBS.resign, "resign"),
    "co": ("CO要請", "co", "co_request"),
    "black_seer_co": ("黒引き占い師CO要請", "黒引きCO要請", "black_seer_co"),
    "named": ("指名CO", "named", "named_co"),
    "release": ("ギドラ解除", "ギドラ解除要請", "release"),
    "execute": ("処刑", "execute"),
    "divine": ("占い", "divine"),
    "guard": ("護衛", "guard"),
    "latent_divine": ("潜伏占い", "latent_divine"),
    "latent_guard": ("潜伏護衛", "latent_guard"),
    "gj_co": ("GJならCO", "gj_co"),
    "night": ("夜", "night"),
    "claim": ("騙り", "claim", "fake"),
    "no_fakes": ("騙りなし", "no_fakes"),
    "land": ("着地", "land"),
    "pp": ("PP", "pp"),
    "attack": ("襲撃", "attack"),
    "medium": ("霊能", "medium"),
    "madman": ("狂人", "madman"),
}
# The commands each turn takes (resigning: every turn).
TURN_WORDS: dict[str, tuple[str, ...]] = {
    "A:day": ("co", "black_seer_co", "named", "release", "execute"),
    "A:night": ("divine", "guard", "latent_divine", "latent_guard", "gj_co", "night"),
    "B:answer": ("claim", "no_fakes", "land"),
    "B:pp": ("pp",),
    "B:night": ("attack", "divine", "medium", "guard", "madman"),
}
ROLE_WORDS = {
    "seer": ("占い師", "占い", "seer"),
    "medium": ("霊能者", "霊能", "medium"),
    "hunter": ("狩人", "hunter"),
    "gidra": ("ギドラ", "gidra"),
    "cat": ("猫又", "cat"),
    "none": ("なし", "役職なし", "none"),
}
COLOR_WORDS = {"human": ("白", "white", "human"), "wolf": ("黒", "black", "wolf")}
PASS_WORDS = ("なし", "見送り", "pass", "none")
SAME_WORDS = ("同じ", "昨夜と同じ", "same")
AUTO_WORDS = ("おまかせ", "auto")
ORACLE_WORDS = ("お告げ", "oracle")
RANGE_WORDS = ("範囲", "range")
MAX_LINES = 40
# A line: the word (no digit, no space, no colon, no #), then its arguments.
_LINE = re.compile(r"(?P<word>[^\s:#0-9]+)\s*:?\s*(?P<rest>.*)")
_CARD = re.compile(r"(?:#|カード)?([0-9]{1,2})番?")
_WEIGHTED = re.compile(r"(?:#|カード)?([0-9]{1,2})番?(?::([0-9]{1,3}))?")
_NIGHT = re.compile(r"(?:([0-9]{1,2})夜|night([0-9]{1,2}))")
_SPLIT = re.compile(r"[\s、,→]+|->")


def fold(text: str) -> str:
    return re.sub(r"\s", "", unicodedata.normalize("NFKC", text)).casefold()


def _find(token: str, table: Mapping[str, Sequence[str]]) -> str | None:
    folded = fold(token)
    return next((key for key, words in table.items() if folded in map(fold, words)), None)


class Unreadable(ValueError):
    """A line with a word of the turn whose arguments do not read: the player's sentence."""


def read(game: Duel, side: str, text: str) -> MailReading:
    """The reply's lines read for ``side``'s turn now, into a phone form's fields."""
    legal = legal_moves(game, side)
    turn = legal.turn
    taken = (*TURN_WORDS.get(turn or "", ()), RESIGN)
    form: dict[str, str] = {}
    lines: list[MailLine] = []
    moves_named = 0
    for raw in [t.strip() for t in text.split("\n") if t.strip()][:MAX_LINES]:
        match = _LINE.fullmatch(unicodedata.normalize("NFKC", raw))
        key = _find(match["word"], {k: WORDS[k] for k in taken}) if match else None
        if match is None or key is None:
            lines.append(MailLine(raw, "unknown", "この手番の指示として読み取れませんでした"))
            continue
        args = [a for a in _SPLIT.split(match["rest"].strip()) if a]
        try:
            if key in (RESIGN, *TURN_WORDS["A:day"], "pp"):
                moves_named += 1
            _fill(form, turn or "", key, args, legal.options)
        except Unreadable as why:
            lines.append(MailLine(raw, "bad", str(why)))
            continue
        lines.append(MailLine(raw, "read"))
    problems = [line.why for line in lines if line.status == "bad"]
    if moves_named > 1:
        problems.append("1通で送れる手は1つです。1つだけ書いて返信してください")
    if problems or not any(line.status == "read" for line in lines):
        return MailReading(lines, None, problems)
    return MailReading(lines, form)


def _cards(args: Sequence[str], what: str) -> list[str]:
    found = []
    for arg in args:
        match = _CARD.fullmatch(arg)
        if match is None:
            raise Unreadable(f"{what}はカードの番号で書いてください(例: 3)")
        found.append(str(int(match[1])))
    return found


def _one_card(args: Sequence[str], what: str) -> str:
    found = _cards(args, what)
    if len(found) != 1:
        raise Unreadable(f"{what}はカードを1枚だけ書いてください")
    return found[0]


def _color(arg: str) -> str:
    color = _find(arg, COLOR_WORDS)
    if color is None:
        raise Unreadable(f"「{arg}」は白か黒で書いてください")
    return color


def _weighted(form: dict[str, str], prefix: str, args: Sequence[str], what: str) -> None:
    if not args:
        raise Unreadable(f"{what}の候補を書いてください")
    for arg in args:
        match = _WEIGHTED.fullmatch(arg)
        if match is None:
            raise Unreadable(f"{what}の候補はカードの番号で(重みは 3:20 の形で)書いてください")
        form[f"{prefix}.{int(match[1])}"] = match[2] or "1"


def _fill(form: dict[str, str], turn: str, key: str, args: list[str], o: Any) -> None:
    """The form fields of one line (``forms`` reads them; the engine judges the move)."""
    if key == RESIGN:
        form["do"] = RESIGN
    elif key == "co":
        roles = [r for a in args if (r := _find(a, ROLE_WORDS)) not in (None, "none", "cat")]
        others = [
            a for a in args if _find(a, ROLE_WORDS) is None and not _find(a, {"r": RANGE_WORDS})
        ]
        if not roles:
            raise Unreadable("CO要請する役職を書いてください(例: CO要請 占い師)")
        form["do"] = "co"
        form.update({f"role.{r}": "1" for r in roles})
        if others:
            form["scope"] = "range"
            form.update({f"card.{c}": "1" for c in _cards(others, "範囲")})
    elif key in ("black_seer_co", "release"):
        if args:
            raise Unreadable("この指示にはほかに何も書かないでください")
        form["do"] = key
    elif key == "named":
        gidra = [a for a in args if _find(a, {"gidra": ROLE_WORDS["gidra"]})]
        form.update({"do": "named", **({"gidra": "1"} if gidra else {})})
        named = _cards([a for a in args if a not in gidra], "指名するカード")
        if not named:
            raise Unreadable("指名するカードを書いてください(例: 指名CO 3 5)")
        form.update({f"card.{c}": "1" for c in named})
    elif key == "execute":
        form.update({"do": "execute", "card": _one_card(args, "処刑するカード")})
    elif key == "night":
        if any(_find(a, {"auto": AUTO_WORDS}) is None for a in args):
            raise Unreadable("「夜 おまかせ」と書いてください")
    elif turn == "A:night":
        _a_night(form, key, args)
    elif turn == "B:night":
        _b_night(form, key, args)
    elif key == "pp":
        if len(args) == 1 and fold(args[0]) in map(fold, PASS_WORDS):
            form["guess"] = ""
            return
        cards = _cards(args, "PP")
        if len(cards) != 2:
            raise Unreadable("PPは「PP 狂人と思うカード 吊り先」か「PP なし」で書いてください")
        form.update({"guess": cards[0], "target": cards[1]})
    else:
        _b_answer(form, key, args, o)


def _a_night(form: dict[str, str], key: str, args: list[str]) -> None:
    if key == "divine":
        claimer, *to = _cards(args, "占いの指示") or [""]
        if not to:
            raise Unreadable("占いは「占い 占い師のカード→候補」で書いてください(例: 占い 4→5 7)")
        form.update({f"divine.{claimer}.{c}": "1" for c in to})
    elif key == "guard":
        if len(args) < 2:
            raise Unreadable("護衛は「護衛 狩人のカード→候補」で書いてください(例: 護衛 2→3 6)")
        _weighted(form, f"guard.{_one_card(args[:1], '護衛の指示')}", args[1:], "護衛")
    elif key == "latent_divine":
        form.update({f"latent_divine.{c}": "1" for c in _cards(args, "潜伏中の占い師の候補")})
    elif key == "latent_guard":
        if len(args) == 1 and _find(args[0], {"same": SAME_WORDS, "auto": AUTO_WORDS}):
            form["latent_guard"] = str(_find(args[0], {"same": SAME_WORDS, "auto": AUTO_WORDS}))
        else:
            form["latent_guard"] = "to"
            _weighted(form, "latent_guard", args, "潜伏中の狩人")
    else:  # gj_co
        roles = [r for a in args if (r := _find(a, ROLE_WORDS)) is not None]
        form["gj_co"] = _one_card([a for a in args if _find(a, ROLE_WORDS) is None], "GJならCO")
        form.update({f"gj_co_role.{r}": "1" for r in roles})


def _b_night(form: dict[str, str], key: str, args: list[str]) -> None:
    if key == "attack":
        form["attack"] = _one_card(args, "襲撃先")
    elif key == "divine":
        if len(args) != 3:
            raise Unreadable("占いは「占い 人狼のカード→占い先 白か黒」で書いてください")
        wolf, target = _cards(args[:2], "占いの報告")
        form.update({f"divine_target.{wolf}": target, f"divine_result.{wolf}": _color(args[2])})
    elif key == "medium":
        if len(args) != 2:
            raise Unreadable("霊能は「霊能 人狼のカード 白か黒」で書いてください")
        form[f"medium_result.{_one_card(args[:1], '霊能の報告')}"] = _color(args[1])
    elif key == "guard":
        wolf, target = _cards(args, "護衛の報告") if len(args) == 2 else ("", "")
        if not wolf:
            raise Unreadable("護衛は「護衛 人狼のカード→護衛先」で書いてください")
        form[f"guard_target.{wolf}"] = target
    else:  # madman: 狂人 占い 黒 霊能 白
        if len(args) % 2 or not args:
            raise Unreadable("狂人は「狂人 占い 白か黒 霊能 白か黒」で書いてください")
        for what, color in zip(args[::2], args[1::2], strict=True):
            kind = _find(what, {"divine": ("占い", "divine"), "medium": ("霊能", "medium")})
            if kind is None:
                raise Unreadable("狂人の報告は占いか霊能です")
            form[f"madman_{kind}"] = _color(color)


def _who(arg: str) -> str:
    if _find(arg, {"madman": WORDS["madman"]}):
        return "madman"
    return _one_card([arg], "騙るカード")


def _b_answer(form: dict[str, str], key: str, args: list[str], o: Any) -> None:
    question = o["question"]
    if key == "no_fakes":
        if args:
            raise Unreadable("「騙りなし」にはほかに何も書かないでください")
        if question["do"] == "named":
            form.update({f"claim.{w}": "none" for w in o["wolves"] if w in question["cards"]})
        return
    if len(args) < 2:
        raise Unreadable("「騙り カード 役職」の形で書いてください(例: 騙り 3 占い師 お告げ 5 白)")
    who = _who(args[0])
    if key == "land":
        landing = _find(args[1], {"hunter": ROLE_WORDS["hunter"], "cat": ROLE_WORDS["cat"]})
        if landing is None:
            raise Unreadable("着地は狩人か猫又です")
        form[f"land.{who}"] = landing
        if landing == "hunter" and who != "madman":
            form.update(
                {f"guards.{who}.{n}": c for n, c in enumerate(_cards(args[2:], "護衛先"), 1)}
            )
        return
    role = _find(args[1], ROLE_WORDS)
    if role is None:
        raise Unreadable(f"「{args[1]}」は騙る役職として読めません")
    form[f"claim.{who}"] = role
    rest = args[2:]
    if role == "medium":
        form.update({f"medium.{who}.{i}": _color(a) for i, a in enumerate(rest, 1)})
    elif role == "hunter" and who != "madman":
        form.update({f"guards.{who}.{n}": c for n, c in enumerate(_cards(rest, "護衛先"), 1)})
    elif role == "seer":
        _seer_reports(form, who, rest)
    elif rest:
        raise Unreadable("この役職の騙りには報告を書きません")


def _seer_reports(form: dict[str, str], who: str, rest: list[str]) -> None:
    """``お告げ [カード] 色``, then ``1夜 [カード] 色`` … (the madman's: colors only)."""
    step = 1 if who == "madman" else 2
    n = 0
    while n < len(rest):
        head, values = rest[n], rest[n + 1 : n + 1 + step]
        night = _NIGHT.fullmatch(fold(head))
        if len(values) != step or not (night or _find(head, {"o": ORACLE_WORDS})):
            raise Unreadable("占い師の騙りは「お告げ 5 白 1夜 6 黒」の形で書いてください")
        name = f"night_{{}}.{who}.{night[1] or night[2]}" if night else f"oracle_{{}}.{who}"
        if step == 2:
            form[name.format("target")] = _one_card(values[:1], "占い先")
        form[name.format("result")] = _color(values[-1])
        n += 1 + step


# ----- writing moves as lines (the examples, and the round trip) -----


def _c(c: Any) -> str:
    return str(c)


def _w(to: Sequence[int], weights: Sequence[int] | None) -> str:
    if weights is None or all(w == 1 for w in weights):
        return " ".join(map(_c, to))
    return " ".join(f"{t}:{w}" for t, w in zip(to, weights, strict=True))


def _role(r: str) -> str:
    return ROLE_WORDS[r][0]


def _col(c: str) -> str:
    return COLOR_WORDS[c][0]


def write(turn: str, move: Mapping[str, Any]) -> list[str]:
    """``move`` (of ``turn``) as the lines that read back as it."""
    do = move.get("do")
    if do == RESIGN:
        return [labels.VERBS.resign]
    if turn == "A:day":
        if do == "co":
            scope = f" {' '.join(map(_c, move['cards']))}" if move.get("cards") is not None else ""
            return [f"CO要請 {' '.join(map(_role, move['roles']))}{scope}"]
        if do == "named":
            gidra = " ギドラ" if move.get("gidra") else ""
            return [f"指名CO {' '.join(map(_c, move['cards']))}{gidra}"]
        if do == "execute":
            return [f"処刑 {move['card']}"]
        return [WORDS[str(do)][0]]
    if turn == "A:night":
        return _write_a_night(move)
    if turn == "B:pp":
        guess = move.get("guess")
        return ["PP なし" if guess is None else f"PP {guess} {move['target']}"]
    if turn == "B:night":
        lines = [f"襲撃 {move['attack']}"]
        lines += [f"占い {d['card']}→{d['target']} {_col(d['result'])}" for d in move["divine"]]
        lines += [f"霊能 {m['card']} {_col(m['result'])}" for m in move["medium"]]
        lines += [f"護衛 {g['card']}→{g['target']}" for g in move["guard"]]
        madman = move.get("madman") or {}
        said = [
            f"{w} {_col(madman[k])}"
            for k, w in (("divine", "占い"), ("medium", "霊能"))
            if k in madman
        ]
        return lines + ([f"狂人 {' '.join(said)}"] if said else [])
    return _write_answer(move)


def _write_a_night(move: Mapping[str, Any]) -> list[str]:
    lines = [f"占い {d['card']}→{' '.join(map(_c, d['to']))}" for d in move["divine"]]
    lines += [f"護衛 {g['card']}→{_w(g['to'], g.get('weights'))}" for g in move["guard"]]
    if move.get("latent_divine"):
        lines.append(f"潜伏占い {' '.join(map(_c, move['latent_divine']))}")
    latent = move.get("latent_guard")
    if latent == "same":
        lines.append("潜伏護衛 同じ")
    elif latent:
        lines.append(f"潜伏護衛 {_w(latent['to'], latent.get('weights'))}")
    gj = move.get("gj_co")
    if gj:
        lines.append(" ".join(["GJならCO", str(gj["card"]), *map(_role, gj.get("roles", []))]))
    return lines or ["夜 おまかせ"]


def _write_answer(move: Mapping[str, Any]) -> list[str]:
    lines = []
    for land in move.get("land", []):
        guards = " ".join(map(_c, land.get("guards", [])))
        lines.append(f"着地 {_who_text(land['card'])} {_role(land['as'])} {guards}".strip())
    for claim in move.get("claims", []):
        parts = ["騙り", _who_text(claim["card"]), _role(claim["role"])]
        oracle = claim.get("oracle")
        if oracle is not None:
            parts += ["お告げ", *_report(oracle)]
        for n, report in enumerate(claim.get("nights", []), 1):
            parts += [f"{n}夜", *_report(report)]
        parts += [_col(r) for r in claim.get("results", [])]
        parts += [_c(g) for g in claim.get("guards", [])]
        lines.append(" ".join(parts))
    return lines or ["騙りなし"]


def _who_text(card: Any) -> str:
    return "狂人" if card == "madman" else str(card)


def _report(report: Any) -> list[str]:
    if isinstance(report, Mapping):
        return [str(report["target"]), _col(report["result"])]
    return [_col(report)]


# ----- what a turn's mail offers, and the board in text -----


def examples(game: Duel, side: str) -> list[list[str]]:
    """Replies valid for ``side`` now, each a list of lines (none when it is not its turn):
    the simplest moves of the turn, from the side's legal options only."""
    legal = legal_moves(game, side)
    o, living = legal.options, list(legal.living)
    if legal.turn == "A:day":
        found = []
        if o["new_pairs"]:
            found.append(write("A:day", {"do": "co", "roles": [o["new_pairs"][0][1]]}))
        return [*found, write("A:day", {"do": "execute", "card": living[0]})]
    if legal.turn == "A:night":
        divine = [{"card": s, "to": [next(c for c in living if c != s)]} for s in o["seers"]]
        guard = [
            {"card": h, "to": [next(c for c in living if c not in (h, o["forbidden"].get(h)))]}
            for h in o["hunters"]
        ]
        return [write("A:night", {"do": "night", "divine": divine, "guard": guard})]
    if legal.turn == "B:answer":
        return [["騙りなし"]]
    if legal.turn == "B:pp":
        return [["PP なし"]]
    if legal.turn == "B:night":
        move = {
            "do": "night",
            "attack": o["attack"][0],
            "divine": [
                {"card": w, "target": to[0], "result": "human"}
                for w, to in sorted(o["divine"].items())
            ],
            "medium": [{"card": w, "result": "human"} for w in o["medium"]],
            "guard": [{"card": w, "target": to[0]} for w, to in sorted(o["guard"].items())],
        }
        return [write("B:night", move)]
    return []


def board_text(game: Duel, side: str) -> list[str]:
    """The board as ``side`` sees it now (its view only: RULES-DUEL §8), a line each: the
    day and the turn, the living cards, the claims, what the side alone knows, today's
    public record and, once over, the result (decision duel 95)."""
    seen = view(game, side)
    lines = [f"{seen['day']}日目・{labels.TURN_LABELS.get(seen['next'] or '', '対局終了')}"]
    lines.append(f"生存: {labels.cards(seen['alive'])}")
    claims = [labels.claim_text(c) for c in seen["claims"].values()]
    if claims:
        lines.append("CO: " + " / ".join(claims))
    if seen.get("masons"):
        lines.append(f"共有者(あなただけが知っています): {labels.cards(seen['masons'])}")
    if seen.get("wolves"):
        lines.append(f"人狼(あなただけが知っています): {labels.cards(seen['wolves'])}")
    today = [e for e in seen["events"] if e["day"] == seen["day"]]
    for event in today:
        lines += labels.event_lines(event)
    ending = seen["ending"]
    if ending is not None:
        won = {"A": "village", "B": "wolves"}[side] == ending["winner"]
        at = labels.AT_LABELS.get(ending["at"], ending["at"])
        lines.append(
            f"対局終了: {labels.WINNER_LABELS[ending['winner']]}で、あなたの"
            f"{'勝ち' if won else '負け'}です({ending['day']}日目・{at})"
        )
    return lines
