"""The state of one village and the rules that move it (RULES §1–§7).

Pure: no I/O, no clock, no global random. Every draw takes the caller's RNG,
and walks the slots in the canonical order of :data:`SLOTS`, so the same seed
always gives the same game.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from enum import StrEnum
from functools import cached_property
from typing import Any

from msgspec import Struct, field

from .cast import (
    MADMAN_COUNT,
    ONI_COUNT,
    PARTNERS,
    SLOTS,
    Job,
    Side,
    Verdict,
    is_oni_side,
    slots_of,
    verdict_of,
)
from .choices import UNDECIDED, Choices, refusal, validate
from .errors import ChoiceError, PhaseError


class DeathKind(StrEnum):
    ASH = "ash"  # 灰: judged
    CORPSE = "corpse"  # 遺体: any other death


class Winner(StrEnum):
    HUMAN = "human"
    ONI = "oni"


class EndedBy(StrEnum):
    ELIMINATION = "elimination"
    VICTORY_DECLARATION = "victory_declaration"
    RESIGNATION = "resignation"


class Command(StrEnum):
    """Oni-side commands of RULES §7, by the choice key that sets them."""

    VICTORY = "victory"
    RESIGN = "resign"


# How many oni-side members must set the same command or forced target (RULES §7).
COMMAND_QUORUM = 3


class Result(Struct, frozen=True):
    """What an ability tells its user about one target."""

    target: str
    verdict: str

    def to_json(self) -> dict[str, str]:
        return {"target": self.target, "verdict": self.verdict}


class Attack(Struct, frozen=True):
    target: str
    attacker: str


class DyingMessage(Struct, frozen=True):
    writer: str
    names: str


class Morning(Struct, frozen=True):
    """Everything one night resolution decided. Most of it is secret: see visibility."""

    day: int  # the day this morning starts
    judged: str
    attack: Attack | None
    assassination: str | None  # target, only when carried out
    deaths: dict[str, DeathKind]
    results: dict[str, Result]  # by the slot that learns it
    dms: dict[str, DyingMessage]  # by the reader
    killers: dict[str, str]  # dead slot -> the one who struck it / whom it intercepted

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "judged": self.judged,
            "attack": (
                {"target": self.attack.target, "attacker": self.attack.attacker}
                if self.attack
                else None
            ),
            "assassination": {"target": self.assassination} if self.assassination else None,
            "deaths": {slot: str(kind) for slot, kind in self.deaths.items()},
            "results": {slot: result.to_json() for slot, result in self.results.items()},
            "dms": {r: {"from": dm.writer, "names": dm.names} for r, dm in self.dms.items()},
            "killers": dict(self.killers),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Morning":
        attack = data["attack"]
        assassination = data["assassination"]
        return cls(
            day=data["day"],
            judged=data["judged"],
            attack=Attack(attack["target"], attack["attacker"]) if attack else None,
            assassination=assassination["target"] if assassination else None,
            deaths={slot: DeathKind(kind) for slot, kind in data["deaths"].items()},
            results={s: Result(r["target"], r["verdict"]) for s, r in data["results"].items()},
            dms={r: DyingMessage(dm["from"], dm["names"]) for r, dm in data["dms"].items()},
            killers=dict(data["killers"]),
        )


class Ending(Struct, frozen=True):
    winner: Winner
    by: EndedBy
    day: int  # the day the ending starts

    def to_json(self) -> dict[str, Any]:
        return {"winner": str(self.winner), "by": str(self.by), "day": self.day}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Ending":
        return cls(Winner(data["winner"]), EndedBy(data["by"]), data["day"])


class Cause(Struct, frozen=True):
    """One reason of a death (RULES §4.3), for the full record once the game is over.

    ``kind``: judged | attacked | assassinated (``by`` struck it, unguarded) | blocked (it
    struck ``target``, who was guarded) | guarding (it guarded ``target`` against ``by``).
    """

    kind: str
    target: str | None = None
    by: str | None = None


class _SlotCause(Struct, frozen=True):
    slot: str
    cause: Cause


class _Strikes(Struct, frozen=True):
    struck: dict[str, str]  # unguarded target -> who struck it (the attacker first)
    blocked: set[str]  # attacker or assassin who struck a guarded target
    guarding: dict[str, str]  # guard who died -> the striker intercepted (the attacker first)
    causes: list[_SlotCause]


class Death(Struct, frozen=True):
    day: int  # the morning that announced it
    kind: DeathKind


class Village(Struct, dict=True):  # dict: room for the cached oni side
    """One village's game state. ``day`` 0 is the opening."""

    sides: dict[str, Side]
    random_targets: dict[str, str]  # seer -> day-0 random divination target
    day: int = 0
    deaths: dict[str, Death] = field(default_factory=dict)
    assassination_used: bool = False
    mornings: list[Morning] = field(default_factory=list)
    ending: Ending | None = None

    # The oni side is fixed by the sides: listed once, not on every night.
    @cached_property
    def _oni_side(self) -> tuple[str, ...]:
        return tuple(slot for slot in SLOTS if is_oni_side(self.sides[slot]))

    # ----- creation (RULES §1, §5.1) -----

    @classmethod
    def create(cls, rng: random.Random, sides: Mapping[str, str] | None = None) -> "Village":
        """Draws the sides (unless given) and both seers' day-0 random targets."""
        drawn = draw_sides(rng) if sides is None else checked_sides(sides)
        return cls(sides=drawn, random_targets=draw_random_targets(drawn, rng))

    # ----- reading the state -----

    @property
    def alive(self) -> frozenset[str]:
        return frozenset(slot for slot in SLOTS if slot not in self.deaths)

    def living(self, *sides: Side) -> list[str]:
        living = [slot for slot in SLOTS if slot not in self.deaths]
        return [slot for slot in living if self.sides[slot] in sides] if sides else living

    def _on_side(self, slots: Iterable[str], side: Side) -> list[str]:
        """Those of ``slots`` on ``side``, in their order."""
        return [slot for slot in slots if self.sides[slot] is side]

    @property
    def oni_side(self) -> list[str]:
        """The 3 oni and the madman, alive or dead."""
        return list(self._oni_side)

    @property
    def running(self) -> bool:
        return self.day >= 1 and self.ending is None

    def random_divination(self) -> dict[str, Result]:
        """Each seer's day-0 result (RULES §5.1); always ``human`` for a human seer."""
        return {
            seer: Result(target, verdict_of(self.sides[target]))
            for seer, target in self.random_targets.items()
        }

    def empathy(self) -> dict[str, Result]:
        """What each empath alive when day 1 starts learns of the other (RULES §5.3)."""
        if self.day < 1:
            return {}
        dead_at_start = {slot for slot, death in self.deaths.items() if death.day <= 1}
        return {
            empath: Result(PARTNERS[empath], verdict_of(self.sides[PARTNERS[empath]]))
            for empath in slots_of(Job.EMPATH)
            if empath not in dead_at_start
        }

    # ----- day 1 (RULES §2.2) -----

    def start(self, dead: Iterable[str] = ()) -> None:
        """Day 1 begins. ``dead`` lists characters already dead (for end-game scenarios)."""
        if self.day != 0:
            raise PhaseError("この村はすでに始まっています")
        for slot in dead:
            if slot not in SLOTS:
                raise ChoiceError(f"「{slot}」というキャラクターはいません")
            self.deaths[slot] = Death(day=1, kind=DeathKind.CORPSE)
        self.day = 1

    # ----- choices (RULES §3) -----

    def validate(self, actor: str, choices: Choices) -> None:
        """Raises a :class:`ChoiceError` when ``actor`` may not save ``choices`` now."""
        if not self.running:
            raise PhaseError("いまは行動を決められません")
        validate(
            actor,
            choices,
            sides=self.sides,
            alive=self.alive,
            assassination_used=self.assassination_used,
        )

    def command(self, choices: Mapping[str, Choices]) -> Command | None:
        """The oni-side command in effect: set by at least 3 members (RULES §7)."""
        for command in (Command.VICTORY, Command.RESIGN):  # never both: 3 + 3 > 4 members
            setters = [s for s in self._oni_side if getattr(_of(choices, s), command) is not None]
            if len(setters) >= COMMAND_QUORUM:
                return command
        return None

    def end_by_command(self, command: Command, *, at_night: bool) -> Ending:
        """A declaration or resignation in effect (RULES §7).

        Set during the day the ending starts at once; set in loss time or at night it
        starts at the next update, whose night is not resolved.
        """
        if not self.running:
            raise PhaseError("いまは勝利宣言も投了もできません")
        if at_night:
            self.day += 1
        if command is Command.VICTORY:
            self.ending = Ending(Winner.ONI, EndedBy.VICTORY_DECLARATION, self.day)
        else:
            self.ending = Ending(Winner.HUMAN, EndedBy.RESIGNATION, self.day)
        return self.ending

    # ----- the update (RULES §4–§6) -----

    def resolve_night(self, choices: Mapping[str, Choices], rng: random.Random) -> Morning:
        """Resolves tonight, starts the next day and checks victory.

        ``choices`` holds each occupied slot's saved choices; a missing slot is
        undecided. A choice that is no longer valid counts as undecided.
        """
        if not self.running:
            raise PhaseError("いまは夜を解決できません")
        living = self.living()  # before anyone dies tonight, in slot order
        alive = frozenset(living)
        valid = {
            slot: self._still_valid(slot, choices[slot], alive) if slot in choices else UNDECIDED
            for slot in SLOTS
        }

        judged = self._judged(valid, living, rng)
        attack = self._attack(valid, living, rng)
        assassination = self._assassination(valid, attack)

        outcome = _strike(attack, assassination, _guards_on(valid, alive))
        struck, blocked, guarding = outcome.struck, outcome.blocked, outcome.guarding
        dying = [s for s in SLOTS if s == judged or s in struck or s in blocked or s in guarding]
        deaths = {s: DeathKind.ASH if s == judged else DeathKind.CORPSE for s in dying}
        survivors = alive.difference(deaths)
        # RULES §5.7: the struck learn who struck them; a fallen guard whom it intercepted.
        killers = {s: struck.get(s) or guarding[s] for s in dying if s in struck or s in guarding}

        dms = self._dying_messages(deaths, struck, valid, survivors)
        results = self._results(valid, judged, assassination, deaths, survivors)

        if assassination:
            self.assassination_used = True
        self.day += 1
        for slot, kind in deaths.items():
            self.deaths[slot] = Death(self.day, kind)
        morning = Morning(
            day=self.day,
            judged=judged,
            attack=attack,
            assassination=assassination,
            deaths=deaths,
            results=results,
            dms=dms,
            killers=killers,
        )
        self.mornings.append(morning)
        winner = self.winner()
        if winner is not None:
            self.ending = Ending(winner, EndedBy.ELIMINATION, self.day)
        return morning

    def night_causes(
        self, morning: Morning, choices: Mapping[str, Choices]
    ) -> dict[str, list[Cause]]:
        """Why each character who died at ``morning`` died (RULES §4.3), for the full record.

        ``choices`` are the saved choices of the night ``morning`` resolved (its guards
        decide who was guarded); the draws are read from ``morning`` itself.
        """
        alive = frozenset(
            s for s in SLOTS if s not in self.deaths or self.deaths[s].day >= morning.day
        )
        valid = {slot: self._still_valid(slot, _of(choices, slot), alive) for slot in SLOTS}
        outcome = _strike(morning.attack, morning.assassination, _guards_on(valid, alive))
        causes: dict[str, list[Cause]] = {slot: [] for slot in morning.deaths}
        if morning.judged in causes:
            causes[morning.judged].append(Cause("judged"))
        for cause in outcome.causes:
            if cause.slot in causes:
                causes[cause.slot].append(cause.cause)
        return causes

    def winner(self) -> Winner | None:
        """RULES §6, on the living characters."""
        living = self.living()
        oni = len(self._on_side(living, Side.ONI))
        humans = len(self._on_side(living, Side.HUMAN))
        if oni == 0:
            return Winner.ONI if not living else Winner.HUMAN
        if oni >= humans:
            return Winner.ONI
        return None

    def _still_valid(self, actor: str, choices: Choices, alive: frozenset[str]) -> Choices:
        """Keeps each choice that is still valid on its own; the rest become undecided."""
        kept = {
            key: target
            for key, target in choices.to_dict().items()
            if refusal(
                actor,
                key,
                target,
                sides=self.sides,
                alive=alive,
                assassination_used=self.assassination_used,
            )
            is None
        }
        return Choices(**kept)

    def legal_targets(self, actor: str, key: str) -> list[str]:
        """The targets ``actor`` may choose for ``key`` now, in slot order (for forms)."""
        if not self.running:
            return []
        alive = self.alive
        return [
            target
            for target in SLOTS
            if refusal(
                actor,
                key,
                target,
                sides=self.sides,
                alive=alive,
                assassination_used=self.assassination_used,
            )
            is None
        ]

    def _judged(self, valid: Mapping[str, Choices], living: list[str], rng: random.Random) -> str:
        """RULES §4.1 and forced judgment (§7)."""
        forced = Counter(f for s in self._oni_side if (f := valid[s].force) is not None)
        for target, count in forced.items():
            if count >= COMMAND_QUORUM:
                return target
        prayers = Counter(p for s in living if (p := valid[s].pray) is not None)
        most = max((prayers[s] for s in living), default=0)
        tied = [s for s in living if prayers[s] == most]
        if len(tied) == 1:
            return tied[0]
        humans = self._on_side(living, Side.HUMAN)
        human_prayers = {valid[h].pray for h in humans}
        if (
            len(humans) == len(living) - len(humans)
            and len(human_prayers) == 1
            and None not in human_prayers
        ):
            prayed = human_prayers.pop()
            assert prayed is not None
            return prayed
        return rng.choice(tied)

    def _attack(
        self, valid: Mapping[str, Choices], living: list[str], rng: random.Random
    ) -> Attack | None:
        """RULES §4.2: the attacker is drawn first, then the target, each from one vote."""
        living_oni = self._on_side(living, Side.ONI)
        if not living_oni:
            return None
        attackers = [a for s in self._oni_side if (a := valid[s].attacker) is not None]
        attacker = rng.choice(attackers or living_oni)
        targets = [t for s in self._oni_side if (t := valid[s].attack) is not None]
        candidates = targets or self._on_side(living, Side.HUMAN)
        if not candidates:
            return None
        return Attack(target=rng.choice(candidates), attacker=attacker)

    def _assassination(self, valid: Mapping[str, Choices], attack: Attack | None) -> str | None:
        """The target when the assassination is carried out (RULES §4.2, §5.6)."""
        target = valid["assassin"].assassinate
        if target is None or (attack is not None and attack.attacker == "assassin"):
            return None
        return target

    def _dying_messages(
        self,
        deaths: Mapping[str, DeathKind],
        struck: Mapping[str, str],
        valid: Mapping[str, Choices],
        survivors: frozenset[str],
    ) -> dict[str, DyingMessage]:
        """RULES §5.5: corpses of commoners leave a DM for a living partner."""
        dms = {}
        for writer in slots_of(Job.COMMONER):
            if deaths.get(writer) is not DeathKind.CORPSE:
                continue
            # An oni-side commoner leaves the fake DM it set; a human one names its killer.
            names = valid[writer].dm if is_oni_side(self.sides[writer]) else struck.get(writer)
            reader = PARTNERS[writer]
            if names is not None and reader in survivors:
                dms[reader] = DyingMessage(writer, names)
        return dms

    def _results(
        self,
        valid: Mapping[str, Choices],
        judged: str,
        assassination: str | None,
        deaths: Mapping[str, DeathKind],
        survivors: frozenset[str],
    ) -> dict[str, Result]:
        """RULES §5.1, §5.2, §5.6: results reach only characters alive next morning.

        Listed in slot order (seers, mediums, then the assassin), as every listing is.
        """
        results = {}
        for seer in slots_of(Job.SEER):
            target = valid[seer].divine
            if seer in survivors and target is not None:
                verdict = Verdict.UNKNOWN if target in deaths else verdict_of(self.sides[target])
                results[seer] = Result(target, str(verdict))
        judged_verdict = str(verdict_of(self.sides[judged]))
        for medium in slots_of(Job.MEDIUM):
            if medium in survivors:
                results[medium] = Result(judged, judged_verdict)
        if "assassin" in survivors and assassination is not None:
            results["assassin"] = Result(assassination, str(verdict_of(self.sides[assassination])))
        return results

    # ----- serialization -----

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": {slot: str(side) for slot, side in self.sides.items()},
            "random_targets": dict(self.random_targets),
            "day": self.day,
            "deaths": {s: {"day": d.day, "kind": str(d.kind)} for s, d in self.deaths.items()},
            "assassination_used": self.assassination_used,
            "mornings": [morning.to_json() for morning in self.mornings],
            "ending": self.ending.to_json() if self.ending else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Village":
        return cls(
            sides={slot: Side(side) for slot, side in data["sides"].items()},
            random_targets=dict(data["random_targets"]),
            day=data["day"],
            deaths={s: Death(d["day"], DeathKind(d["kind"])) for s, d in data["deaths"].items()},
            assassination_used=data["assassination_used"],
            mornings=[Morning.from_json(m) for m in data["mornings"]],
            ending=Ending.from_json(data["ending"]) if data["ending"] else None,
        )


def _guards_on(valid: Mapping[str, Choices], alive: frozenset[str]) -> dict[str, list[str]]:
    guards_on: dict[str, list[str]] = {}
    for guard in slots_of(Job.GUARD):
        target = valid[guard].guard
        if guard in alive and target is not None:
            guards_on.setdefault(target, []).append(guard)
    return guards_on


def _strike(
    attack: Attack | None, assassination: str | None, guards_on: Mapping[str, list[str]]
) -> _Strikes:
    """Causes 2–4 of RULES §4.3, all read from the state before anyone dies."""
    outcome = _Strikes({}, set(), {}, [])
    strikes = [(attack.target, attack.attacker, "attacked")] if attack else []
    if assassination:
        strikes.append((assassination, "assassin", "assassinated"))
    for target, striker, kind in strikes:
        guards = guards_on.get(target, [])
        if not guards:
            outcome.struck.setdefault(target, striker)
            outcome.causes.append(_SlotCause(target, Cause(kind, by=striker)))
            continue
        outcome.blocked.add(striker)
        outcome.causes.append(_SlotCause(striker, Cause("blocked", target=target)))
        for guard in guards:
            outcome.guarding.setdefault(guard, striker)
            outcome.causes.append(_SlotCause(guard, Cause("guarding", target=target, by=striker)))
    return outcome


def _of(choices: Mapping[str, Choices], slot: str) -> Choices:
    return choices.get(slot, UNDECIDED)


def draw_sides(rng: random.Random) -> dict[str, Side]:
    """A uniform draw of 3 oni and 1 madman among the 13 slots (RULES §1)."""
    picked = rng.sample(SLOTS, ONI_COUNT + MADMAN_COUNT)
    sides = dict.fromkeys(SLOTS, Side.HUMAN)
    for slot in picked[:ONI_COUNT]:
        sides[slot] = Side.ONI
    sides[picked[ONI_COUNT]] = Side.MADMAN
    return sides


def checked_sides(given: Mapping[str, str]) -> dict[str, Side]:
    """Sides given by the caller: unlisted slots are human; exactly 3 oni and 1 madman."""
    for slot in given:
        if slot not in SLOTS:
            raise ChoiceError(f"「{slot}」というキャラクターはいません")
    try:
        sides = {slot: Side(given.get(slot, Side.HUMAN)) for slot in SLOTS}
    except ValueError as error:
        raise ChoiceError("役割は human・madman・oni のいずれかです") from error
    counts = Counter(sides.values())
    if counts[Side.ONI] != ONI_COUNT or counts[Side.MADMAN] != MADMAN_COUNT:
        raise ChoiceError("鬼はちょうど3人、狂人はちょうど1人にしてください")
    return sides


def draw_random_targets(sides: Mapping[str, Side], rng: random.Random) -> dict[str, str]:
    """Day-0 random divination (RULES §5.1): a human seer never draws an oni."""
    targets = {}
    for seer in slots_of(Job.SEER):
        others = [s for s in SLOTS if s != seer]
        if sides[seer] is Side.HUMAN:
            others = [s for s in others if sides[s] is not Side.ONI]
        targets[seer] = rng.choice(others)
    return targets
