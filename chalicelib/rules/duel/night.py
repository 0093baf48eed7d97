"""The night: A's orders, B's night, the real seer's and hunter's draws, resolution and
the morning report (RULES-DUEL §6)."""

from collections.abc import Mapping
from typing import Any

from .draws import Draws
from .errors import MoveError
from .questions import card_list, open_request
from .reports import check_keys, divined_by, fixed_color
from .roles import COLORS, GJ_CO_EXTRAS, WHITE, color_of, request_sort
from .state import Duel, copy_json

# ----- A's orders (§6.1) -----


def known_last_guard(duel: Duel, card: int) -> int | None:
    """Claimer ``card``'s last-night target when A knows it: reported, or a one-card order."""
    night = duel.day - 1
    if night < 1:
        return None
    for item in duel.claims[card].get("guards", []):
        if item["night"] == night:
            return int(item["target"])
    for entry in duel.orders[night - 1]["guard"]:
        if entry["card"] == card and len(entry["to"]) == 1:
            return int(entry["to"][0])
    return None


def _weights(value: Any, size: int) -> list[int]:
    if value is None:
        return [1] * size
    if not isinstance(value, list) or len(value) != size:
        raise MoveError("weights は候補と同じ数だけ指定してください")
    for w in value:
        if not isinstance(w, int) or isinstance(w, bool) or w < 1:
            raise MoveError("weights は正の整数です")
    return list(value)


def _entries(move: Mapping[str, Any], key: str, claimers: list[int], what: str) -> dict[int, Any]:
    """Exactly one entry per claimer, by card."""
    entries = move.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise MoveError(f"{key} はリストで指定してください")
    by_card: dict[int, Any] = {}
    for entry in entries:
        card = entry.get("card")
        if card not in claimers:
            raise MoveError(f"{card} は{what}の対象ではありません")
        if card in by_card:
            raise MoveError(f"#{card} への{what}が重なっています")
        by_card[card] = entry
    for card in claimers:
        if card not in by_card:
            raise MoveError(f"#{card} への{what}がありません")
    return by_card


def latent_guard_open(duel: Duel) -> bool:
    """Latent-hunter and GJ-CO orders: a hunter in the deck, until a whole hunter request."""
    return duel.rules.has("hunter") and not duel.whole_hunter


def order_night(duel: Duel, move: Mapping[str, Any]) -> None:
    check_keys(move, ("do", "divine", "guard", "latent_divine", "latent_guard", "gj_co"))
    divine = []
    seers = duel.claimers("seer")
    for card, entry in sorted(_entries(move, "divine", seers, "占い指示").items()):
        check_keys(entry, ("card", "to"))
        to = card_list(duel, entry.get("to"), "占い候補")
        if card in to:
            raise MoveError(f"#{card} は自分自身を占えません")
        divine.append({"card": card, "to": to})
    guard = []
    hunters = duel.claimers("hunter", "gidra")
    for card, entry in sorted(_entries(move, "guard", hunters, "護衛指示").items()):
        check_keys(entry, ("card", "to", "weights"))
        to = card_list(duel, entry.get("to"), "護衛候補")
        if card in to:
            raise MoveError(f"#{card} は自分自身を守れません")
        if not duel.rules.consecutive_guard:
            last = known_last_guard(duel, card)
            if last is not None and last in to:
                raise MoveError(
                    f"連続護衛なしなので、#{card} に昨夜と同じ #{last} は指示できません"
                )
        guard.append({"card": card, "to": to, "weights": _weights(entry.get("weights"), len(to))})
    latent_divine = None
    if "latent_divine" in move:
        if not duel.rules.has("seer") or duel.whole_seer:
            raise MoveError("いまは潜伏中の占い師に指示できません")
        latent_divine = card_list(duel, move["latent_divine"], "潜伏占い師の候補")
    latent_guard: Any = None
    if "latent_guard" in move:
        if not latent_guard_open(duel):
            raise MoveError("いまは潜伏中の狩人に指示できません")
        value = move["latent_guard"]
        if value == "same":
            if not duel.rules.consecutive_guard or duel.day < 2:
                raise MoveError("「昨夜と同じ」は連続護衛ありの2晩目からです")
            latent_guard = "same"
        elif isinstance(value, Mapping):
            check_keys(value, ("to", "weights"))
            to = card_list(duel, value.get("to"), "潜伏狩人の候補")
            latent_guard = {"to": to, "weights": _weights(value.get("weights"), len(to))}
        else:
            raise MoveError('latent_guard は {"to": [...]} か "same" です')
    gj_co = None
    if "gj_co" in move:
        if not latent_guard_open(duel):
            raise MoveError("いまはGJならCOを指示できません")
        value = move["gj_co"]
        if not isinstance(value, Mapping):
            raise MoveError('gj_co は {"card": c, "roles": [...]} です')
        check_keys(value, ("card", "roles"))
        card = card_list(duel, [value.get("card")], "GJならCOのカード")[0]
        extras = value.get("roles", [])
        allowed = [r for r in GJ_CO_EXTRAS if duel.rules.has(r)]
        if not isinstance(extras, list) or any(r not in allowed for r in extras):
            raise MoveError(f"GJならCOで一緒に要請できるのは {'・'.join(allowed) or 'なし'} です")
        if len(set(extras)) != len(extras):
            raise MoveError("同じ役職が重なっています")
        hunter = "gidra" if duel.rules.gidra else "hunter"
        gj_co = {"card": card, "roles": request_sort([*extras, hunter])}
    orders = {
        "type": "orders",
        "day": duel.day,
        "divine": divine,
        "guard": guard,
        "latent_divine": latent_divine,
        "latent_guard": latent_guard,
        "gj_co": gj_co,
    }
    duel.orders.append(orders)
    duel.events.append(copy_json(orders))
    duel.phase = "B:night"


# ----- B's night (§6.2) -----


def _color(value: Any) -> str:
    if value not in COLORS:
        raise MoveError("結果は human(白)か wolf(黒)で指定してください")
    return str(value)


def b_night(duel: Duel, move: Mapping[str, Any], draws: Draws) -> None:
    check_keys(move, ("do", "attack", "divine", "medium", "guard", "madman"))
    orders = duel.orders[-1]
    attack = move.get("attack")
    if not isinstance(attack, int) or isinstance(attack, bool) or attack not in duel.alive:
        raise MoveError("襲撃先は生きているカードから選んでください")
    if duel.cards[attack] == "werewolf":
        raise MoveError("人狼は襲撃できません")
    wolves = set(duel.wolves)
    fake: dict[str, dict[int, Any]] = {"divine": {}, "medium": {}, "guard": {}}
    candidates = {e["card"]: e["to"] for e in orders["divine"]}
    seers = [c for c in duel.claimers("seer") if c in wolves]
    for card, entry in _entries(move, "divine", seers, "占い結果").items():
        check_keys(entry, ("card", "target", "result"))
        if entry.get("target") not in candidates[card]:
            raise MoveError(f"#{card} の占い先は指示された候補から選んでください")
        fake["divine"][card] = {"target": entry["target"], "result": _color(entry.get("result"))}
    mediums = [c for c in duel.claimers("medium") if c in wolves]
    for card, entry in _entries(move, "medium", mediums, "霊能結果").items():
        check_keys(entry, ("card", "result"))
        fake["medium"][card] = _color(entry.get("result"))
    guard_to = {e["card"]: e["to"] for e in orders["guard"]}
    hunters = [c for c in duel.claimers("hunter") if c in wolves]
    for card, entry in _entries(move, "guard", hunters, "護衛先").items():
        check_keys(entry, ("card", "target"))
        if entry.get("target") not in guard_to[card]:
            raise MoveError(f"#{card} の護衛先は指示された候補から選んでください")
        fake["guard"][card] = entry["target"]
    madman = move.get("madman", {})
    if not isinstance(madman, Mapping):
        raise MoveError("madman は {divine, medium} です")
    check_keys(madman, ("divine", "medium"))
    mad_colors = {k: _color(madman.get(k, WHITE)) for k in ("divine", "medium")}
    resolve(duel, attack, fake, mad_colors, draws)


# ----- what is drawn, resolution and the morning (§6.2, §6.3) -----


def seer_target(duel: Duel, orders: Mapping[str, Any], draws: Draws) -> int | None:
    seer = duel.living_card_of("seer")
    if seer is None:
        return None
    others = [c for c in duel.living() if c != seer]
    if seer in duel.claims:
        to = next(e["to"] for e in orders["divine"] if e["card"] == seer)
        return draws.card("seer", to)
    latent = [c for c in orders["latent_divine"] or [] if c != seer]
    if latent:
        return draws.card("seer", latent)
    assert duel.oracle is not None
    seen = {duel.oracle["target"], *(r["seer"] for r in duel.nights if r["seer"] is not None)}
    fresh = [c for c in others if c not in seen]
    return draws.card("seer", fresh or others)


def hunter_target(duel: Duel, orders: Mapping[str, Any], draws: Draws) -> tuple[int | None, bool]:
    """The real hunter's guard tonight and whether it fizzles."""
    hunter = duel.living_card_of("hunter")
    if hunter is None:
        return None, False
    cg = duel.rules.consecutive_guard
    last = duel.nights[-1]["guard"] if duel.nights else None
    if hunter in duel.claims:
        entry = next(e for e in orders["guard"] if e["card"] == hunter)
        target = draws.card("guard", entry["to"], entry["weights"])
        return target, not cg and target == last
    order = orders["latent_guard"]
    if order == "same":
        if last is not None and last in duel.alive:
            return last, False
    elif order:
        pairs = [(c, w) for c, w in zip(order["to"], order["weights"], strict=True) if c != hunter]
        if pairs:
            target = draws.card("guard", [c for c, _ in pairs], [w for _, w in pairs])
            return target, not cg and target == last
    excluded = {hunter} | ({last} if not cg and last is not None else set())
    return auto_guard(duel, orders, excluded, draws), False


def auto_guard(duel: Duel, orders: Mapping[str, Any], excluded: set[int], draws: Draws) -> int:
    """おまかせ (§6.2): the claimers' orders, else ① one seer claimer ② one medium ③ uniform."""
    if orders["guard"]:
        weights: dict[int, int] = {}
        for entry in orders["guard"]:
            for c, w in zip(entry["to"], entry["weights"], strict=True):
                if c not in excluded:
                    weights[c] = weights.get(c, 0) + w
        if weights:
            cards = sorted(weights)
            return draws.card("guard", cards, [weights[c] for c in cards])
    else:
        for role in ("seer", "medium"):
            claimers = duel.claimers(role)
            if len(claimers) == 1 and claimers[0] not in excluded:
                return claimers[0]
    return draws.card("guard", [c for c in duel.living() if c not in excluded])


def resolve(
    duel: Duel,
    attack: int,
    fake: Mapping[str, Mapping[int, Any]],
    mad_colors: Mapping[str, str],
    draws: Draws,
) -> None:
    night = duel.day
    orders = duel.orders[-1]
    duel.nights_alive.append(duel.living())
    hunter = duel.living_card_of("hunter")
    latent_hunter = hunter is not None and hunter not in duel.claims
    seen = seer_target(duel, orders, draws)
    guard, fizzled = hunter_target(duel, orders, draws)
    dead: set[int] = set()
    fox = duel.living_card_of("fox")
    if seen is not None and seen == fox:
        dead.add(seen)  # the curse (§6.3.1)
    gj = False
    if attack != fox:
        if guard == attack and not fizzled:
            gj = True
        else:
            dead.add(attack)
            if duel.cards[attack] == "cat":
                dead.add(draws.card("cat", [c for c in duel.wolves if c in duel.alive]))
    duel.nights.append(
        {
            "night": night,
            "seer": seen,
            "guard": guard,
            "fizzled": fizzled,
            "attack": attack,
            "gj": gj,
        }
    )
    duel.alive -= dead
    duel.day = night + 1
    morning = morning_report(duel, orders, sorted(dead), fake, mad_colors, draws)
    duel.events.append(morning)
    if duel.check_victory("morning"):
        return
    gj_co = orders["gj_co"]
    if gj and latent_hunter and gj_co is not None and attack == gj_co["card"]:
        open_request(duel, list(gj_co["roles"]), None, auto=True)
    else:
        duel.phase = "A:day"


def morning_report(
    duel: Duel,
    orders: Mapping[str, Any],
    dead: list[int],
    fake: Mapping[str, Mapping[int, Any]],
    mad_colors: Mapping[str, str],
    draws: Draws,
) -> dict[str, Any]:
    record = duel.nights[-1]
    night = record["night"]
    p = duel.rules.fox_black
    divine = []
    for card in duel.claimers("seer"):
        true = duel.cards[card]
        claim = duel.claims[card]
        if true == "seer":
            target = record["seer"]
            result = color_of(duel.cards[target])
        elif true == "werewolf":
            target, result = fake["divine"][card]["target"], fake["divine"][card]["result"]
        else:
            to = next(e["to"] for e in orders["divine"] if e["card"] == card)
            kind = "madman" if true == "madman" else "fox"
            target = draws.card(kind, to)
            fixed = fixed_color(duel, divined_by(claim), target, record["attack"])
            if fixed is not None:
                result = fixed
            elif true == "madman":
                result = mad_colors["divine"]
            else:
                result = draws.color("fox", p)
        claim.setdefault("nights", []).append({"night": night, "target": target, "result": result})
        divine.append({"card": card, "target": target, "result": result})
    medium = []
    executed = duel.executions[-1]
    for card in duel.claimers("medium"):
        true = duel.cards[card]
        target = executed["card"]
        if true == "medium":
            result = color_of(duel.cards[target])
        elif true == "werewolf":
            result = fake["medium"][card]
        elif duel.cards[target] == "mason":
            result = WHITE
        elif true == "madman":
            result = mad_colors["medium"]
        else:
            result = draws.color("fox", p)
        duel.claims[card].setdefault("results", []).append(
            {"day": executed["day"], "target": target, "result": result}
        )
        medium.append({"card": card, "target": target, "result": result})
    guard = []
    if not dead:
        for card in duel.claimers("hunter"):
            true = duel.cards[card]
            if true == "hunter":
                target = record["guard"]
            elif true == "werewolf":
                target = fake["guard"][card]
            else:
                entry = next(e for e in orders["guard"] if e["card"] == card)
                target = draws.card("madman", entry["to"], entry["weights"])
            duel.claims[card].setdefault("guards", []).append({"night": night, "target": target})
            guard.append({"card": card, "target": target})
    return {
        "type": "morning",
        "day": duel.day,
        "dead": dead,
        "divine": divine,
        "medium": medium,
        "guard": guard,
    }
