"""The update: every transition due at ``now``, each committed once.

``advance`` may run twice, or twice at once (duplicate scheduler ticks, Lambda
retries): each step is one transaction conditioned on the village's version,
so only one of them commits; the other reloads, finds nothing due, and stops.
What a step does is the village's rule set's (``RuleSet.step``); committing it,
with the holds it ends and the mail it owes, is storage's (``commit_step``).
"""

from datetime import datetime
from typing import Any

from msgspec import Struct

from .. import membership
from ..rulesets.base import State, Step
from ..storage import villages as store
from ..storage.accounts import Account
from ..storage.errors import Refused
from ..storage.gm_log import GmLogLine
from ..storage.repository import VillageRecord
from . import computer_seats
from .unit import Unit

# Enough steps to catch up a village whose scheduler was down for a long while.
MAX_STEPS = 40


class Happening(Struct, frozen=True):
    """What one step did, for the mail step."""

    kind: str  # started | extended | abandoned | morning | ending | closed | …
    village_id: str
    day: int
    morning: Any = None  # the rule set's account of the night (Mobius: its Morning)


def due(record: VillageRecord, now: datetime) -> bool:
    return record.next_update is not None and record.next_update <= now


def advance(village_id: str, now: datetime, unit: Unit | None = None) -> list[Happening]:
    """Runs every transition due at ``now``; returns what happened (empty when nothing did)."""
    unit = unit or Unit()
    happenings: list[Happening] = []
    for _ in range(MAX_STEPS):
        record = unit.village(village_id)
        if record is None or not due(record, now):
            break
        at = record.next_update
        assert at is not None
        # An opening's start seats the computer members it waits for (decision 125).
        step = computer_seats.at_start(record, at, lambda v: v.rules.step(v, at))  # noqa: B023 (called now)
        step = step or record.rules.step(record, at)
        try:
            commit(record, step, now)
            happenings += happened(record, step)
        except Refused:
            pass  # another run won this step, or a save slipped in: look again
        unit.reload(village_id)
    return happenings


def commit(record: VillageRecord, step: Step, now: datetime, log: GmLogLine | None = None) -> None:
    """Writes one step of ``record`` with the mail it owes every member (and, for a step a
    GM took, the GM's log line of it); ``now``: when it commits (a step the scheduler runs
    late is shown to members only from then)."""
    rules = record.rules
    # The seats computer members take with the step are open no longer.
    open_seats = membership.open_seats(record.seats(), rules.dead(step.game)) - len(step.computers)
    owed = [s.account_id for s in record.seats().values() if s.account_id and not s.computer]

    def lock_for(account: Account) -> store.Lock:
        # A classic sudden death: the escalating ID lock of a Mobius mid-game departure.
        lock = membership.new_lock(account.departures, account.lock_until, step.at)
        return store.Lock(lock.departures, lock.until)

    write = store.StepWrite(
        step=step,
        game=rules.dump(step.game),
        # The lounge's "seats to take over": none where the rule set has no takeovers.
        open_seats=open_seats
        if step.state.value == "running" and rules.seat_rules(record.pace).takeovers
        else 0,
        owed_to=tuple(owed),
        committed_at=now,
        lock_for=lock_for,
        log=log,
        # The step that ends a game: every member then played it to its end.
        finished=frozenset(owed)
        if step.state is State.ENDING and record.state is State.RUNNING
        else frozenset(),
    )
    store.commit_step(record, write)


def happened(record: VillageRecord, step: Step) -> list[Happening]:
    return [
        Happening(kind, record.village_id, step.day, step.detail if kind == "morning" else None)
        for kind in step.happenings
    ]
