"""Details of the duel's page a first game meets (issue 37): the ending board names each
card's role once; the shared record's link has a share/copy button beside its field."""

import random
import re

from tests.support.clients import alert, text
from tests.web.test_matches import play_json, random_legal, start, stored

CARD = re.compile(r'<li class="duel-card[^"]*"[^>]*>(.*?)</li>', re.S)


def played_to_the_end(browser, side: str) -> str:
    match_id = start(browser, side=side, strength="beginner")
    rng = random.Random(5)
    while stored(match_id).state != "ended":
        response = play_json(browser, match_id, random_legal(match_id, rng))
        assert response.status_code == 303, alert(response)
    return match_id


def test_the_ending_board_names_a_wolf_once_on_bs_page(browser):
    """B knew its wolves all game (a mark) and the end reveals every card (the truth): a
    wolf reads 「人狼」 once, not 「人狼 人狼」."""
    match_id = played_to_the_end(browser, "B")
    page = text(browser.get(f"/matches/{match_id}"))
    cards = CARD.findall(page)
    wolves = [c for c in cards if '<span class="truth">人狼</span>' in c]
    assert wolves and len(cards) == 9
    assert all(c.count("人狼") == 1 for c in wolves), wolves


def test_the_shared_records_link_has_a_share_button_and_a_field_to_copy_from(browser):
    match_id = played_to_the_end(browser, "A")
    browser.get(f"/matches/{match_id}")
    assert browser.post(f"/matches/{match_id}/share", {"do": "share"}).status_code == 303
    page = text(browser.get(f"/matches/{match_id}"))
    share = page[page.index('<section id="share"') :]
    share = share[: share.index("</section>")]
    field = re.search(r'<input[^>]*id="share-url"[^>]*>', share)
    assert field and "readonly" in field.group(0)  # without JavaScript: select and copy
    button = re.search(r'<button[^>]*data-copy="share-url"[^>]*>([^<]*)</button>', share)
    assert button and "hidden" in button.group(0) and button.group(1) == "リンクを共有・コピー"
    assert "/static/share." in page  # the script that shows the button and acts on it
