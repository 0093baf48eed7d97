"""A rule set's GM options, declared once (``RuleSet.options``).

The GM lambda, the command line (``--key`` / ``--no-key``, ``--key-file`` for a text) and the
村建て page all read the same declaration; ``read`` turns what each of them gives (JSON from the
lambda, strings from a form or a command line) into typed values, with one Japanese sentence for
anything wrong. Adding an option is adding one ``Option`` to the rule set's ``options`` (and
using its value in the rule set's ``check_setup``/``create``).
"""

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from msgspec import Struct

from ..labels import PACE_LABELS

PACES = ("short", "long")
Kind = Literal["flag", "choice", "number", "time", "text"]

_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class Option(Struct, frozen=True):
    key: str  # the lambda's key; the command line's ``--key`` (``_`` as ``-``); the form's field
    label: str  # the 村建て page's label and the refusals' subject, in Japanese
    kind: Kind
    default: Mapping[str, Any]  # by pace ("short", "long"); a text's default is ""
    choices: tuple[tuple[str, str], ...] = ()  # a choice's (value, Japanese words)
    minimum: int = 0  # a number's range, or a text's length (maximum)
    maximum: int = 0
    paces: tuple[str, ...] = PACES  # the paces it may be given for
    note: str = ""  # one line under the field on the 村建て page

    def read(self, value: object) -> Any:
        """The typed value of what was given (``ValueError``: a Japanese sentence)."""
        if self.kind == "flag":
            if isinstance(value, bool):
                return value
            if value in ("true", "false"):  # a form's or a command line's words
                return value == "true"
            raise ValueError(f"{self.label}は「する」か「しない」で指定してください")
        if self.kind == "choice":
            for choice, _words in self.choices:
                if value == choice:
                    return choice
            allowed = "・".join(c for c, _words in self.choices)
            raise ValueError(f"{self.label}は {allowed} のいずれかです（「{value}」は使えません）")
        if self.kind == "number":
            number = _integer(value)
            if number is None or not self.minimum <= number <= self.maximum:
                raise ValueError(f"{self.label}は{self.minimum}から{self.maximum}までの数です")
            return number
        if self.kind == "time":
            if not isinstance(value, str) or not _TIME.match(value.strip()):
                raise ValueError(f"{self.label}は 22:00 のように HH:MM で指定してください")
            return value.strip()
        if not isinstance(value, str):
            raise ValueError(f"{self.label}は文字で指定してください")
        text = value.replace("\r\n", "\n").strip()
        if len(text) > self.maximum:
            raise ValueError(f"{self.label}は{self.maximum}文字までです")
        return text

    def words(self, value: Any) -> str:
        """A value as the 村建て page's preview says it."""
        if self.kind == "flag":
            return "する" if value else "しない"
        if self.kind == "choice":
            return dict(self.choices).get(value, str(value))
        return str(value)


def read(
    label: str, options: Sequence[Option], pace: str, given: Mapping[str, Any]
) -> dict[str, Any]:
    """The options given (absent, None or empty: the default), typed and checked: a key the
    rule set does not declare, or one given for a pace it is not for, is refused."""
    declared = {option.key: option for option in options}
    typed: dict[str, Any] = {}
    for key, value in given.items():
        if value is None or value == "":
            continue
        option = declared.get(key)
        if option is None:
            raise ValueError(f"{label}の村には「{key}」という設定はありません")
        if pace not in option.paces:
            paces = "・".join(PACE_LABELS[p] for p in option.paces)
            raise ValueError(f"{option.label}（{key}）は{paces}の村だけで指定できます")
        typed[key] = option.read(value)
    return typed


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    return None
