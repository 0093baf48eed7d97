"""Reads that do not grow with the game (issue 14, docs/decisions.md 60, 61): a page view, a
post, a save and the update read META, the members and the open day, on day 1 as on a late
day; past days and presences are read only by what shows them."""

import json

import boto3
import pytest

from benchmarks.capacity import reading
from benchmarks.requests import view_village
from chalicelib.render import render
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, posts, sessions, update, villages
from chalicelib.services.errors import Conflict, Forbidden
from chalicelib.storage import villages as store
from chalicelib.storage.errors import Refused
from chalicelib.storage.keys import village_pk
from chalicelib.storage.models import DayItem, Item, VillageItem
from chalicelib.storage.repository import VillageRecord, load_village
from chalicelib.web import village_view
from tests.support.villages import at, cast_of, start, to_update

# META, the members and the scheduler's small LOOK item (decision 54) sort in the hot range.
HOT = {"META", "LOOK"} | {f"SLOT#{slot}" for slot in SLOTS}


def _pray(village, seated, clock) -> None:
    """Every living member saves a prayer today."""
    record = load_village(village)
    at(village, clock, 1)
    for slot, account in seated.items():
        if slot not in record.game.deaths:
            target = record.game.legal_targets(slot, "pray")[0]
            actions.save_actions(village, account, {"pray": target}, clock())


@pytest.fixture
def day_4(village, players, clock):
    """A running village on day 4: three sealed days behind it, everyone's choices in each
    and in today's."""
    seated = start(village, players, clock)
    for _ in range(3):
        _pray(village, seated, clock)
        to_update(village, clock)
    _pray(village, seated, clock)
    record = load_village(village)
    assert record.game.day == 4 and record.state.value == "running"
    at(village, clock, 5)
    living = [a for s, a in seated.items() if s not in record.game.deaths]
    return village, seated, living


def _read(call) -> list[str]:
    with reading() as reads:
        call()
    return reads.keys("V#")


def test_a_late_days_view_post_and_save_read_only_meta_members_and_the_open_day(day_4, clock):
    village, _, living = day_4
    viewer, poster, saver = living[:3]
    grant = sessions.open_session(viewer, clock())
    slot = load_village(village).slot_of(saver)
    target = load_village(village).game.legal_targets(slot, "pray")[0]

    assert sorted(_read(lambda: view_village(village, grant, clock()))) == sorted(HOT | {"DAY#004"})
    assert sorted(
        _read(lambda: posts.post(village, poster, "public", "四日目", clock()))
    ) == sorted(HOT | {"DAY#004"})
    assert sorted(
        _read(lambda: actions.save_actions(village, saver, {"pray": target}, clock()))
    ) == sorted(HOT | {"DAY#004"})


def test_the_update_reads_the_open_day_and_moves_it_below_the_hot_range(day_4, clock):
    village, _, _ = day_4
    keys = _read(lambda: to_update(village, clock))
    assert set(keys) == HOT | {"DAY#004", "DAY#005"}  # the day it seals; the next, reloaded
    stored = [item.sk for item in DayItem.query(village_pk(village), DayItem.sk.startswith("A"))]
    assert stored == ["ARCHIVE#001", "ARCHIVE#002", "ARCHIVE#003", "ARCHIVE#004"]
    assert [i.sk for i in DayItem.query(village_pk(village), DayItem.sk.startswith("DAY#"))] == [
        "DAY#005"
    ]


def test_the_page_of_a_late_day_shows_what_reading_the_whole_village_shows(day_4, clock):
    village, _, living = day_4
    lean = load_village(village)
    whole = _whole(village)
    assert len(whole._open_days) == 4  # every day, as the old read had them
    for account in living[:4]:
        viewer = posts.viewer_of(lean, account)
        assert viewer.slot is not None
        assert _page(lean, viewer, clock()) == _page(whole, viewer, clock())
        assert actions.own_choices(lean, account) == actions.own_choices(whole, account)
        assert actions.own_choices(lean, account)  # everyone prayed today


def _page(record: VillageRecord, viewer, now) -> str:
    context = village_view.build(record, viewer, now)
    return render(
        record.rules.page_template,
        csrf="c",
        account_id=viewer.account_id,
        now=now,
        pass_village=None,
        dev_tools=False,
        static_url=lambda name: name,
        **context,
    )


def _whole(village: str) -> VillageRecord:
    """The village as the read of its whole partition gave it (what every request read before)."""
    items = list(Item.query(village_pk(village), consistent_read=True))
    meta = next(i for i in items if isinstance(i, VillageItem))
    members = {i.slot: i for i in items if i.sk.startswith("SLOT#")}
    days = {int(i.day): i for i in items if isinstance(i, DayItem)}
    return VillageRecord(meta, members, days)


def test_past_days_stay_readable_for_what_shows_them(day_4):
    village, _, _ = day_4
    record = load_village(village)
    assert sorted(record._days) == [1, 2, 3, 4]
    assert [record._days[d].sealed for d in (1, 2, 3)] == [True, True, True]
    # Every member saved a prayer each night: the full record has them all.
    assert all(len(record.saved_days()[d]) >= 9 for d in (1, 2, 3))


def test_a_save_for_a_day_already_moved_away_is_refused(village, players, clock):
    seated = start(village, players, clock)
    stale = load_village(village)
    to_update(village, clock)
    account = next(a for s, a in seated.items() if s not in load_village(village).game.deaths)
    slot = stale.slot_of(account)
    assert slot is not None
    with pytest.raises(Refused):
        store.save_choices(stale, 1, slot, {"pray": SLOTS[0]}, clock())
    assert load_village(village)._days[1].choices.as_dict().get(slot) is None


def test_a_departed_account_is_not_a_member_and_never_rejoins(village, players, clock):
    seated = start(village, players, clock, count=12)
    cast = cast_of(village)
    slot = cast.humans[0]
    villages.leave(village, seated[slot], clock())
    record = load_village(village)
    assert record.slot_of(seated[slot]) is None
    assert record.presences[seated[slot]].left is True
    with pytest.raises(Forbidden):
        villages.join(village, seated[slot], "commoner_d", "kaede", clock())
    with pytest.raises((Forbidden, Conflict)):
        actions.save_actions(village, seated[slot], {"pray": SLOTS[0]}, clock())


def test_a_game_stored_as_plain_json_still_reads(village):
    """Villages stored before the game was compressed keep working."""
    game = load_village(village)._meta.game
    client = boto3.client("dynamodb", region_name="ap-northeast-1")
    client.update_item(
        TableName=VillageItem.Meta.table_name,
        Key={"pk": {"S": village_pk(village)}, "sk": {"S": "META"}},
        UpdateExpression="SET game = :g",
        ExpressionAttributeValues={":g": {"S": json.dumps(game)}},
    )
    assert load_village(village)._meta.game == game
    stored = client.get_item(
        TableName=VillageItem.Meta.table_name,
        Key={"pk": {"S": village_pk(village)}, "sk": {"S": "META"}},
    )["Item"]["game"]["S"]
    assert stored.startswith("{")
    update.advance(village, load_village(village)._meta.next_update)  # writes it compressed
    written = client.get_item(
        TableName=VillageItem.Meta.table_name,
        Key={"pk": {"S": village_pk(village)}, "sk": {"S": "META"}},
    )["Item"]["game"]["S"]
    assert not written.startswith("{")


def test_the_plain_village_follows_a_write_storage_made_in_place(village, players, clock):
    """The scheduler notes the day's reminder on the record it then reschedules from: the
    plain META it reads must be the item as written, or it would look again for nothing."""
    start(village, players, clock)
    record = load_village(village)
    noted = record.village.reminded_day + 1
    store.owe_reminders(record, noted, [], clock())
    assert record.village.reminded_day == noted
    assert load_village(village).village.reminded_day == noted
