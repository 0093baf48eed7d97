"""Loading and naming items: the village aggregate in one query, keys in one place."""

from dataclasses import dataclass, field
from datetime import datetime

from pynamodb.exceptions import DoesNotExist

from ..rules import Choices, Village
from .db import ensure_configured
from .models import (
    AccountItem,
    DayItem,
    Item,
    MemberItem,
    PresenceItem,
    VillageItem,
)


def plain(value) -> dict:
    """A map attribute as a dict: PynamoDB gives a MapAttribute once loaded, the dict it was
    given before that."""
    return value.as_dict() if hasattr(value, "as_dict") else dict(value or {})


def village_pk(village_id: str) -> str:
    return f"V#{village_id}"


def day_sk(day: int) -> str:
    return f"DAY#{day:03d}"


def slot_sk(slot: str) -> str:
    return f"SLOT#{slot}"


def presence_sk(account_id: str) -> str:
    return f"ACCOUNT#{account_id}"


def account_pk(account_id: str) -> str:
    return f"A#{account_id}"


def email_pk(email: str) -> str:
    return f"E#{email}"


def state_key(state: str) -> str:
    return f"STATE#{state}"


def time_key(moment: datetime) -> str:
    """Sortable UTC text for index sort keys."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def board_pk(village_id: str, board: str, account_id: str | None = None) -> str:
    """A board's partition; each member's inner board (心の中) is its own."""
    return f"P#{village_id}#{board}" + (f"#{account_id}" if account_id else "")


def post_sk_prefix(day: int) -> str:
    return f"{day:03d}#"


@dataclass
class VillageRecord:
    """Everything of one village but its posts: one consistent query."""

    meta: VillageItem
    members: dict[str, MemberItem]
    presences: dict[str, PresenceItem]
    days: dict[int, DayItem] = field(default_factory=dict)

    @property
    def village_id(self) -> str:
        return self.meta.village_id

    @property
    def game(self) -> Village:
        return Village.from_json(self.meta.game)

    def open_seats(self, game: Village) -> int:
        """Vacant characters still alive in ``game``: the seats a newcomer may take over."""
        return sum(
            1
            for slot, m in self.members.items()
            if m.account_id is None and slot not in game.deaths
        )

    def slot_of(self, account_id: str | None) -> str | None:
        """The slot an account plays now, or None."""
        if account_id is None:
            return None
        presence = self.presences.get(account_id)
        if presence is None or presence.left:
            return None
        return presence.slot

    def choices_of(self, day: int) -> dict[str, Choices]:
        """The saved choices of the members who hold their slots (vacant slots: undecided)."""
        item = self.days.get(day)
        if item is None:
            return {}
        return {
            slot: Choices.from_dict(data)
            for slot, data in plain(item.choices).items()
            if self.members[slot].account_id is not None
        }


def load_village(village_id: str) -> VillageRecord | None:
    ensure_configured()
    meta = None
    members: dict[str, MemberItem] = {}
    presences: dict[str, PresenceItem] = {}
    days: dict[int, DayItem] = {}
    for item in Item.query(village_pk(village_id), consistent_read=True):
        if isinstance(item, VillageItem):
            meta = item
        elif isinstance(item, MemberItem):
            members[item.slot] = item
        elif isinstance(item, PresenceItem):
            presences[item.account_id] = item
        elif isinstance(item, DayItem):
            days[item.day] = item
    if meta is None:
        return None
    return VillageRecord(meta, members, presences, days)


def load_account(account_id: str) -> AccountItem | None:
    ensure_configured()
    try:
        return AccountItem.get(account_pk(account_id), "ACCOUNT", consistent_read=True)
    except DoesNotExist:
        return None
