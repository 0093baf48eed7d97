"""The lounge and the village page: boards, posting, actions, joining, leaving, the ending."""

import base64
import json
import re
from datetime import timedelta

from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, update, villages
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.clients import alert, header, text
from tests.support.villages import fill, new_village, start


def sides(vid):
    return dict(load_village(vid).game.sides)


def display_names(vid):
    return load_village(vid).names()


def humans(vid):
    return [s for s, side in sides(vid).items() if side == "human"]


def oni_side(vid):
    return [s for s, side in sides(vid).items() if side != "human"]


def member(new_browser, seated, slot):
    browser = new_browser()
    browser.login(seated[slot])
    return browser


def select_options(page: str, name: str) -> list[str]:
    match = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', page, re.S)
    assert match, f"no select {name}"
    return re.findall(r'<option value="([^"]*)"', match.group(1))


def selected(page: str, name: str) -> str | None:
    match = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', page, re.S)
    assert match
    found = re.search(r'<option value="([^"]*)" selected', match.group(1))
    return found.group(1) if found else None


def tabs(page: str) -> list[str]:
    nav = re.search(r'<nav class="tabs" aria-label="掲示板">(.*?)</nav>', page, re.S).group(1)
    return re.findall(r">([^<]+)</a>", nav)


def current_tab(page: str) -> str:
    nav = re.search(r'<nav class="tabs" aria-label="掲示板">(.*?)</nav>', page, re.S).group(1)
    return re.search(r'aria-current="page">([^<]+)</a>', nav).group(1)


def kill(vid, seated, target, clock):
    """Everyone else prays for ``target`` and leaves the attack undecided; the update judges
    ``target`` (ash)."""
    undecided = {"attack": None, "attacker": None}
    for slot, account in seated.items():
        if slot != target and slot not in load_village(vid).game.deaths:
            actions.save_actions(vid, account, {"pray": target, **undecided}, clock())
    clock.advance(timedelta(minutes=60))
    [morning, *_] = update.advance(vid, clock())
    assert morning.morning.judged == target


# ----- the lounge -----


def test_the_lounge_shows_the_seats_of_a_running_village_a_newcomer_may_take_over(browser, clock):
    vid = new_village(clock, seed=11)
    start(vid, [make_account(f"player{n}", clock()) for n in range(12)], clock)
    page = text(browser.get("/", state="running"))
    entry = page.split(f"/villages/{vid}")[1].split("</li>")[0]
    assert "途中参加できる席1" in entry


def test_the_lounge_lists_villages_by_state_with_pace_day_update_and_free_slots(
    browser, clock, game
):
    running, _ = game
    opening = new_village(clock, seed=7)
    newcomers = [make_account(f"new{n}", clock()) for n in range(3)]
    fill(opening, newcomers, clock)
    long_one = new_village(clock, seed=8, pace="long")
    page = text(browser.get("/"))
    sections = dict(re.findall(r"<h2>(.+?)の村</h2>(.*?)</section>", page, re.S))
    assert set(sections) == {"募集中", "進行中", "エンディング", "終了", "廃村"}
    assert f"/villages/{opening}" in sections["募集中"]
    assert f"/villages/{long_one}" in sections["募集中"]
    assert f"/villages/{running}" in sections["進行中"]
    assert f"/villages/{running}" not in sections["募集中"]
    assert "いまはありません" in sections["終了"]
    opening_entry = sections["募集中"].split(f"/villages/{opening}")[1].split("</li>")[0]
    assert "短期" in opening_entry and "0日目" in opening_entry
    assert "空き10席" in opening_entry
    # created at 18:00 JST (START + 6 h); its first update is 6 h later
    assert "次の更新 2026年12月2日 00:00" in opening_entry
    long_entry = sections["募集中"].split(f"/villages/{long_one}")[1].split("</li>")[0]
    assert "長期" in long_entry and "空き13席" in long_entry
    running_entry = sections["進行中"].split(f"/villages/{running}")[1].split("</li>")[0]
    assert "1日目" in running_entry
    assert "次の更新 2026年12月1日 19:00" in running_entry


def test_the_lounge_filters_by_state_and_refuses_bad_queries(browser, clock):
    vid = new_village(clock)
    only = text(browser.get("/", state="opening"))
    assert f"/villages/{vid}" in only
    assert "進行中の村" not in only
    bad = browser.get("/", state="secret")
    assert bad.status_code == 400
    assert alert(bad) == "村の状態の指定が正しくありません"
    garbled = browser.get("/", state="opening", cursor="!!not-a-cursor")
    assert garbled.status_code == 400
    assert alert(garbled) == "ページの指定が正しくありません"


def test_the_lounge_pages_through_many_villages(browser, clock):
    for seed in range(12):
        new_village(clock, seed=seed)
    first = text(browser.get("/"))
    assert "もっと見る" in first
    page = text(browser.get("/", state="opening"))
    ids = re.findall(r'href="/villages/(\d+)"', page)
    assert len(ids) == 12  # one page of 20
    assert "次のページ" not in page


def test_a_crafted_cursor_is_a_400_not_a_500(browser, clock):
    vid = new_village(clock)
    crafted = base64.urlsafe_b64encode(json.dumps({"pk": 1}).encode()).decode()
    lounge = browser.get("/", state="opening", cursor=crafted)
    assert lounge.status_code == 400
    assert alert(lounge) == "ページの指定が正しくありません"
    board = browser.get(f"/villages/{vid}", cursor=crafted)
    assert board.status_code == 400
    assert alert(board) == "ページの指定が正しくありません"


# ----- the village page: bad queries -----


def test_an_unknown_village_is_a_404_with_a_message(browser, clock):
    browser.login(make_account("alice", clock()))
    for path in ("/villages/999", "/villages/abc", "/villages/999/leave"):
        response = browser.get(path)
        assert response.status_code == 404, path
        assert alert(response) == "その村は見つかりません"
    for path in ("/villages/999/posts", "/villages/999/actions", "/villages/999/join"):
        response = browser.post(path, {"board": "public", "text": "x", "slot": "seer_a"})
        assert response.status_code == 404, path
        assert alert(response) == "その村は見つかりません"


def test_bad_day_and_cursor_queries_are_400s(browser, clock, game):
    vid, _ = game
    bad_day = browser.get(f"/villages/{vid}", day="yesterday")
    assert bad_day.status_code == 400
    assert alert(bad_day) == "日付の指定が正しくありません"
    negative = browser.get(f"/villages/{vid}", day="-1")
    assert negative.status_code == 400
    bad_cursor = browser.get(f"/villages/{vid}", cursor="%%%")
    assert bad_cursor.status_code == 400
    assert alert(bad_cursor) == "ページの指定が正しくありません"
    future = browser.get(f"/villages/{vid}", day="99")
    assert future.status_code == 200  # clamped to today
    assert 'aria-label="1日目" aria-current="page">1日</a>' in text(future)


# ----- joining and leaving -----


def test_join_form_and_joining_the_opening(browser, new_browser, clock):
    vid = new_village(clock)
    anonymous = text(browser.get(f"/villages/{vid}"))
    assert f'href="/login?next=/villages/{vid}"' in anonymous
    assert 'action="/villages/1/join"' not in anonymous

    alice = new_browser()
    alice.login(make_account("alice", clock()))
    page = text(alice.get(f"/villages/{vid}"))
    assert select_options(page, "slot") == list(SLOTS)
    assert "kaede" in select_options(page, "persona")
    joined = alice.post(f"/villages/{vid}/join", {"slot": "seer_b", "persona": "kaede"})
    assert joined.status_code == 303
    assert header(joined, "Location") == f"/villages/{vid}?done=joined"
    page = text(alice.get(f"/villages/{vid}", done="joined"))
    assert "村に参加しました" in page
    assert "あなたの情報" in page
    assert "占い師B 楓・役割: <strong>" in page
    assert "2026年12月1日 12:10まで発言できません（離脱考慮期間）" in page
    # No board is open to a new member: the reason, not a form.
    assert 'action="/villages/1/posts"' not in page
    assert "参加から10分間は発言できません（2026年12月1日 12:10まで）" in page
    assert "開始予定: 2026年12月1日 18:00（12人以上で開始）" in page
    account = text(alice.get("/account"))
    assert f'<a href="/villages/{vid}">短期・{vid}番</a>' in account

    bob = new_browser()
    bob.login(make_account("bob", clock()))
    page = text(bob.get(f"/villages/{vid}"))
    assert "seer_b" not in select_options(page, "slot")
    assert "kaede" not in select_options(page, "persona")


def test_join_refusals_say_why(new_browser, clock, game):
    running, _ = game
    vid = new_village(clock, seed=3)
    alice = new_browser()
    alice.login(make_account("alice", clock()))
    alice.get(f"/villages/{vid}")
    assert (
        alice.post(f"/villages/{vid}/join", {"slot": "seer_a", "persona": "kaede"}).status_code
        == 303
    )

    cases = [
        ({"slot": "seer_a", "persona": "genzo"}, 409, "その席はすでに埋まっています"),
        ({"slot": "king", "persona": "genzo"}, 400, "その席はありません"),
        ({"slot": "seer_b", "persona": "nobody"}, 400, "そのキャラクターは選べません"),
        ({"slot": "seer_b", "persona": "kaede"}, 409, "そのキャラクターはほかの人が選んでいます"),
    ]
    bob = new_browser()
    bob.login(make_account("bob", clock()))
    bob.get(f"/villages/{vid}")
    for form, status, message in cases:
        response = bob.post(f"/villages/{vid}/join", form)
        assert response.status_code == status, form
        assert alert(response) == message
        assert "1番" not in alert(response)
    # the page comes back with the join form, so the player can choose again
    assert 'action="/villages/2/join"' in text(bob.last)

    carol = new_browser()
    carol.login(make_account("carol", clock(), verified=False))
    carol.get(f"/villages/{vid}")
    unverified = carol.post(f"/villages/{vid}/join", {"slot": "seer_b", "persona": "genzo"})
    assert unverified.status_code == 403
    assert (
        alert(unverified) == "メールアドレスの確認がまだです。届いたメールのリンクを開いてください"
    )

    second = alice.post(f"/villages/{running}/join", {"slot": "seer_b", "persona": "genzo"})
    assert second.status_code == 403
    assert alert(second) == "すでに短期村に参加しています"

    anonymous = new_browser()
    anonymous.get("/login")
    response = anonymous.post(f"/villages/{vid}/join", {"slot": "seer_b", "persona": "genzo"})
    assert response.status_code == 401
    assert alert(response) == "ログインしてください"


def test_leaving_the_opening_is_free_but_final(new_browser, clock):
    vid = new_village(clock)
    alice = new_browser()
    alice.login(make_account("alice", clock()))
    alice.get(f"/villages/{vid}")
    alice.post(f"/villages/{vid}/join", {"slot": "seer_a", "persona": "kaede"})
    page = text(alice.get(f"/villages/{vid}"))
    assert f'href="/villages/{vid}/leave"' in page

    confirm = alice.get(f"/villages/{vid}/leave")
    assert confirm.status_code == 200
    assert "この村には二度と参加できません" in text(confirm)
    assert "IDロック" not in text(confirm)
    assert load_village(vid).slot_of("alice") == "seer_a"  # GET changes nothing

    left = alice.post(f"/villages/{vid}/leave")
    assert left.status_code == 200
    assert "から離脱しました" in text(left)
    assert "IDロック" not in text(left)
    assert load_village(vid).slot_of("alice") is None
    assert load_account("alice").lock_until is None

    again = alice.post(f"/villages/{vid}/join", {"slot": "seer_a", "persona": "kaede"})
    assert again.status_code == 403
    assert alert(again) == "一度離脱した村には参加できません"
    not_member = alice.get(f"/villages/{vid}/leave")
    assert not_member.status_code == 403
    assert alert(not_member) == "この村に参加していません"

    anonymous = new_browser()
    response = anonymous.get(f"/villages/{vid}/leave")
    assert response.status_code == 401
    assert alert(response) == "ログインしてください"


def test_leaving_a_running_village_warns_of_and_sets_an_id_lock(new_browser, clock, game):
    vid, seated = game
    seer = member(new_browser, seated, "seer_a")
    confirm = seer.get(f"/villages/{vid}/leave")
    assert confirm.status_code == 200
    assert "IDロック" in text(confirm)
    assert "離脱する" in text(confirm)
    left = seer.post(f"/villages/{vid}/leave")
    assert left.status_code == 200
    assert "IDロック中です。2026年12月1日 21:00まで新しい村に参加できません。" in text(left)
    account = text(seer.get("/account"))
    assert "IDロック中です。2026年12月1日 21:00まで" in account
    # now a visitor of the village: public board only, no private panel
    page = text(seer.get(f"/villages/{vid}"))
    assert "あなたの情報" not in page
    assert tabs(page) == ["表"]
    other = new_village(clock, seed=5)
    locked = seer.post(f"/villages/{other}/join", {"slot": "seer_a", "persona": "kaede"})
    assert locked.status_code == 403
    assert alert(locked) == "IDロック中のため参加できません（2026年12月1日 21:00まで）"


def test_a_vacant_seat_of_a_running_village_can_be_taken_over(new_browser, clock, game):
    vid, seated = game
    villages.leave(vid, seated["seer_a"], clock())
    newcomer = new_browser()
    newcomer.login(make_account("newcomer", clock()))
    page = text(newcomer.get(f"/villages/{vid}"))
    assert select_options(page, "slot") == ["seer_a"]
    assert 'name="persona"' not in page  # a takeover keeps the character
    joined = newcomer.post(f"/villages/{vid}/join", {"slot": "seer_a"})
    assert joined.status_code == 303
    page = text(newcomer.get(f"/villages/{vid}"))
    assert "表には書き込めません（途中参加）" in page
    assert select_options(page, "board") == ["inner"]


# ----- posting -----


def test_posting_and_its_refusals(new_browser, clock, game):
    vid, seated = game
    human = humans(vid)[0]
    browser = member(new_browser, seated, human)
    page = text(browser.get(f"/villages/{vid}"))
    assert select_options(page, "board") == ["public", "inner"]
    done = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "おはよう、みなさん"})
    assert done.status_code == 303
    assert header(done, "Location") == f"/villages/{vid}?board=public#posts"
    page = text(browser.get(f"/villages/{vid}"))
    assert "おはよう、みなさん" in page

    too_fast = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "もう一度"})
    assert too_fast.status_code == 429
    assert alert(too_fast) == "連続して書き込めません。少し待ってからどうぞ"
    clock.advance(timedelta(seconds=6))

    long_text = "あ" * 1001
    too_long = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": long_text})
    assert too_long.status_code == 400
    assert alert(too_long) == "1回の発言は1000文字までです（いま1001文字）"
    assert f">{long_text}</textarea>" in text(too_long)  # the draft is not lost

    cases = [
        ({"board": "public", "text": "   "}, 400, "本文を書いてください"),
        ({"board": "secret", "text": "x"}, 400, "その掲示板はありません"),
        ({"board": "oni", "text": "x"}, 403, "鬼の世界には鬼サイドだけが書き込めます"),
        ({"board": "grave", "text": "x"}, 403, "墓の下には死んだ人間サイドだけが書き込めます"),
    ]
    for form, status, message in cases:
        response = browser.post(f"/villages/{vid}/posts", form)
        assert response.status_code == status, form
        assert alert(response) == message

    outsider = new_browser()
    outsider.login(make_account("outsider", clock()))
    outsider.get(f"/villages/{vid}")
    refused = outsider.post(f"/villages/{vid}/posts", {"board": "public", "text": "x"})
    assert refused.status_code == 403
    assert alert(refused) == "書き込むには村に参加してください"

    anonymous = new_browser()
    anonymous.get("/login")
    response = anonymous.post(f"/villages/{vid}/posts", {"board": "public", "text": "x"})
    assert response.status_code == 401


def test_boards_offered_for_writing_follow_the_phase(new_browser, clock, game):
    vid, seated = game
    oni = next(iter(oni_side(vid)))
    human = humans(vid)[0]
    oni_browser = member(new_browser, seated, oni)
    human_browser = member(new_browser, seated, human)
    assert select_options(text(oni_browser.get(f"/villages/{vid}")), "board") == [
        "public",
        "oni",
        "inner",
    ]
    clock.advance(timedelta(minutes=50))  # loss time
    page = text(oni_browser.get(f"/villages/{vid}"))
    assert "（ロスタイム）" in page
    assert select_options(page, "board") == ["oni", "inner"]
    late = human_browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "遅刻"})
    assert late.status_code == 403
    assert alert(late) == "〆切を過ぎたので表には書き込めません"
    clock.advance(timedelta(minutes=6))  # night
    page = text(oni_browser.get(f"/villages/{vid}"))
    assert "（夜）" in page
    assert select_options(page, "board") == ["inner"]
    night = oni_browser.post(f"/villages/{vid}/posts", {"board": "oni", "text": "夜"})
    assert night.status_code == 403
    assert alert(night) == "ロスタイムが終わったので鬼の世界には書き込めません"
    inner = oni_browser.post(f"/villages/{vid}/posts", {"board": "inner", "text": "ひとりごと"})
    assert inner.status_code == 303
    assert "ひとりごと" in text(oni_browser.get(f"/villages/{vid}", board="inner"))
    assert "ひとりごと" not in text(human_browser.get(f"/villages/{vid}", board="inner"))


# ----- boards, days and the private panel -----


def test_tabs_private_panel_and_day_navigation(new_browser, browser, clock, game):
    vid, seated = game
    oni = oni_side(vid)
    human = next(s for s in humans(vid) if s not in ("seer_a", "seer_b"))
    oni_browser = member(new_browser, seated, oni[0])
    human_browser = member(new_browser, seated, human)

    page = text(oni_browser.get(f"/villages/{vid}"))
    assert tabs(page) == ["表", "鬼の世界", "心の中"]
    assert "鬼サイドの配置" in page
    names = display_names(vid)
    for slot in oni:
        assert f"{names[slot]}（" in page
    assert "占い師の初日ランダム占い先" in page
    assert "〆切: 2026年12月1日 18:45" in page
    assert "ロスタイム終了: 2026年12月1日 18:55" in page
    assert "次の更新: 2026年12月1日 19:00" in page
    oni_board = text(oni_browser.get(f"/villages/{vid}", board="oni", day="0"))
    assert "の初日ランダム占い先は" in oni_board

    page = text(human_browser.get(f"/villages/{vid}"))
    assert tabs(page) == ["表", "心の中"]
    assert "役割: <strong>人</strong>" in page
    assert "鬼サイドの配置" not in page
    assert "初日ランダム占い" not in page
    not_oni = text(human_browser.get(f"/villages/{vid}", board="oni", day="0"))
    assert current_tab(not_oni) == "表"  # falls back to the public board
    assert "の初日ランダム占い先は" not in not_oni

    seer = text(member(new_browser, seated, "seer_a").get(f"/villages/{vid}"))
    assert "初日ランダム占い: " in seer

    visitor = text(browser.get(f"/villages/{vid}"))
    assert tabs(visitor) == ["表"]
    assert "あなたの情報" not in visitor
    assert "行動予定" not in visitor

    human_browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "一日目の発言"})
    kill(vid, seated, human, clock)
    clock.advance(timedelta(minutes=1))
    page = text(browser.get(f"/villages/{vid}"))
    assert re.findall(r'aria-label="日付">(.*?)</nav>', page, re.S)
    for label in ("プロローグ", "1日目", "2日目"):
        assert f'aria-label="{label}"' in page
    assert "2日目の朝になりました。" in page
    assert "一日目の発言" not in page
    day1 = text(browser.get(f"/villages/{vid}", day="1"))
    assert "一日目の発言" in day1
    assert "2日目の朝になりました。" not in day1
    assert "2日目の朝に灰" in page

    # the dead human: grave tab, no public writing, no action form
    dead = text(human_browser.get(f"/villages/{vid}"))
    assert tabs(dead) == ["表", "墓の下", "心の中"]
    assert select_options(dead, "board") == ["grave", "inner"]
    assert "行動予定" not in dead
    refused = human_browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "x"})
    assert refused.status_code == 403
    assert alert(refused) == "死んだキャラクターは表に書き込めません"
    grave = human_browser.post(f"/villages/{vid}/posts", {"board": "grave", "text": "墓から"})
    assert grave.status_code == 303
    assert "墓から" in text(human_browser.get(f"/villages/{vid}", board="grave"))
    assert "墓から" not in text(oni_browser.get(f"/villages/{vid}", board="grave"))


# ----- actions -----


def test_the_action_form_offers_only_legal_targets_and_keeps_the_saved_choices(
    new_browser, clock, game
):
    vid, seated = game
    game_sides = sides(vid)
    human = next(s for s in humans(vid) if s.startswith("commoner"))
    oni = [s for s in oni_side(vid) if game_sides[s] == "oni"]
    madman = next(s for s in oni_side(vid) if game_sides[s] == "madman")

    browser = member(new_browser, seated, human)
    page = text(browser.get(f"/villages/{vid}"))
    assert "この内容で行動" in page
    assert select_options(page, "pray") == [""] + [s for s in SLOTS if s != human]
    assert 'name="attack"' not in page and 'name="divine"' not in page
    target = next(s for s in SLOTS if s != human)
    saved = browser.post(f"/villages/{vid}/actions", {"pray": target})
    assert saved.status_code == 303
    assert header(saved, "Location") == f"/villages/{vid}?done=saved#actions"
    page = text(browser.get(f"/villages/{vid}", done="saved"))
    assert "行動を保存しました" in page
    assert selected(page, "pray") == target

    oni_browser = member(new_browser, seated, madman)
    page = text(oni_browser.get(f"/villages/{vid}"))
    assert select_options(page, "attack") == ["", *SLOTS]  # self included, any side
    assert select_options(page, "attacker") == ["", *[s for s in SLOTS if s in oni]]
    humans_alive = [s for s in SLOTS if game_sides[s] == "human"]
    assert select_options(page, "force") == ["", *humans_alive]
    oni_saved = oni_browser.post(
        f"/villages/{vid}/actions", {"attack": human, "attacker": oni[0], "pray": ""}
    )
    assert oni_saved.status_code == 303
    page = text(oni_browser.get(f"/villages/{vid}"))
    assert selected(page, "attack") == human
    assert selected(page, "attacker") == oni[0]
    assert selected(page, "pray") is None

    # another oni-side member sees the vote; a human never does
    fellow = text(member(new_browser, seated, oni[0]).get(f"/villages/{vid}"))
    assert "鬼サイドの投票" in fellow
    assert selected(fellow, "attack") is None
    assert "鬼サイドの投票" not in text(browser.get(f"/villages/{vid}"))

    assassin = text(member(new_browser, seated, "assassin").get(f"/villages/{vid}"))
    assert 'name="assassinate"' in assassin

    # after a death, the dead are no longer offered
    victim = next(s for s in humans_alive if s not in (human, "assassin"))
    kill(vid, seated, victim, clock)
    page = text(browser.get(f"/villages/{vid}"))
    assert victim not in select_options(page, "pray")
    assert selected(page, "pray") is None  # a new day, new choices


def test_illegal_choices_and_wrong_phases_are_refused_with_the_reason(new_browser, clock, game):
    vid, seated = game
    human = next(s for s in humans(vid) if s.startswith("commoner"))
    oni = oni_side(vid)[0]
    browser = member(new_browser, seated, human)
    browser.get(f"/villages/{vid}")
    cases = [
        ({"pray": human}, 400, "自分自身には祈れません"),
        ({"attack": "seer_a"}, 400, "襲撃先を選べるのは鬼サイドだけです"),
        ({"divine": "seer_a"}, 400, "占いは占い師だけが行えます"),
        ({"pray": "nobody"}, 400, "「nobody」というキャラクターはいません"),
    ]
    for form, status, message in cases:
        response = browser.post(f"/villages/{vid}/actions", form)
        assert response.status_code == status, form
        assert alert(response) == message
        assert "この内容で行動" in text(response)  # the form comes back
    oni_browser = member(new_browser, seated, oni)
    oni_browser.get(f"/villages/{vid}")
    both = oni_browser.post(f"/villages/{vid}/actions", {"victory": "seer_a", "resign": "seer_a"})
    assert both.status_code == 400
    assert alert(both) == "勝利宣言と投了は同時に選べません。どちらか一方にしてください"
    assert load_village(vid)._days[1].saves == 0

    outsider = new_browser()
    outsider.login(make_account("outsider", clock()))
    outsider.get(f"/villages/{vid}")
    refused = outsider.post(f"/villages/{vid}/actions", {"pray": "seer_a"})
    assert refused.status_code == 403
    assert alert(refused) == "この村の村民ではありません"

    opening = new_village(clock, seed=9)
    outsider.post(f"/villages/{opening}/join", {"slot": "seer_a", "persona": "kaede"})
    early = outsider.post(f"/villages/{opening}/actions", {"pray": "seer_b"})
    assert early.status_code == 403
    assert alert(early) == "いまは行動を決められません"


# ----- the ending and the log -----


def test_a_declaration_starts_the_ending_and_opens_every_log(new_browser, browser, clock, game):
    vid, seated = game
    game_sides = sides(vid)
    oni = oni_side(vid)
    human = humans(vid)[0]
    human_browser = member(new_browser, seated, human)
    human_browser.post(f"/villages/{vid}/posts", {"board": "inner", "text": "人の心の声"})
    oni_browsers = [member(new_browser, seated, slot) for slot in oni[:3]]
    oni_browsers[0].post(f"/villages/{vid}/posts", {"board": "oni", "text": "鬼の相談"})
    secret_page = text(browser.get(f"/villages/{vid}", board="oni"))
    assert "鬼の相談" not in secret_page
    for n, oni_browser in enumerate(oni_browsers):
        response = oni_browser.post(f"/villages/{vid}/actions", {"victory": "seer_a"})
        assert response.status_code == 303
        expected = "ending" if n == 2 else "saved"
        assert header(response, "Location") == f"/villages/{vid}?done={expected}#actions"
    page = text(oni_browsers[2].get(f"/villages/{vid}", done="ending"))
    assert "鬼サイドの宣言が成立し、エンディングが始まりました" in page
    assert load_village(vid)._meta.state == "ending"

    visitor = text(browser.get(f"/villages/{vid}"))
    assert "<strong>鬼サイドの勝利</strong>" in visitor
    assert "勝利宣言" in visitor
    assert tabs(visitor) == ["表", "鬼の世界", "墓の下", "心の中"]
    names = display_names(vid)
    for slot, side in game_sides.items():
        label = {"human": "人", "oni": "鬼", "madman": "狂人"}[side]
        cell = rf"<td[^>]*>{re.escape(names[slot])}</td>\s*<td>[^<]*（{label}）</td>"
        assert re.search(cell, visitor), slot
    assert "鬼の相談" in text(browser.get(f"/villages/{vid}", board="oni", day="1"))
    assert "行動予定" not in visitor

    inner = browser.get(f"/villages/{vid}", board="inner", of=human, day="1")
    assert inner.status_code == 200
    assert "人の心の声" in text(inner)
    assert current_tab(text(inner)) == "心の中"
    # the day links stay on the same character's inner board
    assert f"?board=inner&amp;of={human}&amp;day=0#posts" in text(inner)
    other = next(s for s in SLOTS if s != human)
    assert "人の心の声" not in text(
        browser.get(f"/villages/{vid}", board="inner", of=other, day="1")
    )
    default_inner = browser.get(f"/villages/{vid}", board="inner", day="1")
    assert default_inner.status_code == 200

    # in the ending everyone writes on the public board
    clock.advance(timedelta(seconds=10))
    done = human_browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "おつかれさま"})
    assert done.status_code == 303
    assert select_options(text(human_browser.get(f"/villages/{vid}")), "board") == [
        "public",
        "inner",
    ]

    clock.advance(timedelta(minutes=60))
    assert [h.kind for h in update.advance(vid, clock())] == ["closed"]
    page = text(human_browser.get(f"/villages/{vid}"))
    assert "この村は終わっています。書き込みはできません" in page
    refused = human_browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "x"})
    assert refused.status_code == 403
    assert alert(refused) == "この村は終わっています。書き込みはできません"
    lounge = text(browser.get("/"))
    ended = dict(re.findall(r"<h2>(.+?)の村</h2>(.*?)</section>", lounge, re.S))["終了"]
    assert f"/villages/{vid}" in ended
    assert "（ログを読む）" in ended
    joined = human_browser.post(f"/villages/{vid}/join", {"slot": "seer_a"})
    assert joined.status_code in (403, 409)


def test_odd_requests_are_answered_with_a_page_never_a_server_error(browser, clock, game):
    vid, seated = game
    browser.login(seated["seer_a"])
    browser.get(f"/villages/{vid}")
    pages = [
        (f"/villages/{'9' * 3000}", 404),
        ("/villages/%E2%80%8B", 404),
        ("/villages/１", 404),
        (f"/villages/{vid}?day=" + "9" * 400, 200),
        (f"/villages/{vid}?board=%3Cscript%3E", 200),
        (f"/villages/{vid}?board=inner&of=nobody", 200),
        (f"/villages/{vid}?cursor=" + "A" * 5000, 400),
        ("/?state=opening&cursor=e30=", 400),
        ("/verify?token=" + "x" * 5000, 200),
        ("/login?next=///", 200),
    ]
    for path, status in pages:
        response = browser.client.http.get(path, headers=browser.headers())
        assert response.status_code == status, path
        if status >= 400:
            assert alert(response)
    forms = [
        (f"/villages/{vid}/actions", b"pray=&bogus=x", 303),
        (f"/villages/{vid}/actions", b"pray=" + b"seer_a" * 100, 400),
        (f"/villages/{vid}/posts", b"", 400),
        (f"/villages/{vid}/posts", b"&&&==", 400),
        (f"/villages/{vid}/posts", b"board=public&text=%FF%00", 303),
        (f"/villages/{vid}/join", b"", 409),
        ("/account", b"", 400),
        ("/register", b"", 400),
        (f"/villages/{'9' * 3000}/posts", b"board=public&text=x", 404),
    ]
    for path, body, status in forms:
        clock.advance(timedelta(seconds=6))
        response = browser.post(path, raw=body + b"&csrf=" + browser.csrf.encode())
        assert response.status_code == status, (path, body)
        if status >= 400:
            assert alert(response)
