"""Loading: the village aggregate in one query, an account by id.

A ``VillageRecord`` is what one request knows of a village: its items as read, and its
game parsed once (by the village's rule set) on first use. It is read-only: changes go
through the intention-named writes of ``storage.villages``, after which the unit of work
reloads the village on purpose.
"""

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from pynamodb.exceptions import DoesNotExist

from .. import rulesets
from ..personas import persona
from ..rulesets.base import Bans, Pace, RuleSet, Seat, State
from .db import ensure_configured
from .keys import account_pk, village_pk
from .models import AccountItem, DayItem, Item, LookItem, MemberItem, PresenceItem, VillageItem


def plain(value: Any) -> dict[str, Any]:
    """A map attribute as a dict: PynamoDB gives a MapAttribute once loaded, the dict it was
    given before that."""
    return value.as_dict() if hasattr(value, "as_dict") else dict(value or {})


@dataclass
class VillageRecord:
    """Everything of one village but its posts: one consistent query.

    Reads as a ``rulesets.base.VillageView`` for its rule set.
    """

    meta: VillageItem
    members: dict[str, MemberItem]
    presences: dict[str, PresenceItem]
    days: dict[int, DayItem] = field(default_factory=dict)
    look: LookItem | None = None  # when the scheduler looks next (None: closed)

    @property
    def village_id(self) -> str:
        return str(self.meta.village_id)

    @property
    def name(self) -> str:
        return str(self.meta.name)

    @property
    def pace(self) -> Pace:
        return Pace(self.meta.pace)

    @property
    def state(self) -> State:
        return State(self.meta.state)

    @property
    def created_at(self) -> datetime:
        return self.meta.created_at

    @property
    def day_started_at(self) -> datetime | None:
        return self.meta.day_started_at

    @property
    def next_update(self) -> datetime | None:
        return self.meta.next_update

    @property
    def seed(self) -> int:
        return int(self.meta.seed)

    @property
    def rules(self) -> RuleSet:
        return rulesets.get(self.meta.rules)

    @cached_property
    def game(self) -> Any:
        """The game, parsed once per load. Treat it as read-only: a rule set that changes a
        game (a step) works on its own copy and hands the result to storage."""
        return self.rules.parse(self.meta.game)

    @property
    def day(self) -> int:
        return self.rules.day(self.game)

    def dead(self) -> frozenset[str]:
        return self.rules.dead(self.game)

    @cached_property
    def _seats(self) -> dict[str, Seat]:
        """The seats in the rule set's order (the members' query returns them by key)."""
        order = [slot for slot in self.rules.seat_order(self.game) if slot in self.members]
        return {
            slot: Seat(
                slot=slot,
                account_id=m.account_id,
                persona=m.persona,
                name=display_name(self.rules, self.meta.character_set, m),
                last_access=m.last_access,
                bans=Bans(speech_until=m.speech_ban_until, public_until=m.public_ban_until),
                will=m.will,
            )
            for slot, m in ((slot, self.members[slot]) for slot in order)
        }

    def seats(self) -> dict[str, Seat]:
        return self._seats

    def names(self) -> dict[str, str]:
        """Every character's display name, by slot: how pages, mail and reports name them."""
        return {slot: seat.name for slot, seat in self._seats.items()}

    def slot_of(self, account_id: str | None) -> str | None:
        """The slot an account plays now, or None."""
        if account_id is None:
            return None
        presence = self.presences.get(account_id)
        if presence is None or presence.left:
            return None
        return str(presence.slot)

    def saved(self, day: int) -> dict[str, dict[str, str]]:
        """The saved choices of the members who hold their slots (vacant slots: undecided)."""
        item = self.days.get(day)
        if item is None:
            return {}
        return {
            slot: dict(data)
            for slot, data in plain(item.choices).items()
            if self.members[slot].account_id is not None
        }

    def choices_of(self, day: int) -> Any:
        """``saved(day)`` as the rule set's engine takes them (Mobius: ``Choices`` by slot)."""
        return self.rules.engine_choices(self.saved(day))

    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]:
        """Every day's saved choices as recorded (the full record reads them all)."""
        return {d: plain(item.choices) for d, item in self.days.items()}

    def saved_at(self, day: int) -> dict[str, str]:
        item = self.days.get(day)
        return plain(item.saved_at) if item is not None else {}


def display_name(rules: RuleSet, character_set: str, member: MemberItem) -> str:
    """「占い師A 楓」: the seat's label and, once chosen, the persona."""
    chosen = persona(character_set, member.persona) if member.persona else None
    label = rules.seat_label(member.slot)
    if chosen is None:
        return label or "空席"  # a seat without a label (classic) is named by its persona
    return f"{label} {chosen.name}" if label else chosen.name


def load_village(village_id: str) -> VillageRecord | None:
    ensure_configured()
    meta = None
    members: dict[str, MemberItem] = {}
    presences: dict[str, PresenceItem] = {}
    days: dict[int, DayItem] = {}
    look = None
    for item in Item.query(village_pk(village_id), consistent_read=True):
        if isinstance(item, VillageItem):
            meta = item
        elif isinstance(item, MemberItem):
            members[item.slot] = item
        elif isinstance(item, PresenceItem):
            presences[item.account_id] = item
        elif isinstance(item, DayItem):
            days[int(item.day)] = item
        elif isinstance(item, LookItem):
            look = item
    if meta is None:
        return None
    return VillageRecord(meta, members, presences, days, look)


def village_header(meta: VillageItem) -> VillageRecord:
    """A village known only by its META item (the lounge, the local clock page): its state,
    pace and clock, no members."""
    return VillageRecord(meta, {}, {}, {})


def load_account(account_id: str) -> AccountItem | None:
    ensure_configured()
    try:
        return AccountItem.get(account_pk(account_id), "ACCOUNT", consistent_read=True)
    except DoesNotExist:
        return None
