"""The classic computer player (CPU): one seat's turn from that seat's view only. Pure.

The caller (the classic rule set) builds the view through the visibility module: plain data of
what the seat may see — its own role, partners and results, the public deaths and votes, the
targets it may choose now, its own saved choices, the moments the village's talk runs by — and
hands it here with the computer's own random generator. Nothing here sees the game itself.

A turn plays like a modest person of its role (decisions-classic 59–61):

- it votes once a round is open (in a short village a vote is final), for a character its
  results say is a wolf if it can, never for a partner or one it knows is human if it has
  another choice, else for anyone;
- it sets tonight's abilities at the first look of the day (§2.4 allows it), and again only
  when its target died meanwhile (a dead target does not count);
- it writes at most three short posts a day, each at its moment: on the morning (a seer's,
  a medium's or a mason's claim with its true result, or a plain greeting), at a third of the
  day (whom it voted for and why, true to its view), and at night the wolves' plan on the
  wolves' board; one more in the epilogue. Nothing it writes goes beyond what its seat knows,
  and a wolf, a madman or a fox never tells its role.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# The view's keys (all plain data; seats are the platform's, the scapegoat's is "npc"):
#   me, role, alive, partners (seats), names {seat: name}, moment (prologue | day | overtime |
#   night | epilogue), day, now / day_began / sunset / night_began / ended_at (ISO or None),
#   posted_at (the seat's last post, ISO or None), vote ({"targets": [...], "mine": seat|None}
#   or None), abilities ({ability: {"targets": [...], "mine": seat|None}}), results ([{"day",
#   "kind": divination|medium, "target", "wolf": bool}]), gj (days), found_dead (this
#   morning's, seats), executed (seats, in order), votes (the published vote lists, oldest
#   first, {voter: target}), writable (boards it may post on now).


@dataclass
class Plan:
    """A turn: the choices that change now, at most one post, and when to be asked again."""

    choices: dict[str, str] = field(default_factory=dict)
    posts: list[tuple[str, str]] = field(default_factory=list)
    again: datetime | None = None


WOLF_SIDE = ("werewolf", "madman")
# A post's moment after the morning: whom it voted for and why (a third of the day's talk).
VOTE_POST_AT = 1 / 3


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def known_wolves(view: Mapping[str, Any]) -> set[str]:
    return {r["target"] for r in view["results"] if r["wolf"]}


def known_humans(view: Mapping[str, Any]) -> set[str]:
    """Those the seat knows are not wolves: its human results, a mason's partner; for a wolf,
    its partners are not to be voted for either."""
    return {r["target"] for r in view["results"] if not r["wolf"]} | set(view["partners"])


def pick_vote(view: Mapping[str, Any], rng: random.Random) -> str:
    targets: Sequence[str] = view["vote"]["targets"]
    wolves = [t for t in targets if t in known_wolves(view)]
    if wolves and view["role"] not in WOLF_SIDE:
        return rng.choice(wolves)
    if view["role"] == "werewolf":  # push out whoever voted for a wolf (the likeliest seer)
        threats = [t for t in targets if t in _threats(view)]
        if threats:
            return rng.choice(threats)
    spared = set(view["partners"])
    rest = [t for t in targets if t not in spared] or list(targets)
    return rng.choice(rest)


def _threats(view: Mapping[str, Any]) -> set[str]:
    """For a wolf: who voted for a wolf in the last published round (public)."""
    wolves = {view["me"], *view["partners"]}
    last = view["votes"][-1] if view["votes"] else {}
    return {voter for voter, target in last.items() if target in wolves}


def pick_ability(view: Mapping[str, Any], ability: str, rng: random.Random) -> str:
    targets: Sequence[str] = view["abilities"][ability]["targets"]
    if ability == "attack":  # whoever voted for a wolf last is the likeliest seer
        threats = [t for t in targets if t in _threats(view)]
        return rng.choice(threats or list(targets))
    if ability == "divine":  # someone not divined yet, a player before the scapegoat
        divined = {r["target"] for r in view["results"] if r["kind"] == "divination"}
        fresh = [t for t in targets if t not in divined and t != "npc"]
        return rng.choice(fresh or list(targets))
    return rng.choice(list(targets))


def turn(view: Mapping[str, Any], rng: random.Random) -> Plan:
    """What the seat does now (empty when nothing is new)."""
    plan = Plan()
    if not view["alive"]:
        return plan
    vote = view["vote"]
    if vote is not None and vote["mine"] is None and vote["targets"]:
        plan.choices["vote"] = pick_vote(view, rng)
    for ability, row in view["abilities"].items():
        if row["targets"] and row["mine"] not in row["targets"]:
            plan.choices[ability] = pick_ability(view, ability, rng)
    _post(view, plan)
    return plan


def _post(view: Mapping[str, Any], plan: Plan) -> None:
    """At most one post a turn (the post service keeps a member's pace), each at its moment."""
    now = _time(view["now"])
    assert now is not None
    posted = _time(view["posted_at"])
    writable = view["writable"]
    moment = view["moment"]

    def due(at: datetime | None) -> bool:
        return at is not None and at <= now and (posted is None or posted < at)

    if moment == "epilogue":
        if "public" in writable and due(_time(view["ended_at"])):
            plan.posts.append(("public", "おつかれさまでした。楽しかったです。"))
        return
    if moment == "night":
        if "wolves" in writable and due(_time(view["night_began"])):
            plan.posts.append(("wolves", _whisper(view, plan)))
        return
    if moment != "day" or "public" not in writable:
        return
    began, sunset = _time(view["day_began"]), _time(view["sunset"])
    if began is None or sunset is None:
        return
    vote_at = began + (sunset - began) * VOTE_POST_AT
    if due(began):
        plan.posts.append(("public", _morning(view)))
        plan.again = vote_at
    elif due(vote_at) and view["vote"] is not None:
        mine = plan.choices.get("vote") or view["vote"]["mine"]
        if mine is not None:
            plan.posts.append(("public", _vote_line(view, mine)))
    elif now < vote_at:
        plan.again = vote_at


def _name(view: Mapping[str, Any], seat: str) -> str:
    return f"{view['names'].get(seat, seat)}さん"


def _morning(view: Mapping[str, Any]) -> str:
    """The morning's post: a claim with its latest true result, or a greeting with the news."""
    role, day = view["role"], view["day"]
    latest = {r["kind"]: r for r in view["results"] if r["day"] == day}
    word = {True: "人狼", False: "人間"}
    if role == "seer" and "divination" in latest:
        r = latest["divination"]
        return f"占い師です。{_name(view, r['target'])}を占った結果は{word[r['wolf']]}でした。"
    if role == "medium" and "medium" in latest:
        r = latest["medium"]
        return f"霊能者です。処刑された{_name(view, r['target'])}は{word[r['wolf']]}でした。"
    if role == "mason" and day == 2 and view["partners"]:
        return f"共有者です。相方は{_name(view, view['partners'][0])}です。"
    dead = view["found_dead"]
    if day == 1:
        return "よろしくお願いします。"
    if dead:
        names = "、".join(_name(view, s) for s in dead)
        return f"おはようございます。{names}が無残な姿で見つかりましたね。"
    return "おはようございます。今朝は誰も死んでいませんね。"


def _vote_line(view: Mapping[str, Any], seat: str) -> str:
    if seat in known_wolves(view) and view["role"] not in WOLF_SIDE:
        return f"{_name(view, seat)}に投票します。占いで人狼と出たからです。"
    return f"{_name(view, seat)}に投票します。まだ決め手がないので、直感です。"


def _whisper(view: Mapping[str, Any], plan: Plan) -> str:
    attack = view["abilities"].get("attack")
    target = plan.choices.get("attack") or (attack or {}).get("mine")
    if target is None:
        return "今夜もよろしく。明日も村人のふりをしよう。"
    return f"今夜は{_name(view, target)}を襲撃しよう。"
