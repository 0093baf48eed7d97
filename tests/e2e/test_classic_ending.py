"""A finished 16-player classic village read on a 360 px phone (issue 23): the full record of
each day, the cast table with causes of death and the scapegoat, and the combined log.

The village is played through the services (votes and night choices drawn from a seeded RNG,
the scheduler for the deadlines) to its epilogue; a visitor's phone then reads the ending.
Screenshots: test-artifacts/e2e/.
"""

import random
from datetime import timedelta

import pytest

from chalicelib import effects
from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import NPC
from chalicelib.services import actions, posts, villages
from chalicelib.services.errors import ServiceError
from chalicelib.storage.repository import load_village
from tests.support.accounts import PASSWORD, make_account
from tests.support.classic_villages import create

pytestmark = pytest.mark.browser

PLAYERS = 16


def play_to_the_end(server, vid: str, rng: random.Random) -> None:
    """Every living player votes and sets tonight's choices; the scheduler runs each deadline
    the saves did not close early."""
    clock = server.clock
    for _ in range(60):
        record = load_village(vid)
        if record.state.value != "running":
            return
        game = record.game
        engine = game.village
        before = (engine.day, len(engine.rounds), engine.phase)
        for character in engine.living():
            if character == NPC:
                continue
            engine = load_village(vid).game.village
            if engine.ending is not None or (engine.day, len(engine.rounds)) != before[:2]:
                break
            data = {}
            if engine.voting and character in engine.voters():
                data["vote"] = game.seats.get(rng.choice(engine.vote_targets(character)), NPC)
            for ability in engine.choice_keys(character):
                targets = [t for t in engine.choice_targets(character, ability) if t != NPC]
                if targets:
                    data[ability.value] = game.seats[rng.choice(targets)]
            if data:
                account = record.seats()[game.seats[character]].account_id
                try:
                    actions.save_actions(vid, account, data, clock())
                except ServiceError:
                    break  # the round closed meanwhile
        engine = load_village(vid).game.village
        if (engine.day, len(engine.rounds), engine.phase) == before:
            record = load_village(vid)
            clock.now = max(clock.now, record._meta.next_update)
            effects.advance_village(vid, clock())
    raise AssertionError("the village did not end")


def test_a_finished_sixteen_player_classic_village_read_on_a_phone(server, phone):
    clock = server.clock
    rng = random.Random(2316)
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="十六人の村", rules="classic"),
        now=clock(),
        rng=rng,
    )
    accounts = [make_account(f"end{n:02d}", clock()) for n in range(PLAYERS)]
    for n, account in enumerate(accounts):
        villages.join(vid, account, f"s{n + 1}", YAMAZATO[n].key, clock())
    for account in accounts:
        actions.prologue(vid, account, "start", None, clock())
    play_to_the_end(server, vid, rng)
    record = load_village(vid)
    assert record.state.value == "ending"
    last_day = record.day
    assert last_day >= 3

    visitor = phone("visitor")
    page = visitor.page
    # The ending's page: the cast table first, every character with ID, role and fate.
    visitor.goto(f"/villages/{vid}#cast")
    cast = page.locator("#cast")
    rows = cast.locator("tbody tr")
    assert rows.count() == PLAYERS + 1  # the scapegoat listed too
    text = cast.inner_text()
    assert "身代わり君" in text and "1日目の夜に襲撃" in text
    for account in accounts:
        assert account in text
    assert "生存" in text or "日目に" in text
    visitor.check("ending-cast")
    # Each day's full record, through the day tabs.
    for day in range(1, last_day + 1):
        visitor.goto(f"/villages/{vid}?day={day}#record")
        record_text = page.locator("#record").inner_text()
        assert f"全記録（{day}日目）" in record_text
        if day >= 2 and day < last_day:
            assert "投票" in record_text and "襲撃:" in record_text
        visitor.check(f"record-day{day}")
    # The combined log: every day on one page, each followed by its record.
    visitor.goto(f"/villages/{vid}/log")
    for day in range(last_day + 1):
        assert page.locator(f"#day{day}").count() == 1
    assert page.locator("#day0 article.post").count() >= 1
    assert page.locator("#record2").count() == 1
    visitor.check("combined-log")
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden()
    visitor.page.screenshot(
        path=str(visitor.shots[-1]).replace(".png", "-print.png"), full_page=True
    )


def test_tapping_a_post_number_puts_its_anchor_into_the_write_form(server, phone):
    """Issue 23: with JavaScript, the number adds >>N where the cursor is and stays on the page;
    a same-day >>N opens in the line of its sentence."""
    from playwright.sync_api import expect

    clock = server.clock
    vid = create(clock, random.Random(4), opening=True)
    accounts = [make_account(f"rep{n:02d}", clock()) for n in range(4)]
    for n, account in enumerate(accounts):
        villages.join(vid, account, f"s{n + 1}", YAMAZATO[n].key, clock())
    for account in accounts:
        actions.prologue(vid, account, "start", None, clock())
    posts.post(vid, accounts[1], "public", "最初の発言です", clock())
    clock.advance(timedelta(seconds=10))
    posts.post(vid, accounts[2], "public", "それは >>2 の話ですね。続きます", clock())
    me = phone("member")
    page = me.page
    me.goto("/login")
    page.fill("#account_id", accounts[0])
    page.fill("#password", PASSWORD)
    page.locator("main").get_by_role("button", name="ログイン").click()
    me.goto(f"/villages/{vid}#posts")
    page.fill("#text", "同意です")
    page.locator("article.post a.num", has_text="2").first.click()
    expect(page.locator("#text")).to_have_value("同意です >>2 ")
    assert "reply=" not in page.url  # stayed on the page
    quote = page.locator("details.anchor").first
    quote.locator("summary").click()
    expect(quote.locator(".quoted")).to_be_visible()
    line = page.locator("article.post", has_text="続きます").locator(".text")
    box, summary = line.bounding_box(), quote.locator("summary").bounding_box()
    assert summary["y"] - box["y"] < 8  # the quote opens in the first line, not below it
    me.check("reply-anchor")
