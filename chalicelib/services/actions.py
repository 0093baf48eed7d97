"""Saving a member's choices (この内容で行動) and reading them back."""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..rulesets.base import NotNow, Viewer
from ..storage import accounts as accounts_store
from ..storage import villages as store
from ..storage.errors import FAULTS, Refused
from ..storage.outbox import Mail
from ..storage.repository import VillageRecord
from . import computer_seats
from .errors import Conflict, Forbidden, InvalidInput
from .unit import Unit
from .update import commit

SAVE_ATTEMPTS = 3  # a write that met a change since its read is checked again, twice
DAY_CHANGED = "日付が変わりました。ページを読み込み直してください"
CHANGED_SINCE = (
    "{choice}は、このページを開いたあとで変更されています。"
    "ページを読み込み直して、いまの内容を確かめてから決め直してください"
)


def save_actions(
    village_id: str,
    account_id: str,
    data: Mapping[str, str | None],
    now: datetime,
    unit: Unit | None = None,
    shown: Mapping[str, str | None] | None = None,
    receipt: Mail | None = None,
) -> Any:
    """Validates and saves a member's choices at once: all or nothing.

    ``shown``: what the page the save was made on showed of each choice (None: undecided).
    A choice left as shown keeps its current value, so a stale page changes only what the
    player changed on it; a choice the player changed that has changed since the page was
    shown is refused with the reason (never a silent revert). Without ``shown`` (a mail link,
    a direct caller) a save compares with what it read. Storage writes only the choices that
    change, each conditioned on its value as read, and the day on the version read: a write
    that meets a change since (another save of the member, a round closed) is checked again
    against the village as it is now, with the village it was first checked against (a vote
    of a round closed since is refused), and written or refused with the reason.

    ``receipt``: a mail owed once, written with the choices (a reply mail's confirmation;
    storage's ``AlreadyOwed`` when that mail was applied already).

    Returns what the save set off at once (Mobius: the oni side's command that started
    the ending during the day), else None.
    """
    unit = unit or Unit()
    record, saved = _save(unit, village_id, account_id, data, now, shown, receipt)
    return _set_off(unit, record, saved, now)


def _save(
    unit: Unit,
    village_id: str,
    account_id: str,
    data: Mapping[str, str | None],
    now: datetime,
    shown: Mapping[str, str | None] | None,
    receipt: Mail | None,
) -> tuple[VillageRecord, dict[str, dict[str, str]]]:
    """The choices checked and written (``save_actions``), read again and checked again
    after each write that met a change; the village they were written to, and the day's
    choices of every member afterwards."""
    first: VillageRecord | None = None
    baseline: dict[str, str | None] = {}
    for _ in range(SAVE_ATTEMPTS):
        record = unit.require(village_id)
        slot = record.slot_of(account_id)
        if slot is None:
            raise Forbidden("この村の村民ではありません")
        if first is not None and record.day != first.day:
            raise Conflict(DAY_CHANGED)
        current: Mapping[str, str | None] = own_choices(record, account_id)
        if first is None:
            first, baseline = record, {**current, **(shown or {})}
        # A choice as the page showed it is the player's "no change": it keeps its value now.
        wanted = {k: current.get(k) if v == baseline.get(k) else v for k, v in data.items()}
        choices = _check(record, slot, wanted, now, None if record is first else first)
        for key, value in wanted.items():
            if value != current.get(key) and current.get(key) != baseline.get(key):
                label = record.rules.choice_labels.get(key, key)
                raise Conflict(CHANGED_SINCE.format(choice=label))
        if not record.day_open(record.day):
            raise Conflict(DAY_CHANGED)
        try:
            return record, store.save_choices(record, record.day, slot, choices, now, receipt)
        except Refused:
            unit.reload(village_id)  # changed since the read: look again
    raise Conflict("混み合っています。もう一度保存してください")


def _set_off(
    unit: Unit, record: VillageRecord, saved: dict[str, dict[str, str]], now: datetime
) -> Any:
    """What the save set off at once, committed (``save_actions``' answer)."""
    village_id = record.village_id
    step = record.rules.after_save(record, saved, now)
    if step is None:
        return None
    early_close = step.check_day is not None or step.seal_day is not None
    try:
        commit(record, step, now)
    except Refused:
        fresh = unit.reload(village_id)
        if early_close:
            return None  # an early close (classic): the tick or a later save closes it
        if fresh is None or fresh.state.value == "running":
            raise Conflict("混み合っています。もう一度保存してください") from None
    except FAULTS:
        if early_close:  # the save stands; the round's deadline closes it (decision 65)
            return None
        raise
    return step.detail


def _check(
    record: VillageRecord,
    slot: str,
    data: Mapping[str, str | None],
    now: datetime,
    checked: VillageRecord | None,
) -> dict[str, str]:
    try:
        return record.rules.check_choices(record, slot, data, now, checked)
    except NotNow as error:
        raise Forbidden(str(error)) from error
    except ValueError as error:
        raise InvalidInput(str(error)) from error


def visible_choices(record: VillageRecord, viewer: Viewer, day: int) -> dict[str, dict[str, str]]:
    """The saved choices of ``day`` the viewer may read."""
    return record.rules.visible_choices(record, viewer, day)


def own_choices(record: VillageRecord, account_id: str) -> dict[str, str]:
    """The member's saved choices for today (empty when none or not a member)."""
    slot = record.slot_of(account_id)
    if slot is None:
        return {}
    return visible_choices(record, Viewer(account_id=account_id, slot=slot), record.day).get(
        slot, {}
    )


# ----- one-tap choices from mail -----


def quick_link_used(link: str) -> bool:
    """Whether this one-tap link (``links.used_key``) has already set its choice (which was
    changed since)."""
    return accounts_store.link_used(link)


def mark_quick_link_used(link: str, until: datetime) -> None:
    accounts_store.mark_link_used(link, until)


# ----- the prologue (classic: start votes and kicks) -----

PROLOGUE_RETRIES = 17  # one per member who could have voted at the same instant, and one


def prologue(
    village_id: str,
    account_id: str,
    action: str,
    target: str | None,
    now: datetime,
    unit: Unit | None = None,
) -> str:
    """Sets or withdraws a start vote or a kick vote (RULES-CLASSIC §2.1). Each is one
    version-checked write of the game, so the last start vote starts the game exactly once,
    even when two members vote at the same instant. Returns what happened: the action, or
    ``started``; a member kicked by three others leaves at once."""
    from . import villages  # villages imports this module's neighbours; keep the cycle out

    unit = unit or Unit()
    for _ in range(PROLOGUE_RETRIES):
        record = unit.require(village_id)
        slot = record.slot_of(account_id)
        if slot is None:
            raise Forbidden("この村の村民ではありません")
        try:
            step = record.rules.prologue_step(record, slot, action, target, now)
        except NotNow as error:
            raise Forbidden(str(error)) from error
        except ValueError as error:
            raise InvalidInput(str(error)) from error
        if step.state is record.state:  # not a start alone: maybe with the computers it waits for
            step = (
                computer_seats.at_start(
                    record,
                    now,
                    lambda v: v.rules.prologue_step(v, slot, action, target, now),  # noqa: B023 (called now)
                )
                or step
            )
        try:
            commit(record, step, now)
        except Refused:
            unit.reload(village_id)  # another vote or a join came first: look again
            continue
        fresh = unit.reload(village_id)
        kicked = step.detail
        if kicked is not None and fresh is not None:
            villages.kick_out(fresh, kicked, now, unit)
        return step.happenings[-1] if step.happenings else action
    raise Conflict("混み合っています。もう一度お試しください")


def save_will(
    village_id: str, account_id: str, text: str, now: datetime, unit: Unit | None = None
) -> None:
    """Writes (or rewrites, or with an empty text removes) the member's will."""
    unit = unit or Unit()
    record = unit.require(village_id)
    slot = record.slot_of(account_id)
    if slot is None:
        raise Forbidden("この村の村民ではありません")
    rules = record.rules
    if not rules.wills:
        raise Forbidden("この村に遺書はありません")
    if record.state.value not in ("opening", "running") or slot in record.dead():
        raise Forbidden("遺書は生きているあいだだけ書けます")
    if len(text) > rules.will_length:
        raise InvalidInput(f"遺書は{rules.will_length}文字までです（いま{len(text)}文字）")
    try:
        store.save_will(record, slot, account_id, text.strip())
    except Refused as error:
        raise Forbidden("この村の村民ではありません") from error
