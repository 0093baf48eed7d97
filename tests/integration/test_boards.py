"""Boards (RULES §8): who reads and writes which board in which phase, bans, limits, paging,
system posts."""

import random
from datetime import timedelta

import pytest

from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import VISITOR, Viewer
from chalicelib.rulesets.mobius.labels import SLOT_LABELS
from chalicelib.services import actions, paging, posts, villages
from chalicelib.services.errors import Forbidden, InvalidInput, NotFound, RateLimited
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.villages import (
    all_posts,
    at,
    cast_of,
    fill,
    kill,
    refused,
    start,
    texts,
    to_update,
)


def member(village_id: str, account_id: str) -> Viewer:
    return posts.viewer_of(load_village(village_id), account_id)


def readable(village_id: str, viewer: Viewer, board: str, day: int, now) -> bool:
    try:
        posts.read(load_village(village_id), viewer, board, day, now)
    except Forbidden:
        return False
    return True


def can_write(village_id: str, account_id: str | None, board: str, clock) -> bool:
    """Tries a post; a refusal must be a 403 with a reason. Moves the clock past the 5 s limit."""
    clock.advance(timedelta(seconds=5))
    try:
        posts.post(village_id, account_id, board, f"{board}への書き込み", clock())
    except Forbidden as error:
        assert str(error)
        return False
    return True


@pytest.fixture
def graves(village, players, clock):
    """A running short village on day 2 after one night: the madman is ash (a dead oni-side
    member), a human is a corpse (a dead human). Returns (seated, cast, dead human)."""
    seated = start(village, players, clock)
    cast = cast_of(village)
    dead_human = cast.humans[0]
    kill(village, seated, clock, judged=cast.madman, attacked=dead_human)
    return seated, cast, dead_human


def resign(village_id: str, seated: dict[str, str], cast, clock) -> None:
    """Three oni-side members (the dead madman among them) resign during the day: the ending."""
    at(village_id, clock, 2)
    for slot in [cast.madman, *cast.oni[:2]]:
        actions.save_actions(village_id, seated[slot], {"resign": slot}, clock())
    assert load_village(village_id)._meta.state == "ending"


# ----- public board -----


def test_s8_public_board_is_read_by_everyone_including_visitors_and_the_dead(
    village, clock, graves
):
    seated, cast, dead_human = graves
    at(village, clock, 5)
    speaker = seated[cast.humans[1]]
    posts.post(village, speaker, "public", "おはよう", clock())
    day = load_village(village).game.day
    for viewer in (
        VISITOR,
        member(village, seated[dead_human]),
        member(village, seated[cast.madman]),
        member(village, seated[cast.oni[0]]),
        member(village, speaker),
    ):
        assert "おはよう" in texts(village, "public", day, clock(), viewer)


def test_s8_living_members_write_public_in_the_opening_and_the_day_only(village, players, clock):
    seated = fill(village, players[:12], clock)
    human = seated[next(s for s in cast_of(village).humans if s in seated)]
    clock.advance(timedelta(minutes=10))  # after the ban of joining
    assert can_write(village, human, "public", clock)  # opening
    to_update(village, clock)
    at(village, clock, 44)
    assert can_write(village, human, "public", clock)  # day (until 〆切 at 45 min)
    at(village, clock, 45)
    assert not can_write(village, human, "public", clock)  # loss time
    at(village, clock, 56)
    assert not can_write(village, human, "public", clock)  # night
    assert texts(village, "public", 0, clock())[-1] == "publicへの書き込み"


def test_s8_dead_write_public_only_in_the_ending(village, clock, graves):
    seated, cast, dead_human = graves
    at(village, clock, 1)
    assert not can_write(village, seated[dead_human], "public", clock)
    assert not can_write(village, seated[cast.madman], "public", clock)
    resign(village, seated, cast, clock)
    for slot in (dead_human, cast.madman, cast.oni[0], cast.humans[1]):
        assert can_write(village, seated[slot], "public", clock)
    # Everyone returns to the public board: the oni world and the grave are closed to writing.
    assert not can_write(village, seated[cast.oni[0]], "oni", clock)
    assert not can_write(village, seated[dead_human], "grave", clock)
    assert can_write(village, seated[dead_human], "inner", clock)
    # Visitors still only read.
    assert not can_write(village, None, "public", clock)


# ----- oni world -----


def test_s8_oni_world_for_the_oni_side_in_the_opening(village, players, clock):
    seated = fill(village, players[:13], clock)
    cast = cast_of(village)
    clock.advance(timedelta(minutes=10))
    for slot in cast.oni_side:
        assert can_write(village, seated[slot], "oni", clock)
        assert readable(village, member(village, seated[slot]), "oni", 0, clock())
    human = seated[cast.humans[0]]
    assert not can_write(village, human, "oni", clock)
    assert not readable(village, member(village, human), "oni", 0, clock())
    assert not readable(village, VISITOR, "oni", 0, clock())


def test_s8_oni_world_alive_or_dead_in_the_day_and_loss_time_not_at_night(village, clock, graves):
    seated, cast, dead_human = graves
    living_oni, dead_madman = seated[cast.oni[0]], seated[cast.madman]
    for minutes in (1, 44, 46, 54):  # day, day, loss time, loss time
        at(village, clock, minutes)
        assert can_write(village, living_oni, "oni", clock)
        assert can_write(village, dead_madman, "oni", clock)
    at(village, clock, 55)  # night after loss time
    assert not can_write(village, living_oni, "oni", clock)
    assert not can_write(village, dead_madman, "oni", clock)
    day = load_village(village).game.day
    assert len(texts(village, "oni", day, clock(), member(village, dead_madman))) == 8
    for outsider in (seated[cast.humans[1]], seated[dead_human]):
        assert not can_write(village, outsider, "oni", clock)
        assert not readable(village, member(village, outsider), "oni", day, clock())
    assert not readable(village, VISITOR, "oni", day, clock())


# ----- grave -----


def test_s8_dead_human_writes_grave_in_day_and_loss_time_only(village, clock, graves):
    seated, cast, dead_human = graves
    ghost = seated[dead_human]
    for minutes in (1, 50):  # day, loss time
        at(village, clock, minutes)
        assert can_write(village, ghost, "grave", clock)
    at(village, clock, 55)
    assert not can_write(village, ghost, "grave", clock)
    day = load_village(village).game.day
    assert (
        texts(village, "grave", day, clock(), member(village, ghost)) == ["graveへの書き込み"] * 2
    )
    # Not the living, not the dead oni side (the madman), not visitors.
    at(village, clock, 2)
    for other in (seated[cast.humans[1]], seated[cast.oni[0]], seated[cast.madman]):
        assert not can_write(village, other, "grave", clock)
        assert not readable(village, member(village, other), "grave", day, clock())
    assert not readable(village, VISITOR, "grave", day, clock())


# ----- inner board -----


def test_s8_inner_board_is_the_writers_alone_at_any_time(village, clock, graves):
    seated, cast, dead_human = graves
    writer, other = seated[cast.humans[1]], seated[cast.humans[2]]
    day = load_village(village).game.day
    at(village, clock, 58)  # night: the only board still open
    assert can_write(village, writer, "inner", clock)
    assert can_write(village, seated[dead_human], "inner", clock)
    assert not can_write(village, writer, "public", clock)
    assert texts(village, "inner", day, clock(), member(village, writer)) == ["innerへの書き込み"]
    # Another member reads its own inner board, never the writer's; a visitor none.
    assert texts(village, "inner", day, clock(), member(village, other)) == []
    refused(
        Forbidden,
        posts.read,
        load_village(village),
        member(village, other),
        "inner",
        day,
        clock(),
        inner_of=writer,
    )
    assert not readable(village, VISITOR, "inner", day, clock())
    assert len(all_posts(village, "inner", writer)) == 1


# ----- the ending and after -----


def test_s8_ending_opens_every_board_to_everyone(village, clock, graves):
    seated, cast, dead_human = graves
    day = load_village(village).game.day
    at(village, clock, 1)
    posts.post(village, seated[cast.oni[0]], "oni", "鬼の相談", clock())
    posts.post(village, seated[dead_human], "grave", "墓の下の声", clock())
    posts.post(village, seated[cast.humans[1]], "inner", "心の声", clock())
    resign(village, seated, cast, clock)
    human = member(village, seated[cast.humans[2]])
    for viewer in (VISITOR, human):
        assert texts(village, "oni", day, clock(), viewer) == ["鬼の相談"]
        assert texts(village, "grave", day, clock(), viewer) == ["墓の下の声"]
        assert texts(village, "inner", day, clock(), viewer, inner_of=seated[cast.humans[1]]) == [
            "心の声"
        ]
    # After the close: a read-only log, still open to everyone.
    to_update(village, clock)
    assert load_village(village)._meta.state == "ended"
    assert texts(village, "grave", day, clock()) == ["墓の下の声"]
    error = refused(Forbidden, posts.post, village, seated[cast.oni[0]], "public", "まだ?", clock())
    assert "終わって" in str(error)
    refused(Forbidden, posts.post, village, seated[cast.oni[0]], "inner", "まだ?", clock())


def test_s8_abandoned_village_is_read_only(village, clock):
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    clock.advance(timedelta(minutes=10))
    posts.post(village, ann, "public", "誰か来ないかな", clock())
    to_update(village, clock)
    to_update(village, clock)
    assert load_village(village)._meta.state == "abandoned"
    refused(Forbidden, posts.post, village, ann, "public", "廃村…", clock())
    refused(Forbidden, posts.post, village, ann, "inner", "廃村…", clock())
    assert texts(village, "public", 0, clock())[0] == "誰か来ないかな"


# ----- bans -----


def test_s8_opening_join_bans_every_board_for_10_minutes(village, players, clock):
    seated = fill(village, players[:13], clock)
    cast = cast_of(village)
    oni, human = seated[cast.oni[0]], seated[cast.humans[0]]
    joined = clock()
    clock.now = joined + timedelta(minutes=10) - timedelta(seconds=1)
    for account, board in ((human, "public"), (oni, "oni"), (human, "inner")):
        error = refused(Forbidden, posts.post, village, account, board, "こんにちは", clock())
        assert "10分" in str(error)
    clock.now = joined + timedelta(minutes=10)
    posts.post(village, human, "public", "こんにちは", clock())
    posts.post(village, oni, "oni", "よろしく", clock())
    clock.advance(timedelta(seconds=5))
    posts.post(village, human, "inner", "緊張する", clock())
    assert texts(village, "public", 0, clock())[-1] == "こんにちは"


def test_s8_takeover_bans_public_for_10_min_in_a_short_village(village, players, clock):
    cast = cast_of(village)
    vacant = cast.oni[0]
    fill(village, players[:12], clock, slots=[s for s in SLOTS if s != vacant])
    to_update(village, clock)
    newcomer = make_account("newcomer", clock())
    joined = at(village, clock, 3)
    villages.join(village, newcomer, vacant, "gonroku", clock())
    # The oni world and the inner board are open at once.
    posts.post(village, newcomer, "oni", "交代しました", clock())
    clock.advance(timedelta(seconds=5))
    posts.post(village, newcomer, "inner", "がんばろう", clock())
    clock.now = joined + timedelta(minutes=10) - timedelta(seconds=1)
    error = refused(Forbidden, posts.post, village, newcomer, "public", "はじめまして", clock())
    assert "途中参加" in str(error)
    clock.now = joined + timedelta(minutes=10)
    posts.post(village, newcomer, "public", "はじめまして", clock())


def test_s8_takeover_bans_public_for_30_min_in_a_long_village(players, clock, rng):
    village = villages.create_village(
        villages.AskedVillage(
            pace="long", name="長期村", first_update=clock() + timedelta(hours=1)
        ),
        now=clock(),
        rng=rng,
    )
    start(village, players, clock, count=12)
    newcomer = make_account("newcomer", clock())
    joined = at(village, clock, 60)
    villages.join(village, newcomer, "assassin", "gonroku", clock())
    posts.post(village, newcomer, "inner", "まだ書けない", clock())
    clock.now = joined + timedelta(minutes=30) - timedelta(seconds=1)
    refused(Forbidden, posts.post, village, newcomer, "public", "はじめまして", clock())
    clock.now = joined + timedelta(minutes=30)
    posts.post(village, newcomer, "public", "はじめまして", clock())


def test_s8_visitors_and_departed_members_cannot_write(village, clock):
    ann, ben = make_account("ann", clock()), make_account("ben", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    clock.advance(timedelta(minutes=10))
    villages.leave(village, ann, clock())
    for account in (None, ann, ben):
        for board in ("public", "inner"):
            error = refused(Forbidden, posts.post, village, account, board, "やあ", clock())
            assert "参加" in str(error)
    assert all("やあ" not in t for t in texts(village, "public", 0, clock()))


# ----- limits, text, reading -----


def test_s8_post_is_at_most_1000_characters(village, clock):
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    clock.advance(timedelta(minutes=10))
    error = refused(InvalidInput, posts.post, village, ann, "public", "あ" * 1001, clock())
    assert "1000" in str(error)
    refused(InvalidInput, posts.post, village, ann, "public", " \n\t ", clock())
    refused(InvalidInput, posts.post, village, ann, "graffiti", "やあ", clock())
    refused(NotFound, posts.post, "999", ann, "public", "やあ", clock())
    assert all_posts(village, "public") == []
    posts.post(village, ann, "public", "あ" * 1000, clock())
    assert [len(p.text) for p in all_posts(village, "public")] == [1000]


def test_s8_rate_limit_one_post_per_5_seconds_per_member(village, clock):
    ann, ben = make_account("ann", clock()), make_account("ben", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    villages.join(village, ben, "seer_b", "genzo", clock())
    first = clock.advance(timedelta(minutes=10))
    posts.post(village, ann, "public", "一つ目", clock())
    clock.advance(timedelta(seconds=1))
    posts.post(village, ben, "public", "別の人", clock())  # another member is not held up
    clock.now = first + timedelta(seconds=4.999)
    refused(RateLimited, posts.post, village, ann, "public", "二つ目", clock())
    refused(RateLimited, posts.post, village, ann, "inner", "二つ目", clock())
    assert len(all_posts(village, "public")) == 2
    assert all_posts(village, "inner", ann) == []
    clock.now = first + timedelta(seconds=5)
    posts.post(village, ann, "public", "二つ目", clock())
    assert texts(village, "public", 0, clock()) == ["一つ目", "別の人", "二つ目"]


def test_s8_text_is_stored_as_written(village, clock):
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    clock.advance(timedelta(minutes=10))
    text = '  <script>alert("x")</script>\n\n２行目 &amp; "引用" \\ \u3000末尾  '
    item = posts.post(village, ann, "public", text, clock())
    assert item.text == text
    [stored] = all_posts(village, "public")
    assert stored.text == text
    assert stored.author == "占い師A 楓" and stored.slot == "seer_a"


def test_s8_reading_is_by_day_and_paginated(village, players, clock):
    seated = fill(village, players[:12], clock)
    speakers = [a for s, a in seated.items() if s in cast_of(village).humans][:3]
    clock.advance(timedelta(minutes=10))
    for n, account in enumerate(speakers):
        clock.advance(timedelta(seconds=1))
        posts.post(village, account, "public", f"0日目の{n}", clock())
    to_update(village, clock)
    at(village, clock, 1)
    for n, account in enumerate(speakers):
        clock.advance(timedelta(seconds=1))
        posts.post(village, account, "public", f"1日目の{n}", clock())
    assert texts(village, "public", 0, clock()) == ["0日目の0", "0日目の1", "0日目の2"]
    assert texts(village, "public", 1, clock()) == [
        "1日目が始まりました。",
        *[f"1日目の{n}" for n in range(3)],
    ]
    record = load_village(village)
    pages, cursor = [], None
    while True:
        page = posts.read(record, VISITOR, "public", 1, clock(), cursor=cursor, limit=3)
        pages.append([p.text for p in page.posts])
        cursor = page.cursor
        if cursor is None:
            break
    assert [t for page in pages for t in page] == texts(village, "public", 1, clock())
    assert len(pages[0]) == 3
    refused(InvalidInput, posts.read, record, VISITOR, "graffiti", 1, clock())
    refused(InvalidInput, posts.read, record, VISITOR, "public", 1, clock(), cursor="%%%")


def test_s8_a_crafted_page_cursor_is_refused_not_a_server_error(village, clock):
    """A cursor is opaque: one not made by the service (or made for another board or day)
    is an invalid request, never a query DynamoDB rejects."""
    ann = make_account("ann", clock())
    villages.join(village, ann, "seer_a", "kaede", clock())
    villages.create_village(
        villages.AskedVillage(pace="long", name="二つ目"), now=clock(), rng=random.Random(2)
    )
    for n in range(3):
        clock.advance(timedelta(minutes=10))
        posts.post(village, ann, "public", f"発言{n}", clock())
        posts.post(village, ann, "inner", f"独り言{n}", clock() + timedelta(seconds=6))
    record = load_village(village)
    viewer = member(village, ann)
    inner_cursor = posts.read(record, viewer, "inner", 0, clock(), limit=1).cursor
    public_cursor = posts.read(record, VISITOR, "public", 0, clock(), limit=1).cursor
    assert len(posts.read(record, VISITOR, "public", 0, clock(), cursor=public_cursor).posts) == 2
    crafted = [
        paging.encode_cursor({"pk": 1}),
        paging.encode_cursor({"pk": {"S": f"P#{village}#public"}}),
        paging.encode_cursor({"pk": {"N": "1"}, "sk": {"S": "000#"}}),
        inner_cursor,  # another board's
    ]
    for cursor in crafted:
        refused(InvalidInput, posts.read, record, VISITOR, "public", 0, clock(), cursor=cursor)
    refused(InvalidInput, posts.read, record, VISITOR, "public", 1, clock(), cursor=public_cursor)
    lounge_cursor = villages.lounge("opening", limit=1).cursor
    for cursor in [*crafted[:3], public_cursor]:
        refused(InvalidInput, villages.lounge, "opening", cursor=cursor)
    refused(InvalidInput, villages.lounge, "running", cursor=lounge_cursor)


def test_s8_system_posts_morning_day_start_ending_and_random_targets(village, clock, graves):
    seated, cast, dead_human = graves
    record = load_village(village)
    # The seers' random targets, in the oni world from creation (day 0).
    [targets] = texts(village, "oni", 0, clock(), member(village, seated[cast.oni[0]]))
    for seer, target in record.game.random_targets.items():
        assert SLOT_LABELS[seer] in targets and SLOT_LABELS[target] in targets
    assert not readable(village, VISITOR, "oni", 0, clock())
    assert texts(village, "public", 1, clock())[0] == "1日目が始まりました。"
    [morning] = texts(village, "public", 2, clock())
    names = record.names()
    assert morning.startswith("2日目の朝になりました。")
    assert f"灰になったのは {names[cast.madman]} です。" in morning
    assert f"遺体で見つかったのは {names[dead_human]} です。" in morning
    # No causes, no killers (the attacker was the first oni).
    assert names[cast.oni[0]] not in morning
    for word in ("襲撃", "実行犯", "祈り", "鬼", "狂人"):
        assert word not in morning
    resign(village, seated, cast, clock)
    ending = texts(village, "public", 2, clock())[-1]
    assert "投了" in ending and "人間サイドの勝利" in ending
    assert texts(village, "oni", 0, clock()) == [targets]  # readable by visitors now
