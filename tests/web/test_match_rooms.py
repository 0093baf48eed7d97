"""「ルームに参加」 (issue 25, decision 60): a game started with 「ルームに公開」 is listed on the
top page while its other seat waits — for 24 hours at most — and leaves the list when someone
takes the seat or it ends; private invitations and games against the CPU are never listed."""

from datetime import timedelta

from tests.support.clients import text
from tests.web.test_matches import start, stored


def rooms_seen(browser) -> str:
    page = text(browser.get("/"))
    return page.split('id="rooms"')[1].split("</section>")[0] if 'id="rooms"' in page else ""


def test_a_public_room_is_listed_for_others_until_its_seat_is_taken(browser, new_browser):
    match_id = start(browser, side="B", clock="3m", opponent="room")
    assert "ルームに参加" in text(browser.get(f"/matches/{match_id}"))  # its page says so
    visitor = new_browser()
    listed = rooms_seen(visitor)
    assert f"/matches/{match_id}" in listed and "空き席 A(村人陣営" in listed
    assert "持ち時間3分" in listed and "スタンダード9人" in listed
    assert f"/matches/{match_id}" not in rooms_seen(browser)  # not one's own
    assert "対局への招待" in text(visitor.get(f"/matches/{match_id}"))
    assert visitor.post(f"/matches/{match_id}/join").status_code == 303
    assert stored(match_id).gsi1pk is None
    assert f"/matches/{match_id}" not in rooms_seen(new_browser())


def test_private_invitations_and_cpu_games_are_never_listed(browser, new_browser):
    invited = start(browser, opponent="invite")
    against_cpu = start(browser)
    listed = rooms_seen(new_browser())
    assert invited not in listed and against_cpu not in listed
    assert stored(invited).gsi1pk is None and stored(against_cpu).gsi1pk is None


def test_a_room_that_ends_leaves_the_list(browser, new_browser):
    match_id = start(browser, opponent="room")
    browser.post(f"/matches/{match_id}/moves", {"moves": "0", "do": "resign", "confirm": "1"})
    assert stored(match_id).state == "ended"
    assert f"/matches/{match_id}" not in rooms_seen(new_browser())


def test_a_room_nobody_took_for_24_hours_leaves_the_list(browser, new_browser, clock):
    match_id = start(browser, opponent="room")
    clock.advance(timedelta(hours=23, minutes=59))
    assert f"/matches/{match_id}" in rooms_seen(new_browser())
    clock.advance(timedelta(minutes=2))
    assert f"/matches/{match_id}" not in rooms_seen(new_browser())
    # Its link still works for whoever has it.
    assert "対局への招待" in text(new_browser().get(f"/matches/{match_id}"))
