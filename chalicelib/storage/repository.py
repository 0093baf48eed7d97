"""Loading: the village aggregate in one query, an account by id.

A ``VillageRecord`` is what one request knows of a village: its items as read, and its
game parsed once (by the village's rule set) on first use. One consistent query reads what
every page, post, save and update needs: META, the members and the open day. Past days and
presences grow with the game and are read only when asked for (the full record, past-day
tabs, a slot's former players), so the hot read stays the same size on day 1 and day 12
(docs/decisions.md 60). It is read-only: changes go through the intention-named writes of
``storage.villages``, after which the unit of work reloads the village on purpose.
"""

from datetime import datetime
from functools import cached_property
from typing import Any

from msgspec import Struct, field
from pynamodb.exceptions import DoesNotExist

from .. import rulesets
from ..personas import persona
from ..rulesets.base import Bans, Pace, RuleSet, Seat, State, VillagePages, is_computer
from .accounts import Account, account_record
from .db import ensure_configured
from .keys import (
    ARCHIVE_PREFIX,
    OPEN_FROM,
    PRESENCE_PREFIX,
    account_pk,
    key_time,
    presence_sk,
    slot_sk,
    village_pk,
)
from .models import (
    AccountItem,
    DayItem,
    Item,
    LookItem,
    MemberItem,
    PresenceItem,
    VillageItem,
    plain,
    record_of,
)


class Village(Struct, frozen=True):
    """A village's META as the layers above storage read it (pages, mail, the scheduler): its
    fields as stored (see ``VillageItem``), the game left to ``VillageRecord.game``."""

    village_id: str
    name: str
    pace: str
    state: str
    rules: str | None  # None: Mobius, as stored before rule sets were named
    character_set: str
    created_at: datetime
    day_started_at: datetime | None
    day_shown_at: datetime | None
    next_update: datetime | None
    closed_at: datetime | None
    seats: int | None  # None: stored before it was kept (13)
    occupied: int
    open_seats: int
    reminded_day: int
    gm_reason: str | None
    cpu_members: int | None
    seed: int
    version: int | None  # what a form that must not overwrite a newer META carries


class VillageRecord(Struct, dict=True):  # dict: room for what it reads on first use
    """One village as a request sees it: META, the members and the open day, read in one
    consistent query; past days and presences on first use.

    Reads as a ``rulesets.base.VillageView`` for its rule set. The items (underscored) are
    storage's alone: its conditioned writes need them and their versions; the layers above
    read ``village``, ``seats()`` and the methods below (tests/unit/test_layers.py).
    """

    _meta: VillageItem
    _members: dict[str, MemberItem]
    # The days still open: the current one (none once the game ended). Items stored before
    # sealed days were archived keep every day here.
    _open_days: dict[int, DayItem] = field(default_factory=dict)
    _look: LookItem | None = None  # when the scheduler looks next (None: closed)

    @property
    def village(self) -> Village:
        # Made on each read, not cached: a storage write updates META in place (the day's
        # reminder noted), and a look reads the record again after it.
        return record_of(Village, self._meta)

    @property
    def look_at(self) -> datetime | None:
        """When the scheduler was to look next, as read (None: closed or never set)."""
        key = self._look.gsi1sk if self._look is not None else None
        return key_time(key) if key else None

    @cached_property
    def _days(self) -> dict[int, DayItem]:
        """Every day played, the sealed ones read now (one more query): for what needs
        past days, never on the hot path."""
        archived = {
            int(item.day): item
            for item in DayItem.query(
                village_pk(self.village_id),
                DayItem.sk.startswith(ARCHIVE_PREFIX),
                consistent_read=True,
            )
        }
        return dict(sorted((archived | self._open_days).items()))

    @cached_property
    def presences(self) -> "dict[str, Presence]":
        """Every account that ever held a seat here, by account (one more query): the
        members carry who plays each seat now, so only the logs and departures need these."""
        return {
            item.account_id: presence_of(item)
            for item in PresenceItem.query(
                village_pk(self.village_id),
                PresenceItem.sk.startswith(PRESENCE_PREFIX),
                consistent_read=True,
            )
        }

    def day_open(self, day: int) -> bool:
        """Whether ``day`` is still open (a save for a sealed day is refused)."""
        return day in self._open_days

    def player(self, slot: str) -> str | None:
        """The account playing ``slot`` now (None: vacant or no such slot)."""
        member = self._members.get(slot)
        return member.account_id if member is not None else None

    def joined(self) -> dict[str, datetime]:
        """When each member joined, by slot (members stored without the time left out)."""
        return {slot: m.joined_at for slot, m in self._members.items() if m.joined_at is not None}

    def _day_item(self, day: int) -> DayItem | None:
        """``day``'s item: the open day from the hot read, a past one from ``_days``."""
        item = self._open_days.get(day)
        return item if item is not None else self._days.get(day)

    @property
    def village_id(self) -> str:
        return str(self._meta.village_id)

    @property
    def name(self) -> str:
        return str(self._meta.name)

    @property
    def pace(self) -> Pace:
        return Pace(self._meta.pace)

    @property
    def state(self) -> State:
        return State(self._meta.state)

    @property
    def created_at(self) -> datetime:
        return self._meta.created_at

    @property
    def day_started_at(self) -> datetime | None:
        return self._meta.day_started_at

    @property
    def day_shown_at(self) -> datetime | None:
        """When members could first see the current day: the commit of the update that began
        it, never before its scheduled time (villages stored before it was kept: that time)."""
        started, shown = self._meta.day_started_at, self._meta.day_shown_at
        if started is None or shown is None:
            return started
        return max(started, shown)

    @property
    def next_update(self) -> datetime | None:
        return self._meta.next_update

    @property
    def seed(self) -> int:
        return int(self._meta.seed)

    @property
    def rules(self) -> RuleSet:
        return rulesets.get(self._meta.rules)

    @cached_property
    def game(self) -> Any:
        """The game, parsed once per load. Treat it as read-only: a rule set that changes a
        game (a step) works on its own copy and hands the result to storage."""
        return self.rules.parse(self._meta.game)

    @property
    def day(self) -> int:
        return self.rules.day(self.game)

    def dead(self) -> frozenset[str]:
        return self.rules.dead(self.game)

    @cached_property
    def _seats(self) -> dict[str, Seat]:
        """The seats in the rule set's order (the members' query returns them by key)."""
        order = [slot for slot in self.rules.seat_order(self.game) if slot in self._members]
        return {
            slot: Seat(
                slot=slot,
                account_id=m.account_id,
                persona=m.persona,
                name=display_name(self.rules, self._meta.character_set, m),
                last_access=m.last_access,
                last_post_at=m.last_post_at,
                bans=Bans(speech_until=m.speech_ban_until, public_until=m.public_ban_until),
                will=m.will,
            )
            for slot, m in ((slot, self._members[slot]) for slot in order)
        }

    def seats(self) -> dict[str, Seat]:
        return self._seats

    @property
    def waiting_computers(self) -> int:
        """Computer members waiting to take the seats still open at the start (decision 125)."""
        return int(self._meta.cpu_members or 0)

    def supposing(
        self, game: Any = None, held: tuple[str, str, str, datetime] | None = None
    ) -> "VillageRecord":
        """This village as it would be (nothing written): with the rule set's ``game`` (None:
        as it is) and ``held``, a seat taken as ``(slot, account, persona, at)``. What a rule
        set is asked about before a write that makes it so (the start that seats computers)."""
        meta = VillageItem.from_raw_data(self._meta.serialize())
        members = dict(self._members)
        if game is not None:
            meta.game = self.rules.dump(game)
        if held is not None:
            slot, account_id, chosen, at = held
            meta.occupied = int(meta.occupied or 0) + 1
            members[slot] = MemberItem(
                village_pk(self.village_id),
                slot_sk(slot),
                village_id=self.village_id,
                slot=slot,
                account_id=account_id,
                persona=chosen,
                joined_at=at,
            )
        return VillageRecord(meta, members, self._open_days, self._look)

    def names(self) -> dict[str, str]:
        """Every character's display name, by slot: how pages, mail and reports name them."""
        return {slot: seat.name for slot, seat in self._seats.items()}

    def slot_of(self, account_id: str | None) -> str | None:
        """The slot an account plays now, or None. A member item names its player, set with
        the presence on joining and removed with the presence's ``left`` on leaving (one
        transaction each), so the members answer what the presences would."""
        if account_id is None:
            return None
        return next((s for s, m in self._members.items() if m.account_id == account_id), None)

    def saved(self, day: int) -> dict[str, dict[str, str]]:
        """The saved choices of the members who hold their slots (vacant slots: undecided)."""
        item = self._day_item(day)
        if item is None:
            return {}
        return {
            slot: dict(data)
            for slot, data in plain(item.choices).items()
            if self._members[slot].account_id is not None
        }

    def choices_of(self, day: int) -> Any:
        """``saved(day)`` as the rule set's engine takes them (Mobius: ``Choices`` by slot)."""
        return self.rules.engine_choices(self.saved(day))

    def recorded(self, day: int) -> dict[str, dict[str, str]]:
        """One day's saved choices as recorded, every slot's (today's: no extra read)."""
        item = self._day_item(day)
        return plain(item.choices) if item is not None else {}

    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]:
        """Every day's saved choices as recorded (the full record reads them all)."""
        return {d: plain(item.choices) for d, item in self._days.items()}

    def saved_at(self, day: int) -> dict[str, str]:
        item = self._day_item(day)
        return plain(item.saved_at) if item is not None else {}

    def recent_saves(self) -> list[dict[str, str]]:
        """When each member last saved, today and on the day before (the open day carries the
        sealed day's times): the idle check's evidence. Saves of earlier days are a whole
        turn or more old, never recent enough to count (docs/decisions.md 62)."""
        return [
            times
            for item in self._open_days.values()
            for times in (plain(item.saved_at), plain(item.previous_saved_at))
        ]


def display_name(rules: VillagePages, character_set: str, member: MemberItem) -> str:
    """「占い師A 楓」: the seat's label and, once chosen, the persona."""
    chosen = persona(character_set, member.persona) if member.persona else None
    label = rules.seat_label(member.slot)
    if chosen is None:
        return label or "空席"  # a seat without a label (classic) is named by its persona
    # A computer member is marked wherever it is named: pages, posts, mail, the ending.
    mark = "（CPU）" if is_computer(member.account_id) else ""
    return f"{label} {chosen.name}{mark}" if label else f"{chosen.name}{mark}"


def load_village(village_id: str) -> VillageRecord | None:
    """The hot read: one consistent query of ``sk >= DAY#`` (the open day, META, members)."""
    ensure_configured()
    meta = None
    members: dict[str, MemberItem] = {}
    days: dict[int, DayItem] = {}
    look = None
    for item in Item.query(village_pk(village_id), Item.sk >= OPEN_FROM, consistent_read=True):
        if isinstance(item, VillageItem):
            meta = item
        elif isinstance(item, MemberItem):
            members[item.slot] = item
        elif isinstance(item, DayItem):
            days[int(item.day)] = item
        elif isinstance(item, LookItem):
            look = item
    if meta is None:
        return None
    return VillageRecord(meta, members, days, look)


class Presence(Struct, frozen=True):
    """An account's one place in a village, ever (``PresenceItem``): its seat, and whether
    it left (then it never rejoins)."""

    account_id: str
    slot: str
    left: bool


def presence_of(item: PresenceItem) -> Presence:
    return Presence(str(item.account_id), str(item.slot), bool(item.left))


def load_joiner(account_id: str, village_id: str) -> tuple[Account | None, Presence | None]:
    """An account and its presence in a village (ever joined? left?), in one batch read."""
    ensure_configured()
    account, presence = None, None
    for item in Item.batch_get(
        [(account_pk(account_id), "ACCOUNT"), (village_pk(village_id), presence_sk(account_id))],
        consistent_read=True,
    ):
        if isinstance(item, AccountItem):
            account = account_record(item)
        elif isinstance(item, PresenceItem):
            presence = presence_of(item)
    return account, presence


def load_account(account_id: str) -> Account | None:
    ensure_configured()
    try:
        item = AccountItem.get(account_pk(account_id), "ACCOUNT", consistent_read=True)
    except DoesNotExist:
        return None
    return account_record(item)
