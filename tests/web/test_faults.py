"""When AWS fails (issue 28): a fault is never a 500 and never the player's fault.

DynamoDB fails here as it does once the SDK has given up (``tests/dynamo_faults.py``, at the
botocore client): a throttle or a 5xx is the 503 page that keeps what the player wrote; a
write that met another transaction is tried again; only a condition that did not hold is
answered with the player's sentence.
"""

import html as html_lib
import json
import logging
import random
import re

from chalicelib.rules.mobius import SLOTS
from chalicelib.services import villages as village_service
from chalicelib.storage import matches as match_store
from chalicelib.storage import villages as village_store
from chalicelib.storage.keys import board_pk
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import PASSWORD, make_account
from tests.support.clients import text
from tests.support.dynamo_faults import UNAVAILABLE
from tests.web.test_classic_village import play_to_day_2
from tests.web.test_matches import play_json, start

BUSY = "混み合っています。少し待ってからもう一度お試しください"


def names(params) -> set[str]:
    """The attribute names an update or a condition touches."""
    return set(params.get("ExpressionAttributeNames", {}).values())


def member(new_browser, seated, slot):
    browser = new_browser()
    browser.login(seated[slot])
    return browser


def public_posts(vid: str) -> list[str]:
    day = load_village(vid).day
    return [
        str(p.text) for p in village_store.read_board(board_pk(vid, "public"), day, 200, None).items
    ]


def kept_form(response) -> dict[str, str]:
    """The fields the 503 page's form sends again, as a browser would read them."""
    page = text(response)
    fields = {
        m.group(1): html_lib.unescape(m.group(2))
        for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
    }
    fields |= {
        m.group(1): html_lib.unescape(m.group(2))
        for m in re.finditer(
            r'<input id="kept-[^"]+" name="([^"]+)" type="text" value="([^"]*)"', page
        )
    }
    fields |= {
        m.group(1): html_lib.unescape(m.group(2))
        for m in re.finditer(
            r'<textarea id="kept-[^"]+" name="([^"]+)">(.*?)</textarea>', page, re.S
        )
    }
    return fields


def form_action(response) -> str:
    found = re.search(r'<form method="post" action="([^"]+)">', text(response).split("<main>")[1])
    assert found
    return found.group(1)


def is_busy(response) -> bool:
    return response.status_code == 503 and BUSY in text(response)


# ----- posts -----


def test_a_post_that_meets_a_transaction_conflict_is_tried_again_and_written_once(
    new_browser, clock, game, dynamo_faults
):
    vid, seated = game
    browser = member(new_browser, seated, SLOTS[0])
    browser.get(f"/villages/{vid}")
    dynamo_faults.fail(
        "UpdateItem", "TransactionConflictException", when=lambda p: "last_post_at" in names(p)
    )
    response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "朝です"})
    assert response.status_code == 303, text(response)
    assert public_posts(vid).count("朝です") == 1


def test_a_post_whose_write_keeps_conflicting_is_a_503_that_keeps_the_text(
    new_browser, clock, game, dynamo_faults
):
    vid, seated = game
    browser = member(new_browser, seated, SLOTS[0])
    browser.get(f"/villages/{vid}")
    dynamo_faults.cancel(["TransactionConflict"])  # nothing else here is a transaction
    dynamo_faults.fail(
        "UpdateItem",
        "TransactionConflictException",
        times=99,
        when=lambda p: "last_post_at" in names(p),
    )
    text_ = "長い推理を書きました。\n<b>二行目</b> & 三行目"
    response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": text_})
    assert is_busy(response)
    kept = kept_form(response)
    assert kept["text"] == text_ and kept["board"] == "public"
    assert form_action(response) == f"/villages/{vid}/posts"
    assert text_ not in public_posts(vid)
    # Sent again once the conflict is over, as the page offers: written.
    dynamo_faults.faults.clear()
    again = browser.post(f"/villages/{vid}/posts", kept)
    assert again.status_code == 303, text(again)
    assert public_posts(vid).count(text_) == 1


def test_a_post_whose_batch_write_is_throttled_once_is_written(
    new_browser, clock, game, dynamo_faults
):
    vid, seated = game
    browser = member(new_browser, seated, SLOTS[0])
    browser.get(f"/villages/{vid}")
    dynamo_faults.fail("BatchWriteItem")
    response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "ひとこと"})
    assert response.status_code == 303, text(response)
    assert public_posts(vid).count("ひとこと") == 1


def test_a_throttled_post_is_a_503_page_logged_in_one_line_without_the_text(
    new_browser, clock, game, dynamo_faults, caplog
):
    vid, seated = game
    browser = member(new_browser, seated, SLOTS[0])
    browser.get(f"/villages/{vid}")
    dynamo_faults.fail(
        "UpdateItem", UNAVAILABLE, times=99, when=lambda p: "last_post_at" in names(p)
    )
    with caplog.at_level(logging.WARNING, logger="mobius.web"):
        response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "秘密の推理"})
    assert is_busy(response)
    assert response.headers["Retry-After"] == "10"
    assert kept_form(response)["text"] == "秘密の推理"
    lines = [r.getMessage() for r in caplog.records if r.name == "mobius.web"]
    assert lines == ["storage fault in village_post: UpdateError UpdateItem InternalServerError"]


# ----- saves and wills -----


def test_a_throttled_save_of_choices_is_a_503_not_a_refusal(
    new_browser, clock, game, dynamo_faults
):
    vid, seated = game
    slot = SLOTS[0]
    browser = member(new_browser, seated, slot)
    browser.get(f"/villages/{vid}")
    target = SLOTS[1]
    dynamo_faults.fail("UpdateItem", times=99, when=lambda p: "saves" in names(p))
    response = browser.post(f"/villages/{vid}/actions", {"pray": target})
    assert is_busy(response)
    assert kept_form(response)["pray"] == target
    dynamo_faults.faults.clear()
    again = browser.post(f"/villages/{vid}/actions", kept_form(response))
    assert again.status_code == 303, text(again)


def test_a_throttled_will_is_a_503_that_keeps_it_not_you_are_no_member(
    new_browser, clock, dynamo_faults
):
    vid, browsers = play_to_day_2(clock, new_browser)
    record = load_village(vid)
    alive = next(
        s.account_id
        for slot, s in record.seats().items()
        if s.account_id and slot not in record.dead()
    )
    browser = browsers[alive]
    browser.get(f"/villages/{vid}")
    dynamo_faults.fail("UpdateItem", times=99, when=lambda p: "will" in names(p))
    response = browser.post(f"/villages/{vid}/will", {"text": "犯人はbb3です"})
    assert is_busy(response), text(response)
    assert "この村の村民ではありません" not in text(response)
    assert kept_form(response)["text"] == "犯人はbb3です"
    dynamo_faults.faults.clear()
    assert browser.post(f"/villages/{vid}/will", kept_form(response)).status_code == 303
    assert "犯人はbb3です" in text(browser.get(f"/villages/{vid}"))


# ----- registration -----


def account_item(params) -> bool:
    return params.get("Item", {}).get("sk", {}).get("S") == "ACCOUNT"


def test_a_throttled_registration_is_a_503_that_keeps_id_and_address_but_not_the_password(
    browser, clock, dynamo_faults
):
    browser.get("/register")
    dynamo_faults.fail("PutItem", times=99, when=account_item)
    form = {
        "account_id": "newcomer",
        "password": "a quiet village at dusk",
        "email": "n@example.jp",
    }
    response = browser.post("/register", form)
    assert is_busy(response)
    assert "このIDはすでに使われています" not in text(response)
    kept = kept_form(response)
    assert kept["account_id"] == "newcomer" and kept["email"] == "n@example.jp"
    assert "password" not in kept and "a quiet village at dusk" not in text(response)
    assert 'name="password" type="password"' in text(response)  # typed again, not sent back
    assert load_account("newcomer") is None
    dynamo_faults.faults.clear()
    again = browser.post("/register", {**kept, "password": "a quiet village at dusk"})
    assert again.status_code == 200 and "確認メール" in text(again), text(again)


def test_a_registration_that_failed_after_creating_the_account_succeeds_when_sent_again(
    browser, clock, dynamo_faults
):
    """The account was written, the mail it owes was not: the same ID, address and password
    again is the same registration, not 「このIDはすでに使われています」."""
    browser.get("/register")
    owed_mail = lambda p: p.get("Item", {}).get("mail_kind", {}).get("S") == "verify"  # noqa: E731
    dynamo_faults.fail("PutItem", times=99, when=owed_mail)
    form = {
        "account_id": "stranded",
        "password": "a quiet village at dusk",
        "email": "s@example.jp",
    }
    assert is_busy(browser.post("/register", form))
    assert load_account("stranded") is not None  # written before the fault
    dynamo_faults.faults.clear()
    again = browser.post("/register", form)
    assert again.status_code == 200 and "確認メール" in text(again), text(again)
    # Anybody else naming the ID is still refused: another address, another password.
    for other in ({**form, "email": "x@example.jp"}, {**form, "password": "another long phrase"}):
        refused = browser.post("/register", other)
        assert refused.status_code == 409 and "このIDはすでに使われています" in text(refused)


# ----- pages and JSON -----


def test_a_village_page_whose_read_fails_is_a_503_page(browser, clock, game, dynamo_faults):
    vid, _ = game
    dynamo_faults.fail("Query", UNAVAILABLE, times=99)
    response = browser.get(f"/villages/{vid}")
    assert is_busy(response)
    assert "もう一度送る" not in text(response)  # a GET sent nothing to keep


def test_the_duels_json_view_and_poll_answer_a_fault_with_503_json(browser, clock, dynamo_faults):
    match_id = start(browser)
    dynamo_faults.fail("GetItem", times=99)
    for path in (f"/matches/{match_id}/view", f"/matches/{match_id}/since/0"):
        response = browser.get(path)
        assert response.status_code == 503, (path, text(response))
        assert response.headers["Content-Type"].startswith("application/json")
        assert json.loads(text(response)) == {"error": "busy", "message": BUSY}


def test_a_duel_move_that_meets_a_transaction_conflict_is_played_not_called_stale(
    browser, clock, dynamo_faults
):
    match_id = start(browser)
    dynamo_faults.cancel(["TransactionConflict"])
    response = play_json(browser, match_id, {"do": "co", "roles": ["seer"]})
    assert response.headers["Location"] == f"/matches/{match_id}", response.headers["Location"]
    assert match_store.load_match(match_id).moves == 2  # the move and the CPU's answer


def test_a_signed_in_account_page_fault_keeps_no_password(browser, clock, dynamo_faults):
    make_account("keeper", clock())
    browser.login("keeper")
    browser.get("/account")
    dynamo_faults.fail("UpdateItem", times=99, when=lambda p: "password_hash" in names(p))
    form = {"what": "password", "old": PASSWORD, "new": "a brand new long phrase"}
    response = browser.post("/account", form)
    assert is_busy(response), text(response)
    assert PASSWORD not in text(response) and "a brand new long phrase" not in text(response)
    assert kept_form(response) == {"csrf": browser.csrf, "what": "password"}  # typed again


def test_a_throttled_join_of_an_invitation_is_a_503_not_the_seat_is_taken(
    browser, new_browser, clock, dynamo_faults
):
    match_id = start(browser, preset="std9", side="B", clock="3m", opponent="invite")
    friend = new_browser()
    friend.get(f"/matches/{match_id}")
    dynamo_faults.fail("TransactWriteItems", times=99)
    response = friend.post(f"/matches/{match_id}/join")
    assert is_busy(response)
    assert "この対局にはもう空いている席がありません" not in text(response)
    dynamo_faults.faults.clear()
    assert friend.post(f"/matches/{match_id}/join").status_code == 303


def test_a_post_that_meets_three_conflicts_in_a_row_is_a_503_that_keeps_the_text(
    new_browser, clock, game, dynamo_faults
):
    vid, seated = game
    browser = member(new_browser, seated, SLOTS[0])
    browser.get(f"/villages/{vid}")
    dynamo_faults.fail("UpdateItem", "TransactionConflictException", times=3)
    response = browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "三度目"})
    assert is_busy(response), text(response)[:500]
    assert kept_form(response)["text"] == "三度目"
    assert "三度目" not in public_posts(vid)


def test_a_village_join_that_meets_one_conflict_seats_and_one_that_keeps_conflicting_is_a_503(
    new_browser, clock, dynamo_faults
):
    """A join's transaction (META and the account are versioned, decision 154): one conflict
    is tried again and seats the player; conflicts that persist are the 503 page that keeps
    the choice made, and nothing is written."""
    vid = village_service.create_village(
        village_service.AskedVillage(pace="short", name="村"), now=clock(), rng=random.Random(5)
    )
    for name, slot, persona, conflicts in (
        ("ann", "seer_a", "kaede", 1),
        ("bob", "seer_b", "genzo", 99),
    ):
        make_account(name, clock())
        browser = new_browser()
        browser.login(name)
        browser.get(f"/villages/{vid}")
        dynamo_faults.faults.clear()
        dynamo_faults.cancel(["TransactionConflict"], times=conflicts)
        response = browser.post(f"/villages/{vid}/join", {"slot": slot, "persona": persona})
        if conflicts == 1:
            assert response.status_code == 303, text(response)[:300]
            assert load_village(vid)._members[slot].account_id == name
        else:
            assert is_busy(response)
            assert kept_form(response) == {"csrf": browser.csrf, "slot": slot, "persona": persona}
            assert load_village(vid)._members[slot].account_id is None
