"""The update (RULES §2, §4, §6): day 1's start, the 24-h extension, abandonment, the night,
the ending and the close; each done once however often ``advance`` runs."""

from datetime import timedelta

from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import VISITOR
from chalicelib.services import actions, posts, update, villages
from chalicelib.services.errors import Forbidden
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.villages import (
    all_posts,
    at,
    cast_of,
    fill,
    kill,
    persona_of,
    refused,
    start,
    texts,
    to_update,
)


def test_s2_day_1_starts_at_the_first_update_with_12_occupied(village, players, clock):
    created = clock()
    fill(village, players[:12], clock)
    clock.now = created + timedelta(hours=6) - timedelta(seconds=1)
    assert update.advance(village, clock()) == []  # not due yet
    clock.now = created + timedelta(hours=6)
    [started] = update.advance(village, clock())
    assert (started.kind, started.day) == ("started", 1)
    record = load_village(village)
    assert record._meta.state == "running"
    assert record.game.day == 1
    assert record._meta.day_started_at == clock()
    assert record._meta.next_update == clock() + timedelta(minutes=60)
    assert sorted(record._days) == [1]
    assert texts(village, "public", 1, clock()) == ["1日目が始まりました。"]
    # Still 13 characters: the 13th is vacant, open to a takeover.
    assert record._members["assassin"].account_id is None
    assert [v.village_id for v in villages.lounge("running").villages] == [village]


def test_s2_opening_extended_by_24h_with_fewer_than_12(village, players, clock):
    created = clock()
    fill(village, players[:11], clock)
    [extended] = to_update(village, clock)
    assert extended.kind == "extended"
    record = load_village(village)
    assert record._meta.state == "opening"
    assert record._meta.next_update == created + timedelta(hours=30)
    assert "延長" in texts(village, "public", 0, clock())[-1]
    # The 12th arrives; day 1 starts at the extended time.
    villages.join(village, players[11], SLOTS[11], persona_of(SLOTS[11]), clock())
    assert [h.kind for h in to_update(village, clock)] == ["started"]
    assert load_village(village)._meta.day_started_at == created + timedelta(hours=30)


def test_s2_short_village_abandoned_when_30h_old(village, clock):
    created = clock()
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    assert [h.kind for h in to_update(village, clock)] == ["extended"]  # 6 h
    assert [h.kind for h in to_update(village, clock)] == ["abandoned"]  # 30 h
    record = load_village(village)
    assert record._meta.state == "abandoned"
    assert record._meta.closed_at == created + timedelta(hours=30)
    assert record._meta.next_update is None
    assert "廃村" in texts(village, "public", 0, clock())[-1]
    assert load_account(ann).holds == {}  # the hold ends with the game
    clock.advance(timedelta(days=7))
    assert update.advance(village, clock()) == []  # nothing more, ever
    assert [v.village_id for v in villages.lounge("abandoned").villages] == [village]


def test_s2_long_village_abandoned_when_54h_old(clock, rng):
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="long", name="長期村"), now=created, rng=rng
    )
    [extended] = to_update(village, clock)
    assert (extended.kind, clock()) == ("extended", created + timedelta(hours=30))
    [abandoned] = to_update(village, clock)
    assert (abandoned.kind, clock()) == ("abandoned", created + timedelta(hours=54))


def test_s2_advance_catches_up_every_missed_step_once(village, clock):
    clock.advance(timedelta(days=3))
    kinds = [h.kind for h in update.advance(village, clock())]
    assert kinds == ["extended", "abandoned"]
    assert update.advance(village, clock()) == []
    assert [p.text[:6] for p in all_posts(village, "public")].count("人数が足りな") == 1


def test_s2_advance_called_twice_does_the_work_once(village, players, clock):
    fill(village, players, clock)
    first = to_update(village, clock)
    assert [h.kind for h in first] == ["started"]
    assert update.advance(village, clock()) == []
    at(village, clock, 60)
    assert [h.kind for h in update.advance(village, clock())] == ["morning"]
    assert update.advance(village, clock()) == []
    record = load_village(village)
    assert record.game.day == 2
    assert len(record.game.mornings) == 1
    assert sorted(record._days) == [1, 2]
    assert len(texts(village, "public", 1, clock())) == 1
    assert len(texts(village, "public", 2, clock())) == 1


def test_s4_update_resolves_the_night_with_the_saved_choices(village, players, clock):
    seated = start(village, players, clock)
    cast = cast_of(village)
    judged, attacked = cast.oni[1], cast.humans[0]
    kill(village, seated, clock, judged=judged, attacked=attacked)
    record = load_village(village)
    game = record.game
    assert game.day == 2 and record._meta.state == "running"
    assert {s: d.kind for s, d in game.deaths.items()} == {judged: "ash", attacked: "corpse"}
    assert record._days[1].sealed is True
    assert record._days[2].sealed is False and dict(record._days[2].choices) == {}
    assert record._meta.day_started_at == clock()
    # RULES §9: the dead are released from their hold; the living still hold the village.
    assert load_account(seated[judged]).holds == {}
    assert load_account(seated[attacked]).holds == {}
    assert load_account(seated[cast.humans[1]]).holds == {"short": village}
    # The next night needs the new day's choices: the old day is closed.
    sealed = record._days[1].choices.as_dict()
    at(village, clock, 1)
    actions.save_actions(village, seated[cast.humans[1]], {"pray": cast.oni[0]}, clock())
    record = load_village(village)
    assert record._days[2].choices.as_dict() == {cast.humans[1]: {"pray": cast.oni[0]}}
    assert record._days[1].choices.as_dict() == sealed


def test_story_full_life_of_a_village_from_creation_to_close(clock, rng, players):
    """A short village, created, filled, played to the human side's win and closed."""
    created = clock()
    village = villages.create_village(
        villages.AskedVillage(pace="short", name="峠の村"), now=created, rng=rng
    )
    cast = cast_of(village)
    # The opening: 13 join; one leaves freely and is replaced; chat on the public board.
    seated = fill(village, players[:12], clock)
    clock.advance(timedelta(minutes=3))
    villages.leave(village, seated.pop(SLOTS[0]), clock())
    late = make_account("late", clock())
    seated[SLOTS[0]] = late
    villages.join(village, late, SLOTS[0], persona_of(SLOTS[0]), clock())
    villages.join(village, players[12], SLOTS[12], persona_of(SLOTS[12]), clock())
    seated[SLOTS[12]] = players[12]
    clock.advance(timedelta(minutes=10))
    posts.post(village, players[12], "public", "よろしくお願いします", clock())
    refused(Forbidden, villages.join, village, players[0], SLOTS[1], "kaede", clock())

    # Day 1 at the first update.
    assert [h.kind for h in to_update(village, clock)] == ["started"]
    assert clock() == created + timedelta(hours=6)

    # Each night two humans judge an oni and the madman sends one oni to attack a human.
    humans = [s for s in cast.humans if s in seated]
    for night, oni in enumerate(cast.oni, start=1):
        game = load_village(village).game
        assert game.day == night
        at(village, clock, 10)
        living_humans = [s for s in humans if s in game.alive]
        for slot in living_humans[-2:]:
            actions.save_actions(village, seated[slot], {"pray": oni}, clock())
        votes = {"attack": living_humans[0], "attacker": oni}
        actions.save_actions(village, seated[cast.madman], votes, clock())
        happened = to_update(village, clock)
        assert happened[0].kind == "morning"
        deaths = dict(happened[0].morning.deaths)
        assert deaths == {oni: "ash", living_humans[0]: "corpse"}

    # No oni alive: the human side wins; the ending starts with the last morning.
    assert [h.kind for h in happened] == ["morning", "ending"]
    record = load_village(village)
    game = record.game
    assert record._meta.state == "ending"
    assert (game.ending.winner, game.ending.by, game.ending.day) == ("human", "elimination", 4)
    morning, ending = texts(village, "public", 4, clock())
    assert morning.startswith("4日目の朝になりました。")
    assert "人間サイドの勝利" in ending
    # The report names the oni side as the member list does (job and persona), punctuated.
    names = posts.names_of(record)
    oni = "、".join(names[s] for s in SLOTS if s in cast.oni)
    assert ending.endswith(f"鬼は {oni} の3人でした。狂人は {names[cast.madman]} でした。")
    for account in seated.values():
        state = load_account(account)
        assert state.holds == {} and state.lock_until is None  # no lock for the end
        # Every member, dead or alive, played the game to its end (decision 106), once.
        assert state.finished_games == 1
    # Everyone writes on the public board in the ending and every log is open.
    clock.advance(timedelta(minutes=5))
    posts.post(village, seated[cast.oni[0]], "public", "完敗です", clock())
    assert texts(village, "oni", 0, clock())  # the random targets, now readable by visitors

    # The next update closes the village: a read-only log.
    [closed] = to_update(village, clock)
    assert closed.kind == "closed"
    record = load_village(village)
    assert record._meta.state == "ended"
    assert {load_account(a).finished_games for a in seated.values()} == {1}
    assert record._meta.closed_at == clock()
    assert texts(village, "public", 4, clock())[-2:] == ["完敗です", "この村は終了しました。"]
    refused(Forbidden, posts.post, village, seated[cast.oni[0]], "public", "まだ?", clock())
    refused(Forbidden, villages.leave, village, seated[cast.oni[0]], clock())
    assert update.advance(village, clock() + timedelta(days=1)) == []
    assert [v.village_id for v in villages.lounge("ended").villages] == [village]
    page = posts.read(record, VISITOR, "public", 0, clock())
    assert "よろしくお願いします" in [p.text for p in page.posts]
