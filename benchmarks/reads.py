"""Read capacity (RRU) per use case as a village ages: a page view, a post and a save on day 1
and on day 12, sized from the items moto returns (``benchmarks/capacity.py``).

A 13-player Mobius village cannot reach day 12 (someone is judged every night), so day 12 is
made from the longest game the script plays: its sealed days are copied up to day 11 and its
game's history grows to eleven nights by repeating its last morning, so the table and the game
JSON hold what a day-12 village would. A 16-player classic village is played for real, its
day 1 and its last day measured. ``whole_partition`` is what the read of the whole village
partition (what every request did before) costs on the same table.
"""

import contextlib
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from moto import mock_aws

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, posts, sessions, update, villages
from chalicelib.services.errors import ServiceError
from chalicelib.storage import db
from chalicelib.storage.keys import archived_day_sk, day_sk, village_pk
from chalicelib.storage.models import DayItem, Item, VillageItem
from chalicelib.storage.repository import VillageRecord, load_village, plain
from devserver.moto_local import like_dynamodb

from .capacity import Reads, reading
from .requests import fake_aws, verified_accounts, view_village

DAY = 12
MOBIUS_KEYS = ("pray", "divine", "guard", "attack", "attacker", "dm")  # no ending commands
POSTS_PER_DAY = 20


def _village_units(reads: Reads) -> float:
    return sum(r.units for r in reads.requests if r.pk.startswith("V#"))


def _use_cases(
    village: str, viewer: str, poster: str, saver: str, choices: dict[str, str], now: datetime
) -> dict[str, float]:
    """RRU of a member's page view (with its session), a post and a save: every read, and the
    village's own (META, members, days, presences) apart from the session and the board."""
    grant = sessions.open_session(viewer, now)
    result: dict[str, float] = {}
    with reading() as reads:
        view_village(village, grant, now)
    result |= {"view": reads.units, "view_village": _village_units(reads)}
    with reading() as reads:
        posts.post(village, poster, "public", "計測用の発言です。", now)
    result |= {"post": reads.units, "post_village": _village_units(reads)}
    with reading() as reads:
        actions.save_actions(village, saver, choices, now)
    result |= {"save": reads.units, "save_village": _village_units(reads)}
    result["whole_partition"] = _whole_partition(village)
    return result


def _whole_partition(village: str) -> float:
    with reading() as reads:
        list(Item.query(village_pk(village), consistent_read=True))
    return reads.units


def _play_mobius_day(village: str, players: list[str], rng: random.Random, now: datetime) -> None:
    """Every living member saves what a player would (targets drawn from the legal ones), and
    they talk: ``POSTS_PER_DAY`` posts."""
    record = load_village(village)
    game = record.game
    for account in players:
        slot = record.slot_of(account)
        if slot is None or slot in game.deaths:
            continue
        choices = {
            key: rng.choice(targets)
            for key in MOBIUS_KEYS
            if (targets := game.legal_targets(slot, key))
        }
        try:
            actions.save_actions(village, account, choices, now)
        except ServiceError:
            actions.save_actions(village, account, {"pray": choices["pray"]}, now)
    living = [a for a in players if record.slot_of(a) not in game.deaths]
    for n in range(POSTS_PER_DAY):
        posts.post(village, living[n % len(living)], "public", f"{n}番目の発言です。" * 3, now)
        now += timedelta(seconds=6)


def _age_to(village: str, day: int) -> None:
    """Makes the running village's stored state that of ``day``: past days copied below the
    hot read's range, the open day renumbered, the game's history repeated (module docstring)."""
    record = load_village(village)
    meta = VillageItem.get(village_pk(village), "META", consistent_read=True)
    game: dict[str, Any] = dict(meta.game)
    now_day = int(game["day"])
    [open_day] = record._open_days.values()
    archived = record._days[now_day - 1]
    for d in range(now_day, day):
        copy = DayItem(village_pk(village), archived_day_sk(d), village_id=village, day=d)
        copy.choices, copy.saved_at = plain(open_day.choices), plain(open_day.saved_at)
        copy.previous_saved_at, copy.saves = plain(archived.saved_at), open_day.saves
        copy.sealed = True
        copy.save()
    played = game["mornings"]
    shuffle = random.Random(day)
    for d in range(now_day + 1, day + 1):
        # A played night with its characters shuffled, so the history is as varied (and
        # compresses as badly) as a real one; nobody dies again.
        others = shuffle.sample(SLOTS, len(SLOTS))
        night = _renamed(played[d % len(played)], dict(zip(SLOTS, others, strict=True)))
        played.append(night | {"day": d, "deaths": {}, "killers": {}})
    game["day"] = day
    meta.update(actions=[VillageItem.game.set(game)])
    moved = DayItem(village_pk(village), day_sk(day), village_id=village, day=day)
    moved.choices, moved.saved_at = plain(open_day.choices), plain(open_day.saved_at)
    moved.previous_saved_at, moved.saves, moved.sealed = plain(archived.saved_at), 0, False
    moved.save()
    open_day.delete()


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def mobius(players: list[str], now: datetime) -> dict[str, Any]:
    rng = random.Random(14)
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="計測村"), now=now, rng=random.Random(3)
    )
    for n, slot in enumerate(SLOTS):
        villages.join(village, players[n], slot, YAMAZATO[n].key, now)
    now = load_village(village)._meta.next_update
    update.advance(village, now)
    result: dict[str, Any] = {}
    last_running = 1
    while True:
        record = load_village(village)
        now = record._meta.day_started_at + timedelta(hours=1)
        living = [a for a in players if record.slot_of(a) not in record.game.deaths]
        if record.game.day == 1:
            _play_mobius_day(village, players, rng, now)
            later = now + timedelta(minutes=30)  # the posts' 5 s apart rule is long passed
            result["day_1"] = _use_cases(village, *living[:3], _prayer(record, living[2]), later)
        _play_mobius_day(village, players, rng, now + timedelta(hours=2))
        ahead = load_village(village)
        if ahead.rules.step(ahead, ahead._meta.next_update).state.value != "running":
            break  # the next night ends the game: age the village from this day
        update.advance(village, ahead._meta.next_update)
        last_running = ahead.game.day + 1
    result["played_days"] = last_running
    _age_to(village, DAY)
    now = load_village(village)._meta.day_started_at + timedelta(hours=5)  # after the last posts
    _play_mobius_day(village, players, rng, now)
    now += timedelta(minutes=30)
    record = load_village(village)
    living = [a for a in players if record.slot_of(a) not in record.game.deaths]
    result[f"day_{DAY}"] = _use_cases(village, *living[:3], _prayer(record, living[2]), now)
    return result


def _prayer(record: VillageRecord, account: str) -> dict[str, str]:
    slot = record.slot_of(account)
    assert slot is not None
    return {"pray": record.game.legal_targets(slot, "pray")[0]}


def _classic_talk(village: str, now: datetime) -> None:
    record = load_village(village)
    speakers = [record.seats()[seat].account_id for seat in _living_seats(record)]
    for n in range(POSTS_PER_DAY):
        posts.post(village, speakers[n % len(speakers)], "public", f"{n}番目です。" * 3, now)
        now += timedelta(seconds=6)


def _play_classic_turn(village: str, rng: random.Random, now: datetime) -> None:
    """Every living member votes (by day) or uses its ability (by night) on a drawn target,
    the wolves on one prey. Choices the rules refuse are skipped."""
    record = load_village(village)
    game = record.game
    engine = game.village
    living = {c: game.seats[c] for c in engine.living() if c in game.seats}
    account_of = {seat: record.seats()[seat].account_id for seat in living.values()}
    prey = rng.choice([c for c in engine.living() if engine.roles[c] != "werewolf"])
    for character, seat in living.items():
        if engine.voting:
            choices = {"vote": rng.choice([s for c, s in living.items() if c != character])}
        else:
            choices = {}
            for ability in engine.choice_keys(character):
                targets = engine.choice_targets(character, ability)
                if targets:
                    hunt = ability == "attack" and prey in targets
                    target = prey if hunt else rng.choice(targets)
                    choices[str(ability)] = game.seats.get(target, target)
        with contextlib.suppress(ServiceError):
            actions.save_actions(village, account_of[seat], choices, now)


def classic(players: list[str], now: datetime) -> dict[str, Any]:
    """A 16-player short classic village played to its end: its first and last day measured
    (each at the day's first vote round, after the day's talk)."""
    rng = random.Random(16)
    village = villages.create_village(
        villages.AskedVillage(pace="short", name="計測BBS村", rules="classic"),
        now=now,
        rng=random.Random(4),
    )
    for n, account in enumerate(players):
        villages.join(village, account, f"s{n + 1}", YAMAZATO[n].key, now)
    for account in players:
        actions.prologue(village, account, "start", None, now)
    days: dict[int, dict[str, float]] = {}
    while (record := load_village(village)).state.value == "running":
        engine = record.game.village
        now += timedelta(minutes=1)
        before = (engine.day, engine.phase, engine.round)
        if engine.voting and engine.round == 1 and engine.day not in days:
            _classic_talk(village, now)
            now += timedelta(minutes=3)
            living = [a for a in players if (s := record.slot_of(a)) and s in _living_seats(record)]
            vote = {"vote": record.slot_of(living[0])}
            days[engine.day] = _use_cases(village, *living[:2], living[1], vote, now)
        _play_classic_turn(village, rng, now)
        after = load_village(village)
        moved = after.game.village
        if after.state.value == "running" and (moved.day, moved.phase, moved.round) == before:
            now = max(now, after._meta.next_update)
            update.advance(village, now)
    first, last = min(days), max(days)
    return {"first_day": first, "last_day": last, "day_first": days[first], "day_last": days[last]}


def _living_seats(record: VillageRecord) -> set[str]:
    game = record.game
    return {game.seats[c] for c in game.village.living() if c in game.seats}


def figures() -> dict[str, Any]:
    fake_aws()
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()
        now = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
        players = verified_accounts("reads", 16, now)
        return {"mobius": mobius(players[:13], now), "classic": classic(players, now)}


if __name__ == "__main__":
    import json

    print(json.dumps(figures(), ensure_ascii=False))
