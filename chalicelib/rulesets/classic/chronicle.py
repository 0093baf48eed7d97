"""The full record (全記録) of a classic village, day by day (RULES-CLASSIC §2–§6): every vote
round (sudden deaths and their cleared votes included), every night's attack choices and whose
counted, the divination, the guard and its GJ, the fox's fate, the medium's result, the deaths
with their causes, the wills published and what each player was told.

Pure. It holds every secret of the game, so the page asks ``visibility.full_record_open``
before building it (the epilogue and the past log only). Everything is keyed by seat (the
page's names), translated from the engine's characters.
"""

from collections.abc import Callable, Mapping
from datetime import datetime

from msgspec import Struct, field

from ...rules.classic import NPC, Ability, Cause, Morning, Outcome, Role, Village
from ...rules.classic import visibility as secrecy
from ...rules.classic.night import counting, counting_attacker, holder
from . import report, seats
from .game import ClassicGame, Kick
from .labels import CAUSE_LABELS

# A night's deaths (§4) count as that night's day number; the others happen in the day.
NIGHT_CAUSES = frozenset({Cause.ATTACK, Cause.CURSE})


class Round(Struct, frozen=True):
    """One closed vote round (§2.3.4): every vote cast, even those a sudden death cleared."""

    number: int
    votes: list[tuple[str, str]]  # voter → target, seat order
    tally: list[tuple[str, int]]  # most votes first
    sudden: list[str]
    outcome: str  # sudden | executed | tie | draw
    executed: str | None
    candidates: list[str] | None  # a run-off's candidates
    at_once: bool  # a run-off reopened with one living candidate: executed without a vote


class AttackChoice(Struct, frozen=True):
    wolf: str
    target: str
    at: datetime | None  # when it was last saved (§3: the latest counts)


class Pick(Struct, frozen=True):
    """An ability's target that night: ``chosen`` by its holder, or drawn by §3's default."""

    actor: str
    target: str
    chosen: bool


class Told(Struct, frozen=True):
    """What one player was told (at the start, or one morning), in the words it was told."""

    seat: str
    lines: list[str]


class Night(Struct):
    """Night ``night`` and the morning it opened (§4)."""

    night: int
    attack_choices: list[AttackChoice]
    attacker: str | None  # the wolf whose choice counted (None: night 1, or §3's draw)
    attack: str | None  # the attack's target (None: no living werewolf)
    divination: Pick | None
    divination_wolf: bool
    guard: Pick | None
    gj: bool
    fox: str | None  # "attacked" (survived) | "cursed" | None
    medium: tuple[str, str, bool] | None  # (medium, executed, was a wolf)
    deaths: list[tuple[str, str]]  # (seat, cause label), seat order
    told: list[Told]
    wills: list[tuple[str, str]]  # (seat, text) published that morning


class RecordDay(Struct):
    day: int
    start: list[Told] = field(default_factory=list)  # day 1: each player's role and partners
    rounds: list[Round] = field(default_factory=list)
    night: Night | None = None
    # The ending's day: the wills no morning published (an execution that ended the game),
    # open in the epilogue; a sudden death's never (§6).
    epilogue_wills: list[tuple[str, str]] = field(default_factory=list)
    kicks: list[Kick] = field(default_factory=list)  # the prologue's (day 0)


def alive_at_close(engine: Village, night: int) -> frozenset[str]:
    """Who was alive when night ``night`` closed: the night's own deaths happen at its close."""
    return frozenset(
        c
        for c in engine.roles
        if (death := engine.deaths.get(c)) is None
        or death.day > night
        or (death.day == night and death.cause in NIGHT_CAUSES)
    )


def build(
    game: ClassicGame,
    saved: Mapping[int, Mapping[str, Mapping[str, str]]],
    wills: Mapping[str, str],
    names: Mapping[str, str],
) -> list[RecordDay]:
    """Every day of the game from the prologue (day 0). ``saved[day]``: the saved choices of
    each seat that day; ``wills``: each seat's will; ``names``: by seat (the told lines)."""
    engine = game.village
    if engine is None:
        return [RecordDay(0, kicks=list(game.kicks))]
    seat = _seat_of(game)
    days = [RecordDay(d) for d in range(engine.day + 1)]
    days[0].kicks = list(game.kicks)
    days[1].start = [
        Told(seat(c), report.start_lines(engine, c, lambda p: names[seat(p)]))
        for c in engine.players
    ]
    for result in engine.rounds:
        tally: dict[str, int] = {}
        for target in result.votes.values():
            tally[seat(target)] = tally.get(seat(target), 0) + 1
        days[result.day].rounds.append(
            Round(
                number=result.round,
                votes=[(seat(v), seat(t)) for v, t in result.votes.items()],
                tally=sorted(tally.items(), key=lambda kv: -kv[1]),
                sudden=[seat(c) for c in result.sudden],
                outcome=str(result.outcome),
                executed=seat(result.executed) if result.executed else None,
                candidates=[seat(c) for c in result.candidates] if result.candidates else None,
                at_once=result.outcome is Outcome.EXECUTED
                and not result.votes
                and bool(result.candidates),
            )
        )
    for morning in engine.mornings:
        night = morning.day - 1
        days[night].night = _night(game, morning, saved.get(night, {}), wills, names)
    if engine.ending is not None:
        published = {c for morning in engine.mornings for c in morning.wills}
        days[engine.day].epilogue_wills = [
            (seat(c), wills[seat(c)])
            for c, death in engine.deaths.items()
            if c != NPC
            and c not in published
            and secrecy.will_published(death.cause)
            and wills.get(seat(c))
        ]
    return days


def _seat_of(game: ClassicGame) -> Callable[[str], str]:
    def seat(character: str) -> str:
        return seats.seat(game, character) or character

    return seat


def _attack_choices(
    game: ClassicGame, roles: Mapping[str, Role], saved: Mapping[str, Mapping[str, str]]
) -> list[AttackChoice]:
    """Each werewolf's saved attack, in the order they were set (unset times last)."""
    found = [
        AttackChoice(
            seat_,
            made["attack"],
            datetime.fromisoformat(made[seats.ATTACK_AT]) if made.get(seats.ATTACK_AT) else None,
        )
        for seat_, made in saved.items()
        if made.get("attack") and (c := seats.character(game, seat_)) is not None
        if roles[c] is Role.WEREWOLF
    ]
    return sorted(found, key=lambda a: (a.at is None, a.at or datetime.min))


def _fox_fate(roles: Mapping[str, Role], morning: Morning) -> str | None:
    """What the night did to the fox: ``cursed`` (divined), ``attacked`` (survived), None."""
    fox = holder(roles, Role.FOX)
    if fox is not None and morning.deaths.get(fox) is Cause.CURSE:
        return "cursed"
    if fox is not None and morning.attack == fox:
        return "attacked"
    return None


def _night(
    game: ClassicGame,
    morning: Morning,
    saved: Mapping[str, Mapping[str, str]],
    wills: Mapping[str, str],
    names: Mapping[str, str],
) -> Night:
    engine = game.village
    assert engine is not None
    seat = _seat_of(game)
    number = morning.day - 1
    roles, alive = engine.roles, alive_at_close(engine, number)
    choices = seats.night_choices(game, saved, {})
    found = counting_attacker(choices, roles=roles, alive=alive, night=number)
    attacker = seat(found[0]) if found and found[1] == morning.attack else None

    def pick(role: Role, ability: Ability, target: str | None) -> Pick | None:
        actor = holder(roles, role)
        if actor is None or target is None:
            return None
        own = counting(choices, actor, ability, roles=roles, alive=alive, night=number)
        return Pick(seat(actor), seat(target), own == target)

    divined = morning.divination
    medium = next(
        (
            (seat(p), seat(n.medium.target), n.medium.result == "wolf")
            for p, n in morning.news.items()
            if n.medium is not None
        ),
        None,
    )
    told = [
        Told(seat(p), report.news_lines(n, lambda c: names[seat(c)]))
        for p, n in morning.news.items()
    ]
    return Night(
        night=number,
        attack_choices=_attack_choices(game, roles, saved),
        attacker=attacker,
        attack=seat(morning.attack) if morning.attack else None,
        divination=pick(Role.SEER, Ability.DIVINE, divined.target if divined else None),
        divination_wolf=divined is not None and divined.result == "wolf",
        guard=pick(Role.HUNTER, Ability.GUARD, morning.guard),
        gj=morning.gj,
        fox=_fox_fate(roles, morning),
        medium=medium,
        deaths=[(seat(c), CAUSE_LABELS[cause]) for c, cause in morning.deaths.items()],
        told=told,
        wills=[(seat(c), wills[seat(c)]) for c in morning.wills if c != NPC and wills.get(seat(c))],
    )
