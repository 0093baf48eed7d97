"""The update (RULES §2): every transition due at ``now``, each committed once.

``advance`` may run twice, or twice at once (duplicate scheduler ticks, Lambda
retries): each step is one transaction conditioned on the village's version,
so only one of them commits; the other reloads, finds nothing due, and stops.
The night's draws use ``Random(f"{seed}:{day}")``: a retried step draws the same.
"""

import random
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from pynamodb.exceptions import TransactWriteError

from ..rules import SLOTS, EndedBy, Morning, Village, Winner
from ..storage.db import transaction
from ..storage.models import AccountItem, DayItem, VillageItem
from ..storage.repository import (
    VillageRecord,
    account_pk,
    day_sk,
    load_village,
    plain,
    state_key,
    time_key,
    village_pk,
)
from ..timeline import EXTENSION, TIMINGS, Pace, State
from . import outbox, posts
from .errors import Conflict, NotFound
from .villages import can_start

# Enough steps to catch up a village whose scheduler was down for a long while.
MAX_STEPS = 40


@dataclass(frozen=True)
class Happening:
    """What one step did, for the mail step."""

    kind: str  # started | extended | abandoned | morning | ending | closed
    village_id: str
    day: int
    morning: Morning | None = None


def due(meta: VillageItem, now: datetime) -> bool:
    return meta.next_update is not None and meta.next_update <= now


def advance(village_id: str, now: datetime) -> list[Happening]:
    """Runs every transition due at ``now``; returns what happened (empty when nothing did)."""
    return advance_loaded(load_village(village_id), now)[0]


def advance_loaded(
    record: VillageRecord | None, now: datetime
) -> tuple[list[Happening], VillageRecord | None]:
    """``advance`` from a village just loaded; also returns the village as it is afterwards."""
    happenings: list[Happening] = []
    for _ in range(MAX_STEPS):
        if record is None or not due(record.meta, now):
            break
        with suppress(TransactWriteError):  # another run won this step, or a save slipped in
            happenings += _step(record)
        record = load_village(record.village_id)
    return happenings, record


def _step(record: VillageRecord) -> list[Happening]:
    state = State(record.meta.state)
    if state is State.OPENING:
        return _opening_update(record)
    if state is State.RUNNING:
        return _night_update(record)
    return _close(record)


def _opening_update(record: VillageRecord) -> list[Happening]:
    meta = record.meta
    at = meta.next_update
    vid = meta.village_id
    timing = TIMINGS[Pace(meta.pace)]
    game = record.game
    if can_start(record):
        game.start()
        with transaction() as t:
            save_meta(t, record, game, State.RUNNING, at, at + timing.turn, day_started_at=at)
            t.save(_day(vid, 1), condition=DayItem.pk.does_not_exist())
            t.save(posts.system(vid, 1, "1日目が始まりました。", at))
            for item in outbox.owed_to_members(record, 1, "start", at):
                t.save(item)
        return [Happening("started", vid, 1)]
    if at - meta.created_at >= timing.abandon_age:
        with transaction() as t:
            save_meta(t, record, game, State.ABANDONED, at, None)
            release_holds(t, record)
            t.save(posts.system(vid, 0, "人数が集まらなかったため、廃村になりました。", at))
            for item in outbox.owed_to_members(record, 0, "abandoned", at):
                t.save(item)
        return [Happening("abandoned", vid, 0)]
    with transaction() as t:
        save_meta(t, record, game, State.OPENING, at, at + EXTENSION)
        t.save(posts.system(vid, 0, "人数が足りないため、開始を24時間延長します。", at))
    return [Happening("extended", vid, 0)]


def _night_update(record: VillageRecord) -> list[Happening]:
    meta = record.meta
    at = meta.next_update
    vid = meta.village_id
    game = record.game
    day = game.day
    choices = record.choices_of(day)
    sealed_day = record.days.get(day)
    command = game.command(choices)
    morning = None
    if command is not None:
        # Set in loss time or at night: the ending starts now, the night is not resolved.
        game.end_by_command(command, at_night=True)
    else:
        morning = game.resolve_night(choices, random.Random(f"{meta.seed}:{day}"))
    with transaction() as t:
        if sealed_day is not None:
            t.update(
                sealed_day,
                actions=[DayItem.sealed.set(True)],
                condition=DayItem.saves == sealed_day.saves,
            )
        if game.ending is not None:
            save_meta(t, record, game, State.ENDING, at, at + TIMINGS[Pace(meta.pace)].turn)
        else:
            save_meta(
                t,
                record,
                game,
                State.RUNNING,
                at,
                at + TIMINGS[Pace(meta.pace)].turn,
                day_started_at=at,
            )
            t.save(_day(vid, game.day), condition=DayItem.pk.does_not_exist())
        if morning is not None:
            t.save(posts.system(vid, game.day, _morning_report(record, morning), at))
        if game.ending is not None:
            release_holds(t, record)
            # Just after the morning report of the same update, so that it reads first.
            t.save(
                posts.system(
                    vid, game.day, ending_report(record, game), at + timedelta(microseconds=1)
                )
            )
        elif morning is not None:
            release_holds(t, record, only=set(morning.deaths))
        kind = "ending" if game.ending is not None else "morning"
        for item in outbox.owed_to_members(record, game.day, kind, at):
            t.save(item)
    happenings = []
    if morning is not None:
        happenings.append(Happening("morning", vid, game.day, morning))
    if game.ending is not None:
        happenings.append(Happening("ending", vid, game.day))
    return happenings


def _close(record: VillageRecord) -> list[Happening]:
    meta = record.meta
    at = meta.next_update
    game = record.game
    with transaction() as t:
        save_meta(t, record, game, State.ENDED, at, None)
        t.save(posts.system(meta.village_id, game.day, "この村は終了しました。", at))
    return [Happening("closed", meta.village_id, game.day)]


def _day(village_id: str, day: int) -> DayItem:
    return DayItem(
        village_pk(village_id),
        day_sk(day),
        village_id=village_id,
        day=day,
        choices={},
        saved_at={},
        saves=0,
        sealed=False,
    )


def save_meta(
    t,
    record: VillageRecord,
    game: Village,
    state: State,
    at: datetime,
    next_update: datetime | None,
    day_started_at: datetime | None = None,
) -> None:
    """The village's new state, conditioned on the version read (one step commits once)."""
    meta = record.meta
    actions = [
        VillageItem.state.set(state.value),
        VillageItem.game.set(game.to_json()),
        VillageItem.gsi1pk.set(state_key(state)),
        VillageItem.open_seats.set(record.open_seats(game) if state is State.RUNNING else 0),
    ]
    if next_update is not None:
        actions += [
            VillageItem.next_update.set(next_update),
            VillageItem.gsi1sk.set(time_key(next_update)),
        ]
    else:
        actions += [
            VillageItem.next_update.remove(),
            VillageItem.closed_at.set(at),
            VillageItem.gsi1sk.set(time_key(at)),
        ]
    if day_started_at is not None:
        actions.append(VillageItem.day_started_at.set(day_started_at))
    t.update(meta, actions=actions)


def release_holds(t, record: VillageRecord, only: set[str] | None = None) -> None:
    """RULES §9: the hold on a pace ends when the character dies or the game ends."""
    pace = record.meta.pace
    keys = [
        (account_pk(m.account_id), "ACCOUNT")
        for m in record.members.values()
        if m.account_id is not None and (only is None or m.slot in only)
    ]
    if not keys:
        return
    for account in AccountItem.batch_get(keys):
        if plain(account.holds).get(pace) == record.village_id:
            t.update(account, actions=[AccountItem.holds[pace].remove()])


def _morning_report(record: VillageRecord, morning: Morning) -> str:
    """The public report: ash and corpses only, no causes, no killers (RULES §4.3)."""
    names = posts.names_of(record)
    ash = [names[s] for s, kind in morning.deaths.items() if kind == "ash"]
    corpses = [names[s] for s, kind in morning.deaths.items() if kind == "corpse"]
    lines = [f"{morning.day}日目の朝になりました。"]
    lines.append("灰になったのは " + "、".join(ash) + " です。" if ash else "灰はありません。")
    if corpses:
        lines.append("遺体で見つかったのは " + "、".join(corpses) + " です。")
    else:
        lines.append("遺体はありません。")
    return "\n".join(lines)


def ending_report(record: VillageRecord, game: Village) -> str:
    """The public report of the ending: the winner, then every oni and the madman, named as
    the member list names them (job and persona)."""
    ending = game.ending
    assert ending is not None
    names = posts.names_of(record)
    side = "人間サイド" if ending.winner is Winner.HUMAN else "鬼サイド"
    how = {
        EndedBy.ELIMINATION: "決着がつきました",
        EndedBy.VICTORY_DECLARATION: "鬼サイドが勝利宣言をしました",
        EndedBy.RESIGNATION: "鬼サイドが投了しました",
    }[ending.by]
    oni = "、".join(names[s] for s in SLOTS if game.sides[s] == "oni")
    madman = "、".join(names[s] for s in SLOTS if game.sides[s] == "madman")
    return f"{how}。{side}の勝利です。\n鬼は {oni} の3人でした。狂人は {madman} でした。"


def abandon(village_id: str, now: datetime) -> None:
    """The GM closes a village as abandoned (廃村), whatever its day: holds are released."""
    record = load_village(village_id)
    if record is None:
        raise NotFound("その村は見つかりません")
    if State(record.meta.state) in (State.ENDED, State.ABANDONED):
        raise Conflict("その村はもう終わっています")
    with transaction() as t:
        save_meta(t, record, record.game, State.ABANDONED, now, None)
        release_holds(t, record)
        t.save(posts.system(village_id, record.game.day, "管理人の判断で廃村になりました。", now))
        for item in outbox.owed_to_members(record, record.game.day, "abandoned", now):
            t.save(item)
