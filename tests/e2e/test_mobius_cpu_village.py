"""Issue 24: one person and twelve computer members play a short Mobius village on a phone,
from the lounge to the ending, moving time with /dev/clock's buttons.

Every page is checked at 360 px (Phone.check). The computer members play through the
scheduler's looks as the platform gives them their turns; the person prays each day and
walks the clock to loss time and then to the update.
"""

import random
import re

import pytest

from chalicelib.services import villages
from tests.support.accounts import make_account

pytestmark = pytest.mark.browser

MAX_DAYS = 14  # 13 characters, at least one judged a night


@pytest.mark.usefixtures("local_tools")
def test_a_person_and_twelve_computers_play_a_mobius_village_to_its_ending(server, phone):
    from playwright.sync_api import expect

    clock = server.clock
    name = "ひとりとCPUの村"
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name=name, cpu_members=12, practice=True),
        now=clock(),
        rng=random.Random(24),
    )
    make_account("solo_player", clock())
    me = phone("solo")
    page = me.page

    # ----- log in, then from the lounge into the practice village -----
    me.login("solo_player")
    me.goto("/")
    expect(page.get_by_role("heading", name="ラウンジ")).to_be_visible()
    me.check("lounge")
    page.get_by_role("link", name=f"{vid}番 {name}").click()
    expect(page.get_by_role("heading", name="この村に参加する")).to_be_visible()
    expect(page.locator("#members")).to_contain_text("（CPU）")
    me.check("opening")
    page.get_by_role("button", name="参加する").click()
    expect(page.get_by_role("status")).to_contain_text("村に参加しました。")
    me.check("joined")

    def press(label: str) -> None:
        """The clock page's button of this village that starts with ``label``."""
        me.goto("/dev/clock")
        card = page.locator("section.card").filter(
            has=page.get_by_role("link", name=f"{vid}番 {name}")
        )
        card.get_by_role("button", name=re.compile(f"^{label}")).click()
        expect(page.get_by_role("heading", name="時計（ローカル）")).to_be_visible()

    press("次の更新へ")  # twelve computers and the person: day 1 starts
    village = f"/villages/{vid}"
    board = page.locator("#posts")
    for day in range(1, MAX_DAYS + 1):
        me.goto(village)
        if page.locator("main").filter(has_text="の勝利です").count():
            break
        expect(page.locator("main > p.muted").first).to_contain_text(f"進行中・{day}日目")
        if page.locator("#c-pray").count():  # alive: pray for the first one offered
            page.select_option("#c-pray", index=1)
            page.locator("#actions").get_by_role("button", name="この内容で行動").click()
            expect(page.get_by_role("status")).to_contain_text("行動を保存しました")
        me.check(f"day{day}")
        press("ロスタイムへ")
        me.goto(village)  # the person looks in during loss time (not idle)
        press("次の更新へ")
    else:
        raise AssertionError(f"no ending after {MAX_DAYS} days")

    expect(board).to_contain_text("の勝利です")
    expect(page.locator("main")).to_contain_text("（CPU）")
    me.check("ending")
    # The computers talked on the public board: their prayers, in their words.
    me.goto(f"{village}?day=1")
    expect(board).to_contain_text("に祈ります。")
    me.check("day1-log")
