"""Computer members' seats (decisions 108, 125): the GM's ``cpu_members`` either seats them at
once (a practice village) or keeps them waiting for the start, when they take the seats still
open in the same conditioned write as the start itself.

A computer member holds its seat under a pseudo account (``rulesets.base.computer_account``)
with a persona nobody holds; which seats and personas it takes are drawn by its own secret
randomness (``secrets``), never the village's seed.
"""

import random
import secrets
from collections.abc import Callable
from datetime import datetime

from msgspec.structs import replace

from ..personas import CHARACTER_SETS
from ..rulesets.base import State, Step, computer_account
from ..storage import villages as store
from ..storage.errors import Refused
from ..storage.repository import VillageRecord
from .errors import InvalidInput
from .unit import Unit

SEAT_ATTEMPTS = 3  # a seat write that met a change is tried again on the village as it is


def check_count(count: object, seats: int) -> int:
    """The GM's ``cpu_members``: 0 to every seat but one (a person always has a seat)."""
    try:
        number = int(str(count))
    except ValueError:
        raise InvalidInput("CPUの人数（cpu_members）は数字で指定してください") from None
    if not 0 <= number <= seats - 1:
        raise InvalidInput(f"CPUの人数（cpu_members）は0〜{seats - 1}人にしてください")
    return number


def _free(record: VillageRecord, count: int, rng: random.Random) -> dict[str, str]:
    """Up to ``count`` vacant seats, each with a persona nobody holds, drawn by ``rng``."""
    seats = record.seats()
    vacant = [s for s, m in seats.items() if m.account_id is None]
    held = {m.persona for m in seats.values() if m.account_id is not None}
    free = [p.key for p in CHARACTER_SETS[record.village.character_set] if p.key not in held]
    chosen = rng.sample(vacant, min(count, len(vacant), len(free)))
    return dict(zip(chosen, rng.sample(free, len(chosen)), strict=True))


def seat(village_id: str, count: int, now: datetime, unit: Unit | None = None) -> list[str]:
    """``count`` computer members take vacant seats of the village at once (a practice
    village), one write each, drawn by their own randomness. Returns their seats."""
    unit = unit or Unit()
    rng = secrets.SystemRandom()
    taken: list[str] = []
    for _ in range(count):
        for _attempt in range(SEAT_ATTEMPTS):
            record = unit.require(village_id)
            drawn = _free(record, 1, rng)
            if not drawn:
                return taken
            [(slot, persona)] = drawn.items()
            game = record.rules.on_join(record, slot, now)
            try:
                store.seat_computer(
                    record,
                    slot,
                    computer_account(slot),
                    persona,
                    now,
                    None if game is None else record.rules.dump(game),
                )
                taken.append(slot)
                unit.reload(village_id)
                break
            except Refused:
                unit.reload(village_id)
    return taken


def at_start(
    record: VillageRecord, at: datetime, act: Callable[[VillageRecord], Step]
) -> Step | None:
    """The step ``act`` takes on the village as it would be with its waiting computer
    members seated — up to the GM's number, in seats still open, each having taken the turn
    it would take on joining (classic: its start vote) — when that step starts the game:
    the step, carrying the seats (``Step.computers``) that storage writes with it, each
    conditioned on being still vacant and the village on the version read (a person who
    joins meanwhile refuses the start, which is then taken again with the person seated).

    None when the village waits for no computer, has no person yet (computers alone never
    start a village), or would not start even with them: then nothing of them is written.
    """
    count = record.waiting_computers
    if not count or record.state is not State.OPENING:
        return None
    if not any(s.account_id is not None and not s.computer for s in record.seats().values()):
        return None
    seating = _free(record, count, secrets.SystemRandom())
    view = record
    try:
        for slot, persona in seating.items():
            game = view.rules.on_join(view, slot, at)
            view = view.supposing(game, (slot, computer_account(slot), persona, at))
        for slot in seating:
            turn = view.rules.computer_turn(view, slot, at, random.Random(secrets.randbits(64)))
            for action, target in turn.prologue:
                step = view.rules.prologue_step(view, slot, action, target, at)
                if step.state is State.RUNNING:  # its vote was the last one wanted
                    return replace(step, computers=seating)
                view = view.supposing(step.game)
        step = act(view)
    except ValueError:  # refused on the supposed village (NotNow is one): no start with them
        return None
    return replace(step, computers=seating) if step.state is State.RUNNING else None
