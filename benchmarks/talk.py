"""How the computer members talk (issue 37), in practice villages played on moto through the
services as `make run` plays them: a person takes the free seat, votes or prays, and now and
then asks a living CPU a question on the public board, calling it by a name a player would use
(its given name, its seat, its whole name, or ``>>n`` to its latest post).

- ``distinct_lines``: of the CPUs' lines on the public board in one village-day, the share
  that no other CPU post of that day already said (1.0: no line said twice); mean and least.
- ``answered``: of the questions put to a living CPU, the share it answered on that board
  (a post of its own after the question) before the village's next update after the question.

The CPU-only win rates that must not move are ``computers`` (classic) and ``rules``' (Mobius)
figures; docs/mobius.md compares them before and after on the same seeds.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from moto import mock_aws

from chalicelib import effects
from chalicelib.personas import YAMAZATO, persona
from chalicelib.rulesets.base import Viewer
from chalicelib.services import actions, posts, villages
from chalicelib.storage import db
from chalicelib.storage import villages as store
from chalicelib.storage.keys import board_pk
from chalicelib.storage.repository import VillageRecord, load_village
from devserver.moto_local import like_dynamodb

from .requests import fake_aws, verified_accounts

START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
VILLAGES = 3  # of each game
ASK_RATE = 0.5  # at a look in the day, the person asks a question
QUESTIONS = (
    "{call}、あなたはどう思いますか？",
    "{call}、結果を教えてください。",
    "{call}はなぜそう考えたのですか？",
    "{call}、怪しい人はいますか？",
)


@dataclass
class Asked:
    day: int
    slot: str
    at: datetime
    by: datetime  # the village's next update when it was asked


def _calls(record: VillageRecord, slot: str, n: int | None) -> list[str]:
    """The names a player calls the member in ``slot`` by: the given name, the seat, the
    whole name (as pages show it), and an anchor to its latest post today."""
    seat = record.seats()[slot]
    given = persona(record._meta.character_set, seat.persona or "")
    label = record.rules.seat_label(slot)
    calls = [f"{seat.name}さん"]
    calls += [f"{given.name}さん"] if given is not None else []
    calls += [f"{label}さん"] if label else []
    calls += [f">>{n}"] if n is not None else []
    return calls


def _numbers(vid: str, day: int) -> dict[str, int]:
    """Each member's latest post number on today's public board (as pages number them)."""
    record = load_village(vid)
    traces = posts.traces(record, "public")
    items = store.read_board(board_pk(vid, "public"), day, 1000, None).items
    numbered = [p for p in items if not (p.slot is None and p.text in traces)]
    return {p.slot: n for n, p in enumerate(numbered, start=1) if p.slot is not None}


def _ask(vid: str, person: str, slot: str, now: datetime, rng: random.Random) -> Asked | None:
    """The person asks the living CPU ``slot`` one question, if it may post now."""
    record = load_village(vid)
    if record.rules.write_refusal(record, Viewer(person, record.slot_of(person)), "public", now):
        return None
    n = _numbers(vid, record.day).get(slot)
    call = rng.choice(_calls(record, slot, n))
    try:
        posts.post(vid, person, "public", rng.choice(QUESTIONS).format(call=call), now)
    except Exception:  # the post pace (a question a moment ago): not asked
        return None
    assert record.next_update is not None
    return Asked(record.day, slot, now, record.next_update)


def play(
    rules: str, cpus: int, vote: str, person: str, now: datetime, seed: int
) -> tuple[str, list[Asked]]:
    """One practice village to its end, the person voting (``vote``: its choice key) for the
    first it may and asking questions at the looks of the day; returns it and the questions."""
    rng = random.Random(seed)
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short", name="計測練習村", rules=rules, cpu_members=cpus, practice=True
        ),
        now=now,
        rng=random.Random(seed),
    )
    seats = load_village(vid).seats()
    free = next(s for s, m in seats.items() if m.account_id is None)
    held = {m.persona for m in seats.values()}
    villages.join(vid, person, free, next(p.key for p in YAMAZATO if p.key not in held), now)
    effects.advance_village(vid, now)
    if rules == "classic":
        actions.prologue(vid, person, "start", None, now)
    asked: list[Asked] = []
    for _ in range(600):
        record = load_village(vid)
        if record.state.value not in ("opening", "running") or record.next_update is None:
            break
        look = record.look_at
        due = min(look, record.next_update) if look else record.next_update
        now = max(now + timedelta(seconds=1), due)
        record = load_village(vid)
        choice = [q for q in record.rules.quick_choices(record, free) if q.key == vote]
        if choice and choice[0].was is None:
            actions.save_actions(vid, person, {vote: choice[0].targets[0]}, now)
        dead = record.rules.dead(record.game)
        living = [s for s, m in record.seats().items() if m.computer and s not in dead]
        if living and rng.random() < ASK_RATE:
            question = _ask(vid, person, rng.choice(living), now, rng)
            asked += [question] if question is not None else []
        effects.advance_village(vid, now)
    return vid, asked


def _measure(vid: str, person: str, asked: list[Asked]) -> tuple[list[float], int]:
    """The share of distinct CPU lines of each day, and how many questions were answered: a
    post of the asked CPU's on the board after the question that calls the person by name."""
    record = load_village(vid)
    days = record.day
    computers = {s for s, m in record.seats().items() if m.computer}
    me = record.seats()[record.slot_of(person) or ""]
    given = persona(record._meta.character_set, me.persona or "")
    call = f"{given.name if given else me.name}さん"
    shares = []
    by_day = {}
    for day in range(1, days + 1):
        items = store.read_board(board_pk(vid, "public"), day, 1000, None).items
        by_day[day] = items
        lines = [line for p in items if p.slot in computers for line in p.text.split("\n")]
        if lines:
            shares.append(len(set(lines)) / len(lines))
    answered = 0
    for q in asked:
        replies = [
            p
            for p in by_day.get(q.day, [])
            if p.slot == q.slot and q.at <= p.created_at < q.by and call in p.text
        ]
        answered += bool(replies)
    return shares, answered


def _game(rules: str, cpus: int, vote: str, villages_played: int) -> dict[str, Any]:
    shares: list[float] = []
    answered = questions = 0
    people = verified_accounts(f"talk{rules[:3]}", villages_played, START)
    for n, person in enumerate(people):
        vid, asked = play(rules, cpus, vote, person, START + timedelta(days=n), 37 + n)
        day_shares, got = _measure(vid, person, asked)
        shares += day_shares
        answered += got
        questions += len(asked)
    return {
        "villages": villages_played,
        "village_days": len(shares),
        "distinct_lines_mean": round(sum(shares) / max(len(shares), 1), 3),
        "distinct_lines_least": round(min(shares, default=1.0), 3),
        "questions": questions,
        "answered_share": round(answered / max(questions, 1), 3),
    }


def figures(villages_played: int = VILLAGES) -> dict[str, Any]:
    fake_aws()
    games: dict[str, Callable[[], dict[str, Any]]] = {
        "mobius": lambda: _game("mobius", 12, "pray", villages_played),
        # Eight CPUs (nine players: a medium, two wolves, a madman): days enough to talk.
        "classic": lambda: _game("classic", 8, "vote", villages_played),
    }
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        return {name: run() for name, run in games.items()}


if __name__ == "__main__":
    import json

    print(json.dumps(figures(), ensure_ascii=False))
