"""One person and four computer members play a classic practice village on a 360 px phone
(issue 24): from the lounge to the ending, moving time only through /dev/clock, as a newcomer
does with ``make run``. The scheduler's ticker is the test's ``tick`` (the local runner ticks
every 3 s): the CPUs take their turns at its looks. Screenshots: test-artifacts/e2e/.
"""

import random

import pytest

from chalicelib import jobs
from chalicelib.services import villages
from tests.support.accounts import make_account

pytestmark = pytest.mark.browser


def test_a_person_and_four_cpus_play_a_classic_village_on_a_phone(server, phone, local_tools):
    from playwright.sync_api import expect

    clock = server.clock
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short",
            name="練習村（人狼BBS式・CPU4人）",
            rules="classic",
            cpu_members=4,
            practice=True,
        ),
        now=clock(),
        rng=random.Random(24),
    )
    make_account("newcomer", clock())
    me = phone("practice")
    page = me.page

    # ----- from the lounge: the practice village, four CPUs already seated -----
    me.login("newcomer")
    page.get_by_role("link", name=f"{vid}番 練習村（人狼BBS式・CPU4人）").click()
    expect(page.locator("#members")).to_contain_text("（CPU）")
    me.check("practice-prologue")
    page.get_by_role("button", name="参加する").click()
    expect(page.get_by_role("status")).to_contain_text("村に参加しました")

    # ----- the CPUs start-vote at the next look; the person's vote starts the game -----
    jobs.tick()
    me.goto(f"/villages/{vid}")
    expect(page.locator("#prologue")).to_contain_text("開始投票 4人")
    page.get_by_role("button", name="開始投票をする").click()
    expect(page.get_by_role("status")).to_contain_text("ゲームが始まりました")
    me.check("practice-started")

    # ----- days and nights: vote when asked, else /dev/clock to the village's next event -----
    voted = 0
    for _ in range(40):
        jobs.tick()  # the ticker's look: the CPUs take their turns
        me.goto(f"/villages/{vid}")
        if "エンディング" in page.locator("main p").first.inner_text():
            break  # the ending: the epilogue
        if page.locator("#c-vote").count():
            options = page.locator("#c-vote option:not([value=''])")
            page.select_option("#c-vote", options.first.get_attribute("value"))
            page.get_by_role("button", name="確認へ進む").click()
            page.get_by_role("button", name="投票する").click()
            expect(page.get_by_role("status")).to_contain_text("保存しました")
            if voted == 0:
                me.check("practice-voted")
            voted += 1
            continue
        me.goto("/dev/clock")
        card = page.locator("section.card", has_text=f"{vid}番")
        card.get_by_role("button").first.click()
    else:
        raise AssertionError("the practice village did not reach its ending")

    # ----- the ending: every CPU marked, the cast table names them 「CPU」 -----
    assert voted >= 1
    expect(page.locator("#posts")).to_contain_text("（CPU）")  # the CPUs talked
    expect(page.locator("main")).to_contain_text("CPU")
    me.check("practice-ending")
