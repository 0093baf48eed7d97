"""Seats on the page (issue 20, "Seats"): the classic join form after a departure, a seat's
posts after it is taken again, and the leave link only where leaving makes sense."""

import random
import re
from datetime import timedelta

from chalicelib.services import actions, update, villages
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.clients import alert, text

LEAVE = re.compile(r'href="/villages/\d+/leave"')


def _classic(clock) -> str:
    return villages.create_village(
        villages.AskedVillage(pace="short", name="人狼BBS村", rules="classic"),
        now=clock(),
        rng=random.Random(7),
    )


def _join_by_form(browser, vid: str, choice: int = 0) -> str:
    """Joins as the page's form does: its one seat, the ``choice``-th persona offered."""
    page = text(browser.get(f"/villages/{vid}"))
    seat = re.search(r'<input type="hidden" name="slot" value="([^"]+)">', page).group(1)
    form = page[page.index('<select id="persona" name="persona">') :]
    persona = re.findall(r'<option value="([^"]+)"', form)[choice]
    response = browser.post(f"/villages/{vid}/join", {"slot": seat, "persona": persona})
    assert response.status_code == 303, alert(response)
    return seat


def test_s2_1_after_a_departure_the_join_form_still_seats_a_newcomer(clock, new_browser):
    vid = _classic(clock)
    people = {}
    for name in ("ann", "bob", "cat"):
        people[name] = new_browser()
        people[name].login(make_account(name, clock()))
    assert _join_by_form(people["ann"], vid) == "s1"
    _join_by_form(people["bob"], vid)
    assert people["ann"].post(f"/villages/{vid}/leave").status_code == 200
    assert _join_by_form(people["cat"], vid) == "s1"  # the freed seat, first in the form
    page = text(people["ann"].get(f"/villages/{vid}"))
    again = people["ann"].post(
        f"/villages/{vid}/join",
        {
            "slot": re.search(r'name="slot" value="([^"]+)"', page).group(1),
            "persona": re.search(r'<option value="([a-z]+)"', page).group(1),
        },
    )
    assert again.status_code == 403
    assert alert(again) == "一度離脱した村には参加できません"


def test_s2_1_a_seat_taken_again_keeps_the_speaker_filter_to_its_own_holder(
    clock, new_browser, browser
):
    vid = _classic(clock)
    ann, cat = new_browser(), new_browser()
    ann.login(make_account("ann", clock()))
    cat.login(make_account("cat", clock()))
    _join_by_form(ann, vid)
    ann.post(f"/villages/{vid}/posts", {"board": "public", "text": "アンの発言です"})
    clock.advance(timedelta(seconds=10))
    ann.post(f"/villages/{vid}/leave")
    _join_by_form(cat, vid, choice=1)  # another persona: a seat's persona is its holder's
    cat.post(f"/villages/{vid}/posts", {"board": "public", "text": "キャットの発言です"})
    whole = text(browser.get(f"/villages/{vid}"))
    assert "アンの発言です" in whole and "キャットの発言です" in whole
    only_cat = text(browser.get(f"/villages/{vid}", who="s1"))
    assert "キャットの発言です" in only_cat
    assert "アンの発言です" not in only_cat


def test_s9_the_dead_are_offered_no_leaving_and_refused_it(clock, new_browser, game):
    vid, seated = game
    everyone_prays_for = "guard_a"
    clock.advance(timedelta(minutes=1))
    for slot, account in seated.items():
        if slot != everyone_prays_for:
            actions.save_actions(vid, account, {"pray": everyone_prays_for}, clock())
    clock.now = load_village(vid)._meta.next_update

    update.advance(vid, clock())
    assert everyone_prays_for in load_village(vid).dead()
    dead = new_browser()
    dead.login(seated[everyone_prays_for])
    page = text(dead.get(f"/villages/{vid}"))
    assert not LEAVE.search(page)
    confirm = dead.get(f"/villages/{vid}/leave")
    assert confirm.status_code == 403
    assert alert(confirm) == "亡くなったキャラクターは離脱できません"
    posted = dead.post(f"/villages/{vid}/leave")
    assert posted.status_code == 403
    assert alert(posted) == "亡くなったキャラクターは離脱できません"
    assert load_village(vid).slot_of(seated[everyone_prays_for]) == everyone_prays_for
    assert load_account(seated[everyone_prays_for]).lock_until is None
    living = new_browser()
    living.login(seated["seer_a"])
    assert LEAVE.search(text(living.get(f"/villages/{vid}")))


def test_s9_nobody_is_offered_leaving_once_the_game_is_over(clock, new_browser, game):
    vid, seated = game
    sides = load_village(vid).game.sides
    clock.advance(timedelta(minutes=1))
    for slot in [s for s, side in sides.items() if side != "human"][:3]:
        actions.save_actions(vid, seated[slot], {"resign": slot}, clock())
    assert load_village(vid).state.value == "ending"
    human = next(s for s, side in sides.items() if side == "human")
    player = new_browser()
    player.login(seated[human])
    assert not LEAVE.search(text(player.get(f"/villages/{vid}")))
    for response in (player.get(f"/villages/{vid}/leave"), player.post(f"/villages/{vid}/leave")):
        assert response.status_code == 403
        assert alert(response) == "ゲームが終わった村からは離脱できません"
    assert load_account(seated[human]).lock_until is None
