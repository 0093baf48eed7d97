"""A classic village's GM options (RULES-CLASSIC §7 and the template), declared once for the
GM lambda, the command line and the 村建て page (``rulesets.options``).

Everything is checked before anything is created: a bad option is one clear Japanese sentence
(a ``SetupError``), and nothing is written.
"""

from collections.abc import Mapping
from typing import Any

from ...rules.classic import Options, TieRule
from ...rules.classic.cast import MAX_PLAYERS, MIN_PLAYERS
from ...rules.classic.errors import SetupError
from ..options import Option, read
from . import LABEL
from .labels import TIE_LABELS

TEMPLATE_LENGTH = 5000  # characters of the GM's template (the first public post)


def _both(value: Any) -> dict[str, Any]:
    return {"short": value, "long": value}


# §7's table, in its order, then the template; defaults by pace as §7 gives them.
OPTIONS = (
    Option("opening", "1日目（投票なしで話す日）", "flag", _both(False)),
    Option("npc_villager", "身代わり君は必ず村人", "flag", _both(False)),
    Option(
        "tie",
        "同票のとき",
        "choice",
        {"short": "bbs", "long": "random"},
        choices=tuple((str(rule), TIE_LABELS[rule]) for rule in TieRule),
    ),
    Option("heaven_sees_all", "墓下から全部見える", "flag", _both(True)),
    Option(
        "early_close",
        "全員がそろったら早く締める",
        "flag",
        {"short": True, "long": False},
        note="投票がそろった投票回と、能力がそろった2日目以降の夜",
    ),
    Option(
        "min_members",
        "最少人数",
        "number",
        _both(MIN_PLAYERS),
        minimum=MIN_PLAYERS,
        maximum=MAX_PLAYERS,
    ),
    Option("sunset", "日没の時刻（日本時間）", "time", _both("22:00"), paces=("long",)),
    Option(
        "template",
        "テンプレート（最初の表の書き込み）",
        "text",
        _both(""),
        maximum=TEMPLATE_LENGTH,
        note="この村のルールや注意。村が作られたとき表に書き込まれます",
    ),
)


def checked(pace: str, given: Mapping[str, Any]) -> tuple[Options, str]:
    """The village's options (§7's defaults for the pace, overridden by what the GM gave) and
    its template."""
    try:
        typed = read(LABEL, OPTIONS, pace, given)
    except ValueError as error:
        raise SetupError(str(error)) from None
    template = typed.pop("template", "")
    return Options.create(pace, **typed), template
