"""A hostile look at one-tap choices: a link used once cannot undo a change made after it."""

from datetime import timedelta

from chalicelib import links, signing
from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.mail.test_links import EXPIRED
from tests.support.mailbox import Phone, alert, member_links, seer


def used_then_taken_back(running, client, clock):
    """A seer taps the mail's prayer link, then takes the prayer back on the page; returns
    (village, account, the link's path, the phone that tapped it)."""
    village, account, _ = seer(running)
    quick = member_links(running[2][account])[("pray", "seer_b")]
    phone = Phone(client)
    phone.get(quick)
    assert phone.post(quick).status_code == 303
    assert actions.own_choices(load_village(village), account) == {"pray": "seer_b"}
    actions.save_actions(village, account, {"pray": None}, clock())
    assert actions.own_choices(load_village(village), account) == {}
    return village, account, quick, phone


def test_a_used_quick_link_cannot_undo_a_choice_set_back_by_hand(running, client, clock):
    village, account, quick, phone = used_then_taken_back(running, client, clock)
    # The old mail's link is tapped again: it must not set the prayer once more.
    phone.get(quick)
    replayed = phone.post(quick)
    assert replayed.status_code == 409
    assert "変更されているため" in alert(replayed)
    assert actions.own_choices(load_village(village), account) == {}


BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def respelled(path: str) -> list[str]:
    """The same token spelled otherwise, as base64 allows: a padding ``=`` added, and the last
    character's unused low bits set (the signature's 20 bytes leave two of them)."""
    last = BASE64URL.index(path[-1])
    return [path + "=", path[:-1] + BASE64URL[last ^ 1]]


def test_a_used_quick_link_spelled_otherwise_is_refused(running, client, clock):
    village, account, quick, phone = used_then_taken_back(running, client, clock)
    for other in respelled(quick):
        assert Phone(client).get(other).status_code == 400
        page = phone.get(other)
        assert page.status_code == 400
        assert alert(page) == EXPIRED
        phone.get(quick)  # the page's CSRF token
        assert phone.post(other).status_code == 400
    assert actions.own_choices(load_village(village), account) == {}


def test_a_fresh_spelling_of_a_used_quick_link_is_still_the_used_link(running, client, clock):
    """The used-mark is on the link as decoded: the same link signed again (another expiry,
    hence another text) is the link that was used."""
    village, account, quick, phone = used_then_taken_back(running, client, clock)
    link = links.read_member_token(quick[len("/m/") :], clock())
    again = f"/m/{links.member_token(link, clock() + timedelta(minutes=20))}"
    assert again != quick
    phone.get(again)
    replayed = phone.post(again)
    assert replayed.status_code == 409
    assert actions.own_choices(load_village(village), account) == {}


def test_every_link_the_mail_carries_is_spelled_canonically(running):
    _, account, _ = seer(running)
    for path in member_links(running[2][account]).values():
        assert signing.canonical(path[len("/m/") :])
