"""Presets (配役), custom decks and their switches (RULES-DUEL §2)."""

from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from .errors import SetupError
from .roles import ROLES

SWITCHES = ("first_day", "black_seer_co", "consecutive_guard", "gidra", "pp", "missing")
# Roles that never go to the first victim (§3.2) and that a missing deck must have beside.
NEVER_MISSING = ("werewolf", "fox", "cat", "mason")
SINGLE = ("seer", "medium", "hunter", "madman", "cat", "fox")


class Rules(Struct, frozen=True):
    """A deck with its switches. ``deck`` is in table order without zero counts."""

    preset: str | None
    deck: tuple[tuple[str, int], ...]
    first_day: str = "white"
    black_seer_co: bool = False
    consecutive_guard: bool = True
    gidra: bool = False
    pp: bool = False
    missing: bool = False

    def count(self, role: str) -> int:
        return dict(self.deck).get(role, 0)

    def has(self, role: str) -> bool:
        return self.count(role) > 0

    @property
    def size(self) -> int:
        """Cards in the deck, the first victim's included."""
        return sum(n for _, n in self.deck)

    @property
    def board(self) -> int:
        """M: the board cards 1…M."""
        return self.size - (1 if self.missing else 0)

    @property
    def wolves(self) -> int:
        return self.count("werewolf")

    @property
    def fox_black(self) -> float:
        """p = W/(M−2) of §5: a fox's free color is black with this probability."""
        return self.wolves / (self.board - 2)

    def requestable(self) -> list[str]:
        """§4.1: the deck's roles among seer, medium, hunter; gidra replaces hunter."""
        roles = [r for r in ("seer", "medium") if self.has(r)]
        if self.has("hunter"):
            roles.append("gidra" if self.gidra else "hunter")
        return roles

    def claimable(self) -> list[str]:
        """§4.3: what a named werewolf (or the madman) may claim beside `none`."""
        return [r for r in ("seer", "medium", "hunter", "cat") if self.has(r)]

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "deck": dict(self.deck),
            "first_day": self.first_day,
            "black_seer_co": self.black_seer_co,
            "consecutive_guard": self.consecutive_guard,
            "gidra": self.gidra,
            "pp": self.pp,
            "missing": self.missing,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Rules":
        deck = tuple((r, int(data["deck"][r])) for r in ROLES if data["deck"].get(r))
        switches = {key: data[key] for key in SWITCHES}
        return cls(preset=data["preset"], deck=deck, **switches)


def _deck(**counts: int) -> tuple[tuple[str, int], ...]:
    return tuple((role, counts[role]) for role in ROLES if counts.get(role))


PRESETS: dict[str, Rules] = {
    "std9": Rules(
        "std9", _deck(villager=3, werewolf=2, seer=1, medium=1, hunter=1, madman=1), pp=True
    ),
    "10A": Rules(
        "10A", _deck(villager=4, werewolf=2, seer=1, medium=1, hunter=1, madman=1), missing=True
    ),
    "12A": Rules(
        "12A",
        _deck(villager=4, werewolf=3, seer=1, medium=1, hunter=1, madman=1, cat=1),
        first_day="black",
        gidra=True,
        missing=True,
    ),
    "12B": Rules(
        "12B",
        _deck(villager=5, werewolf=2, seer=1, medium=1, hunter=1, madman=1, fox=1),
        first_day="black",
        black_seer_co=True,
        missing=True,
    ),
    "17A": Rules(
        "17A",
        _deck(villager=7, werewolf=3, seer=1, medium=1, hunter=1, madman=1, mason=2, fox=1),
        first_day="black",
        missing=True,
    ),
}


def preset(name: str) -> Rules:
    if name not in PRESETS:
        raise SetupError(
            f"「{name}」という配役はありません。{'・'.join(PRESETS)} から選んでください"
        )
    return PRESETS[name]


def custom(spec: Mapping[str, Any]) -> Rules:
    """A custom deck (カスタム) with its switches; missing keys default, unknown keys refused."""
    if not isinstance(spec, Mapping):
        raise SetupError("カスタム配役はオブジェクトで指定してください")
    for key in spec:
        if key != "deck" and key not in SWITCHES:
            raise SetupError(f"カスタム配役に「{key}」という項目はありません")
    raw = spec.get("deck")
    if not isinstance(raw, Mapping):
        raise SetupError("カスタム配役には deck(役職ごとの枚数)が必要です")
    counts: dict[str, int] = {}
    for role, n in raw.items():
        if role not in ROLES:
            raise SetupError(f"「{role}」という役職はありません")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise SetupError(f"{role} の枚数は0以上の整数で指定してください")
        counts[role] = n
    first_day = spec.get("first_day", "white")
    if first_day not in ("white", "black"):
        raise SetupError("first_day は white か black です")
    flags: dict[str, bool] = {}
    defaults = {"black_seer_co": False, "consecutive_guard": True, "gidra": False, "pp": False}
    for key, default in {**defaults, "missing": False}.items():
        value = spec.get(key, default)
        if not isinstance(value, bool):
            raise SetupError(f"{key} は true か false で指定してください")
        flags[key] = value
    rules = Rules(None, _deck(**counts), first_day=first_day, **flags)
    check_custom(rules)
    return rules


def check_custom(rules: Rules) -> None:
    """The decided limits of §2."""
    if not 1 <= rules.wolves <= 3:
        raise SetupError("人狼は1〜3枚にしてください")
    for role in SINGLE:
        if rules.count(role) > 1:
            raise SetupError(f"{role} は0枚か1枚にしてください")
    if rules.count("mason") not in (0, 2):
        raise SetupError("共有者は0枚か2枚にしてください")
    if not 5 <= rules.size <= 20:
        raise SetupError("カードは5〜20枚にしてください")
    humans = rules.size - rules.wolves - rules.count("fox") - (1 if rules.missing else 0)
    if humans <= rules.wolves:
        raise SetupError("盤面の人間の数は人狼より多くしてください")
    if rules.missing and not any(n for role, n in rules.deck if role not in NEVER_MISSING):
        raise SetupError("欠けありでは、人狼・妖狐・猫又・共有者以外のカードが1枚以上必要です")
    if rules.black_seer_co and not (rules.has("seer") and rules.first_day == "black"):
        raise SetupError("黒引き占い師のみCO要請には占い師と初日黒ありが必要です")
    if rules.gidra and not (rules.has("hunter") and rules.has("cat")):
        raise SetupError("ギドラCOには狩人と猫又の両方が必要です")
    if rules.pp and not rules.has("madman"):
        raise SetupError("PP・RPPには狂人が必要です")
