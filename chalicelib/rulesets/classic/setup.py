"""A classic village's GM options (RULES-CLASSIC §7) from the GM's command line or lambda event.

Everything is checked before anything is created: a bad option is one clear Japanese sentence
(a ``SetupError``), and nothing is written.
"""

from collections.abc import Mapping
from typing import Any

from ...rules.classic import Options
from ...rules.classic.errors import SetupError

TEMPLATE_LENGTH = 5000  # characters of the GM's template (the first public post)

# The GM's keys (the lambda event's, and the command line's with "-" for "_").
FLAGS = (
    "pace",
    "opening",
    "npc_villager",
    "tie",
    "heaven_sees_all",
    "early_close",
    "min_members",
    "sunset",
)


def options(event: Mapping[str, Any]) -> Options:
    """The village's options: §7's defaults for the pace, overridden by what the GM gave
    (absent or None: the default). ``sunset`` is for long villages only."""
    given = {key: event[key] for key in FLAGS if event.get(key) is not None}
    pace = given.pop("pace", "short")
    if "sunset" in given and pace != "long":
        raise SetupError("日没の時刻（--sunset）は長期の村だけで指定できます")
    if isinstance(given.get("min_members"), str):
        try:
            given["min_members"] = int(given["min_members"])
        except ValueError:
            raise SetupError("最少人数は数字で指定してください") from None
    return Options.create(str(pace), **given)


def template(text: str | None) -> str:
    """The GM's template, trimmed; at most ``TEMPLATE_LENGTH`` characters."""
    text = (text or "").strip()
    if len(text) > TEMPLATE_LENGTH:
        raise SetupError(f"テンプレートは{TEMPLATE_LENGTH}文字までです")
    return text
