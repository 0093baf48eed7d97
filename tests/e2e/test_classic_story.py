"""A five-player short classic village (人狼BBS式) on a 360 px phone, from the prologue to the
epilogue: joining by persona, a kick, start votes (the phone's is the last, and starts the
game), a will, a tie and its re-vote (the phone's vote through the confirmation step), a sudden
death, an execution whose will is published the next morning, and the epilogue's reveal.

A GJ needs a hunter, whom RULES-CLASSIC §1 deals only from ten players: the five-player story
cannot show one (the GJ is covered by the engine's clause tests and a ten-player integration test).
Every page is checked at 360 px (Phone.check). Screenshots: test-artifacts/e2e/.
"""

import random
import re

import pytest

from chalicelib import effects
from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import NPC, Role
from chalicelib.services import actions, villages
from chalicelib.storage.repository import load_village
from tests.support.accounts import PASSWORD, make_account

pytestmark = pytest.mark.browser


def run_scheduler(server, village_id: str) -> None:
    record = load_village(village_id)
    assert record is not None and record._meta.next_update is not None
    server.clock.now = record._meta.next_update
    effects.advance_village(village_id, server.clock())


def seats_and_roles(village_id: str) -> tuple[dict[str, str], dict[str, Role], list[str]]:
    """account -> seat, seat -> role, living seats (seat order)."""
    record = load_village(village_id)
    game = record.game
    accounts = {s.account_id: seat for seat, s in record.seats().items() if s.account_id}
    roles = {game.seats[c]: r for c, r in game.village.roles.items() if c != NPC}
    living = [game.seats[c] for c in game.village.living() if c != NPC]
    return accounts, roles, living


def test_a_classic_village_on_a_phone(server, phone):
    from playwright.sync_api import expect

    clock = server.clock
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short",
            name="はじめての人狼BBS村",
            rules="classic",
            given={"template": "人狼BBS式の短期村です。よろしくお願いします。"},
        ),
        now=clock(),
        rng=random.Random(13),
    )
    others = [make_account(f"bbs{n:02d}", clock()) for n in range(5)]
    make_account("sayo_fan", clock())
    me = phone("classic")
    page = me.page

    # ----- log in, open the village, join as 小夜 -----
    me.goto("/login")
    page.fill("#account_id", "sayo_fan")
    page.fill("#password", PASSWORD)
    page.locator("main").get_by_role("button", name="ログイン").click()
    expect(page.locator("nav.user")).to_contain_text("sayo_fan")
    expect(page.locator("main")).to_contain_text("人狼BBS式・短期")
    page.get_by_role("link", name=f"{vid}番 はじめての人狼BBS村").click()
    expect(page.get_by_role("heading", name="この村に参加する")).to_be_visible()
    expect(page.locator("#prologue")).to_contain_text("外部相談の禁止")  # once, not in #join
    expect(page.locator("#posts")).to_contain_text("人狼BBS式の短期村です。")
    me.check("prologue-visitor")
    page.select_option("#persona", "sayo")
    page.get_by_role("button", name="参加する").click()
    expect(page.get_by_role("status")).to_contain_text("村に参加しました")
    expect(page.locator("#prologue")).to_contain_text("あと3人集まると配役が決まります")
    me.check("prologue-joined")

    # ----- four more join; one more, who is kicked -----
    taken = {"sayo"}
    free = [p.key for p in YAMAZATO if p.key not in taken]
    for n, account in enumerate(others):
        villages.join(vid, account, f"s{n + 2}", free[n], clock())
    record = load_village(vid)
    kicked = others[-1]
    kicked_seat = record.slot_of(kicked)
    kicked_name = record.seats()[kicked_seat].name
    me.goto(f"/villages/{vid}")
    expect(page.locator("#prologue")).to_contain_text(
        "6人（身代わり君を含めて7枚）：占い師1、人狼1、村人5"
    )
    page.locator("#members tr", has_text=kicked_name).get_by_role("button", name="キック").click()
    expect(page.get_by_role("status")).to_contain_text("キックに投票しました")
    expect(page.locator("#members")).to_contain_text("キック 1票")
    me.check("kick")
    for voter in others[:2]:
        actions.prologue(vid, voter, "kick", kicked_seat, clock())
    me.goto(f"/villages/{vid}")
    expect(page.locator("#posts")).to_contain_text(f"{kicked_name} はキックされました。")
    expect(page.locator("#members")).not_to_contain_text(kicked_name)

    # ----- start votes: the phone's is the last and starts the game -----
    for account in others[:4]:
        actions.prologue(vid, account, "start", None, clock())
    me.goto(f"/villages/{vid}")
    expect(page.locator("#prologue")).to_contain_text("開始投票 4人")
    page.get_by_role("button", name="開始投票をする").click()
    expect(page.get_by_role("status")).to_contain_text("ゲームが始まりました")
    expect(page.locator("#private")).to_contain_text("あなたは")
    expect(page.locator("main .card").first).to_contain_text("夜明け")
    me.check("started")

    # ----- a will -----
    page.fill("#will-text", "私は村人です。信じてください。")
    page.get_by_role("button", name="遺書を保存する").click()
    expect(page.get_by_role("status")).to_contain_text("遺書を保存しました")
    expect(page.locator("#will-text")).to_have_value("私は村人です。信じてください。")

    # ----- night 1 closes: day 2, the first round -----
    run_scheduler(server, vid)
    me.goto(f"/villages/{vid}")
    expect(page.locator("#posts")).to_contain_text("2日目の朝になりました")
    expect(page.locator("#actions")).to_contain_text("処刑投票（第1回）")
    me.check("day-2")

    # ----- a tie (2–2–1) and its re-vote -----
    by_account, roles, living = seats_and_roles(vid)
    mine = by_account["sayo_fan"]
    wolf = next(s for s in living if roles[s] is Role.WEREWOLF)
    rest = [s for s in living if s != mine]
    a, b = rest[0], rest[1]
    account_of = {seat: account for account, seat in by_account.items()}
    plan = {a: b, b: a, rest[2]: a, rest[3]: b}
    for voter, target in plan.items():
        actions.save_actions(vid, account_of[voter], {"vote": target}, clock())
    me.goto(f"/villages/{vid}")
    names = load_village(vid).names()
    page.select_option("#c-vote", rest[2])
    page.get_by_role("button", name="確認へ進む").click()
    expect(page.locator("#actions")).to_contain_text("投票したあとは変えられません")
    me.check("vote-confirm")
    page.get_by_role("button", name="投票する").click()
    expect(page.locator("#posts")).to_contain_text("同数だったため、第2回投票を行います。")
    expect(page.locator("#actions")).to_contain_text("処刑投票（第2回）")
    me.check("re-vote")

    # ----- a sudden death: one player does not vote in round 2 -----
    innocents = [s for s in rest if s != wolf]
    silent, executed = innocents[0], innocents[1]
    actions.save_will(vid, account_of[executed], "犯人は別にいます。", clock())
    for voter in rest:
        if voter != silent:
            target = executed if voter != executed else mine
            actions.save_actions(vid, account_of[voter], {"vote": target}, clock())
    page.select_option("#c-vote", executed)
    page.get_by_role("button", name="確認へ進む").click()
    page.get_by_role("button", name="投票する").click()
    expect(page.locator("#actions")).to_contain_text("あなたの投票")
    run_scheduler(server, vid)  # the deadline: the silent one dies, the round reopens
    me.goto(f"/villages/{vid}")
    expect(page.locator("#posts")).to_contain_text(
        f"投票しなかった {names[silent]} が突然死しました"
    )
    me.check("sudden-death")

    # ----- the repeated round 2 executes; the will is published the next morning -----
    by_account, roles, living = seats_and_roles(vid)
    for voter in living:
        if voter != mine:
            target = executed if voter != executed else mine
            actions.save_actions(vid, account_of[voter], {"vote": target}, clock())
    page.select_option("#c-vote", executed)
    page.get_by_role("button", name="確認へ進む").click()
    page.get_by_role("button", name="投票する").click()
    expect(page.locator("#posts")).to_contain_text(f"{names[executed]} が処刑されました。")
    run_scheduler(server, vid)  # night 2 closes
    me.goto(f"/villages/{vid}?board=public")
    expect(page.locator("#posts")).to_contain_text("犯人は別にいます。")
    me.check("morning-with-will")

    # ----- the epilogue: every role, the scapegoat's card, every vote -----
    record = load_village(vid)
    if record.state.value == "running":  # the game goes on: everyone votes for the wolf
        by_account, roles, living = seats_and_roles(vid)
        for voter in living:
            if voter != wolf:
                actions.save_actions(
                    vid, account_of.get(voter, "sayo_fan"), {"vote": wolf}, clock()
                )
        lonely = [s for s in living if s != wolf]
        actions.save_actions(vid, account_of.get(wolf, "sayo_fan"), {"vote": lonely[0]}, clock())
    me.goto(f"/villages/{vid}")
    expect(page.locator("main")).to_contain_text("エピローグ")
    expect(page.locator("main .card").first).to_contain_text("身代わり君は")
    expect(page.locator("#members")).to_contain_text("（人狼）")
    expect(page.locator("#votes")).to_contain_text("2日目・第1回")
    me.check("epilogue")
    assert re.search(r"(村人|人狼)の勝利", page.locator("main .card").first.inner_text())
