"""Mobius computer members (issue 24): ``MOBIUS.computer_turn`` timed on the loaded village
(the seat's view through visibility, then the strategy) and the DynamoDB requests
``computers.play`` makes at each look, over short villages of one person and twelve CPUs
played to their ending on moto (``computers.measured``)."""

import random
from datetime import datetime
from typing import Any

from chalicelib import effects
from chalicelib.personas import YAMAZATO
from chalicelib.rulesets.mobius.ruleset import Mobius
from chalicelib.services import actions, villages
from chalicelib.storage.repository import load_village

from .computers import measured

CPUS = 12


def play_one(person: str, now: datetime) -> None:
    """One village: the person takes the free seat and prays for the first it may each day;
    the clock goes from look to look (the CPUs' paced moments) and update to update."""
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="計測練習村", cpu_members=CPUS, practice=True),
        now=now,
        rng=random.Random(24),
    )
    seats = load_village(vid).seats()
    free = next(s for s, m in seats.items() if m.account_id is None)
    held = {m.persona for m in seats.values()}
    villages.join(vid, person, free, next(p.key for p in YAMAZATO if p.key not in held), now)
    for _ in range(200):
        record = load_village(vid)
        if record.state.value not in ("opening", "running") or record.next_update is None:
            break
        look = record.look_at
        now = max(now, min(look, record.next_update) if look else record.next_update)
        pray = [q for q in record.rules.quick_choices(record, free) if q.key == "pray"]
        if pray and pray[0].was is None:
            actions.save_actions(vid, person, {"pray": pray[0].targets[0]}, now)
        effects.advance_village(vid, now)


def figures() -> dict[str, Any]:
    return measured(Mobius, CPUS, play_one, 3)
