"""A GM builds a classic village from a 360 px phone (issue 26): the 村建て page, its preview,
the village in the lounge, then the GM's list and the village's management page; each GM
page laid out for the phone and without an axe-core violation."""

import pytest

from chalicelib.services import hosting
from tests.support.accounts import PASSWORD, make_account
from tests.support.phones import AXE, PHONE, WAIT_MS, Phone

pytestmark = [pytest.mark.browser, pytest.mark.axe]


def axe_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{v['id']}: {node['target']}" for v in found for node in v["nodes"]]


def test_a_gm_builds_a_classic_village_on_a_phone_and_finds_it_in_the_lounge(
    server, chromium, request
):
    from playwright.sync_api import expect

    clock = server.clock
    make_account("gamemaster", clock())
    hosting.grant("gamemaster", True, "cli:test", clock())
    # axe is injected as a script: the context lets it past the pages' CSP (tests only).
    context = chromium.new_context(**PHONE, bypass_csp=True)
    context.set_default_timeout(WAIT_MS)
    try:
        gm = Phone(context.new_page(), server.url, f"{request.node.name}-gm")
        page = gm.page
        gm.goto("/login")
        page.fill("#account_id", "gamemaster")
        page.fill("#password", PASSWORD)
        page.locator("main").get_by_role("button", name="ログイン").click()

        gm.goto("/gm")
        gm.check("gm-list")
        assert axe_violations(page) == []
        page.get_by_role("link", name="村を建てる").click()
        page.get_by_role("link", name="人狼BBS式").click()
        gm.check("new-classic")
        assert axe_violations(page) == []

        page.fill("#name", "スマホで建てたBBS村")
        page.select_option("#pace", "short")
        page.select_option("#opt-tie", "runoff")
        page.select_option("#opt-opening", "true")
        page.fill("#opt-min_members", "5")
        page.fill("#opt-template", "この村ではCO自由です。")
        page.get_by_role("button", name="確認する").click()
        preview = page.locator("#preview")
        expect(preview).to_contain_text("スマホで建てたBBS村")
        expect(preview).to_contain_text("人狼BBS式・短期・空き16席")
        expect(preview).to_contain_text("同票のとき: 同票なら再投票、4回目は決選投票")
        expect(preview).to_contain_text("この村ではCO自由です。")
        gm.check("preview")
        assert axe_violations(page) == []

        page.get_by_role("button", name="この内容で村を建てる").click()
        expect(page.locator("h1")).to_contain_text("スマホで建てたBBS村")
        village_path = page.url.removeprefix(server.url)
        assert village_path.startswith("/villages/")
        gm.check("created")

        gm.goto("/")
        link = page.locator("ul.villages a", has_text="スマホで建てたBBS村")
        expect(link).to_have_attribute("href", village_path)
        expect(page.locator("ul.villages li", has_text="スマホで建てたBBS村")).to_contain_text(
            "人狼BBS式・短期"
        )
        gm.check("lounge")

        gm.goto("/gm")
        page.locator("ul.villages a", has_text="スマホで建てたBBS村").click()
        expect(page.get_by_role("heading", name="廃村にする")).to_be_visible()
        gm.check("manage")
        assert axe_violations(page) == []
        page.fill("#reason", "テストのため")
        page.locator("form[action$='/abandon']").get_by_role("button", name="確認する").click()
        expect(page.locator("h1")).to_have_text("この村を廃村にしますか？")
        gm.check("confirm")
        assert axe_violations(page) == []
    finally:
        context.close()
