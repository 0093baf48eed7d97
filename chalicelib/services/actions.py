"""Saving a member's nightly choices (この内容で行動) and reading them back."""

import hashlib
from datetime import datetime

from pynamodb.exceptions import DoesNotExist, TransactWriteError, UpdateError

from ..rules import ChoiceError, Choices, Command
from ..storage.db import transaction
from ..storage.models import CounterItem, DayItem
from ..storage.repository import VillageRecord, load_village, plain
from ..timeline import Phase, State
from ..visibility import Viewer, choices_shown
from . import outbox, posts
from .errors import Conflict, Forbidden, InvalidInput, NotFound
from .update import ending_report, release_holds, save_meta


def save_actions(village_id: str, account_id: str, data: dict, now: datetime) -> Command | None:
    """Validates and saves all of a member's choices at once: all or nothing.

    Returns the oni-side command that took effect during the day (the ending has
    then started), else None.
    """
    record = load_village(village_id)
    if record is None:
        raise NotFound("その村は見つかりません")
    slot = record.slot_of(account_id)
    if slot is None:
        raise Forbidden("この村の村民ではありません")
    if State(record.meta.state) is not State.RUNNING:
        raise Forbidden("いまは行動を決められません")
    game = record.game
    try:
        choices = Choices.from_dict(data)
        game.validate(slot, choices)
    except ChoiceError as error:
        raise InvalidInput(str(error)) from error
    day = record.days.get(game.day)
    if day is None:
        raise Conflict("日付が変わりました。ページを読み込み直してください")
    try:
        # One map entry per member: saves of different members never overwrite each other;
        # the condition refuses a save that arrives after the update sealed the day.
        day.update(
            actions=[
                DayItem.choices[slot].set(choices.to_dict()),
                DayItem.saved_at[slot].set(now.isoformat()),
                DayItem.saves.add(1),
            ],
            condition=DayItem.sealed == False,  # noqa: E712 (a DynamoDB condition)
        )
    except UpdateError as error:
        raise Conflict("更新が行われたため保存できませんでした。読み込み直してください") from error
    if posts.phase_of(record, now) is not Phase.DAY:
        return None  # in loss time or at night a command waits for the update (RULES §7)
    saved = plain(day.choices)
    command = game.command({s: Choices.from_dict(c) for s, c in saved.items()})
    if command is not None:
        _end_now(record, command, now)
    return command


def _end_now(record: VillageRecord, command: Command, now: datetime) -> None:
    """A declaration or resignation set during the day: the ending starts at once."""
    meta = record.meta
    game = record.game
    game.end_by_command(command, at_night=False)
    try:
        with transaction() as t:
            save_meta(t, record, game, State.ENDING, now, meta.next_update)
            release_holds(t, record)
            t.save(posts.system(meta.village_id, game.day, ending_report(record, game), now))
            for item in outbox.owed_to_members(record, game.day, "ending", now):
                t.save(item)
    except TransactWriteError:
        fresh = load_village(meta.village_id)
        if fresh is None or State(fresh.meta.state) is State.RUNNING:
            raise Conflict("混み合っています。もう一度保存してください") from None


def visible_choices(record: VillageRecord, viewer: Viewer, day: int) -> dict[str, dict]:
    """The saved choices of ``day`` the viewer may read: its own, and oni-side votes."""
    item = record.days.get(day)
    if item is None or viewer.slot is None:
        return {}
    game = record.game
    shown = {}
    for slot, data in plain(item.choices).items():
        keys = choices_shown(game, viewer, slot)
        visible = {k: v for k, v in data.items() if k in keys}
        if visible:
            shown[slot] = visible
    return shown


def own_choices(record: VillageRecord, account_id: str) -> dict[str, str]:
    """The member's saved choices for today (empty when none or not a member)."""
    slot = record.slot_of(account_id)
    if slot is None:
        return {}
    return visible_choices(record, Viewer(account_id=account_id, slot=slot), record.game.day).get(
        slot, {}
    )


# ----- one-tap choices from mail -----


def _quick_link_key(token: str) -> str:
    return f"R#quick-link#{hashlib.sha256(token.encode()).hexdigest()[:32]}"


def quick_link_used(token: str) -> bool:
    """Whether this one-tap link has already set its choice (which was changed since)."""
    try:
        CounterItem.get(_quick_link_key(token), "USED", consistent_read=True)
    except DoesNotExist:
        return False
    return True


def mark_quick_link_used(token: str, until: datetime) -> None:
    CounterItem(_quick_link_key(token), "USED", expires_at=until).save()
