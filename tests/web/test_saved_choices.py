"""Saved choices and stale pages (issue 20): a save changes only what the player changed on
the page it was made on, or says that a choice it would overwrite changed since that page was
shown; the saved choices are written out beside the form. Both village rule sets."""

import random
import re

from chalicelib.links import MemberLink, member_token
from chalicelib.rules.classic import NPC, Role
from chalicelib.services import actions, update, villages
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.fakes import between_read_and_write
from tests.web.forms import form_fields

STALE = "このページを開いたあとで"


def own(vid: str, account: str) -> dict[str, str]:
    return actions.own_choices(load_village(vid), account)


def open_tab(browser, vid: str, having: str = "pray") -> dict[str, str]:
    """The action form with the field ``having`` of a village page, as that page shows it."""
    page = text(browser.get(f"/villages/{vid}"))
    return form_fields(page, f"/villages/{vid}/actions", having)


def test_s3_a_stale_page_that_saves_a_prayer_keeps_the_divination_saved_since(
    new_browser, clock, game
):
    vid, seated = game
    seer = new_browser()
    seer.login(seated["seer_a"])
    earlier = open_tab(seer, vid)  # tab 2, opened first
    divined, prayed = "guard_a", "medium_b"
    later = open_tab(seer, vid)  # tab 1
    assert seer.post(f"/villages/{vid}/actions", later | {"divine": divined}).status_code == 303
    response = seer.post(f"/villages/{vid}/actions", earlier | {"pray": prayed})
    assert response.status_code == 303, alert(response)
    assert own(vid, seated["seer_a"]) == {"divine": divined, "pray": prayed}


def test_s3_a_stale_page_that_changes_a_choice_changed_since_is_refused_with_the_reason(
    new_browser, clock, game
):
    vid, seated = game
    seer = new_browser()
    seer.login(seated["seer_a"])
    earlier = open_tab(seer, vid)
    seer.post(f"/villages/{vid}/actions", open_tab(seer, vid) | {"divine": "guard_a"})
    response = seer.post(
        f"/villages/{vid}/actions", earlier | {"divine": "guard_b", "pray": "medium_b"}
    )
    assert response.status_code == 409
    assert STALE in alert(response) and "占い" in alert(response)
    assert "行動を保存しました" not in text(response)
    assert own(vid, seated["seer_a"]) == {"divine": "guard_a"}  # nothing of it saved
    # The same choice made on both pages is no conflict.
    response = seer.post(f"/villages/{vid}/actions", earlier | {"divine": "guard_a"})
    assert response.status_code == 303


def test_s3_the_saved_choices_are_written_beside_the_form(new_browser, clock, game):
    vid, seated = game
    seer = new_browser()
    seer.login(seated["seer_a"])
    page = text(seer.get(f"/villages/{vid}"))
    assert re.search(r"保存済みの行動.*祈り: 【未定】.*占い: 【未定】", page, re.S)
    seer.post(f"/villages/{vid}/actions", open_tab(seer, vid) | {"divine": "guard_a"})
    names = load_village(vid).names()
    page = text(seer.get(f"/villages/{vid}"))
    assert re.search(rf"保存済みの行動.*祈り: 【未定】.*占い: {names['guard_a']}", page, re.S)


# ----- classic -----


def classic_day_2(clock, new_browser, pace: str = "short") -> tuple[str, dict[str, object]]:
    """A started five-player classic village, night 1 over: seat -> the member's browser."""
    vid = villages.create_village(
        villages.AskedVillage(pace=pace, name="人狼BBS村", rules="classic", given={}),
        now=clock(),
        rng=random.Random(7),
    )
    browsers = {}
    for n in range(5):
        name = f"cs{n}"
        make_account(name, clock())
        b = new_browser()
        b.login(name)
        personas = re.findall(r'<option value="([a-z]+)">', text(b.get(f"/villages/{vid}")))
        b.post(f"/villages/{vid}/join", {"slot": f"s{n + 1}", "persona": personas[0]})
        browsers[f"s{n + 1}"] = b
    for b in browsers.values():
        b.post(f"/villages/{vid}/prologue", {"action": "start"})
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    return vid, browsers


def seat_of(vid: str, role: Role) -> str:
    game = load_village(vid).game
    return next(game.seats[c] for c, r in game.village.roles.items() if r is role and c != NPC)


def test_classic_a_stale_night_form_keeps_the_choice_saved_since(clock, new_browser):
    vid, browsers = classic_day_2(clock, new_browser)
    seer = seat_of(vid, Role.SEER)
    b = browsers[seer]
    earlier = open_tab(b, vid, "divine")  # a night form showing 【未定】
    target = next(s for s in browsers if s != seer)
    b.post(f"/villages/{vid}/actions", open_tab(b, vid, "divine") | {"divine": target})
    account = load_village(vid).seats()[seer].account_id
    # Sent again as it was shown: nothing changed on it, nothing is changed.
    assert b.post(f"/villages/{vid}/actions", earlier).status_code == 303
    assert own(vid, account) == {"divine": target}
    other = next(s for s in browsers if s not in (seer, target))
    response = b.post(f"/villages/{vid}/actions", earlier | {"divine": other})
    assert response.status_code == 409 and STALE in alert(response)
    assert own(vid, account) == {"divine": target}


def test_classic_the_saved_night_choice_and_vote_are_written_beside_the_forms(clock, new_browser):
    vid, browsers = classic_day_2(clock, new_browser, pace="long")
    seer = seat_of(vid, Role.SEER)
    b = browsers[seer]
    target = next(s for s in browsers if s != seer)
    page = text(b.get(f"/villages/{vid}"))
    assert re.search(r"保存済みの行動.*占い: 【未定】", page, re.S)
    b.post(f"/villages/{vid}/actions", open_tab(b, vid, "divine") | {"divine": target})
    name = load_village(vid).names()[target]
    page = text(b.get(f"/villages/{vid}"))
    assert re.search(rf"保存済みの行動.*占い: {name}", page, re.S)
    # A long village's vote form says what it shows too, and a stale one cannot change it.
    earlier = open_tab(b, vid, "vote")
    assert b.post(f"/villages/{vid}/actions", earlier | {"vote": target}).status_code == 303
    account = load_village(vid).seats()[seer].account_id
    assert own(vid, account) == {"divine": target, "vote": target}
    other = next(s for s in browsers if s not in (seer, target))
    response = b.post(f"/villages/{vid}/actions", earlier | {"vote": other})
    assert response.status_code == 409 and STALE in alert(response)
    assert own(vid, account)["vote"] == target
    page = text(b.get(f"/villages/{vid}"))
    assert f"あなたの投票: <strong>{name}</strong>" in page


def test_a_one_tap_link_keeps_a_choice_saved_between_its_read_and_its_write(
    new_browser, clock, game, monkeypatch
):
    vid, seated = game
    seer = seated["seer_a"]
    record = load_village(vid)
    until = record._meta.next_update
    token = member_token(MemberLink(seer, vid, record.game.day, "divine", "guard_a"), until)
    phone = new_browser()
    assert phone.get(f"/m/{token}").status_code == 200
    between_read_and_write(
        monkeypatch, lambda: actions.save_actions(vid, seer, {"pray": "medium_b"}, clock())
    )
    response = phone.post(f"/m/{token}")
    assert response.status_code == 303, alert(response)
    assert own(vid, seer) == {"pray": "medium_b", "divine": "guard_a"}
