"""A's questions and B's answers (RULES-DUEL §4.1–§4.4)."""

from collections.abc import Mapping
from typing import Any

from .draws import Draws
from .errors import MoveError
from .reports import (
    check_keys,
    check_madman_entry,
    fox_claim,
    fox_first_day,
    madman_claim,
    madman_first_day,
    madman_guards,
    real_claim,
    wolf_claim,
    wolf_guards,
)
from .roles import BLACK, request_sort
from .state import Duel


def card_list(duel: Duel, value: Any, what: str) -> list[int]:
    """A non-empty list of distinct living board cards."""
    if not isinstance(value, list) or not value:
        raise MoveError(f"{what}を1枚以上選んでください")
    for c in value:
        if not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= duel.board:
            raise MoveError(f"{c} は盤面のカードではありません")
        if c not in duel.alive:
            raise MoveError(f"#{c} はもう死んでいます")
    if len(set(value)) != len(value):
        raise MoveError(f"{what}に同じカードが重なっています")
    return list(value)


# ----- A's questions -----


def ask_co(duel: Duel, move: Mapping[str, Any]) -> None:
    """§4.1 CO request, whole or a range."""
    check_keys(move, ("do", "roles", "cards"))
    roles = move.get("roles")
    requestable = duel.rules.requestable()
    if not isinstance(roles, list) or not roles:
        raise MoveError("CO要請する役職を1つ以上選んでください")
    for role in roles:
        if role not in requestable:
            raise MoveError(f"「{role}」はこの配役ではCO要請できません")
    if len(set(roles)) != len(roles):
        raise MoveError("同じ役職が重なっています")
    cards: list[int] | None = None
    if "cards" in move:
        cards = sorted(card_list(duel, move["cards"], "範囲のカード"))
        for c in cards:
            if c in duel.claims:
                raise MoveError(f"#{c} はすでに名乗り出ています")
    open_request(duel, request_sort(list(roles)), cards, auto=False)


def open_request(duel: Duel, roles: list[str], cards: list[int] | None, *, auto: bool) -> None:
    scope = duel.unclaimed() if cards is None else cards
    new = [(c, r) for c in scope for r in roles if (c, r) not in duel.asked]
    if not new:
        raise MoveError("新しく聞ける組み合わせがありません(すべて聞いたことがあります)")
    duel.asked.update(new)
    pairs = [[c, r] for c, r in new]
    if cards is None:
        duel.whole_seer = duel.whole_seer or "seer" in roles
        duel.whole_hunter = duel.whole_hunter or "hunter" in roles or "gidra" in roles
    duel.question = {
        "do": "co",
        "request": {"roles": roles, "cards": cards, "auto": auto, "black_only": False},
        "pairs": pairs,
    }
    duel.phase = "B:answer"


def ask_black_seer(duel: Duel, move: Mapping[str, Any]) -> None:
    """§4.2, once on day 1 before any seer pair was asked."""
    check_keys(move, ("do",))
    if not duel.rules.black_seer_co:
        raise MoveError("この配役には黒引き占い師のみCO要請はありません")
    if duel.black_seer_done:
        raise MoveError("黒引き占い師のみCO要請は1回だけです")
    if duel.day != 1:
        raise MoveError("黒引き占い師のみCO要請は1日目だけです")
    if any(r == "seer" for _, r in duel.asked):
        raise MoveError("占い師のCO要請をしたあとでは、黒引き占い師のみCO要請はできません")
    duel.black_seer_done = True
    duel.question = {
        "do": "co",
        "request": {"roles": ["seer"], "cards": None, "auto": False, "black_only": True},
        "pairs": [],
    }
    duel.phase = "B:answer"


def ask_named(duel: Duel, move: Mapping[str, Any]) -> None:
    """§4.3 named CO."""
    check_keys(move, ("do", "cards", "gidra"))
    cards = sorted(card_list(duel, move.get("cards"), "指名するカード"))
    for c in cards:
        if c in duel.claims:
            raise MoveError(f"#{c} はすでに名乗り出ています")
        if duel.cards[c] == "mason":
            raise MoveError(f"#{c} は共有者です。共有者には聞けません")
    gidra = move.get("gidra", False)
    if not isinstance(gidra, bool):
        raise MoveError("gidra は true か false です")
    if gidra and not duel.rules.gidra:
        raise MoveError("この配役にはギドラCOはありません")
    duel.question = {"do": "named", "cards": cards, "gidra": gidra}
    duel.phase = "B:answer"


def ask_release(duel: Duel, move: Mapping[str, Any]) -> None:
    """§4.4 gidra release."""
    check_keys(move, ("do",))
    if not duel.claimers("gidra"):
        raise MoveError("生きているギドラCO者がいないので、ギドラ解除要請はできません")
    duel.question = {"do": "release"}
    duel.phase = "B:answer"


# ----- B's answers -----


def answer(duel: Duel, move: Mapping[str, Any], draws: Draws) -> None:
    question = duel.question
    assert question is not None
    if question["do"] == "release":
        check_keys(move, ("do", "land"))
        land(duel, move.get("land", []), draws)
    else:
        check_keys(move, ("do", "claims"))
        entries = move.get("claims", [])
        if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
            raise MoveError("claims は名乗り出のリストです")
        if question["do"] == "named":
            answer_named(duel, question, entries, draws)
        elif question["request"]["black_only"]:
            answer_black_seer(duel, entries, draws)
        else:
            answer_co(duel, question, entries, draws)
    duel.question = None
    duel.phase = "A:day"


def _split(duel: Duel, entries: list[Mapping[str, Any]]) -> tuple[dict[int, Any], Any]:
    """B's entries by werewolf card, and the madman's entry (or None)."""
    wolves: dict[int, Mapping[str, Any]] = {}
    madman = None
    for entry in entries:
        card = entry.get("card")
        if card == "madman":
            if madman is not None:
                raise MoveError("狂人への指示は1つだけです")
            madman = entry
            continue
        if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= duel.board:
            raise MoveError(f"{card} は盤面のカードではありません")
        if duel.cards[card] != "werewolf":
            raise MoveError(f"#{card} は人狼ではありません")
        if card not in duel.alive:
            raise MoveError(f"#{card} はもう死んでいます")
        if card in wolves:
            raise MoveError(f"#{card} の名乗り出が重なっています")
        wolves[card] = entry
    return wolves, madman


def _spend_madman(duel: Duel) -> None:
    if duel.madman_used:
        raise MoveError("狂人に騙らせられるのは1回だけです。すでに使っています")
    duel.madman_used = True


def answer_co(
    duel: Duel, question: Mapping[str, Any], entries: list[Mapping[str, Any]], draws: Draws
) -> None:
    request = question["request"]
    roles: list[str] = request["roles"]
    pairs = {(c, r) for c, r in question["pairs"]}
    wolves, madman = _split(duel, entries)
    fakes: dict[int, dict[str, Any]] = {}
    for card, entry in wolves.items():
        role = entry.get("role")
        if role not in roles:
            raise MoveError(f"#{card} の役職は要請された役職から選んでください")
        if (card, role) not in pairs:
            raise MoveError(f"#{card} に{role}はこの要請で聞かれていません")
        fakes[card] = wolf_claim(duel, card, role, entry, black_only=False)
    if madman is not None:
        role = madman.get("role")
        if role not in roles:
            raise MoveError("狂人の役職は要請された役職から選んでください")
        check_madman_entry(duel, role, madman, black_only=False)
        _spend_madman(duel)
    claims: dict[int, dict[str, Any]] = {}
    for card in sorted({c for c, _ in pairs}):
        true = duel.cards[card]
        for role in roles:
            if (card, role) not in pairs:
                continue
            if true == role or (role == "gidra" and true in ("hunter", "cat")):
                claims[card] = real_claim(duel, card, role)
                break
            if true == "fox" and duel.fox_mode == role:
                claims[card] = fox_claim(duel, card, role, draws)
                break
    claims.update(fakes)
    mad = duel.living_card_of("madman")
    if madman is not None and mad is not None and (mad, madman["role"]) in pairs:
        claims[mad] = madman_claim(duel, mad, madman["role"], madman, draws, black_only=False)
    publish(duel, "co", claims, request=dict(request))


def answer_black_seer(duel: Duel, entries: list[Mapping[str, Any]], draws: Draws) -> None:
    wolves, madman = _split(duel, entries)
    claims: dict[int, dict[str, Any]] = {}
    for card, entry in wolves.items():
        if entry.get("role") != "seer":
            raise MoveError("黒引き占い師のみCO要請で名乗れるのは占い師だけです")
        if card in duel.claims:
            raise MoveError(f"#{card} はすでに名乗り出ています")
        claims[card] = wolf_claim(duel, card, "seer", entry, black_only=True)
    if madman is not None:
        if madman.get("role") != "seer":
            raise MoveError("黒引き占い師のみCO要請で名乗れるのは占い師だけです")
        check_madman_entry(duel, "seer", madman, black_only=True)
        _spend_madman(duel)
    seer = duel.living_card_of("seer")
    if seer is not None and seer not in duel.claims:
        assert duel.oracle is not None
        if duel.oracle["result"] == BLACK:
            claims[seer] = real_claim(duel, seer, "seer")
    fox = duel.living_card_of("fox")
    if (
        fox is not None
        and fox not in duel.claims
        and duel.fox_mode == "seer"
        and fox_first_day(duel, draws)["result"] == BLACK
    ):
        claims[fox] = fox_claim(duel, fox, "seer", draws)
    mad = duel.living_card_of("madman")
    if madman is not None and mad is not None and mad not in duel.claims:
        oracle = madman_first_day(duel, mad, BLACK, draws)
        if oracle["result"] == BLACK:  # turned white on a mason: stays latent (§4.2)
            claims[mad] = {"card": mad, "role": "seer", "oracle": oracle, "nights": []}
    request = {"roles": ["seer"], "cards": None, "auto": False, "black_only": True}
    publish(duel, "co", claims, request=request)


def answer_named(
    duel: Duel, question: Mapping[str, Any], entries: list[Mapping[str, Any]], draws: Draws
) -> None:
    named: list[int] = question["cards"]
    gidra: bool = question["gidra"]
    allowed = ["none", *duel.rules.claimable(), *(["gidra"] if gidra else [])]
    wolves, madman = _split(duel, entries)
    fakes: dict[int, dict[str, Any]] = {}
    for card, entry in wolves.items():
        if card not in named:
            raise MoveError(f"#{card} は指名されていません")
        role = entry.get("role")
        if role not in allowed:
            raise MoveError(f"#{card} の答えは {'・'.join(allowed)} から選んでください")
        fakes[card] = wolf_claim(duel, card, role, entry, black_only=False)
    for card in named:
        if duel.cards[card] == "werewolf" and card not in fakes:
            raise MoveError(f"指名された人狼 #{card} の答えがありません")
    mad_role = "none"
    if madman is not None:
        mad_role = madman.get("role", "none")
        if mad_role not in allowed:
            raise MoveError(f"狂人の答えは {'・'.join(allowed)} から選んでください")
        check_madman_entry(duel, mad_role, madman, black_only=False)
        if mad_role != "none":
            _spend_madman(duel)
    claims: dict[int, dict[str, Any]] = {}
    for card in named:
        true = duel.cards[card]
        if true in ("seer", "medium", "hunter", "cat"):
            role = "gidra" if gidra and true in ("hunter", "cat") else str(true)
            claims[card] = real_claim(duel, card, role)
        elif true == "fox":
            mode = duel.fox_mode or "latent"
            claims[card] = (
                {"card": card, "role": "none"}
                if mode == "latent"
                else fox_claim(duel, card, mode, draws)
            )
        elif true == "madman":
            entry = madman or {"card": "madman", "role": "none"}
            claims[card] = madman_claim(duel, card, mad_role, entry, draws, black_only=False)
        elif true != "werewolf":
            claims[card] = {"card": card, "role": "none"}
    claims.update(fakes)
    publish(duel, "named", claims, cards=named, gidra=gidra)


def land(duel: Duel, entries: Any, draws: Draws) -> None:
    """§4.4: every living gidra claimer lands at once."""
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise MoveError("land は着地のリストです")
    claimers = duel.claimers("gidra")
    wolves, madman = _split(duel, entries)
    landed: dict[int, dict[str, Any]] = {}
    for card, entry in wolves.items():
        if card not in claimers:
            raise MoveError(f"#{card} はギドラCOしていません")
        as_ = entry.get("as")
        if as_ not in ("hunter", "cat"):
            raise MoveError("着地は hunter か cat です")
        check_keys(entry, ("card", "as", "guards") if as_ == "hunter" else ("card", "as"))
        landed[card] = {"card": card, "role": as_}
        if as_ == "hunter":
            landed[card]["guards"] = wolf_guards(duel, card, entry)
    for card in claimers:
        if duel.cards[card] == "werewolf" and card not in landed:
            raise MoveError(f"ギドラCOした人狼 #{card} の着地がありません")
    mad_as = "cat"
    if madman is not None:
        check_keys(madman, ("card", "as"))
        mad_as = madman.get("as", "cat")
        if mad_as not in ("hunter", "cat"):
            raise MoveError("狂人の着地は hunter か cat です")
    for card in claimers:
        true = duel.cards[card]
        if true == "hunter":
            landed[card] = real_claim(duel, card, "hunter")
        elif true == "cat":
            landed[card] = {"card": card, "role": "cat"}
        elif true == "madman":
            landed[card] = {"card": card, "role": mad_as}
            if mad_as == "hunter":
                landed[card]["guards"] = madman_guards(duel, card, draws)
    for card, claim in landed.items():
        duel.claims[card] = claim
    lands = [dict(landed[c]) for c in sorted(landed)]
    duel.events.append({"type": "release", "day": duel.day, "lands": _copy_claims(lands)})


def publish(duel: Duel, kind: str, claims: dict[int, dict[str, Any]], **fields: Any) -> None:
    for card, claim in claims.items():
        duel.claims[card] = claim
    listed = _copy_claims([claims[c] for c in sorted(claims)])
    key = "claims" if kind == "co" else "answers"
    duel.events.append({"type": kind, "day": duel.day, **fields, key: listed})


def _copy_claims(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for claim in claims:
        copy = {}
        for key, value in claim.items():
            copy[key] = (
                [dict(v) for v in value]
                if isinstance(value, list)
                else (dict(value) if isinstance(value, dict) else value)
            )
        out.append(copy)
    return out
