"""A hostile look at one-tap choices: a link used once cannot undo a change made after it."""

from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.mail.helpers import Phone, alert
from tests.mail.test_links import client, member_links, running, seer  # noqa: F401


def test_a_used_quick_link_cannot_undo_a_choice_set_back_by_hand(running, client, clock):  # noqa: F811
    village, account, _ = seer(running)
    quick = member_links(running[2][account])[("pray", "seer_b")]
    phone = Phone(client)
    phone.get(quick)
    assert phone.post(quick).status_code == 303
    assert actions.own_choices(load_village(village), account) == {"pray": "seer_b"}
    # The member thinks better of it and takes the prayer back on the page ...
    actions.save_actions(village, account, {"pray": None}, clock())
    assert actions.own_choices(load_village(village), account) == {}
    # ... then the old mail's link is tapped again: it must not set the prayer once more.
    phone.get(quick)
    replayed = phone.post(quick)
    assert replayed.status_code == 409
    assert "変更されているため" in alert(replayed)
    assert actions.own_choices(load_village(village), account) == {}
