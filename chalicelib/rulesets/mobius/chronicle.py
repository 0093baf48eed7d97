"""The full record (全記録) of a game, day by day: every choice, draw, result and death.

Pure. It holds every secret of the game, so only ``visibility.full_record`` hands it out,
and only once every log is open (the ending and the log).
"""

from collections.abc import Mapping

from msgspec import Struct, field

from ...rules.mobius import CHOICE_KEYS, JOBS, SLOTS, Attack, Cause, Choices, Job, Village

# Which ability a result of the morning came from, by the receiver's job.
ABILITY_OF = {Job.SEER: "divine", Job.MEDIUM: "medium", Job.ASSASSIN: "assassinate"}


class Received(Struct, frozen=True):
    """A result that reached ``slot``: ``target`` is ``verdict`` (by ``ability``)."""

    slot: str
    ability: str  # random | empathy | divine | medium | assassinate
    target: str
    verdict: str


class Dying(Struct, frozen=True):
    """A death of the morning, its kind, every cause (RULES §4.3) and the killer (§5.7)."""

    slot: str
    kind: str  # ash | corpse
    causes: tuple[Cause, ...]
    killer: str | None


class Message(Struct, frozen=True):
    """A dying message ``writer`` left naming ``names``, read by ``reader``."""

    reader: str
    writer: str
    names: str


class RecordDay(Struct):
    """Day ``day``: what its morning decided (day 0: the draws at creation) and the choices
    saved during it for its night."""

    day: int
    random_targets: dict[str, Received] = field(default_factory=dict)  # day 0: seer -> draw
    morning: bool = False  # an update resolved a night into this morning
    judged: str | None = None
    attack: Attack | None = None
    assassination: str | None = None
    deaths: list[Dying] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    dms: list[Message] = field(default_factory=list)
    choices: dict[str, dict[str, str]] = field(default_factory=dict)  # slot -> key -> target
    acted: bool = False  # the day had a night to choose for (the ending's last day has none)


def build(game: Village, saved: Mapping[int, Mapping[str, Mapping[str, str]]]) -> list[RecordDay]:
    """Every day of ``game`` from 0, with ``saved[day]``: each slot's saved choices."""
    days = [RecordDay(day) for day in range(game.day + 1)]
    for seer, result in game.random_divination().items():
        days[0].random_targets[seer] = Received(seer, "random", result.target, result.verdict)
    if game.day >= 1:
        days[1].received += days[0].random_targets.values()
        days[1].received += [
            Received(slot, "empathy", r.target, r.verdict) for slot, r in game.empathy().items()
        ]
    for record_day in days:
        made = saved.get(record_day.day, {})
        record_day.acted = record_day.day >= 1 and record_day.day in saved
        record_day.choices = {
            slot: {key: made[slot][key] for key in CHOICE_KEYS if made[slot].get(key)}
            for slot in SLOTS
            if made.get(slot)
        }
    for morning in game.mornings:
        night = saved.get(morning.day - 1, {})
        choices = {slot: Choices.from_dict(dict(made)) for slot, made in night.items()}
        causes = game.night_causes(morning, choices)
        record_day = days[morning.day]
        record_day.morning = True
        record_day.judged = morning.judged
        record_day.attack = morning.attack
        record_day.assassination = morning.assassination
        record_day.deaths = [
            Dying(slot, str(kind), tuple(causes[slot]), morning.killers.get(slot))
            for slot, kind in sorted(morning.deaths.items(), key=lambda item: SLOTS.index(item[0]))
        ]
        record_day.received += [
            Received(slot, ABILITY_OF[JOBS[slot]], r.target, str(r.verdict))
            for slot, r in morning.results.items()
        ]
        record_day.dms = [Message(r, dm.writer, dm.names) for r, dm in morning.dms.items()]
    return days
