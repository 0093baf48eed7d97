"""The full life of a village, from creation to close, with a fake clock."""

from datetime import timedelta

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import VISITOR
from chalicelib.services import actions, posts, update, villages
from chalicelib.storage.repository import load_account, load_village


def fill(village_id, players, clock, count=13):
    for n, (account, slot) in enumerate(zip(players[:count], SLOTS, strict=False)):
        villages.join(village_id, account, slot, YAMAZATO[n].key, clock())


def test_village_life_from_creation_to_close(village, players, clock):
    fill(village, players, clock)
    record = load_village(village)
    assert record._meta.occupied == 13
    clock.advance(timedelta(hours=6))
    happened = update.advance(village, clock())
    assert [h.kind for h in happened] == ["started"]
    record = load_village(village)
    assert record._meta.state == "running"
    assert record.game.day == 1
    days = 0
    while load_village(village)._meta.state == "running":
        clock.advance(timedelta(minutes=60))
        update.advance(village, clock())
        days += 1
        assert days <= 13
    record = load_village(village)
    assert record._meta.state == "ending"
    assert record.game.ending is not None
    for account in players:
        assert load_account(account).holds == {}
    clock.advance(timedelta(minutes=60))
    assert [h.kind for h in update.advance(village, clock())] == ["closed"]
    assert load_village(village)._meta.state == "ended"
    page = posts.read(load_village(village), VISITOR, "public", record.game.day, clock())
    assert any("終了" in p.text for p in page.posts)


def test_save_actions_and_resolution_uses_them(village, players, clock):
    fill(village, players, clock)
    clock.advance(timedelta(hours=6))
    update.advance(village, clock())
    game = load_village(village).game
    humans = [s for s in SLOTS if game.sides[s] == "human"]
    target = humans[0]
    for account, slot in zip(players, SLOTS, strict=True):
        if slot != target:
            actions.save_actions(village, account, {"pray": target}, clock())
    clock.advance(timedelta(minutes=60))
    [morning, *_] = update.advance(village, clock())
    assert morning.morning.judged == target
