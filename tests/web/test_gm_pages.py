"""The GM's pages (issue 26): 村建て with a preview, the village list, 廃村 and moving an update
behind confirmations; and, hostile, every GM route refused to visitors, players, mail-link
sessions, forged or missing CSRF tokens and other sites' forms, with nothing written."""

from datetime import timedelta
from urllib.parse import urlencode

import pytest

from chalicelib import jobs
from chalicelib.services import hosting, sessions, villages
from chalicelib.storage import gm_log
from chalicelib.storage.keys import account_pk
from chalicelib.storage.models import AccountItem
from chalicelib.storage.repository import load_village
from chalicelib.web.http import Session
from tests.support.accounts import make_account
from tests.support.clients import alert, header, text
from tests.support.fakes import START
from tests.support.villages import fill, new_village
from tests.web.test_security import CSRF_REFUSAL

GM_ONLY = "このページは管理人（GM）だけが使えます"
CROSS_SITE = "ほかのサイトからの送信は受け付けていません"


def make_gm(name: str, clock) -> str:
    make_account(name, clock())
    hosting.grant(name, True, "cli:test", clock())
    return name


def gm_routes(vid: str) -> list[tuple[str, str, dict]]:
    seen = str(load_village(vid)._meta.version)
    return [
        ("GET", "/gm", {}),
        ("GET", "/gm/new?rules=classic", {}),
        ("GET", f"/gm/villages/{vid}", {}),
        ("POST", "/gm/new", {"rules": "mobius", "pace": "short", "name": "乗っ取り村",
                             "do": "create"}),
        ("POST", f"/gm/villages/{vid}/abandon", {"seen": seen, "reason": "x", "confirm": "yes"}),
        ("POST", f"/gm/villages/{vid}/move", {"seen": seen, "extend": "24", "notice": "x",
                                              "confirm": "yes"}),
    ]  # fmt: skip


def untouched(vid: str, before) -> None:
    after = load_village(vid)._meta
    assert (after.state, after.next_update, after.version) == (
        before.state,
        before.next_update,
        before.version,
    )
    assert [v.village_id for v in villages.lounge("opening").villages] == [vid]
    assert gm_log.recent(START + timedelta(days=1)) == [] or all(
        line.action == "grant" for line in gm_log.recent(START + timedelta(days=1))
    )


def send(browser, method: str, path: str, form: dict):
    return browser.get(path) if method == "GET" else browser.post(path, form)


def test_gm_routes_refuse_visitors_and_players(browser, clock):
    vid = new_village(clock)
    before = load_village(vid)._meta
    for method, path, form in gm_routes(vid):
        response = send(browser, method, path, form)
        assert response.status_code == 401, path
        assert alert(response) == "ログインしてください"
    make_account("player", clock())
    browser.login("player")
    for method, path, form in gm_routes(vid):
        response = send(browser, method, path, form)
        assert response.status_code == 403, path
        assert alert(response) == GM_ONLY
    untouched(vid, before)


def test_a_mail_link_s_session_is_never_a_gm_s(client, new_browser, clock):
    """A GM's own mail link (a session narrowed to one village) does not open the GM pages."""
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    fill(vid, ["gamemaster"], clock)
    before = load_village(vid)._meta
    grant = sessions.open_session("gamemaster", clock(), vid, clock() + timedelta(hours=1))
    phone = new_browser()
    phone.cookie = (
        Session("gamemaster", "test-csrf", grant.session_id, vid).cookie(clock()).split(";")[0]
    )
    phone.csrf = "test-csrf"
    for method, path, form in gm_routes(vid):
        response = send(phone, method, path, form)
        assert response.status_code == 401, path
    untouched(vid, before)


def test_a_revoked_gm_is_refused_at_once(browser, clock):
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    assert browser.get("/gm").status_code == 200
    hosting.grant("gamemaster", False, "cli:test", clock())
    response = browser.get("/gm")
    assert response.status_code == 403 and alert(response) == GM_ONLY


def test_gm_posts_refuse_forged_tokens_and_other_sites(client, browser, clock):
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    browser.get(f"/gm/villages/{vid}")
    good = browser.csrf
    before = load_village(vid)._meta
    for method, path, form in gm_routes(vid):
        if method != "POST":
            continue
        for token in (None, "", "forged-token", good + "x"):
            data = {k: v for k, v in form.items()}
            if token is not None:
                data["csrf"] = token
            response = browser.post(path, data, csrf=False)
            assert response.status_code == 403, (path, token)
            assert alert(response) == CSRF_REFUSAL
        body = urlencode({**form, "csrf": good}).encode()
        for hostile in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
            headers = browser.headers(
                {"content-type": "application/x-www-form-urlencoded", **hostile}
            )
            response = client.http.post(path, headers=headers, body=body)
            assert response.status_code == 403, (path, hostile)
            assert alert(response) == CROSS_SITE
        headers = browser.headers({"content-type": "application/json"})
        response = client.http.post(path, headers=headers, body=b'{"confirm": "yes"}')
        assert response.status_code == 415, path
    untouched(vid, before)


# ----- 村建て -----


def test_a_gm_builds_a_classic_village_after_a_preview(browser, clock):
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    page = text(browser.get("/gm/new?rules=classic"))
    assert 'aria-current="page">人狼BBS式' in page and 'name="tie"' in page
    form = {
        "rules": "classic",
        "name": "週末BBS村",
        "pace": "long",
        "first_update": "2026-12-02T21:00",
        "character_set": "yamazato",
        "opening": "true",
        "npc_villager": "",
        "tie": "runoff",
        "heaven_sees_all": "false",
        "early_close": "",
        "min_members": "8",
        "sunset": "21:30",
        "template": "昼に一言どうぞ。",
    }
    preview = browser.post("/gm/new", {**form, "do": "preview"})
    assert preview.status_code == 200
    shown = text(preview)
    # What the lounge will show, and the village's settings in words.
    assert (
        "人狼BBS式・長期・空き16席・全員の開始投票で開始・廃村になる時刻 2026年12月2日 21:00"
        in shown
    )
    assert "同票のとき: 同票なら再投票、4回目は決選投票" in shown
    assert "1日目（投票なしで話す日）: する" in shown
    assert "全員がそろったら早く締める: しない" in shown  # a long village's default
    assert "最少人数: 8" in shown and "昼に一言どうぞ。" in shown
    assert villages.lounge("opening").villages == []  # a preview writes nothing
    created = browser.post("/gm/new", {**form, "do": "create"})
    assert created.status_code == 303
    vid = header(created, "Location").rsplit("/", 1)[1]
    record = load_village(vid)
    assert record._meta.rules == "classic" and record.game.template == "昼に一言どうぞ。"
    assert record.game.options.to_json() == {
        "pace": "long",
        "opening": True,
        "npc_villager": False,
        "tie": "runoff",
        "heaven_sees_all": False,
        "early_close": False,
        "min_members": 8,
        "sunset": "21:30",
    }
    assert [v.village_id for v in villages.lounge("opening").villages] == [vid]
    [line] = [x for x in gm_log.recent(clock()) if x.action == "create"]
    assert (line.actor, line.target, line.at) == ("account:gamemaster", vid, clock())


def test_a_gm_builds_a_mobius_practice_village_with_cpu_members_on_the_page(browser, clock):
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    assert 'name="cpu_members"' in text(browser.get("/gm/new?rules=mobius"))
    form = {
        "rules": "mobius",
        "name": "練習村",
        "pace": "short",
        "cpu_members": "12",
        "practice": "true",
    }
    shown = text(browser.post("/gm/new", {**form, "do": "preview"}))
    assert "空き1席（CPU 12人）" in shown
    too_many = browser.post("/gm/new", {**form, "cpu_members": "13", "do": "preview"})
    assert too_many.status_code == 400
    assert "CPUの人数（cpu_members）は0〜12人にしてください" in text(too_many)
    created = browser.post("/gm/new", {**form, "do": "create"})
    vid = header(created, "Location").rsplit("/", 1)[1]
    seats = load_village(vid).seats().values()
    assert sum(1 for seat in seats if seat.computer) == 12


def test_a_gm_builds_a_village_whose_computers_wait_for_the_start(browser, clock):
    """The default mode (decision 125): the seats stay open to people, the page and the
    lounge say that computers fill what is left when the village starts."""
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    form_page = text(browser.get("/gm/new?rules=classic"))
    assert "村が始まるとき（人が入らなかった席を、この人数まで埋めます）" in form_page
    assert "建てるとすぐ（練習村）" in form_page
    form = {"rules": "classic", "name": "CPUつき村", "pace": "short", "cpu_members": "3"}
    shown = text(browser.post("/gm/new", {**form, "do": "preview"}))
    assert "空き16席（開始時にCPUが最大3人）" in shown
    created = browser.post("/gm/new", {**form, "do": "create"})
    vid = header(created, "Location").rsplit("/", 1)[1]
    record = load_village(vid)
    assert record.waiting_computers == 3 and not any(s.computer for s in record.seats().values())
    assert "開始のとき、空いている席をCPUが3人まで埋めます" in text(browser.get(f"/villages/{vid}"))
    assert "（開始時にCPUが最大3人）" in text(browser.get("/"))
    refused = browser.post(
        "/gm/new", {**form, "cpu_members": "0", "practice": "true", "do": "preview"}
    )
    assert refused.status_code == 400 and "練習村にはCPUの人数を1人以上にしてください" in text(
        refused
    )


@pytest.mark.parametrize(
    "event",
    [
        {"rules": "classic", "pace": "short", "name": "村", "tie": "coin"},
        {"rules": "classic", "pace": "short", "name": "村", "min_members": "20"},
        {"rules": "classic", "pace": "short", "name": "村", "sunset": "21:00"},
        {"rules": "classic", "pace": "long", "name": "村", "sunset": "25:00"},
        {"rules": "classic", "pace": "short", "name": " "},
        {"rules": "mobius", "pace": "weekly", "name": "村"},
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "2026-11-30T12:00"},
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "明日"},
        # Beyond any sensible schedule, and past what a datetime holds once shown in JST or
        # a day is added to it (issue 38): a sentence, never a 500.
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "9999-12-31T23:59"},
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "9999-12-31T23:59Z"},
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "0001-01-01T00:00"},
        {"rules": "mobius", "pace": "short", "name": "村", "first_update": "2027-03-02T18:00"},
        {"rules": "classic", "pace": "long", "name": "村", "first_update": "9999-12-31T23:00"},
        {"rules": "mobius", "pace": "short", "name": "村", "character_set": "nope"},
    ],
)
def test_the_page_refuses_what_the_lambda_refuses_in_the_same_words(browser, clock, event):
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    refused = jobs.gm_create_village(dict(event))["error"]
    for do in ("preview", "create"):
        response = browser.post("/gm/new", {**event, "do": do})
        assert response.status_code == 400
        assert alert(response) == refused
    assert villages.lounge("opening").villages == []


# ----- the village list and a village's management -----


def village_with_a_member_and_a_gm(browser, clock) -> str:
    """A short Mobius village with one member, and the browser logged in as a GM."""
    vid = new_village(clock)
    make_account("player1", clock())
    fill(vid, ["player1"], clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    return vid


def test_the_gm_list_shows_state_members_and_next_event(browser, clock):
    vid = village_with_a_member_and_a_gm(browser, clock)
    page = text(browser.get("/gm"))
    assert f'href="/gm/villages/{vid}">{vid}番 テスト村</a>' in page
    assert "メビウス・短期・参加1/13人" in page and "2026年12月1日 18:00" in page
    page = text(browser.get(f"/gm/villages/{vid}"))
    assert "募集中" in page and "募集を延ばす" in page


def test_abandon_asks_first_then_tells_the_members_why(browser, clock):
    vid = village_with_a_member_and_a_gm(browser, clock)
    browser.get(f"/gm/villages/{vid}")
    seen = str(load_village(vid)._meta.version)
    form = {"seen": seen, "reason": "サーバーの移転のため"}
    asked = browser.post(f"/gm/villages/{vid}/abandon", form)
    assert asked.status_code == 200
    assert "この村を廃村にしますか？" in text(asked) and "サーバーの移転のため" in text(asked)
    assert load_village(vid)._meta.state == "opening"  # nothing yet
    done = browser.post(f"/gm/villages/{vid}/abandon", {**form, "confirm": "yes"})
    assert done.status_code == 303
    assert load_village(vid)._meta.state == "abandoned"
    member = text(browser.get(f"/villages/{vid}"))
    assert "管理人がこの村を廃村にしました。" in member and "理由: サーバーの移転のため" in member
    # Logged with the act: who, when, what (and why).
    [line] = [x for x in gm_log.recent(clock()) if x.action == "abandon"]
    assert (line.actor, line.at, line.target, line.detail) == (
        "account:gamemaster",
        clock(),
        vid,
        "サーバーの移転のため",
    )
    log = text(browser.get("/gm")).split("GMの操作の記録")[1]
    assert f"account:gamemaster: 廃村 {vid}" in log and "サーバーの移転のため" in log
    # The same confirmation again: the village changed since that page, nothing is done twice.
    again = browser.post(f"/gm/villages/{vid}/abandon", {**form, "confirm": "yes"})
    assert again.status_code == 409
    assert alert(again) == hosting.STALE


def test_a_stale_page_never_moves_a_changed_village(browser, clock):
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    seen = str(load_village(vid)._meta.version)
    make_account("player1", clock())
    fill(vid, ["player1"], clock)  # a join after the GM's page was shown
    before = load_village(vid)._meta
    form = {"seen": seen, "extend": "24", "notice": "延長します", "confirm": "yes"}
    response = browser.post(f"/gm/villages/{vid}/move", form)
    assert response.status_code == 409 and alert(response) == hosting.STALE
    assert load_village(vid)._meta.next_update == before.next_update


def test_extending_the_recruiting_time_asks_first_and_posts_the_notice(browser, clock):
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    before = load_village(vid)._meta
    form = {"seen": str(before.version), "extend": "24", "notice": "もう一日募集します"}
    asked = browser.post(f"/gm/villages/{vid}/move", form)
    assert asked.status_code == 200 and "次の更新を動かしますか？" in text(asked)
    assert "2026年12月2日 18:00" in text(asked)
    assert load_village(vid)._meta.next_update == before.next_update
    confirm = {**form, "confirm": "yes"}
    assert browser.post(f"/gm/villages/{vid}/move", confirm).status_code == 303
    assert load_village(vid)._meta.next_update == before.next_update + timedelta(hours=24)
    assert "管理人からのお知らせ: もう一日募集します" in text(browser.get(f"/villages/{vid}"))
    moved = [x for x in gm_log.recent(clock()) if x.action == "reschedule"]
    assert [(x.actor, x.target) for x in moved] == [("account:gamemaster", vid)]


@pytest.mark.parametrize(
    "form",
    [
        {"to": "9999-12-31T23:59"},
        {"to": "9999-12-31T23:59+00:00"},
        {"to": "0001-01-01T00:00"},
        {"to": "2027-03-02T18:00"},  # 91 days ahead
        {"to": "2026-12-03T18:00" + "0" * 5000},
    ],
)
def test_moving_an_update_years_ahead_is_refused_before_the_preview(browser, clock, form):
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    before = load_village(vid)._meta
    for confirm in ("", "yes"):
        sent = {"seen": str(before.version), "notice": "延期", "confirm": confirm, **form}
        response = browser.post(f"/gm/villages/{vid}/move", sent)
        assert response.status_code == 400, text(response)[:300]
        assert alert(response) in (
            "日時は今から90日以内で指定してください",
            "新しい時刻 は ISO 8601 の日時で指定してください",
        )
    assert load_village(vid)._meta.next_update == before.next_update


def test_an_update_extended_past_the_window_is_refused(browser, clock):
    vid = new_village(clock)
    make_gm("gamemaster", clock)
    browser.login("gamemaster")
    record = load_village(vid)
    hosting.reschedule(vid, clock() + timedelta(days=89), "延期", "account:gamemaster", clock())
    seen = str(load_village(vid)._meta.version)
    form = {"seen": seen, "extend": "48", "notice": "さらに延長"}
    for confirm in ("", "yes"):
        response = browser.post(f"/gm/villages/{vid}/move", {**form, "confirm": confirm})
        assert response.status_code == 400
        assert alert(response) == "日時は今から90日以内で指定してください"
    assert load_village(vid)._meta.next_update == clock() + timedelta(days=89)
    assert record._meta.next_update != clock() + timedelta(days=89)


# ----- player-built villages (an operator's option, off by default) -----


def seasoned(name: str, clock, days: int, games: int) -> str:
    """A player registered ``days`` ago with ``games`` games played to their end."""
    make_account(name, clock())
    AccountItem.get(account_pk(name), "ACCOUNT").update(
        actions=[
            AccountItem.created_at.set(clock() - timedelta(days=days)),
            AccountItem.finished_games.set(games),
        ]
    )
    return name


PLAYER_VILLAGE = {"rules": "mobius", "pace": "short", "name": "有志の村", "do": "create"}


def test_players_build_no_village_unless_the_operator_allows_it(browser, clock):
    seasoned("veteran", clock, days=400, games=50)
    browser.login("veteran")
    assert "村を建てる" not in text(browser.get("/account"))
    for response in (browser.get("/gm/new"), browser.post("/gm/new", PLAYER_VILLAGE)):
        assert response.status_code == 403 and alert(response) == GM_ONLY
    assert villages.lounge("opening").villages == []


def test_a_seasoned_player_builds_one_open_village_at_a_time(browser, clock, monkeypatch):
    monkeypatch.setenv("MOBIUS_PLAYER_VILLAGES", "30,3")
    rule = (
        "村を建てられるのは、メールアドレスを確認済みで、登録から30日以上たち、"
        "3回以上最後まで遊んだアカウントです"
    )
    seasoned("newcomer", clock, days=29, games=10)
    seasoned("casual", clock, days=90, games=2)
    for name in ("newcomer", "casual"):
        browser.login(name)
        response = browser.post("/gm/new", PLAYER_VILLAGE)
        assert response.status_code == 403 and alert(response) == rule
    seasoned("veteran", clock, days=30, games=3)
    browser.login("veteran")
    assert 'href="/gm/new"' in text(browser.get("/account"))
    page = text(browser.get("/gm/new"))
    assert 'href="/gm"' not in page.split("<main>")[1]  # no way into the GM's pages
    created = browser.post("/gm/new", PLAYER_VILLAGE)
    assert created.status_code == 303
    vid = header(created, "Location").rsplit("/", 1)[1]
    assert [v.village_id for v in villages.lounge("opening").villages] == [vid]
    [line] = [x for x in gm_log.recent(clock()) if x.action == "create"]
    assert (line.actor, line.target) == ("account:veteran", vid)
    # One open village each: refused while it is open, allowed again once it is closed.
    again = browser.post("/gm/new", {**PLAYER_VILLAGE, "name": "二つ目"})
    assert again.status_code == 403
    assert alert(again) == (
        f"あなたが建てた村（{vid}番）がまだ終わっていません。村は一人一つまでです"
    )
    for method, path, form in gm_routes(vid)[:1] + gm_routes(vid)[2:3] + gm_routes(vid)[4:]:
        assert send(browser, method, path, form).status_code == 403, path  # not a GM
    hosting.abandon(vid, "テスト", "cli:test", clock())
    assert browser.post("/gm/new", {**PLAYER_VILLAGE, "name": "二つ目"}).status_code == 303
