"""A computer member's play of Mobius (RULES §3–§7), from its seat's view only. Pure.

``turn(view, rng)`` reads the plain data ``visibility.seat_view`` builds for one seat — never
the village, the game, its seed or the engine — and the member's own secret RNG, and answers
with the choices a person's action form would save and a few short posts of the day.

How it plays (decision 113):
- The human side prays for an oni it knows (its own results, its partner's empathy), else for
  whom a DM named, else for someone it has not cleared; seers divine whom they have not seen;
  guards protect a character they have cleared, or anyone; the assassin strikes a known oni,
  or from day 2 now and then a character it has not cleared.
- The oni side (the 3 oni and the madman) knows the placement: it prays for humans, votes the
  attack on a human (a seer, medium or the assassin first) and follows a vote a partner has
  already cast, so that its votes agree; it forces a judgment only when an oni is left alone,
  declares victory when one more death wins, resigns when alone against many, and leaves a
  fake DM naming a human.
- Posts (at most three a day, once a day, only on boards it may write now): its job's result
  as its side would tell it (the oni side lies to cover its own), whom it prays for and why,
  on the oni world the side's plan, in the grave who struck it.
"""

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from ...rules.mobius import CHOICE_KEYS
from ..base import ComputerTurn

# Jobs the oni side would rather see dead: their results expose it.
THREATS = ("seer", "medium", "assassin")
ASSASSINATE_RATE = 0.3  # a day, from day 2, with no known oni
RESIGN_RATE = 0.3  # a day, once an oni is left alone against many humans
FRAME_RATE = 0.3  # an oni-side reporter calls a human 鬼
MAX_POSTS = 3
VERDICT_WORDS = {"human": "人", "oni": "鬼", "unknown": "不明"}


class _Seat:
    """The view, read once: who the seat knows as human or oni, and what it may pick."""

    def __init__(self, view: Mapping[str, Any], rng: Random) -> None:
        self.view = view
        self.rng = rng
        self.slot: str = view["slot"]
        self.job: str = view["job"]
        self.oni_side = view["side"] != "human"
        self.alive: list[str] = view["alive"]
        self.legal: Mapping[str, list[str]] = view["legal"]
        private = view["private"]
        self.private = private
        self.known: dict[str, str] = {}  # slot -> human | oni, as this seat knows it
        if self.oni_side:
            placement = private["placement"]
            self.known = {s: "oni" if placement.get(s) == "oni" else "human" for s in view["names"]}
            self.humans = [s for s in self.alive if s not in placement]
        else:
            for result in self._results():
                if result["verdict"] != "unknown":
                    self.known[result["target"]] = result["verdict"]
            self.known[self.slot] = "human"
            self.humans = []
        self.named = [dm["names"] for dm in private["dms"].values()]  # by DMs, newest last

    def _results(self) -> list[dict[str, str]]:
        private = self.private
        found = [private[key] for key in ("random_divination", "empathy") if private[key]]
        return found + [private["results"][day] for day in sorted(private["results"])]

    def living(self, verdict: str) -> list[str]:
        return [s for s in self.alive if s != self.slot and self.known.get(s) == verdict]

    def pick(self, key: str, *preferred: Sequence[str]) -> str | None:
        """The first non-empty of ``preferred`` that is legal for ``key``, at random; else any
        legal target; None when ``key`` is not this seat's now."""
        legal = self.legal.get(key, [])
        for group in preferred:
            options = [t for t in group if t in legal]
            if options:
                return self.rng.choice(options)
        return self.rng.choice(legal) if legal else None


def turn(view: Mapping[str, Any], rng: Random) -> ComputerTurn:
    seat = _Seat(view, rng)
    choices = _oni_side_choices(seat) if seat.oni_side else _human_choices(seat)
    posts = [] if view["posted_today"] else _posts(seat, choices)
    # Every key, so that a choice it no longer makes is saved as undecided.
    return ComputerTurn({key: choices.get(key) for key in CHOICE_KEYS}, posts[:MAX_POSTS])


def _human_choices(seat: _Seat) -> dict[str, str | None]:
    oni = seat.living("oni")
    named = [s for s in reversed(seat.named) if s in seat.alive and s not in seat.known]
    unknown = [s for s in seat.alive if s not in seat.known]
    choices: dict[str, str | None] = {"pray": seat.pick("pray", oni, named, unknown)}
    if seat.job == "seer":
        choices["divine"] = seat.pick("divine", unknown)
    if seat.job == "guard":
        choices["guard"] = seat.pick(
            "guard", seat.living("human"), [s for s in seat.alive if s not in seat.known]
        )
    if seat.job == "assassin" and seat.legal["assassinate"]:
        if oni:
            choices["assassinate"] = seat.pick("assassinate", oni)
        elif seat.view["day"] >= 2 and seat.rng.random() < ASSASSINATE_RATE:
            choices["assassinate"] = seat.pick("assassinate", named, unknown)
    return {key: value for key, value in choices.items() if value is not None}


def _team_vote(seat: _Seat, key: str) -> list[str]:
    """The legal votes the oni-side partners have cast for ``key`` today."""
    votes = [votes.get(key) for votes in seat.view["team"].values()]
    return [v for v in votes if v is not None and v in seat.legal.get(key, [])]


def _oni_side_choices(seat: _Seat) -> dict[str, str | None]:
    humans = seat.humans
    threats = [s for s in humans if s.split("_")[0] in THREATS]
    oni = [s for s in seat.alive if seat.known.get(s) == "oni"]
    choices: dict[str, str | None] = {}
    if seat.slot in seat.alive:
        choices["pray"] = seat.pick("pray", _team_vote(seat, "force"), humans)
        if seat.job == "seer":
            choices["divine"] = seat.pick("divine", humans)
        if seat.job == "guard":
            choices["guard"] = seat.pick("guard", [s for s in oni if s != seat.slot], humans)
        if (
            seat.job == "assassin"
            and seat.legal["assassinate"]
            and seat.view["day"] >= 2
            and seat.rng.random() < ASSASSINATE_RATE
        ):
            choices["assassinate"] = seat.pick("assassinate", threats, humans)
    choices["attack"] = seat.pick("attack", _team_vote(seat, "attack"), threats, humans)
    choices["attacker"] = seat.pick("attacker", _team_vote(seat, "attacker"))
    if seat.job == "commoner":
        partner = seat.view["partner"]
        choices["dm"] = seat.pick("dm", [s for s in humans if s != partner])
    if len(oni) == 1 and len(humans) >= 3:
        choices["force"] = seat.pick("force", _team_vote(seat, "force"), threats, humans)
    command = _command(seat, len(oni), len(humans))
    if command is not None:
        choices[command] = seat.slot  # the safety pick: itself
    return {key: value for key, value in choices.items() if value is not None}


def _command(seat: _Seat, oni: int, humans: int) -> str | None:
    """A declaration or resignation (RULES §7): joined when a partner has set it, else set
    when one more death wins (declaration) or an oni is alone against many (resignation)."""
    for key in ("victory", "resign"):
        if any(key in votes for votes in seat.view["team"].values()):
            return key
    if humans - oni <= 1:
        return "victory"
    if oni == 1 and humans >= 5 and seat.rng.random() < RESIGN_RATE:
        return "resign"
    return None


# ----- posts -----


def _posts(seat: _Seat, choices: Mapping[str, str | None]) -> list[tuple[str, str]]:
    writable = seat.view["writable"]
    posts: list[tuple[str, str]] = []
    if "public" in writable:
        report = _report(seat)
        if report:
            posts.append(("public", report))
        pray = choices.get("pray")
        if pray is not None:
            posts.append(("public", _pray_words(seat, pray)))
    if "oni" in writable:
        posts.append(("oni", _plan_words(seat, choices)))
    if "grave" in writable:
        posts.append(("grave", _grave_words(seat)))
    return posts


def _name(seat: _Seat, slot: str) -> str:
    return str(seat.view["names"][slot])


def _today(seat: _Seat) -> dict[str, str] | None:
    """The result that reached this seat this morning (day 1: the random one or empathy)."""
    private, day = seat.private, seat.view["day"]
    if day == 1:
        first = private["random_divination"] or private["empathy"]
        return dict(first) if first else None
    result = private["results"].get(day)
    return dict(result) if result else None


def _report(seat: _Seat) -> str | None:
    """Its job's news of the morning, as its side would tell it."""
    result = _today(seat)
    if result is None:
        return _dm_words(seat)
    target, verdict = result["target"], result["verdict"]
    if seat.oni_side:
        verdict = _cover(seat, target, verdict)
    said = VERDICT_WORDS[verdict]
    name = _name(seat, target)
    day = seat.view["day"]
    if seat.job == "seer":
        what = "初日のランダム占い" if day == 1 else "占い"
        return f"{what}の結果です。{name}は{said}でした。"
    if seat.job == "empath":
        return f"共感の結果、相方の{name}は{said}でした。"
    if seat.job == "medium":
        return f"霊能の結果です。裁かれた{name}は{said}でした。"
    return f"暗殺の結果です。{name}は{said}でした。"


def _cover(seat: _Seat, target: str, verdict: str) -> str:
    """What the oni side says of a result: its own are human; a human is sometimes framed."""
    if verdict == "unknown":
        return verdict
    if seat.known.get(target) == "oni" or target in seat.private["placement"]:
        return "human"
    return "oni" if seat.rng.random() < FRAME_RATE else "human"


def _dm_words(seat: _Seat) -> str | None:
    """A DM that reached this commoner this morning; the oni side keeps one naming its own."""
    dm = seat.private["dms"].get(seat.view["day"])
    if dm is None or (seat.oni_side and dm["names"] in seat.private["placement"]):
        return None
    writer, names = _name(seat, dm["from"]), _name(seat, dm["names"])
    return f"{writer}のダイイングメッセージは{names}を指していました。"


def _pray_words(seat: _Seat, target: str) -> str:
    name = _name(seat, target)
    if not seat.oni_side and seat.known.get(target) == "oni":
        why = "鬼だと分かっているからです。"
    elif not seat.oni_side and target in seat.named:
        why = "ダイイングメッセージが指していたからです。"
    else:
        why = seat.rng.choice(
            (
                "はっきりした根拠はありませんが、発言が気になります。",
                "まだ白い材料がないので、ここから確かめたいです。",
                "なんとなくですが、怪しく感じています。",
            )
        )
    return f"今日は{name}に祈ります。{why}"


def _plan_words(seat: _Seat, choices: Mapping[str, str | None]) -> str:
    lines = []
    attack, attacker = choices.get("attack"), choices.get("attacker")
    if attack is not None:
        by = f"、実行犯は{_name(seat, attacker)}" if attacker is not None else ""
        lines.append(f"今夜は{_name(seat, attack)}を襲撃しましょう{by}。")
    force = choices.get("force")
    if force is not None:
        lines.append(f"{_name(seat, force)}を強制裁きにしましょう。")
    if choices.get("victory") is not None:
        lines.append("勝ちが見えました。勝利宣言しましょう。")
    if choices.get("resign") is not None:
        lines.append("ここまでのようです。投了しましょう。")
    return "".join(lines) or "今日は様子を見ます。"


def _grave_words(seat: _Seat) -> str:
    killer = seat.private["killer"]
    if killer is None:
        return "墓の下から見守ります。"
    name = _name(seat, str(killer["slot"]))
    if seat.job == "guard":  # a fallen guard learns whom it intercepted (RULES §5.7)
        return f"最期の夜、{name}とぶつかりました。あとは頼みます。"
    return f"私を手にかけたのは{name}でした。あとは頼みます。"
