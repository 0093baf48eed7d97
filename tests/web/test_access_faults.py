"""Issue 28: a member's page view whose access write fails (AWS, after the SDK's retries) is
tried again, and the page says when it still could not be recorded (RULES §9: an idle
departure may follow only accesses that truly did not happen)."""

from datetime import timedelta

from benchmarks.faults import Faults
from chalicelib.storage.repository import load_village
from tests.support.clients import alert, session_cookie, text

NOT_RECORDED = "今回の訪問を記録できませんでした"


def _member_view(client, clock, game, faults: Faults):
    vid, seated = game
    clock.advance(timedelta(minutes=2))  # past the minute of the start: the view records
    cookie = session_cookie(seated["seer_a"], clock())
    with faults.installed():
        page = client.http.get(f"/villages/{vid}", headers={"cookie": cookie})
    return page, load_village(vid)._members["seer_a"].last_access


def test_s9_an_access_write_that_fails_is_tried_again(client, clock, game):
    faults = Faults(fail={"UpdateItem": 2})
    page, seen = _member_view(client, clock, game, faults)
    assert faults.injected["failed:UpdateItem"] == 2
    assert page.status_code == 200
    assert NOT_RECORDED not in text(page)
    assert seen == clock()


def test_s9_a_visit_that_could_not_be_recorded_says_so_on_the_page(client, clock, game):
    faults = Faults(fail={"UpdateItem": 3})
    page, seen = _member_view(client, clock, game, faults)
    assert faults.injected["failed:UpdateItem"] == 3
    assert page.status_code == 200
    assert NOT_RECORDED in alert(page)
    assert seen != clock()
