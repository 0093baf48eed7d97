"""A phone's form, read into a structured move (RULES-DUEL §9 shapes).

Each form field names what it carries (``role.seer``, ``card.3``, ``guard.4.7`` = weight of
card 7 in the order to hunter claimer 4, …), because a plain HTML form sends one value per
name. Nothing here decides whether the move is legal: the engine's ``play`` does, and its
refusal is the player's sentence. Only the shape is read here, with its own refusals.
"""

from collections.abc import Mapping
from typing import Any

from chalicelib.rules.duel import MoveError


def _int(value: str | None, what: str) -> int:
    text = (value or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3:
        raise MoveError(f"{what}の指定が正しくありません")
    return int(text)


def ticked(form: Mapping[str, str], prefix: str) -> list[int]:
    """The cards ``<prefix>.<card>`` ticked on, ascending."""
    found = []
    for key, value in form.items():
        if key.startswith(prefix + ".") and value:
            found.append(_int(key[len(prefix) + 1 :], "カード"))
    return sorted(found)


def _weights(form: Mapping[str, str], prefix: str) -> tuple[list[int], list[int]]:
    """Candidates ``<prefix>.<card>`` with a positive weight, and their weights."""
    pairs = []
    for key, value in form.items():
        if key.startswith(prefix + ".") and value.strip() not in ("", "0"):
            pairs.append((_int(key[len(prefix) + 1 :], "カード"), _int(value, "確率の重み")))
    pairs.sort()
    return [c for c, _ in pairs], [w for _, w in pairs]


def _color(form: Mapping[str, str], key: str) -> str:
    value = form.get(key, "human")
    if value not in ("human", "wolf"):  # RULES-DUEL §1's tokens: 白 human, 黒 wolf
        raise MoveError("結果は白か黒で指定してください")
    return value


def move_from_form(turn: str, legal: Mapping[str, Any], form: Mapping[str, str]) -> dict[str, Any]:
    """The move a form for ``turn`` describes; ``legal`` the side's legal options now."""
    do = form.get("do", "")
    if turn == "A:day":
        return _a_day(do, form)
    if turn == "A:night":
        return _a_night(legal, form)
    if turn == "B:answer":
        return _b_answer(legal, form)
    if turn == "B:pp":
        guess = form.get("guess", "")
        if not guess:
            return {"do": "pp", "guess": None}
        return {
            "do": "pp",
            "guess": _int(guess, "狂人の予想"),
            "target": _int(form.get("target"), "吊り先"),
        }
    if turn == "B:night":
        return _b_night(legal, form)
    raise MoveError("いまはあなたの番ではありません")


def _a_day(do: str, form: Mapping[str, str]) -> dict[str, Any]:
    if do == "co":
        roles = [r for r in ("seer", "medium", "hunter", "gidra") if form.get(f"role.{r}")]
        move: dict[str, Any] = {"do": "co", "roles": roles}
        cards = ticked(form, "card")
        if form.get("scope") == "range":
            move["cards"] = cards
        return move
    if do == "named":
        return {"do": "named", "cards": ticked(form, "card"), "gidra": bool(form.get("gidra"))}
    if do in ("black_seer_co", "release"):
        return {"do": do}
    if do == "execute":
        return {"do": "execute", "card": _int(form.get("card"), "処刑するカード")}
    raise MoveError("昼にできるのは CO要請・指名CO・処刑 などです")


def _a_night(legal: Mapping[str, Any], form: Mapping[str, str]) -> dict[str, Any]:
    move: dict[str, Any] = {
        "do": "night",
        "divine": [{"card": s, "to": ticked(form, f"divine.{s}")} for s in legal["seers"]],
        "guard": [],
    }
    for h in legal["hunters"]:
        to, weights = _weights(form, f"guard.{h}")
        move["guard"].append({"card": h, "to": to, "weights": weights})
    if legal["latent_divine"]:
        latent = ticked(form, "latent_divine")
        if latent:
            move["latent_divine"] = latent
    if legal["latent_guard"]:
        mode = form.get("latent_guard", "auto")
        if mode == "same":
            move["latent_guard"] = "same"
        elif mode == "to":
            to, weights = _weights(form, "latent_guard")
            move["latent_guard"] = {"to": to, "weights": weights}
        gj = form.get("gj_co", "")
        if gj:
            extras = [r for r in legal["gj_extras"] if form.get(f"gj_co_role.{r}")]
            move["gj_co"] = {"card": _int(gj, "GJならCOのカード"), "roles": extras}
    return move


def _reports(legal: Mapping[str, Any], form: Mapping[str, str], who: str, role: str) -> dict:
    """A fake claim's reports (§5) from the fields of ``who`` (a card, or ``madman``)."""
    entry: dict[str, Any] = {"card": who if who == "madman" else int(who), "role": role}
    nights = len(legal["nights_alive"])
    if role == "seer":
        if who == "madman":
            entry["oracle"] = _color(form, f"oracle_result.{who}")
            entry["nights"] = [
                _color(form, f"night_result.{who}.{n}") for n in range(1, nights + 1)
            ]
        else:
            entry["oracle"] = {
                "target": _int(form.get(f"oracle_target.{who}"), "お告げの占い先"),
                "result": _color(form, f"oracle_result.{who}"),
            }
            entry["nights"] = [
                {
                    "target": _int(form.get(f"night_target.{who}.{n}"), f"{n}夜の占い先"),
                    "result": _color(form, f"night_result.{who}.{n}"),
                }
                for n in range(1, nights + 1)
            ]
    elif role == "medium":
        entry["results"] = [
            _color(form, f"medium.{who}.{i}") for i in range(1, legal["executions"] + 1)
        ]
    elif role == "hunter" and who != "madman":
        entry["guards"] = [
            _int(form.get(f"guards.{who}.{n}"), f"{n}夜の護衛先") for n in range(1, nights + 1)
        ]
    return entry


def _b_answer(legal: Mapping[str, Any], form: Mapping[str, str]) -> dict[str, Any]:
    question = legal["question"]
    if question["do"] == "release":
        lands: list[dict[str, Any]] = []
        for w in legal["gidra_wolves"]:
            landing = form.get(f"land.{w}", "cat")
            entry: dict[str, Any] = {"card": w, "as": landing}
            if landing == "hunter":
                entry["guards"] = _reports(legal, form, str(w), "hunter")["guards"]
            lands.append(entry)
        madman = form.get("land.madman", "")
        if madman:
            lands.append({"card": "madman", "as": madman})
        return {"do": "answer", "land": lands}
    claims = []
    for who in [*map(str, legal["wolves"]), "madman"]:
        role = form.get(f"claim.{who}", "")
        if role:
            claims.append(_reports(legal, form, who, role))
    return {"do": "answer", "claims": claims}


def _b_night(legal: Mapping[str, Any], form: Mapping[str, str]) -> dict[str, Any]:
    move: dict[str, Any] = {
        "do": "night",
        "attack": _int(form.get("attack"), "襲撃先"),
        "divine": [
            {
                "card": w,
                "target": _int(form.get(f"divine_target.{w}"), "占い先"),
                "result": _color(form, f"divine_result.{w}"),
            }
            for w in sorted(legal["divine"])
        ],
        "medium": [
            {"card": w, "result": _color(form, f"medium_result.{w}")} for w in legal["medium"]
        ],
        "guard": [
            {"card": w, "target": _int(form.get(f"guard_target.{w}"), "護衛先")}
            for w in sorted(legal["guard"])
        ],
        "madman": {
            "divine": _color(form, "madman_divine"),
            "medium": _color(form, "madman_medium"),
        },
    }
    return move
