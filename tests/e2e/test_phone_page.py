"""A member's day page on a 360 px phone: what it needs most comes first, jump links at the
top, a one-line header (local-only links included), anchors that open inline without
JavaScript, and day tabs that stay usable past ten days."""

import re
from datetime import timedelta

import pytest

from chalicelib.services import actions, posts, update
from chalicelib.storage.models import VillageItem
from chalicelib.storage.repository import load_village
from tests.support.accounts import PASSWORD
from tests.support.phones import WIDTH
from tests.support.villages import new_village, seat_players

pytestmark = pytest.mark.browser


def top(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("el => el.getBoundingClientRect().top")


def test_a_member_s_day_page_on_a_phone(server, phone, local_links):
    from playwright.sync_api import expect

    clock = server.clock
    village_id = new_village(clock, seed=20261130, name="スマホの村")
    seated = seat_players(village_id, list(load_village(village_id)._members), clock(), "ph")
    clock.now = load_village(village_id)._meta.next_update
    update.advance(village_id, clock())
    clock.advance(timedelta(minutes=2))
    # Two posts by others after the day's opening notice (post 1); the second answers
    # the first with an anchor.
    hostile = '<script>alert("x")</script> & "quotes"'
    posts.post(village_id, seated["seer_b"], "public", hostile, clock())
    clock.advance(timedelta(seconds=6))
    posts.post(village_id, seated["medium_a"], "public", ">>2 それは怪しい", clock())

    me = phone("seer")
    page = me.page
    me.goto("/login")
    page.fill("#account_id", seated["seer_a"])
    page.fill("#password", PASSWORD)
    page.locator("main").get_by_role("button", name="ログイン").click()
    me.goto(f"/villages/{village_id}")
    me.check("day-page")

    # The header is one line, local-only links and all, and every link fits.
    header = page.locator("header.site")
    expect(header.locator("nav.user")).to_contain_text("時計")
    assert header.bounding_box()["height"] <= 56
    fits = page.locator("nav.user").evaluate("el => el.scrollWidth <= el.clientWidth")
    assert fits, "the header's links do not fit on one line"

    # Jump links first; then the deadline, own news, the action form, the write form,
    # the boards and the member list, in that order.
    jump = page.locator("nav.jump a")
    expect(jump).to_have_text(["村民", "掲示板", "行動", "書き込む"])
    order = ["nav.jump", ".card", "#private", "#actions", "#write", "#posts", "#members"]
    tops = [top(page, selector) for selector in order]
    assert tops == sorted(tops), dict(zip(order, tops, strict=True))
    assert top(page, "#actions") < 740 * 1.5  # the action form is reached at once
    for name, target in (("行動", "actions"), ("書き込む", "write"), ("村民", "members")):
        page.locator("nav.jump").get_by_role("link", name=name).click()
        expect(page).to_have_url(re.compile(rf"#{target}$"))
        assert -2 < top(page, f"#{target}") < 740 / 2, name  # scrolled to it

    # >>2 opens post 2 inline on tap (a <details>: no script), escaped.
    answer = page.locator("article#p3")
    expect(answer.locator("details.anchor summary")).to_have_text(">>2")
    quoted = answer.locator("details.anchor .quoted")
    expect(quoted).to_be_hidden()
    answer.locator("details.anchor summary").click()
    expect(quoted).to_be_visible()
    expect(quoted).to_contain_text(hostile)
    # No inline script: the only one is the reply helper, an external file (issue 23).
    assert page.evaluate("document.querySelectorAll('main script:not([src])').length") == 0
    me.check("anchor-open")

    # The oni side resigns: the ending opens the full record, a jump link away.
    game = load_village(village_id).game
    for slot in [s for s in game.oni_side][:3]:
        actions.save_actions(village_id, seated[slot], {"resign": slot}, clock())
    me.goto(f"/villages/{village_id}?day=1")
    expect(page.locator("nav.jump a")).to_have_text(["村民", "掲示板", "書き込む", "全記録"])
    page.locator("nav.jump").get_by_role("link", name="全記録").click()
    record = page.locator("#record")
    expect(record.get_by_role("heading", level=2)).to_have_text("全記録（1日目）")
    expect(record).to_contain_text("初日ランダム占い")
    expect(record).to_contain_text("投了→")
    me.check("full-record")

    # Thirteen days of tabs: a block of at most three rows, no sideways scroll.
    item = VillageItem.get(f"V#{village_id}", "META")
    game = dict(item.game)
    game["day"] = 13
    item.update(actions=[VillageItem.game.set(game)])
    me.goto(f"/villages/{village_id}")
    tabs = page.locator("nav.days a")
    expect(tabs).to_have_count(14)
    assert page.locator("nav.days").bounding_box()["height"] <= 3 * 44 + 2 * 4 + 1
    assert page.locator("nav.days").bounding_box()["width"] <= WIDTH
    tabs.nth(12).click()
    expect(page).to_have_url(re.compile(r"day=12#posts$"))
    me.check("thirteen-days")
