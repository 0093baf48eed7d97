"""What a newcomer's first evening met at 360 px (issue 37): a header that shows the name whole
and never scrolls sideways, tables whose headings and IDs stay whole, the review's steps on one
line, and a mistyped address, the browser's own /favicon.ico or a form's address reloaded that
neither log anyone out nor lose a guest's game."""

import re

import pytest

from chalicelib.services import matches
from chalicelib.services.unit import Unit
from tests.support.accounts import make_account
from tests.support.phones import AXE, PHONE, WAIT_MS, WIDTH, Phone

pytestmark = pytest.mark.browser

# Every element's box, for the ones that leave the screen or sit beside a scrolling box.
OFF_SCREEN_JS = """
() => [...document.querySelectorAll("body *")]
  .filter(el => {
    const box = el.getBoundingClientRect();
    return box.width && box.right > innerWidth + 0.5;
  })
  .map(el => `${el.tagName.toLowerCase()}.${el.className} "${(el.innerText || "").slice(0, 20)}"`)
"""
# The lines a piece of text takes (its text's rectangles' distinct tops).
LINES_JS = """
el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top))).size;
}
"""
# Where a text's line sits: the bottom of its text (not of its box, which a flex row stretches).
TEXT_BOTTOM_JS = """
el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return range.getBoundingClientRect().bottom;
}
"""


def assert_no_sideways_scroll(me: Phone, where: str) -> None:
    page = me.page
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, where
    assert page.evaluate(OFF_SCREEN_JS) == [], where
    nav = page.locator("nav.user")
    assert nav.evaluate("el => el.scrollWidth <= el.clientWidth"), f"{where}: the header scrolls"


def start_against_cpu(me: Phone) -> str:
    """A guest's std9 game as A against the CPU, from the top page's form."""
    page = me.page
    me.goto("/")
    form = page.locator("#vs-cpu form")
    form.locator("select[name=preset]").select_option("std9")
    form.locator("select[name=side]").select_option("A")
    form.get_by_role("button", name="対局を始める").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]{16}$"))
    return page.url.rsplit("/", 1)[1]


def test_the_header_fits_a_phone_logged_out_and_in_local_links_included(server, phone, local_links):
    from playwright.sync_api import expect

    me = phone("header")
    page = me.page
    me.goto("/")
    expect(page.locator("nav.user")).to_contain_text("返信")
    assert_no_sideways_scroll(me, "logged out")
    reply = page.locator("nav.user").get_by_role("link", name="返信").bounding_box()
    assert reply and reply["x"] + reply["width"] <= WIDTH
    me.check("logged-out")

    # The longest name an account may have (20 characters) is shown whole, logged in.
    for name in ("test01", "W" * 20):
        make_account(name, server.clock())
        me.login(name)
        account = page.locator("nav.user a.account")
        expect(account).to_have_text(name)
        assert account.evaluate("el => el.scrollWidth <= el.clientWidth"), name
        assert_no_sideways_scroll(me, f"logged in as {name}")
        logout = page.locator("nav.user").get_by_role("button", name="ログアウト")
        assert logout.bounding_box()["height"] <= account.bounding_box()["height"]
        me.check(f"logged-in-{len(name)}")
        logout.click()
        expect(page.locator("nav.user")).to_contain_text("ログイン")


def test_the_records_tables_keep_each_heading_and_id_on_one_line(server, phone):
    now = server.clock()
    make_account("test07", now)
    make_account("test08", now)
    given = {
        "preset": "std9",
        "side": "A",
        "opponent": "invite",
        "clock": "none",
        "strength": "normal",
    }
    match_id = matches.start("duel", given, "a:test07", now, Unit())
    matches.join(matches.load(match_id), "a:test08", now)
    match = matches.load(match_id)
    matches.move(match, ["a:test07"], match.moves, {"do": "resign"}, None, now)

    me = phone("records")
    me.login("test07")
    me.goto("/account/records")
    me.check("records")
    cells = me.page.locator("table.records th, table.records td")
    assert cells.count() >= 20
    for cell in cells.all():
        assert cell.evaluate(LINES_JS) <= 1, cell.inner_text()
    assert "test08" in me.page.locator("#records-1").inner_text()


def test_the_review_steps_share_one_line(server, phone):
    from playwright.sync_api import expect

    me = phone("review")
    page = me.page
    match_id = start_against_cpu(me)
    page.get_by_role("button", name="投了する").click()
    if page.get_by_role("button", name="はい").count():
        page.get_by_role("button", name="はい").click()
    expect(page.locator("#review-link")).to_be_visible()
    for move in ("0", "1"):  # at the first move «最初 ‹前 are not links; after it they are
        me.goto(f"/matches/{match_id}/review?move={move}")
        me.check(f"review-{move}")
        steps = page.locator("nav.review-steps > *")
        expect(steps).to_have_count(4)
        bottoms = [step.evaluate(TEXT_BOTTOM_JS) for step in steps.all()]
        assert max(bottoms) - min(bottoms) < 1, (move, bottoms)


def test_a_mistyped_address_the_favicon_and_a_reloaded_form_keep_a_guest_s_game(server, phone):
    from playwright.sync_api import expect

    me = phone("guest")
    page = me.page
    match_id = start_against_cpu(me)
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}

    for path, status in (("/no/such/page", 404), ("/favicon.ico", 200), ("/matches", 405)):
        response = me.goto(path)
        assert response.status == status, path
        assert "set-cookie" not in response.all_headers(), path  # no new session
        if status != 200:
            expect(page.locator("h1")).to_have_text("お知らせ")
            assert "Error" not in page.locator("body").inner_text()
            assert_no_sideways_scroll(me, path)
    expect(page.locator("main")).to_contain_text("フォームの送り先")
    page.get_by_role("link", name="ラウンジへ戻る").click()
    expect(page.locator("#my-games")).to_contain_text("スタンダード")

    assert {c["name"]: c["value"] for c in page.context.cookies()} == cookies
    me.goto(f"/matches/{match_id}")
    expect(page.locator("#board")).to_be_visible()
    assert "対局者ではありません" not in page.locator("main").inner_text()


def axe_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{v['id']}: {node['target']}" for v in found for node in v["nodes"]]


@pytest.mark.axe
def test_the_guides_read_on_a_phone_and_a_form_s_term_opens_its_sense(server, chromium, request):
    from playwright.sync_api import expect

    # axe is injected as a script: the context lets it past the pages' CSP (tests only).
    context = chromium.new_context(**PHONE, bypass_csp=True)
    context.set_default_timeout(WAIT_MS)
    try:
        me = Phone(context.new_page(), server.url, f"{request.node.name}-guides")
        page = me.page
        for name in ("", "/duel", "/mobius", "/classic", "/terms"):
            me.goto(f"/howto{name}")
            me.check(f"howto{name.replace('/', '-')}")
            assert axe_violations(page) == [], name

        # The top page's start form names its guide.
        me.goto("/")
        page.locator("#vs-cpu form").get_by_role("link", name="遊び方").click()
        expect(page.locator("h1")).to_have_text("2人で遊ぶ人狼の遊び方")

        # A form's term opens its sense in the glossary, in view.
        start_against_cpu(me)
        page.locator("#form-co h3").get_by_role("link", name="CO要請").click()
        expect(page).to_have_url(re.compile(r"/howto/terms#co-request$"))
        expect(page.locator("dt#co-request")).to_be_in_viewport()
        expect(page.locator("dt#co-request + dd")).to_contain_text("A の質問")
    finally:
        context.close()
