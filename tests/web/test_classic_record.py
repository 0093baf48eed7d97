"""The classic village's ending (issue 23): the full record (全記録) of every day — votes,
sudden deaths, the night's attack choices and whose counted, divination, guard, medium, deaths
with causes, wills, what each player was told — open to everyone once the game is over and to
nobody before (RULES-CLASSIC §2.5, §6); the cast table with IDs, roles and causes of death."""

import random
import re
from datetime import timedelta
from html import unescape
from types import SimpleNamespace

from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import NPC, Role
from chalicelib.services import actions, posts, update, villages
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import create, join_all, start
from tests.support.clients import Browser, session_cookie, text

PLAYERS = 10  # seer, medium, hunter, two werewolves, a madman, villagers


def section(html: str, id_: str) -> str:
    found = re.search(rf'<section id="{id_}".*?</section>', html, re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", found.group(0)))) if found else ""


def page(client, clock, vid, account=None, **query) -> str:
    browser = Browser(client)
    if account:
        browser.cookie = session_cookie(account, clock())
    response = browser.get(f"/villages/{vid}", **query)
    assert response.status_code == 200
    return text(response)


def played(clock):
    """A 10-player village played to day 3 with known choices; returns what was chosen."""
    accounts = [make_account(f"rec{i:02d}", clock()) for i in range(PLAYERS)]
    vid = create(clock, random.Random(23), npc_villager=True)
    seat_of = join_all(vid, accounts, clock)
    posts.post(vid, accounts[0], "public", "LOGPRO よろしく >>1", clock())
    start(vid, accounts, clock)
    game = load_village(vid).game
    account = {seat: a for a, seat in seat_of.items()}
    roles = {game.seats[c]: r for c, r in game.village.roles.items() if c != NPC}

    def holders(role):
        return [s for s, r in roles.items() if r is role]

    wolves, (seer,), (hunter,), (medium,) = (
        holders(Role.WEREWOLF),
        holders(Role.SEER),
        holders(Role.HUNTER),
        holders(Role.MEDIUM),
    )
    plain = holders(Role.VILLAGER)
    executed, first_prey, prey = plain[0], plain[1], plain[2]
    # Night 1: the seer divines a wolf.
    actions.save_actions(vid, account[seer], {"divine": wolves[0]}, clock())
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    # Day 2: tonight's choices first (the second wolf's attack is the latest: it counts),
    # the prey's will, then every vote for ``executed``: the round and the night close at once.
    clock.advance(timedelta(minutes=1))
    actions.save_actions(vid, account[wolves[1]], {"attack": first_prey}, clock())
    clock.advance(timedelta(minutes=1))
    actions.save_actions(vid, account[wolves[0]], {"attack": prey}, clock())
    actions.save_actions(vid, account[seer], {"divine": plain[3]}, clock())
    actions.save_actions(vid, account[hunter], {"guard": seer}, clock())
    actions.save_will(vid, account[prey], "PREYWILL 最後の言葉", clock())
    posts.post(vid, account[wolves[0]], "wolves", "LOGHOWL 今夜は平吉", clock())
    clock.advance(timedelta(seconds=10))
    posts.post(vid, account[seer], "monologue", "LOGSELF 楓が黒", clock())
    clock.advance(timedelta(seconds=10))
    posts.post(vid, account[hunter], "public", "LOGDAY2 おはよう", clock())
    clock.advance(timedelta(seconds=10))
    actions.save_will(vid, account[holders(Role.MADMAN)[0]], "SUDDENWILL 出てはいけない", clock())
    for seat in roles:  # the executed votes last, for the first prey
        if seat != executed:
            actions.save_actions(vid, account[seat], {"vote": executed}, clock())
    actions.save_actions(vid, account[executed], {"vote": first_prey}, clock())
    return SimpleNamespace(
        vid=vid,
        account=account,
        roles=roles,
        wolves=wolves,
        seer=seer,
        hunter=hunter,
        medium=medium,
        executed=executed,
        prey=prey,
        plain=plain,
    )


def test_the_full_record_and_the_cast_table_open_at_the_end_and_not_before(client, clock):
    g = played(clock)
    vid, account, roles, wolves, seer = g.vid, g.account, g.roles, g.wolves, g.seer
    hunter, medium, executed, prey, plain = g.hunter, g.medium, g.executed, g.prey, g.plain
    record = load_village(vid)
    assert record.day == 3 and record.state.value == "running", (record.day, record.state)
    names = {s: m.name for s, m in record.seats().items()}
    # Before the end: no record and no cast table, for any viewer, on any day.
    for viewer in (None, account[wolves[0]], account[seer], account[executed]):
        for day in (0, 1, 2, 3):
            html = page(client, clock, vid, viewer, day=day)
            assert "全記録" not in html and 'id="cast"' not in html, (viewer, day)
            assert "PREYWILL" in html or day != 3  # the will is public on its morning only
    # The member list: an execution is public, an attack is only found dead (§4.6).
    members = section(page(client, clock, vid), "members")
    assert f"{names[executed]} 2日目に処刑" in members
    assert f"{names[prey]} 3日目の朝に発見" in members and "襲撃" not in members
    # Nobody votes on day 3: sudden deaths end the game (or leave it to the tick).
    while load_village(vid).state.value == "running":
        clock.now = load_village(vid)._meta.next_update
        update.advance(vid, clock())
    assert load_village(vid).state.value == "ending"
    day2 = section(page(client, clock, vid, day=2), "record")
    assert "2日目・第1回投票" in day2
    for seat in roles:
        voted = executed if seat != executed else plain[1]
        assert f"{names[seat]} → {names[voted]}" in day2
    assert f"{names[executed]} を処刑" in day2
    assert f"襲撃: {names[prey]}（{names[wolves[0]]}の選択が有効）" in day2
    assert f"{names[wolves[1]]} → {names[plain[1]]}" in day2  # the overridden choice, listed
    assert f"占い: {names[seer]} → {names[plain[3]]}（人間）" in day2
    assert f"護衛: {names[hunter]} → {names[seer]}" in day2 and "護衛成功" not in day2
    assert f"霊能: {names[medium]}へ、{names[executed]}は人間" in day2
    assert f"死者: {names[prey]}（襲撃）" in day2
    assert f"{names[seer]} : 占い：{names[plain[3]]}は人間でした。" in day2
    assert "PREYWILL 最後の言葉" in day2
    day1 = section(page(client, clock, vid, day=1), "record")
    assert f"{names[seer]} : あなたは占い師です。" in day1
    assert f"{names[wolves[0]]} : あなたは人狼です。 仲間: {names[wolves[1]]}" in day1
    assert "襲撃: 身代わり君（1日目の夜は身代わり君）" in day1
    assert f"占い: {names[seer]} → {names[wolves[0]]}（人狼）" in day1
    day3 = section(page(client, clock, vid, day=3), "record")
    assert "3日目・第1回投票" in day3 and "が突然死" in day3
    whole = page(client, clock, vid, day=3)
    assert "SUDDENWILL" not in whole  # §6: a sudden death's will is never published
    cast = section(whole, "cast")
    game = load_village(vid).game
    for character, role in game.village.roles.items():
        seat = game.seats.get(character, NPC)
        death = game.village.deaths.get(character)
        name = names.get(seat, "身代わり君")
        who = account.get(seat, "—")
        role_word = {
            Role.VILLAGER: "村人",
            Role.SEER: "占い師",
            Role.MEDIUM: "霊能者",
            Role.HUNTER: "狩人",
            Role.WEREWOLF: "人狼",
            Role.MADMAN: "狂人",
        }[role]
        if death is None:
            fate = "生存"
        elif death.cause.value == "attack":
            fate = f"{death.day}日目の夜に襲撃"
        else:
            fate = f"{death.day}日目に" + {"execution": "処刑", "sudden": "突然死"}[death.cause]
        assert re.search(rf"{name} {who} {role_word}(（勝利）)? {fate}", cast), (name, cast)
    assert "身代わり君 — 村人 1日目の夜に襲撃" in cast
    assert f"{names[executed]} rec" in cast and "2日目に処刑" in cast
    assert "3日目に突然死" in cast


def test_the_combined_log_shows_every_day_and_every_readable_board_in_order(client, clock):
    g = played(clock)
    vid, account, wolves = g.vid, g.account, g.wolves
    # During the game: the visitor reads the public board only, the howl as a nameless trace
    # without a number; a wolf reads its board too, not the seer's monologue.
    visitor = page_at(client, clock, f"/villages/{vid}/log")
    assert "LOGPRO" in visitor and "LOGDAY2" in visitor
    assert "LOGHOWL" not in visitor and "LOGSELF" not in visitor
    assert "遠吠えが聞こえた" in visitor and "全記録" not in visitor
    trace = re.search(r'<article class="post system trace[^"]*">(.*?)</article>', visitor, re.S)
    assert trace and 'class="num"' not in trace.group(1)
    board = page_at(client, clock, f"/villages/{vid}?board=public&day=2")
    trace = re.search(r'<article class="post system trace[^"]*">(.*?)</article>', board, re.S)
    assert trace and 'class="num"' not in trace.group(1)  # a howl is not a public post
    numbers = [int(n) for n in re.findall(r'<a class="num" href="#p(\d+)"', board)]
    assert numbers == list(range(1, len(numbers) + 1))
    wolf = page_at(client, clock, f"/villages/{vid}/log", account[wolves[0]])
    assert "LOGHOWL" in wolf and "LOGSELF" not in wolf
    while load_village(vid).state.value == "running":
        clock.now = load_village(vid)._meta.next_update
        update.advance(vid, clock())
    # The ending: every board, every day in order, the full record of each day, the cast.
    log = page_at(client, clock, f"/villages/{vid}/log")
    order = ["LOGPRO", 'id="day1"', 'id="record1"', 'id="day2"', "LOGHOWL", "LOGSELF"]
    order += ["LOGDAY2", 'id="record2"', 'id="day3"', 'id="record3"']
    places = [log.index(marker) for marker in order]
    assert places == sorted(places), list(zip(order, places, strict=True))
    assert 'id="cast"' in log and "遠吠えが聞こえた" not in log  # the howl itself is shown
    assert "@media print" in log  # the stylesheet is inline (decision 91)


def page_at(client, clock, path, account=None) -> str:
    browser = Browser(client)
    if account:
        browser.cookie = session_cookie(account, clock())
    response = browser.get(path)
    assert response.status_code == 200, text(response)[:300]
    return text(response)


def test_boards_name_their_days_offer_only_existing_partner_boards_and_anchor_replies(
    client, clock
):
    """Issue 23, boards: day tabs プロ / N日 / エピ; no 共鳴 where nobody is a mason (ten
    players), even in the epilogue; a post's number opens the write form with its anchor."""
    g = played(clock)
    vid, account = g.vid, g.account
    me = account[g.hunter]
    today = page_at(client, clock, f"/villages/{vid}", me)
    tabs = re.search(r'aria-label="日付">(.*?)</nav>', today, re.S).group(1)
    assert re.findall(r">([^<]+)</a>", tabs) == ["プロ", "1日", "2日", "3日"]
    # The number of a post is a reply link; without JavaScript it fills the form.
    assert re.search(r'<a class="num" href="\?board=public&amp;day=3&amp;reply=1#write"', today)
    replied = page_at(client, clock, f"/villages/{vid}?board=public&day=3&reply=2", me)
    assert re.search(r'<textarea id="text" name="text"[^>]*>&gt;&gt;2 </textarea>', replied)
    earlier = page_at(client, clock, f"/villages/{vid}?board=public&day=2&reply=4", me)
    assert re.search(r'<textarea id="text" name="text"[^>]*>&gt;&gt;2:4 </textarea>', earlier)
    assert Browser(client).get(f"/villages/{vid}", reply="x").status_code == 400
    while load_village(vid).state.value == "running":
        clock.now = load_village(vid)._meta.next_update
        update.advance(vid, clock())
    ending = page_at(client, clock, f"/villages/{vid}")
    boards = re.search(r'aria-label="掲示板">(.*?)</nav>', ending, re.S).group(1)
    assert "囁き" in boards and "共鳴" not in boards  # no mason among ten players
    assert Browser(client).get(f"/villages/{vid}", board="masons").status_code == 200
    assert "共鳴・" not in page_at(client, clock, f"/villages/{vid}?board=masons")


def test_the_conduct_rule_shows_once_in_the_prologue(client, clock):
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="作法の村", rules="classic"),
        now=clock(),
        rng=random.Random(1),
    )
    make_account("cond1", clock())
    for viewer in (None, "cond1"):
        html = page_at(client, clock, f"/villages/{vid}", viewer)
        assert html.count("外部相談の禁止") == 1, viewer


def four_players_on_day_2(clock, prefix: str):
    """A four-player village (a werewolf, the seer, two villagers) in the morning of day 2;
    returns it, seat -> account and seat -> role."""
    accounts = [make_account(f"{prefix}{i}", clock()) for i in range(4)]
    vid = create(clock, random.Random(5))
    seat_of = join_all(vid, accounts, clock)
    start(vid, accounts, clock)
    game = load_village(vid).game
    roles = {game.seats[c]: r for c, r in game.village.roles.items() if c != NPC}
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())  # day 2
    return vid, {seat: a for a, seat in seat_of.items()}, roles


def test_a_game_ended_at_dawn_has_an_epilogue_tab(client, clock):
    vid, account, roles = four_players_on_day_2(clock, "dawn")
    wolf = next(s for s, r in roles.items() if r is Role.WEREWOLF)
    seer = next(s for s, r in roles.items() if r is Role.SEER)
    executed, prey = [s for s, r in roles.items() if r is Role.VILLAGER]
    actions.save_actions(vid, account[wolf], {"attack": prey}, clock())
    actions.save_actions(vid, account[seer], {"divine": wolf}, clock())
    for voter in (wolf, seer, prey):
        actions.save_actions(vid, account[voter], {"vote": executed}, clock())
    actions.save_actions(vid, account[executed], {"vote": prey}, clock())
    record = load_village(vid)
    assert record.state.value == "ending" and record.day == 3  # the wolf won at dawn
    html = page_at(client, clock, f"/villages/{vid}")
    tabs = re.search(r'aria-label="日付">(.*?)</nav>', html, re.S).group(1)
    assert re.findall(r">([^<]+)</a>", tabs) == ["プロ", "1日", "2日", "エピ"]
    assert 'aria-label="エピローグ"' in tabs and "表・エピローグ" in html


def test_a_will_no_morning_published_opens_in_the_epilogue(client, clock):
    """§6: a will is published the morning after the death; when the game ends at the
    execution there is no such morning, and the epilogue opens it (a sudden death's never)."""
    vid, account, roles = four_players_on_day_2(clock, "will")
    wolf = next(s for s, r in roles.items() if r is Role.WEREWOLF)
    others = [s for s in roles if s != wolf]
    actions.save_will(vid, account[wolf], "WOLFWILL 見破られた", clock())
    for voter in others:
        actions.save_actions(vid, account[voter], {"vote": wolf}, clock())
    assert "WOLFWILL" not in page_at(client, clock, f"/villages/{vid}?day=2")
    actions.save_actions(vid, account[wolf], {"vote": others[0]}, clock())
    assert load_village(vid).state.value == "ending"  # the village won at the execution
    record = section(page_at(client, clock, f"/villages/{vid}?day=2"), "record")
    assert "エピローグで公開された遺書" in record and "WOLFWILL 見破られた" in record


def test_s2_1_a_kick_is_in_the_prologues_full_record_with_who_voted(client, clock):
    """Issue 23: the full record keeps the prologue's kicks (the seat may be taken again, so
    who was kicked is kept by name and player ID as they were), open only once the game ends."""
    names = ["kann", "kbob", "kcat", "kdan", "keve"]
    accounts = [make_account(n, clock()) for n in names]
    vid = create(clock, random.Random(5))
    seat_of = join_all(vid, accounts, clock)
    kicked_name = load_village(vid).seats()[seat_of["kann"]].name
    voter_names = [load_village(vid).seats()[seat_of[v]].name for v in ("kbob", "kcat", "kdan")]
    for voter in ("kbob", "kcat", "kdan"):
        actions.prologue(vid, voter, "kick", seat_of["kann"], clock())
    newcomer = make_account("kfay", clock())
    villages.join(vid, newcomer, seat_of["kann"], YAMAZATO[9].key, clock())
    players = ["kbob", "kcat", "kdan", "keve", newcomer]
    start(vid, players, clock)
    line = f"{kicked_name}（kann）がキックされました（キックの投票: {'、'.join(voter_names)}）"
    assert line not in page(client, clock, vid, day=0)  # nothing of the record before the end
    while load_village(vid).state.value == "running":  # nobody votes: sudden deaths end it
        clock.now = load_village(vid)._meta.next_update
        update.advance(vid, clock())
    prologue = section(page(client, clock, vid, day=0), "record")
    assert "キック" in prologue and line in prologue, prologue
    log = page_at(client, clock, f"/villages/{vid}/log")
    assert line in log
