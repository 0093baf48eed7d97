"""A one-tap mail link when AWS fails (issue 28, decision 98): the 503 page posts the same
link again, its token in the path as the mail had it; the log line does not carry it."""

import logging
import re

from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.support.mailbox import Phone, member_links, seer


def test_a_quick_link_that_meets_a_fault_is_a_503_that_sends_the_same_link_again(
    running,
    client,
    clock,
    dynamo_faults,
    caplog,
):
    village, account, _ = seer(running)
    quick = member_links(running[2][account])[("pray", "seer_b")]
    phone = Phone(client)
    phone.get(quick)
    dynamo_faults.fail("UpdateItem", times=99, when=lambda p: ":0" in str(p) and "saves" in str(p))
    with caplog.at_level(logging.WARNING, logger="mobius.web"):
        busy = phone.post(quick)
    assert busy.status_code == 503
    page = busy.body.decode()
    assert f'<form method="post" action="{quick}">' in page
    assert actions.own_choices(load_village(village), account) == {}
    token = quick.removeprefix("/m/")
    assert all(token not in r.getMessage() for r in caplog.records)
    dynamo_faults.faults.clear()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.split("<main>")[1])
    assert csrf
    assert phone.post(quick).status_code == 303
    assert actions.own_choices(load_village(village), account) == {"pray": "seer_b"}
