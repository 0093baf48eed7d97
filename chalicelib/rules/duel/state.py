"""The state of one duel (RULES-DUEL §1–§3, §7) and its exact JSON round trip.

Pure: no I/O, no clock, no global random. Every draw goes through a
:class:`~.draws.Draws` made from the caller's ``random.Random``.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct, field

from .deck import NEVER_MISSING, Rules
from .draws import Draws
from .errors import SetupError
from .roles import ROLES, color_of, is_human


class Duel(Struct):
    """One game. Cards are ints (0 the first victim); claims are public records."""

    rules: Rules
    cards: list[str | None]
    alive: set[int]
    oracle: dict[str, Any] | None  # the real seer's first-day result
    fox_mode: str | None
    day: int = 1
    phase: str = "A:day"  # whose move (§9 `next`): A:day, B:answer, B:pp, A:night, B:night; "end"
    fox_oracle: dict[str, Any] | None = None  # drawn when first needed (§9 `fox`)
    claims: dict[int, dict[str, Any]] = field(default_factory=dict)  # with every report so far
    asked: set[tuple[int, str]] = field(default_factory=set)
    whole_seer: bool = False  # a whole request with seer was made (ends latent seer orders)
    whole_hunter: bool = False  # a whole request with hunter/gidra was made
    black_seer_done: bool = False
    madman_used: bool = False
    question: dict[str, Any] | None = None  # the request B answers now
    executions: list[dict[str, int]] = field(default_factory=list)  # {"day", "card"}
    pending_pp: dict[str, Any] | None = None  # {"card", "offered"}
    orders: list[dict[str, Any]] = field(default_factory=list)  # the orders event, per night
    nights_alive: list[list[int]] = field(default_factory=list)  # living cards, per night
    nights: list[dict[str, Any]] = field(default_factory=list)  # review records, per night
    events: list[dict[str, Any]] = field(default_factory=list)  # public, in order
    guesses: list[dict[str, Any]] = field(default_factory=list)  # B's PP guesses
    ending: dict[str, Any] | None = None

    # ----- setup (§3) -----

    @classmethod
    def setup(
        cls,
        rules: Rules,
        draws: Draws,
        wolves: Sequence[int] | None = None,
        cards: Sequence[str | None] | None = None,
    ) -> "Duel":
        """Places the werewolves, deals, draws the first-day divination and the fox mode."""
        board = rules.board
        if cards is not None:
            dealt = checked_cards(rules, cards)
            placed = [c for c in range(1, board + 1) if dealt[c] == "werewolf"]
            if wolves is not None and sorted(wolves) != placed:
                raise SetupError("wolves が cards の人狼の位置と一致しません")
        else:
            placed = (
                sorted(draws.rng.sample(range(1, board + 1), rules.wolves))
                if wolves is None
                else checked_wolves(rules, wolves)
            )
            dealt = deal(rules, placed, draws)
        duel = cls(
            rules=rules,
            cards=dealt,
            alive=set(range(1, board + 1)),
            oracle=None,
            fox_mode=None,
        )
        seer = duel.card_of("seer")
        if seer is not None:
            fox = duel.card_of("fox")
            support = [
                c
                for c in range(1, board + 1)
                if c not in (seer, fox)
                and not (rules.first_day == "white" and dealt[c] == "werewolf")
            ]
            target = draws.card("oracle", support)
            duel.oracle = {"target": target, "result": color_of(dealt[target])}
        if duel.card_of("fox") is not None:
            modes = ["latent"] + [r for r in ("seer", "medium") if rules.has(r)]
            duel.fox_mode = draws.option("fox_mode", modes)
        if rules.missing:
            duel.events.append({"type": "first_victim", "day": 1, "card": 0})
        return duel

    # ----- reading the state -----

    @property
    def board(self) -> int:
        return self.rules.board

    @property
    def wolves(self) -> list[int]:
        return [c for c in range(1, self.board + 1) if self.cards[c] == "werewolf"]

    @property
    def masons(self) -> list[int]:
        return [c for c in range(1, self.board + 1) if self.cards[c] == "mason"]

    def living(self) -> list[int]:
        return sorted(self.alive)

    def card_of(self, role: str) -> int | None:
        """The board card of a single role, or None (not in the deck, or missing)."""
        for c in range(1, self.board + 1):
            if self.cards[c] == role:
                return c
        return None

    def living_card_of(self, role: str) -> int | None:
        card = self.card_of(role)
        return card if card is not None and card in self.alive else None

    def claimers(self, *roles: str) -> list[int]:
        """Living cards whose current claim is one of ``roles``, ascending."""
        return sorted(
            c for c, claim in self.claims.items() if c in self.alive and claim["role"] in roles
        )

    def unclaimed(self) -> list[int]:
        return [c for c in self.living() if c not in self.claims]

    def winner(self) -> str | None:
        """§7 on the living cards."""
        wolves = sum(1 for c in self.alive if self.cards[c] == "werewolf")
        humans = sum(1 for c in self.alive if is_human(self.cards[c]))
        fox = any(self.cards[c] == "fox" for c in self.alive)
        if wolves == 0:
            return "fox" if fox else "village"
        if wolves >= humans:
            return "fox" if fox else "wolves"
        return None

    def check_victory(self, at: str) -> bool:
        winner = self.winner()
        if winner is None:
            return False
        self.ending = {"winner": winner, "day": self.day, "at": at}
        self.phase = "end"
        self.question = None
        return True

    # ----- JSON -----

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "cards": list(self.cards),
            "alive": sorted(self.alive),
            "oracle": copy_json(self.oracle),
            "fox_mode": self.fox_mode,
            "day": self.day,
            "phase": self.phase,
            "fox_oracle": copy_json(self.fox_oracle),
            "claims": {str(c): copy_json(claim) for c, claim in sorted(self.claims.items())},
            "asked": [[c, r] for c, r in sorted(self.asked)],
            "whole_seer": self.whole_seer,
            "whole_hunter": self.whole_hunter,
            "black_seer_done": self.black_seer_done,
            "madman_used": self.madman_used,
            "question": copy_json(self.question),
            "executions": copy_json(self.executions),
            "pending_pp": copy_json(self.pending_pp),
            "orders": copy_json(self.orders),
            "nights_alive": copy_json(self.nights_alive),
            "nights": copy_json(self.nights),
            "events": copy_json(self.events),
            "guesses": copy_json(self.guesses),
            "ending": copy_json(self.ending),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Duel":
        return cls(
            rules=Rules.from_json(data["rules"]),
            cards=list(data["cards"]),
            alive=set(data["alive"]),
            oracle=copy_json(data["oracle"]),
            fox_mode=data["fox_mode"],
            day=data["day"],
            phase=data["phase"],
            fox_oracle=copy_json(data["fox_oracle"]),
            claims={int(c): copy_json(claim) for c, claim in data["claims"].items()},
            asked={(c, r) for c, r in data["asked"]},
            whole_seer=data["whole_seer"],
            whole_hunter=data["whole_hunter"],
            black_seer_done=data["black_seer_done"],
            madman_used=data["madman_used"],
            question=copy_json(data["question"]),
            executions=copy_json(data["executions"]),
            pending_pp=copy_json(data["pending_pp"]),
            orders=copy_json(data["orders"]),
            nights_alive=copy_json(data["nights_alive"]),
            nights=copy_json(data["nights"]),
            events=copy_json(data["events"]),
            guesses=copy_json(data["guesses"]),
            ending=copy_json(data["ending"]),
        )


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (lists, dicts, scalars)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def checked_wolves(rules: Rules, wolves: Sequence[int]) -> list[int]:
    board = rules.board
    if not isinstance(wolves, list) or any(
        not isinstance(c, int) or isinstance(c, bool) for c in wolves
    ):
        raise SetupError('wolves はカード番号のリストか "random" で指定してください')
    if len(set(wolves)) != len(wolves) or len(wolves) != rules.wolves:
        raise SetupError(f"人狼は異なる{rules.wolves}枚のカードに置いてください")
    for c in wolves:
        if not 1 <= c <= board:
            raise SetupError(f"#{c} は盤面のカードではありません(1〜{board})")
    return sorted(wolves)


def checked_cards(rules: Rules, cards: Sequence[str | None]) -> list[str | None]:
    """A full deal given by hand: M+1 roles, index 0 the first victim or null."""
    if not isinstance(cards, list) or len(cards) != rules.board + 1:
        raise SetupError(f"cards は {rules.board + 1} 個の役職のリストにしてください")
    if rules.missing:
        if cards[0] is None or cards[0] in NEVER_MISSING:
            raise SetupError("初日犠牲者(cards[0])は人狼・妖狐・猫又・共有者以外の役職です")
    elif cards[0] is not None:
        raise SetupError("欠けなしでは cards[0] は null です")
    used = [r for r in cards if r is not None]
    for role in used:
        if role not in ROLES:
            raise SetupError(f"「{role}」という役職はありません")
    counts = {role: used.count(role) for role in ROLES if role in used}
    if counts != dict(rules.deck):
        raise SetupError("cards が配役と一致しません")
    return list(cards)


def deal(rules: Rules, wolves: list[int], draws: Draws) -> list[str | None]:
    """§3.2: the first victim among the eligible cards, then a uniform shuffle."""
    rest = [role for role, n in rules.deck for _ in range(n) if role != "werewolf"]
    first: str | None = None
    if rules.missing:
        eligible = [i for i, role in enumerate(rest) if role not in NEVER_MISSING]
        first = rest.pop(eligible[draws.rng.randrange(len(eligible))])
    draws.rng.shuffle(rest)
    cards: list[str | None] = [first]
    for c in range(1, rules.board + 1):
        cards.append("werewolf" if c in wolves else rest.pop())
    return cards
