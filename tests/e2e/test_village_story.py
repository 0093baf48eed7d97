"""A player's first short village on a phone, from registration to the second morning.

Every page visited is checked at 360 px: no horizontal scroll, touch targets of at
least 44 px, no console errors (Phone.check). Screenshots: test-artifacts/e2e/.
"""

import re
from datetime import timedelta

import pytest

from chalicelib import effects
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.mobius.labels import SIDE_LABELS, VERDICT_LABELS
from chalicelib.services import actions, posts
from chalicelib.storage.repository import load_village
from tests.support.accounts import PASSWORD
from tests.support.mail import verification_link
from tests.support.villages import new_village, seat_players

pytestmark = pytest.mark.browser

ONI_SIDE = ("oni", "madman")


def expect_text(locator, text: str) -> None:
    from playwright.sync_api import expect

    expect(locator).to_contain_text(text)


def names_of(village_id: str) -> dict[str, str]:
    record = load_village(village_id)
    assert record is not None
    return record.names()


def run_scheduler(server, village_id: str) -> None:
    """Moves the clock to the village's next update and runs the scheduler's worker."""
    record = load_village(village_id)
    assert record is not None and record._meta.next_update is not None
    server.clock.now = record._meta.next_update
    effects.advance_village(village_id, server.clock())


def test_first_village_on_a_phone(server, phone):
    from playwright.sync_api import expect

    clock = server.clock
    village_id = new_village(clock, seed=20261201, name="はじめての短期村")
    me = phone("player")
    page = me.page

    # ----- register -----
    me.goto("/")
    expect(page.get_by_role("heading", name="ラウンジ")).to_be_visible()
    me.check("lounge")
    page.get_by_role("link", name="新規登録").click()
    expect(page.get_by_role("heading", name="新規登録")).to_be_visible()
    me.check("register")
    page.fill("#account_id", "kaede_fan")
    page.fill("#password", PASSWORD)
    page.fill("#email", "Kaede.Fan@example.jp")
    page.get_by_role("button", name="登録する").click()
    expect(page.get_by_role("heading", name="確認メールを送りました")).to_be_visible()
    expect_text(page.locator("main"), "kaede.fan@example.jp")
    me.check("registered")

    # ----- verify through the link in the mail moto "sent" -----
    link = verification_link("kaede.fan@example.jp")
    assert link.startswith(server.url + "/verify?token="), link
    me.goto(link)
    expect(page.get_by_role("heading", name="メールアドレスの確認")).to_be_visible()
    me.check("verify")
    page.get_by_role("button", name="確認する").click()
    expect(page.get_by_role("heading", name="確認できました")).to_be_visible()
    expect_text(page.locator("main"), "kaede_fan さんのメールアドレスを確認しました")
    me.check("verified")

    # ----- signed in by the verification (decision 81) -----
    expect(page.locator("nav.user")).to_contain_text("kaede_fan")
    page.locator("main").get_by_role("link", name="ラウンジへ").click()
    expect(page.get_by_role("heading", name="ラウンジ")).to_be_visible()
    expect(page.locator("nav.user")).to_contain_text("kaede_fan")
    me.check("lounge-logged-in")

    # ----- open the village and join it as 霊能者A 小夜 -----
    page.get_by_role("link", name=f"{village_id}番 はじめての短期村").click()
    expect(page.get_by_role("heading", name="この村に参加する")).to_be_visible()
    me.check("village-opening")
    page.select_option("#slot", "medium_a")
    page.select_option("#persona", "sayo")
    page.get_by_role("button", name="参加する").click()
    expect(page).to_have_url(re.compile(rf"/villages/{village_id}\?done=joined"))
    expect(page.get_by_role("status")).to_contain_text("村に参加しました。")
    private = page.locator("#private")
    record = load_village(village_id)
    assert record is not None
    my_side = str(record.game.sides["medium_a"])
    expect(private).to_contain_text(f"霊能者A 小夜・役割: {SIDE_LABELS[my_side]}")
    expect(private).to_contain_text("まで発言できません（離脱考慮期間）")
    expect(page.locator("#write")).to_contain_text("発言できません")
    me.check("joined")

    # ----- post on the public board once the 10-minute speech ban is over -----
    clock.advance(timedelta(minutes=10, seconds=1))
    village_url = f"/villages/{village_id}"
    me.goto(village_url)
    expect(private).not_to_contain_text("離脱考慮期間")
    page.fill("#text", "はじめまして、小夜です。\nよろしくお願いします。")
    page.locator("#write").get_by_role("button", name="書き込む").click()
    expect(page).to_have_url(re.compile(r"board=public#posts$"))
    post = page.locator("article.post", has_text="はじめまして、小夜です。")
    expect(post.locator(".who")).to_have_text("霊能者A 小夜")
    expect(post).to_contain_text("よろしくお願いします。")
    me.check("posted")

    # ----- twelve more players join through the services; the scheduler starts day 1 -----
    others = [slot for slot in SLOTS if slot != "medium_a"]
    seated = seat_players(village_id, others, clock(), prefix="villager")
    run_scheduler(server, village_id)
    record = load_village(village_id)
    assert record is not None and record._meta.state == "running", record._meta.state
    day_started = record._meta.day_started_at

    clock.now = day_started + timedelta(minutes=5)
    me.goto(village_url)
    expect(page.locator("main > p.muted").first).to_contain_text("進行中・1日目")
    expect(private).to_contain_text(f"役割: {SIDE_LABELS[my_side]}")
    if my_side in ONI_SIDE:
        expect(private).to_contain_text("鬼サイドの配置")
    expect(page.locator("#posts")).to_contain_text("1日目が始まりました。")
    tabs = page.locator("nav.tabs[aria-label='掲示板'] a")
    expected_tabs = ["表", "鬼の世界", "心の中"] if my_side in ONI_SIDE else ["表", "心の中"]
    expect(tabs).to_have_text(expected_tabs)
    me.check("day1")

    # Everyone else prays for 庶民D; the oni side attacks one human (never the medium).
    names = names_of(village_id)
    sides = {slot: str(side) for slot, side in record.game.sides.items()}
    judged = "commoner_d"
    attacked = next(s for s in SLOTS if sides[s] == "human" and s not in ("medium_a", judged))
    attacker = next(s for s in SLOTS if sides[s] == "oni" and s != "medium_a")
    for slot, account in seated.items():
        choices = {"pray": judged if slot != judged else "commoner_c"}
        if sides[slot] in ONI_SIDE:
            choices |= {"attack": attacked, "attacker": attacker}
        actions.save_actions(village_id, account, choices, clock())

    # ----- the action form: この内容で行動 -----
    form = page.locator("#actions")
    expect(form.get_by_role("heading")).to_contain_text("行動予定（1日目の夜）")
    expect(page.locator("#c-pray")).to_have_value("")
    page.select_option("#c-pray", judged)
    form.get_by_role("button", name="この内容で行動").click()
    expect(page).to_have_url(re.compile(r"\?done=saved#actions$"))
    expect(page.get_by_role("status")).to_contain_text("行動を保存しました")
    expect(page.locator("#c-pray")).to_have_value(judged)
    expect(page.locator("#c-pray option:checked")).to_have_text(names[judged])
    me.check("actions-saved")

    # ----- the second update: the morning report and the medium's result -----
    run_scheduler(server, village_id)
    record = load_village(village_id)
    assert record is not None and record.game.day == 2, record.game.day
    assert record.slot_of("kaede_fan") == "medium_a"  # not auto-departed
    me.goto(village_url)
    report = page.locator("article.post.system", has_text="2日目の朝になりました。")
    expect(report).to_contain_text(f"灰になったのは {names[judged]} です。")
    expect(report).to_contain_text(f"遺体で見つかったのは {names[attacked]} です。")
    verdict = VERDICT_LABELS["oni" if sides[judged] == "oni" else "human"]
    expect(private).to_contain_text(f"2日目の朝の結果: {names[judged]}は{verdict}")
    members = page.locator("#members")
    expect(members.locator("tr", has_text=names[judged])).to_contain_text("2日目の朝に灰")
    expect(members.locator("tr", has_text=names[attacked])).to_contain_text("2日目の朝に遺体")
    expect(page.locator("#c-pray")).to_have_value("")  # a new night, undecided again
    me.check("day2-morning")

    # ----- the account page lists the village held -----
    page.locator("nav.user").get_by_role("link", name="kaede_fan").click()
    expect(page.get_by_role("heading", name="アカウント")).to_be_visible()
    expect(page.locator("main .card")).to_contain_text(f"短期・{village_id}番")
    me.check("account")


def test_a_visitor_sees_only_the_public_board(server, phone):
    from playwright.sync_api import expect

    clock = server.clock
    village_id = new_village(clock, seed=7, name="観光できる村")
    # Twelve players: the village starts with one slot vacant.
    seated = seat_players(village_id, list(SLOTS[:12]), clock(), prefix="host")
    run_scheduler(server, village_id)
    record = load_village(village_id)
    assert record is not None and record._meta.state == "running"
    clock.now = record._meta.day_started_at + timedelta(minutes=1)
    sides = {slot: str(record.game.sides[slot]) for slot in seated}
    oni = next(s for s in seated if sides[s] in ONI_SIDE)
    human = next(s for s in seated if sides[s] == "human")
    posts.post(village_id, seated[human], "public", "おはようございます", clock())
    posts.post(village_id, seated[human], "inner", "心の中の独り言", clock() + timedelta(seconds=6))
    posts.post(village_id, seated[oni], "oni", "鬼だけの相談", clock())

    visitor = phone("visitor")
    page = visitor.page
    visitor.goto(f"/villages/{village_id}")
    expect(page.get_by_role("heading", name=f"{village_id}番 観光できる村")).to_be_visible()
    expect(page.locator("main > p.muted").first).to_contain_text("進行中・1日目")
    expect(page.locator("nav.tabs[aria-label='掲示板'] a")).to_have_text(["表"])
    expect(page.locator("#posts")).to_contain_text("おはようございます")
    for hidden in ("#private", "#actions", "#write"):
        expect(page.locator(hidden)).to_have_count(0)
    body = page.locator("body")
    expect(body).not_to_contain_text("心の中の独り言")
    expect(body).not_to_contain_text("鬼だけの相談")
    expect(body).not_to_contain_text("初日ランダム占い先")
    for side in ("（鬼）", "（狂人）", "役割:"):
        expect(body).not_to_contain_text(side)
    # One slot is vacant: the visitor is invited to log in to take it.
    expect(page.locator("#join")).to_contain_text("ログインすると参加できます")
    visitor.check("running-village")

    # Asking for another board by URL still shows only the public one.
    for board in ("oni", "grave", "inner"):
        visitor.goto(f"/villages/{village_id}?board={board}")
        expect(page.locator("nav.tabs[aria-label='掲示板'] a")).to_have_text(["表"])
        expect(page.locator("#posts")).to_contain_text("おはようございます")
        expect(body).not_to_contain_text("鬼だけの相談")
    visitor.check("asked-for-other-boards")
