"""The classic village's pages (issue 13): joining by persona, start and kick votes, the cast
list at the current size, the conduct rule, the vote form with its confirmation in a short
village, night choices, the will, boards, the epilogue's reveal, deadlines in JST."""

import random
import re
from datetime import timedelta

from chalicelib.rules.classic import NPC, Role
from chalicelib.services import posts, update, villages
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.clients import text

CONDUCT = "外部相談の禁止"


def classic_village(clock, **given) -> str:
    pace = given.pop("pace", "short")
    return villages.create_village(
        villages.AskedVillage(pace=pace, name="人狼BBS村", rules="classic", given=given),
        now=clock(),
        rng=random.Random(7),
    )


def seated(vid: str) -> dict[str, str]:
    record = load_village(vid)
    return {s.account_id: slot for slot, s in record.seats().items() if s.account_id}


def join(new_browser, vid: str, names: list[str], clock) -> dict:
    browsers = {}
    for n, name in enumerate(names):
        make_account(name, clock())
        b = new_browser()
        b.login(name)
        page = text(b.get(f"/villages/{vid}"))
        assert "この村に参加する" in page and CONDUCT in page
        personas = re.findall(r'<option value="([a-z]+)">', page)
        response = b.post(f"/villages/{vid}/join", {"slot": f"s{n + 1}", "persona": personas[0]})
        assert response.status_code == 303, text(response)
        browsers[name] = b
    return browsers


def test_lounge_labels_classic_villages(client, clock, browser):
    classic_village(clock)
    villages.create_village(
        villages.AskedVillage(pace="short", name="メビウス村"), now=clock(), rng=random.Random(1)
    )
    page = text(browser.get("/"))
    assert "人狼BBS式・短期" in page and "メビウス・短期" in page


def test_prologue_shows_members_start_votes_kicks_and_cast_list(clock, new_browser):
    vid = classic_village(clock)
    browsers = join(new_browser, vid, ["alice", "bob", "carol", "dave"], clock)
    a = browsers["alice"]
    page = text(a.get(f"/villages/{vid}"))
    assert "参加者 4人" in page and "4人（身代わり君を含めて5枚）：占い師1、人狼1、村人3" in page
    assert CONDUCT in page and "廃村になる時刻" in page
    response = a.post(f"/villages/{vid}/prologue", {"action": "start"})
    assert response.status_code == 303
    page = text(a.get(f"/villages/{vid}?done=start"))
    assert "開始投票をしました" in page and "開始投票 1人" in page and "開始投票を取り消す" in page
    bob_seat = seated(vid)["bob"]
    a.post(f"/villages/{vid}/prologue", {"action": "kick", "target": bob_seat})
    page = text(browsers["carol"].get(f"/villages/{vid}"))
    assert "キック 1票" in page  # a count, never who voted
    assert "キックを取り消す" not in page  # carol has not voted to kick anyone


def test_the_last_start_vote_starts_and_each_member_sees_only_their_role(clock, new_browser):
    vid = classic_village(clock)
    names = ["aa1", "aa2", "aa3", "aa4", "aa5"]
    browsers = join(new_browser, vid, names, clock)
    for name in names:
        browsers[name].post(f"/villages/{vid}/prologue", {"action": "start"})
    record = load_village(vid)
    assert record.state.value == "running"
    game = record.game
    roles = {game.seats[c]: r for c, r in game.village.roles.items() if c != NPC}
    for name in names:
        page = text(browsers[name].get(f"/villages/{vid}"))
        seat = seated(vid)[name]
        label = {"seer": "占い師", "werewolf": "人狼", "villager": "村人"}[roles[seat].value]
        assert f"あなたは <strong>{label}</strong> です" in page
        assert "夜明け" in page  # the next deadline, named
        if roles[seat] is Role.VILLAGER:  # nobody else's role on the member list
            assert "（人狼）" not in page and "（占い師）" not in page


def play_to_day_2(clock, new_browser):
    vid = classic_village(clock)
    names = ["bb1", "bb2", "bb3", "bb4", "bb5"]
    browsers = join(new_browser, vid, names, clock)
    for name in names:
        browsers[name].post(f"/villages/{vid}/prologue", {"action": "start"})
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    return vid, browsers


def test_short_vote_has_a_confirmation_step_and_is_final(clock, new_browser):
    vid, browsers = play_to_day_2(clock, new_browser)
    b = browsers["bb1"]
    page = text(b.get(f"/villages/{vid}"))
    assert "処刑投票（第1回）" in page and "確認へ進む" in page
    target = re.search(r'<select id="c-vote" name="confirm">\s*<option value="(s\d+)"', page)
    assert target
    page = text(b.get(f"/villages/{vid}", confirm=target.group(1)))
    assert "投票したあとは変えられません" in page
    response = b.post(f"/villages/{vid}/actions", {"vote": target.group(1)})
    assert response.status_code == 303
    page = text(b.get(f"/villages/{vid}"))
    assert "あなたの投票" in page and "確認へ進む" not in page


def test_will_can_be_written_and_rewritten(clock, new_browser):
    vid, browsers = play_to_day_2(clock, new_browser)
    b = browsers["bb2"]
    assert b.post(f"/villages/{vid}/will", {"text": "一通目"}).status_code == 303
    assert b.post(f"/villages/{vid}/will", {"text": "二通目"}).status_code == 303
    page = text(b.get(f"/villages/{vid}"))
    assert "二通目" in page
    # The talk comes first: the box to write in, then the will (issue 37).
    assert page.index('<section id="write"') < page.index('<section id="will"')
    response = b.post(f"/villages/{vid}/will", {"text": "あ" * 1001})
    assert response.status_code == 400


def test_visitor_and_non_member_see_no_role_and_no_form(clock, new_browser, browser):
    vid, _ = play_to_day_2(clock, new_browser)
    page = text(browser.get(f"/villages/{vid}"))
    assert "あなたの情報" not in page and "処刑投票（" not in page
    make_account("outsider", clock())
    b = new_browser()
    b.login("outsider")
    page = text(b.get(f"/villages/{vid}"))
    assert "あなたの情報" not in page and "この村に参加する" not in page


def test_epilogue_reveals_every_role_and_the_scapegoat_card(clock, new_browser, browser):
    vid, _ = play_to_day_2(clock, new_browser)
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())  # nobody voted: sudden deaths, the game ends
    page = text(browser.get(f"/villages/{vid}"))
    assert "エピローグ" in page and "身代わり君は" in page
    assert page.count("（村人）") + page.count("（人狼）") + page.count("（占い師）") >= 5
    assert "投票しなかった" in page


def test_deadline_is_shown_in_jst(clock, new_browser):
    vid, browsers = play_to_day_2(clock, new_browser)
    page = text(browsers["bb1"].get(f"/villages/{vid}"))
    deadline = load_village(vid)._meta.next_update + timedelta(hours=9)
    assert f"{deadline:%H:%M}" in page


def test_epilogue_opens_each_members_monologue(clock, new_browser, browser):
    vid, _ = play_to_day_2(clock, new_browser)
    posts.post(vid, "bb3", "monologue", "ひとりごとの中身", clock())
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())  # nobody voted: the epilogue
    seat = seated(vid)["bb3"]
    page = text(browser.get(f"/villages/{vid}", board="monologue", of=seat, day=2))
    assert "だれの独り言" in page and "ひとりごとの中身" in page
    # The links within the page keep whose monologue it is.
    assert f"?board=monologue&amp;of={seat}&amp;day=2#latest" in page


def test_lounge_offers_no_takeover_seats_in_a_running_classic_village(clock, new_browser, browser):
    vid, _ = play_to_day_2(clock, new_browser)
    assert load_village(vid)._meta.open_seats == 0
    page = text(browser.get("/", state="running"))
    assert "人狼BBS式・短期" in page and "途中参加できる席" not in page


def test_the_page_shows_sunset_beside_the_rounds_deadline(clock, new_browser):
    """Issue 23: while a vote is open, the day's sunset (the end of talk) and the round's own
    deadline, both in JST."""
    vid, browsers = play_to_day_2(clock, new_browser)
    record = load_village(vid)
    deadline = record._meta.next_update + timedelta(hours=9)
    sunset = record.game.day_began + timedelta(minutes=40, hours=9)
    page = text(browsers["bb1"].get(f"/villages/{vid}"))
    assert f"日没（話し合いの終わり）: <strong>{sunset:%Y年%-m月%-d日 %H:%M}" in page
    assert f"第1回投票の締め切り: <strong>{deadline:%Y年%-m月%-d日 %H:%M}" in page


def test_the_lounge_names_an_opening_classic_villages_abandon_time_as_such(
    clock, browser, new_browser
):
    vid = classic_village(clock)
    join(new_browser, vid, ["lo1"], clock)
    page = text(browser.get("/"))
    listed = page.split(f'href="/villages/{vid}"')[1].split("</li>")[0]
    assert "全員の開始投票で開始・廃村になる時刻" in listed and "次の更新" not in listed
