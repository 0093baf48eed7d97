"""Reading a board as BBS players do: numbered posts, ``>>12`` / ``>>2:12`` anchors shown
inline without JavaScript, a speaker filter, unread marks with a link to the first unread
post, and a link to the newest posts. Everything a player wrote stays escaped."""

import re
from datetime import timedelta
from html import unescape

from chalicelib.services import posts, update
from chalicelib.storage.repository import load_village
from tests.support.clients import session_cookie, text

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"> & \'"'


def page(client, clock, vid, account=None, **query) -> str:
    headers = {"cookie": session_cookie(account, clock())} if account else {}
    path = f"/villages/{vid}"
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    response = client.http.get(path, headers=headers)
    assert response.status_code == 200, text(response)[:300]
    return text(response)


def articles(html: str) -> dict[int, str]:
    """Each post shown, by number: its raw HTML."""
    return {
        int(n): body
        for n, body in re.findall(
            r'<article id="p(\d+)" class="post[^"]*">(.*?)</article>', html, re.S
        )
    }


def write(vid, account, body, clock, board="public"):
    clock.advance(timedelta(seconds=6))  # one post per member per 5 s
    posts.post(vid, account, board, body, clock())


def test_posts_are_numbered_per_board_and_day_and_anchors_open_inline_escaped(client, clock, game):
    vid, seated = game
    clock.advance(timedelta(minutes=1))
    write(vid, seated["seer_a"], HOSTILE, clock)  # 2 (1 is the day's opening notice)
    write(vid, seated["seer_b"], ">>2 本当に？", clock)  # 3
    write(vid, seated["medium_a"], "＞＞３ 全角でも。>>99 はない。>>0:1 はプロローグ", clock)  # 4
    write(vid, seated["medium_b"], "心の中の1番", clock, board="inner")
    html = page(client, clock, vid, seated["guard_a"])
    shown = articles(html)
    assert sorted(shown) == [1, 2, 3, 4]
    # The hostile text is shown as text, in its post and where it is quoted.
    assert "<script>" not in html.split("<main>", 1)[1]
    assert "<img" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 2
    # >>2: a <details> whose summary is the anchor and whose body is post 2.
    details = re.search(
        r'<details class="anchor"><summary>(.*?)</summary>(.*?)</details>', shown[3]
    )
    assert unescape(details.group(1)) == ">>2"
    quoted = unescape(re.sub(r"<[^>]+>", "", details.group(2)))
    assert quoted == f"2 {posts.names_of(load_village(vid))['seer_a']} {HOSTILE}"
    assert 'href="?board=public&amp;day=1#p2"' in details.group(2)
    # Full-width anchors work; a post that does not exist stays text; another day is a link.
    assert "<summary>＞＞３</summary>" in shown[4]
    assert "&gt;&gt;99 はない" in shown[4]
    assert '<a class="anchor" href="?board=public&amp;day=0#p1">&gt;&gt;0:1</a>' in shown[4]
    # Each board and day counts from 1: the inner board has its own post 1.
    inner = articles(page(client, clock, vid, seated["medium_b"], board="inner"))
    assert sorted(inner) == [1] and "心の中の1番" in inner[1]


def test_a_board_can_show_one_speaker_keeping_the_numbers(client, clock, game):
    vid, seated = game
    clock.advance(timedelta(minutes=1))
    for slot in ("seer_a", "seer_b", "seer_a"):
        write(vid, seated[slot], f"{slot}の発言", clock)
    html = page(client, clock, vid, who="seer_a")
    assert sorted(articles(html)) == [2, 4]
    names = posts.names_of(load_village(vid))
    assert f"{names['seer_a']}の発言だけを表示しています。" in html
    # The filter is a plain GET form: the speakers who wrote on this page, all by default.
    form = re.search(r'<form class="filter" method="get".*?</form>', html, re.S).group(0)
    assert re.findall(r'<option value="([a-z_]*)"', form) == ["", "seer_a", "seer_b"]
    assert '<option value="seer_a" selected>' in form
    assert sorted(articles(page(client, clock, vid))) == [1, 2, 3, 4]
    # An unknown speaker shows everyone.
    assert sorted(articles(page(client, clock, vid, who="nobody"))) == [1, 2, 3, 4]


def test_posts_since_the_member_s_last_visit_are_unread_with_a_link_to_the_first(
    client, clock, game
):
    vid, seated = game
    reader = seated["guard_b"]
    clock.advance(timedelta(minutes=1))
    write(vid, seated["seer_a"], "読んだ発言", clock)  # 2
    page(client, clock, vid, reader)  # a visit: the access is recorded
    clock.advance(timedelta(minutes=2))
    write(vid, seated["seer_b"], "新しい発言", clock)  # 3
    write(vid, seated["medium_a"], "もう一つ", clock)  # 4
    clock.advance(timedelta(minutes=2))
    html = page(client, clock, vid, reader)
    unread = [n for n, body in articles(html).items() if '<span class="new">未読</span>' in body]
    assert unread == [3, 4]
    assert re.search(r'<article id="p3" class="post unread">', html)
    assert '<a class="unread-link" href="#p3">未読2件の最初へ</a>' in html
    # The visit just made is the new "last visit": nothing is unread on the next one.
    clock.advance(timedelta(minutes=2))
    again = page(client, clock, vid, reader)
    assert "未読" not in again.split('<section id="posts">', 1)[1].split("</section>", 1)[0]
    # Visitors have no recorded visits: nothing is marked.
    assert "未読" not in page(client, clock, vid)


def test_the_unread_mark_starts_after_a_reload_within_the_minute(client, clock, game):
    """A reload within a minute of the recorded visit that shows new posts is the member's
    visit too (issue 38): the next visit marks only what came after it, and its link leads
    to the first of those, not to a post the member has already read."""
    vid, seated = game
    reader = seated["guard_b"]
    clock.advance(timedelta(minutes=1))
    page(client, clock, vid, reader)  # the visit: recorded
    write(vid, seated["seer_a"], "見た発言", clock)  # 2
    clock.advance(timedelta(seconds=10))
    assert unread_of(page(client, clock, vid, reader)) == [2]  # a reload: read here
    clock.advance(timedelta(minutes=2))
    write(vid, seated["seer_b"], "まだ見ていない発言", clock)  # 3
    clock.advance(timedelta(minutes=1))
    html = page(client, clock, vid, reader)
    assert unread_of(html) == [3]
    assert '<a class="unread-link" href="#p3">未読1件の最初へ</a>' in html


def test_a_reload_that_shows_nothing_new_writes_nothing(client, clock, game):
    vid, seated = game
    reader = seated["guard_b"]
    clock.advance(timedelta(minutes=1))
    page(client, clock, vid, reader)
    visited = load_village(vid)._members["guard_b"].last_access
    clock.advance(timedelta(seconds=20))
    page(client, clock, vid, reader)
    assert load_village(vid)._members["guard_b"].last_access == visited


def unread_of(html: str) -> list[int]:
    return [n for n, body in articles(html).items() if '<span class="new">未読</span>' in body]


def test_the_page_after_a_post_marks_what_came_since_the_visit_before_it(client, clock, game):
    """A post is an access with no write of its own (decision 66): the page it leads to
    still marks what others wrote while the member was writing, and, having shown them,
    is the member's visit (decision 152): the next visit starts from it."""
    vid, seated = game
    reader = seated["guard_b"]
    clock.advance(timedelta(minutes=1))
    page(client, clock, vid, reader)  # the visit the member writes from
    visited = load_village(vid)._members["guard_b"].last_access
    clock.advance(timedelta(minutes=2))  # a while writing: a view now would be recorded
    write(vid, seated["seer_b"], "書いている間の発言", clock)  # 2
    write(vid, reader, "自分の発言", clock)  # 3: never unread
    assert load_village(vid)._members["guard_b"].last_access == visited  # the post wrote none
    after = page(client, clock, vid, reader)  # the page the post leads to
    assert unread_of(after) == [2]
    assert load_village(vid)._members["guard_b"].last_access == clock()  # shown: visited
    clock.advance(timedelta(seconds=30))
    assert unread_of(page(client, clock, vid, reader)) == []  # read on the page before
    write(vid, seated["medium_a"], "その後の発言", clock)  # 4
    clock.advance(timedelta(minutes=2))
    assert unread_of(page(client, clock, vid, reader)) == [4]  # from the post on
    assert load_village(vid)._members["guard_b"].last_access == clock()


def test_a_member_posting_every_few_seconds_sees_each_post_marked_once(browser, clock, game):
    """Each post records the page it was written on as the member's visit (its form says
    when it was shown), so in a quick exchange the marks move on with every page."""
    vid, seated = game
    browser.login(seated["guard_b"])
    clock.advance(timedelta(minutes=2))
    browser.get(f"/villages/{vid}")  # the visit: recorded
    clock.advance(timedelta(minutes=2))
    marked = []
    for n, other in enumerate(("seer_a", "seer_b", "medium_a")):
        write(vid, seated[other], f"{other}の発言", clock)  # 2, 4, 6
        seen = re.search(r'name="seen" value="([^"]+)"', text(browser.last)).group(1)
        clock.advance(timedelta(seconds=40))
        browser.post(
            f"/villages/{vid}/posts", {"board": "public", "text": f"返事{n}", "seen": seen}
        )  # 3, 5, 7
        marked.append(unread_of(text(browser.get(f"/villages/{vid}"))))
    assert marked == [[2], [4], [6]]


def test_a_form_s_moment_that_is_odd_or_in_the_future_records_no_visit(browser, clock, game):
    vid, seated = game
    browser.login(seated["guard_b"])
    clock.advance(timedelta(minutes=2))
    browser.get(f"/villages/{vid}")
    visited = load_village(vid)._members["guard_b"].last_access
    odd = (
        "x" * 5000,
        "2999-01-01T00:00:00+00:00",
        "2026-12-01T12:00:00",  # no offset
        "0001-01-01T00:00:00+23:59",  # before year 1 in UTC
        "２０２６-12-01T00:00:00+00:00",
    )
    for n, seen in enumerate(odd):
        clock.advance(timedelta(seconds=6))
        done = browser.post(
            f"/villages/{vid}/posts", {"board": "public", "text": f"発言{n}", "seen": seen}
        )
        assert done.status_code == 303  # the post is written; the moment is ignored
        assert load_village(vid)._members["guard_b"].last_access == visited


def test_the_newest_posts_are_one_tap_away_from_any_day(client, clock, game):
    vid, _ = game
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    html = page(client, clock, vid, day=0, board="public")
    assert '<a href="?board=public&amp;day=2#latest">最新の発言へ</a>' in html
    assert '<p id="latest" class="pager">' in page(client, clock, vid)


def test_later_pages_of_a_long_day_go_on_counting(client, clock, game, monkeypatch):
    from chalicelib.web import village_view

    monkeypatch.setattr(village_view, "DAY_PAGE", 2)
    vid, seated = game
    clock.advance(timedelta(minutes=1))
    write(vid, seated["seer_a"], "二番", clock)
    write(vid, seated["seer_b"], "三番 >>1 と >>4", clock)
    write(vid, seated["medium_a"], "四番 >>3", clock)
    first = page(client, clock, vid)
    assert sorted(articles(first)) == [1, 2]
    more = re.search(r'href="(\?board=public&amp;day=1&amp;cursor=[^"]+)">続きを読む', first)
    query = unescape(more.group(1))[1:].split("#")[0]
    assert query.endswith("&from=3")
    second = page(client, clock, vid, **dict(kv.split("=", 1) for kv in query.split("&")))
    shown = articles(second)
    assert sorted(shown) == [3, 4]
    # >>1 is on the first page: a link there; >>4 and >>3 are on this one: inline.
    assert '<a class="anchor" href="?board=public&amp;day=1#p1">&gt;&gt;1</a>' in shown[3]
    assert "<summary>&gt;&gt;4</summary>" in shown[3]
    assert "<summary>&gt;&gt;3</summary>" in shown[4]
