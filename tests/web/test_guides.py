"""遊び方 (issue 37): a short page for each game, linked from the top page, every game's page and
the forms that start one, and one glossary whose anchors every term on a form links to."""

import random
import re

import pytest

from chalicelib.services import villages
from chalicelib.web import guides, static
from chalicelib.web.http import PUBLIC
from tests.support.clients import header, text

from .test_matches import game_of, play_json, random_legal, start, stored

TERM_LINK = re.compile(r'href="/howto/terms#([\w-]+)"')
ANCHOR = re.compile(r'id="([\w-]+)"')
GUIDES = {"duel": "2人で遊ぶ人狼", "mobius": "メビウス人狼", "classic": "人狼BBS式"}


def anchors(browser) -> set[str]:
    return set(ANCHOR.findall(text(browser.get("/howto/terms"))))


def linked_terms(page: str, known: set[str]) -> list[str]:
    """The glossary anchors a page links; each must be on the glossary page."""
    found = TERM_LINK.findall(page)
    assert set(found) <= known, set(found) - known
    return found


@pytest.mark.parametrize("name", ["", "/duel", "/mobius", "/classic", "/terms"])
def test_each_guide_is_a_public_page_linking_the_others(browser, name):
    response = browser.get(f"/howto{name}")
    assert response.status_code == 200
    assert header(response, "Cache-Control") == PUBLIC  # nothing private: cacheable
    page = text(response)
    for other in [*GUIDES, "terms"]:
        assert f'href="/howto/{other}"' in page
    linked_terms(page, anchors(browser))


@pytest.mark.parametrize("name", ["nonsense", "index2", "Duel", "terms%2F..", "_terms"])
def test_an_unknown_guide_is_the_404_page(browser, name):
    response = browser.get(f"/howto/{name}")
    assert response.status_code == 404
    assert "ページが見つかりません" in text(response)


def test_every_game_s_guide_tells_its_sides_its_day_and_how_to_play_by_phone_and_mail(browser):
    for name, title in GUIDES.items():
        page = text(browser.get(f"/howto/{name}"))
        assert f"<h1>{title}の遊び方</h1>" in page
        for section in ("what", "day", "phone", "mail", "end"):
            assert f'id="{section}"' in page, (name, section)
        assert 'class="illust"' in page  # a drawing of the board or a form


def test_the_glossary_explains_every_term_the_issue_names_once(browser):
    page = text(browser.get("/howto/terms"))
    words = ["CO要請", "指名CO", "範囲指定", "候補を指定(重み)", "GJならCO", "PP・RPP"]
    words += ["祈り", "灰", "ロスタイム", "鬼・鬼サイド", "突然死", "身代わり君", "開始投票"]
    for word in words:
        assert page.count(f">{word}</dt>") == 1, word
    ids = ANCHOR.findall(page)
    assert len(ids) == len(set(ids))  # one anchor a term


def test_the_top_page_and_its_start_form_link_each_guide(browser):
    page = text(browser.get("/"))
    for name in GUIDES:
        assert f'href="/howto/{name}"' in page
    form = page[page.index('<section id="vs-cpu"') :]
    assert 'href="/howto/duel">遊び方</a>' in form[: form.index("</form>")]
    assert '<a href="/howto">遊び方・用語集</a></footer>' in page  # every page's footer


def test_the_duel_forms_link_each_term_to_the_glossary(browser):
    known = anchors(browser)
    match_id = start(browser, preset="12A")  # A's day: gidra too
    page = text(browser.get(f"/matches/{match_id}"))
    assert 'href="/howto/duel">遊び方</a>' in page
    day = linked_terms(page, known)
    assert {"co-request", "range", "named-co", "gidra"} <= set(day)
    assert '<abbr title="A の質問。' in page  # the short sense in place
    browser.post(
        f"/matches/{match_id}/moves",
        {"moves": str(stored(match_id).moves), "do": "execute", "card": "1", "confirm": "1"},
    )
    night = linked_terms(text(browser.get(f"/matches/{match_id}")), known)
    assert {"weights", "gj-co", "latent"} <= set(night)


def test_b_s_power_play_check_links_pp(browser):
    known = anchors(browser)
    match_id = start(browser, preset="std9", side="B")
    rng = random.Random(11)
    while game_of(match_id).phase not in ("B:pp", "end"):
        play_json(browser, match_id, random_legal(match_id, rng))
    assert game_of(match_id).phase == "B:pp"
    assert "pp" in linked_terms(text(browser.get(f"/matches/{match_id}")), known)


def test_a_mobius_village_links_its_guide_and_its_terms(browser, game):
    village_id, seated = game
    known = anchors(browser)
    visitor = text(browser.get(f"/villages/{village_id}"))
    assert 'href="/howto/mobius">遊び方</a>' in visitor
    browser.login(seated["seer_a"])
    page = text(browser.get(f"/villages/{village_id}"))
    terms = linked_terms(page, known)
    assert "pray" in terms  # 祈り on the action form
    assert 'aria-label="祈りとは"' in page


def test_a_classic_village_and_its_join_form_link_its_guide(browser, clock):
    village_id = villages.create_village(
        villages.AskedVillage(pace="short", name="人狼BBS村", rules="classic"),
        now=clock(),
        rng=random.Random(7),
    )
    page = text(browser.get(f"/villages/{village_id}"))
    assert 'href="/howto/classic">遊び方</a>' in page
    assert "start-vote" in linked_terms(page, anchors(browser))  # the prologue's count


def test_a_game_against_the_beginner_cpu_hints_each_move_and_others_do_not(browser):
    known = anchors(browser)
    learning = start(browser, strength="beginner")
    page = text(browser.get(f"/matches/{learning}"))
    assert 'id="hint"' in page and "ヒント（入門）" in page
    assert "co-request" in linked_terms(page[page.index('id="hint"') :], known)  # ask first
    # Once claims are out, the day's hint turns to comparing them.
    played = play_json(browser, learning, {"do": "co", "roles": ["seer", "medium"]})
    assert played.status_code == 303
    assert "報告をくらべましょう" in text(browser.get(f"/matches/{learning}"))
    normal = start(browser, strength="normal")
    assert 'id="hint"' not in text(browser.get(f"/matches/{normal}"))


def test_b_s_hints_against_the_beginner_cpu(browser):
    learning = start(browser, side="B", strength="beginner")
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        phase = game_of(learning).phase
        if phase == "end":
            break
        page = text(browser.get(f"/matches/{learning}"))
        if phase.startswith("B:"):
            assert 'id="hint"' in page, phase
            seen.add(phase)
        play_json(browser, learning, random_legal(learning, rng))
    assert {"B:answer", "B:night"} <= seen


def test_the_guides_carry_their_own_styles_inline_and_other_pages_do_not(browser):
    own = static.files()[guides.STYLE]
    guide = browser.get("/howto/duel")
    assert f"<style>{own.body}</style>" in text(guide)
    assert own.inline_source in header(guide, "Content-Security-Policy")
    lounge = browser.get("/")
    assert own.body not in text(lounge)
    assert own.inline_source not in header(lounge, "Content-Security-Policy")
