"""Night resolution (§3 defaults, §4 in order): guard, divination and curse, attack, medium, news.

Pure: the caller passes the roles, who is alive when the night closes and the saved choices in the
order they were last saved; every default draw takes the caller's RNG.
"""

import random
from collections.abc import Mapping
from typing import Any

from msgspec import Struct, field

from .abilities import Ability, NightChoices, refusal
from .cast import NPC, Cause, Judgment, Role, judgment_of


class Result(Struct, frozen=True):
    """What the seer or the medium learns about one character."""

    target: str
    result: Judgment

    def to_json(self) -> dict[str, str]:
        return {"target": self.target, "result": str(self.result)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Result":
        return cls(data["target"], Judgment(data["result"]))


class News(Struct, frozen=True):
    """One living player's private news of a morning (§4.6)."""

    divination: Result | None = None
    medium: Result | None = None
    gj: bool = False
    attacked: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.divination is not None:
            out["divination"] = self.divination.to_json()
        if self.medium is not None:
            out["medium"] = self.medium.to_json()
        if self.gj:
            out["gj"] = True
        if self.attacked:
            out["attacked"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "News":
        divination = data.get("divination")
        medium = data.get("medium")
        return cls(
            divination=Result.from_json(divination) if divination else None,
            medium=Result.from_json(medium) if medium else None,
            gj=bool(data.get("gj", False)),
            attacked=bool(data.get("attacked", False)),
        )


class Morning(Struct, frozen=True):
    """Everything one night decided. ``found_dead`` is public; the rest is secret."""

    day: int  # the day this morning opens (night N → day N + 1)
    attack: str | None  # the effective attack target (None: no living werewolf)
    divination: Result | None  # the seer's counting or default divination (None: no living seer)
    guard: str | None  # the guarded character (None: no living hunter, or night 1)
    gj: bool
    deaths: dict[str, Cause]  # the night's deaths, seat order
    news: dict[str, News] = field(default_factory=dict)  # by living player, seat order
    found_dead: list[str] = field(default_factory=list)  # the morning report, seat order
    wills: list[str] = field(default_factory=list)  # wills published this morning (§4.6)

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "attack": self.attack,
            "divination": self.divination.to_json() if self.divination else None,
            "guard": self.guard,
            "gj": self.gj,
            "deaths": {c: str(cause) for c, cause in self.deaths.items()},
            "news": {p: news.to_json() for p, news in self.news.items()},
            "found_dead": list(self.found_dead),
            "wills": list(self.wills),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Morning":
        divination = data["divination"]
        return cls(
            day=data["day"],
            attack=data["attack"],
            divination=Result.from_json(divination) if divination else None,
            guard=data["guard"],
            gj=data["gj"],
            deaths={c: Cause(cause) for c, cause in data["deaths"].items()},
            news={p: News.from_json(n) for p, n in data["news"].items()},
            found_dead=list(data["found_dead"]),
            wills=list(data["wills"]),
        )


def holder(roles: Mapping[str, Role], role: Role) -> str | None:
    """The player holding a single-card role (never the scapegoat, who does not act), or None."""
    return next((c for c, r in roles.items() if r is role and c != NPC), None)


def counts(
    actor: str,
    ability: Ability,
    target: str | None,
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
) -> bool:
    """Whether a saved choice counts at the close: still valid with who is alive now (§2.4)."""
    return target is not None and (
        refusal(actor, ability, target, roles=roles, alive=alive, night=night) is None
    )


def counting_attack(
    saved: Mapping[str, NightChoices],
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
) -> str | None:
    """§3: the counting attack saved most recently among the living werewolves, or None.

    ``saved`` is in the order the actors last saved, so the last counting werewolf entry wins.
    """
    found = counting_attacker(saved, roles=roles, alive=alive, night=night)
    return found[1] if found else None


def counting_attacker(
    saved: Mapping[str, NightChoices],
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
) -> tuple[str, str] | None:
    """The werewolf whose attack counts now and its target (what every wolf sees), or None."""
    for actor, choices in reversed(list(saved.items())):
        target = choices.attack
        if target is not None and counts(
            actor, Ability.ATTACK, target, roles=roles, alive=alive, night=night
        ):
            return actor, target
    return None


def counting(
    saved: Mapping[str, NightChoices],
    actor: str | None,
    ability: Ability,
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
) -> str | None:
    """The counting ``ability`` choice of ``actor`` (the seer or the hunter), or None."""
    if actor is None or actor not in saved:
        return None
    target = saved[actor].get(ability)
    if counts(actor, ability, target, roles=roles, alive=alive, night=night):
        return target
    return None


def resolve(
    *,
    roles: Mapping[str, Role],
    alive: frozenset[str],
    night: int,
    saved: Mapping[str, NightChoices],
    executed: str | None,
    rng: random.Random,
) -> Morning:
    """Resolves night ``night`` (§3, §4.1–§4.6). Victory (§4.7) is the caller's.

    Default draws happen in the order of §3, each only when needed: the attack, the divination,
    the guard. Each draws uniformly from its candidates in seat order.
    """
    seat = list(roles)
    living = [c for c in seat if c in alive]
    wolves = [c for c in living if roles[c] is Role.WEREWOLF]

    # §3: the choices that count, else the defaults.
    attack: str | None = None
    if wolves:
        if night == 1:
            attack = NPC if NPC in alive else None
        else:
            attack = counting_attack(saved, roles=roles, alive=alive, night=night)
            if attack is None:
                prey = [c for c in living if roles[c] is not Role.WEREWOLF]
                attack = rng.choice(prey) if prey else None
    seer = holder(roles, Role.SEER)
    divined: str | None = None
    if seer is not None and seer in alive:
        divined = counting(saved, seer, Ability.DIVINE, roles=roles, alive=alive, night=night)
        if divined is None:
            others = [c for c in living if c not in (seer, NPC)]
            divined = rng.choice(others) if others else None
    hunter = holder(roles, Role.HUNTER)
    guarded: str | None = None
    if hunter is not None and hunter in alive and night >= 2:
        guarded = counting(saved, hunter, Ability.GUARD, roles=roles, alive=alive, night=night)
        if guarded is None:
            others = [c for c in living if c != hunter]
            guarded = rng.choice(others) if others else None

    # §4.1–§4.3, read from the state before anyone dies.
    dying: dict[str, Cause] = {}
    divination = Result(divined, judgment_of(roles[divined])) if divined is not None else None
    if divined is not None and roles[divined] is Role.FOX:
        dying[divined] = Cause.CURSE
    gj = False
    fox_attacked = False
    if attack is not None:
        if roles[attack] is Role.FOX:
            fox_attacked = True
        elif attack == guarded:
            gj = True
        else:
            dying[attack] = Cause.ATTACK
    deaths = {c: dying[c] for c in seat if c in dying}
    survivors = alive - set(deaths)

    # §4.4–§4.5: results reach the living only.
    news: dict[str, News] = {}
    if seer is not None and seer in survivors and divination is not None:
        news[seer] = News(divination=divination)
    medium = holder(roles, Role.MEDIUM)
    if medium is not None and medium in survivors and executed is not None:
        news[medium] = News(medium=Result(executed, judgment_of(roles[executed])))
    if hunter is not None and hunter in survivors and gj:
        news[hunter] = News(gj=True)
    fox = holder(roles, Role.FOX)
    if fox is not None and fox in survivors and fox_attacked:
        news[fox] = News(attacked=True)
    news = {p: news[p] for p in seat if p in news}

    # §4.6: the wills of everyone who died since the previous morning, except by sudden death.
    wills = [c for c in seat if c != NPC and (c in deaths or c == executed)]
    return Morning(
        day=night + 1,
        attack=attack,
        divination=divination,
        guard=guarded,
        gj=gj,
        deaths=deaths,
        news=news,
        found_dead=list(deaths),
        wills=wills,
    )
