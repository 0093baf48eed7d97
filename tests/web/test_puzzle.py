"""今日の盤面パズル through its routes: the page shows only A's view, answers (guests and
accounts, once a day), streaks across JST midnight, hostile input, and the daily mail."""

import copy
import email
import re
from datetime import date, datetime, timedelta
from email.header import decode_header, make_header

from chalicelib import jobs, rulesets
from chalicelib.clock import JST
from chalicelib.rules.duel import Duel
from chalicelib.services import outbox, puzzles
from chalicelib.services.puzzles import seed_of
from chalicelib.storage import puzzles as puzzle_store
from chalicelib.storage.accounts import mark_undeliverable
from chalicelib.storage.keys import PUZZLE_SK, puzzle_mail_owner, puzzle_pk
from chalicelib.storage.models import PuzzleItem
from chalicelib.storage.outbox import unsent_mail_of
from chalicelib.storage.repository import load_account
from tests.support.accounts import make_account
from tests.support.clients import alert, text
from tests.support.mail import mail_text, sent_messages
from tests.support.puzzle_days import puzzle_json, store_puzzle

CSRF_FIELD = re.compile(r'name="csrf" value="[^"]*"')
TODAY = date(2026, 12, 1)  # START is 12:00 JST on it


def replace_puzzle(day: date, data: dict, now) -> None:
    PuzzleItem(
        puzzle_pk(day.isoformat()), PUZZLE_SK, date=day.isoformat(), puzzle=data, created_at=now
    ).save()


def wrong_cards(puzzle) -> list[int]:
    return [c for c in puzzle.a_view()["alive"] if c != puzzle.answer]


def page_of(browser, path: str = "/puzzle") -> str:
    response = browser.get(path)
    assert response.status_code == 200, text(response)
    return CSRF_FIELD.sub("", text(response))


# ----- secrecy -----


def test_the_page_depends_only_on_a_s_view(browser, clock, todays_puzzle):
    before = page_of(browser)
    # Another truth behind the same public record: every card but A's masons moved, the
    # first-day truth, the fox's mode and every night's draws changed. The page must not move.
    other = copy.deepcopy(puzzle_json())
    state = other["state"]
    duel = Duel.from_json(state)
    movable = [c for c in range(duel.board + 1) if state["cards"][c] != "mason"]
    rotated = movable[1:] + movable[:1]
    cards = list(state["cards"])
    for src, dst in zip(movable, rotated, strict=True):
        cards[dst] = state["cards"][src]
    state.update(
        cards=cards,
        oracle=None,
        fox_mode="latent",
        fox_oracle=None,
        nights=[],
        guesses=[],
        madman_used=not state["madman_used"],
    )
    assert Duel.from_json(state).cards != duel.cards
    replace_puzzle(TODAY, other, clock())
    assert page_of(browser) == before
    assert 'class="truth"' not in before and "感想戦" not in before
    assert "正解は" not in before and 'id="result"' not in before


def test_the_answer_and_its_explanation_only_after_answering(browser, todays_puzzle):
    page = page_of(browser)
    assert 'name="card"' in page
    for c in todays_puzzle.a_view()["alive"]:
        assert f'name="card" value="{c}"' in page
    answered = browser.post(f"/puzzle/{TODAY}", {"card": str(todays_puzzle.answer)})
    assert answered.status_code == 200
    body = text(answered)
    assert "正解です" in body and f"正解は #{todays_puzzle.answer} の処刑です。" in body
    # The line of best play (decision 87): the answer today, then the next day's execution
    # after each night, down to the village's win.
    day = todays_puzzle.a_view()["day"]
    assert f"{day}日目に #{todays_puzzle.answer} を処刑します" in body
    assert "その夜、" in body and "人狼がいなくなり村人陣営の勝ちです" in body
    for night in todays_puzzle.line["nights"]:
        assert f"{day + 1}日目に #{night['then']['execute']} を処刑" in body
    for c in wrong_cards(todays_puzzle):
        assert f"#{c} を処刑すると" in body
    assert "ログインすると" not in body or 'name="card"' not in body


def test_a_wrong_answer_says_so_and_explains(browser, todays_puzzle):
    wrong = wrong_cards(todays_puzzle)[0]
    body = text(browser.post(f"/puzzle/{TODAY}", {"card": str(wrong)}))
    assert "不正解です" in body and f"あなたの答え: #{wrong} の処刑" in body
    assert f"正解は #{todays_puzzle.answer} の処刑です。" in body


# ----- accounts: one answer a day, streaks across JST midnight -----


def test_an_account_s_first_answer_of_the_day_counts_once(browser, clock, todays_puzzle):
    make_account("solver", clock())
    browser.login("solver")
    wrong = wrong_cards(todays_puzzle)[0]
    browser.post(f"/puzzle/{TODAY}", {"card": str(todays_puzzle.answer)})
    again = text(browser.post(f"/puzzle/{TODAY}", {"card": str(wrong)}))
    assert "今日の記録は最初の答えで決まっています" in again
    assert puzzles.record_of("solver", clock()) == puzzles.Record(1, 1, 1, 1)
    # The page shows the counted answer, not the form, and the record.
    page = page_of(browser)
    assert 'name="card"' not in page and "正解です" in page
    assert "正解 1 日・連続正解 1 日" in page


def test_streaks_count_consecutive_jst_days_across_midnight(clock, todays_puzzle):
    make_account("daily", clock())
    for n in range(5):
        store_puzzle(TODAY + timedelta(days=n), clock())
    answer = str(todays_puzzle.answer)
    wrong = str(wrong_cards(todays_puzzle)[0])
    clock.now = datetime(2026, 12, 1, 23, 59, tzinfo=JST)  # the first day's last minute
    assert puzzles.answer("daily", TODAY, answer, clock()).counted
    clock.advance(timedelta(minutes=2))  # 00:01 JST: a new day, the streak goes on
    day2 = puzzles.today(clock())
    assert day2 == TODAY + timedelta(days=1)
    assert puzzles.record_of("daily", clock()).streak == 1  # today still open
    assert puzzles.answer("daily", day2, answer, clock()).counted
    assert puzzles.record_of("daily", clock()) == puzzles.Record(2, 2, 2, 2)
    clock.advance(timedelta(days=1))  # day 3 wrong: the streak ends
    assert not puzzles.answer("daily", TODAY + timedelta(days=2), wrong, clock()).correct
    assert puzzles.record_of("daily", clock()) == puzzles.Record(2, 3, 0, 2)
    clock.advance(timedelta(days=1))  # day 4 right: a new streak of one
    puzzles.answer("daily", TODAY + timedelta(days=3), answer, clock())
    assert puzzles.record_of("daily", clock()) == puzzles.Record(3, 4, 1, 2)
    clock.advance(timedelta(days=2))  # day 5 skipped: on day 6 the streak is gone
    assert puzzles.record_of("daily", clock()).streak == 0


def test_a_past_day_and_a_guest_are_not_recorded(browser, clock, todays_puzzle):
    make_account("late", clock())
    store_puzzle(TODAY + timedelta(days=1), clock())
    clock.advance(timedelta(days=1))
    assert not puzzles.answer("late", TODAY, str(todays_puzzle.answer), clock()).counted
    assert not puzzles.answer(
        None, puzzles.today(clock()), str(todays_puzzle.answer), clock()
    ).counted
    assert puzzles.record_of("late", clock()) == puzzles.Record(0, 0, 0, 0)
    body = page_of(browser, f"/puzzle/{TODAY}")
    assert "過去の問題" in body


def test_the_day_s_puzzle_is_generated_on_first_use_and_stored_once(browser, clock, monkeypatch):
    made = []
    rules = rulesets.daily_puzzle()
    monkeypatch.setattr(rules, "generate", lambda rng: made.append(rng) or puzzle_json())
    assert puzzle_store.load_puzzle(TODAY.isoformat()) is None
    page_of(browser)
    page_of(browser)
    assert len(made) == 1 and made[0].getstate() == seed_of(TODAY).getstate()
    stored = puzzle_store.load_puzzle(TODAY.isoformat())
    assert stored == puzzle_json()
    # A second first request (it lost the race) keeps and shows the stored one.
    assert puzzle_store.save_puzzle(TODAY.isoformat(), {"other": 1}, clock()) == stored


# ----- hostile input -----


def test_an_answer_without_the_csrf_token_is_refused(browser, todays_puzzle):
    response = browser.post(f"/puzzle/{TODAY}", {"card": "1"}, csrf=False)
    assert response.status_code == 403


def test_bad_cards_are_refused_in_japanese(browser, todays_puzzle):
    dead = next(c for c in range(1, 17) if c not in todays_puzzle.a_view()["alive"])
    for value, message in (
        ("", "処刑するカードを選んでください"),
        ("abc", "処刑するカードを選んでください"),
        ("#", "処刑するカードを選んでください"),
        ("9" * 40, "処刑するカードを選んでください"),
        (str(dead), f"#{dead} は処刑できるカード（生きているカード）ではありません"),
        ("99", "#99 は処刑できるカード（生きているカード）ではありません"),
    ):
        response = browser.post(f"/puzzle/{TODAY}", {"card": value})
        assert response.status_code == 400, value
        assert alert(response) == message


def test_bad_days_are_refused_in_japanese(browser, todays_puzzle):
    for day, status, message in (
        ("2026-12-02", 404, "その日のパズルはありません"),  # tomorrow
        ("2026-11-30", 404, "その日のパズルはありません"),  # before the first
        ("2026-13-01", 400, "日付は 2026-12-01 の形で指定してください"),
        ("yesterday", 400, "日付は 2026-12-01 の形で指定してください"),
    ):
        for response in (browser.get(f"/puzzle/{day}"), browser.post(f"/puzzle/{day}", {})):
            assert response.status_code == status, day
            assert alert(response) == message


def test_a_day_never_generated_is_not_generated_by_its_page(browser, clock, todays_puzzle):
    clock.advance(timedelta(days=1))
    store_puzzle(TODAY + timedelta(days=1), clock())
    response = browser.get("/puzzle/2026-12-01")
    assert response.status_code == 200  # stored
    puzzle_store_item = puzzle_store.load_puzzle("2026-12-01")
    assert puzzle_store_item is not None


def test_the_mail_switch_needs_a_login_and_a_choice(browser, clock):
    response = browser.post("/puzzles/mail", {"mail": "on"})
    assert response.status_code == 401 and alert(response) == "ログインしてください"
    make_account("picky", clock())
    browser.login("picky")
    response = browser.post("/puzzles/mail", {"mail": "maybe"})
    assert response.status_code == 400
    assert alert(response) == "メールを受け取るか止めるかを選んでください"


# ----- the daily mail -----


def subscribe(browser, account_id: str) -> None:
    browser.login(account_id)
    assert browser.post("/puzzles/mail", {"mail": "on"}).status_code == 303


def subject(message) -> str:
    parsed = email.message_from_string(message.raw_data)
    return str(make_header(decode_header(parsed["Subject"])))


def puzzle_mails(to: str) -> list:
    return [m for m in sent_messages() if to in m.destinations and "盤面パズル" in subject(m)]


def test_the_mail_is_opt_in_once_a_day_and_stops_when_asked(new_browser, clock, todays_puzzle):
    for name in ("fan", "quiet", "bounced"):
        make_account(name, clock())
    fan, bounced = new_browser(), new_browser()
    subscribe(fan, "fan")
    subscribe(bounced, "bounced")
    assert load_account("fan").puzzle_mail and not load_account("quiet").puzzle_mail
    mark_undeliverable("bounced@example.jp")
    assert jobs.puzzle_daily() == 2  # owed to both on the list
    assert jobs.puzzle_daily() == 0  # a duplicate run owes nothing more
    mails = puzzle_mails("fan@example.jp")
    assert len(mails) == 1
    body = mail_text(mails[0])
    assert f"/puzzle/{TODAY}" in body and "正解" not in body
    assert not puzzle_mails("quiet@example.jp") and not puzzle_mails("bounced@example.jp")
    assert not unsent_mail_of(puzzle_mail_owner(TODAY.isoformat()))  # the bounced one skipped
    # Stopped from the puzzle page: tomorrow's run owes nothing.
    assert fan.post("/puzzles/mail", {"mail": "off"}).status_code == 303
    clock.advance(timedelta(days=1))
    store_puzzle(puzzles.today(clock()), clock())
    assert jobs.puzzle_daily() == 1  # only the bounced one is still listed (and skipped)
    assert len(puzzle_mails("fan@example.jp")) == 1
    assert not puzzle_mails("bounced@example.jp")


def test_the_unsubscribe_link_stops_the_puzzle_mail(browser, client, clock, todays_puzzle):
    make_account("leaver", clock())
    subscribe(browser, "leaver")
    jobs.puzzle_daily()
    mail = puzzle_mails("leaver@example.jp")[0]
    link = email.message_from_string(mail.raw_data)["List-Unsubscribe"]
    url = re.search(r"(/unsubscribe/[A-Za-z0-9_.\-]+)", link).group(1)
    assert url in mail_text(mail)
    response = client.http.post(
        url,
        headers={"content-type": "application/x-www-form-urlencoded"},
        body="List-Unsubscribe=One-Click",
    )
    assert response.status_code == 200
    assert not load_account("leaver").puzzle_mail
    assert list(puzzle_store.subscribers()) == []


def test_a_stale_day_s_mail_is_not_sent(browser, clock, todays_puzzle):
    make_account("sleepy", clock())
    subscribe(browser, "sleepy")
    puzzle_store.owe_mail(TODAY.isoformat(), "sleepy", clock())
    clock.advance(timedelta(days=1))
    outbox.deliver(clock(), unsent_mail_of(puzzle_mail_owner(TODAY.isoformat())))
    assert not puzzle_mails("sleepy@example.jp")


def test_the_account_page_switches_the_mail_too(browser, clock):
    make_account("settler", clock())
    browser.login("settler")
    page = text(browser.get("/account"))
    assert 'action="/puzzles/mail"' in page and "メールで受け取る" in page
    response = browser.post("/puzzles/mail", {"mail": "on", "back": "account"})
    assert response.status_code == 303 and response.headers["Location"] == "/account#puzzle"
    assert load_account("settler").puzzle_mail
    assert "メールを止める" in text(browser.get("/account"))


def test_the_daily_job_makes_tomorrow_s_puzzle_ahead(clock, monkeypatch):
    made = []
    rules = rulesets.daily_puzzle()
    monkeypatch.setattr(rules, "generate", lambda rng: made.append(rng) or puzzle_json())
    store_puzzle(TODAY, clock())
    jobs.puzzle_daily()
    assert len(made) == 1 and made[0].getstate() == seed_of(TODAY + timedelta(days=1)).getstate()
    assert puzzle_store.load_puzzle((TODAY + timedelta(days=1)).isoformat()) == puzzle_json()
    jobs.puzzle_daily()  # again: nothing more is made
    assert len(made) == 1


def test_a_day_whose_games_held_no_puzzle_says_so_once(browser, clock, monkeypatch):
    made = []
    rules = rulesets.daily_puzzle()
    monkeypatch.setattr(rules, "generate", lambda rng: made.append(rng))
    make_account("hopeful", clock())
    puzzles.set_mail("hopeful", True)
    for _ in range(2):
        response = browser.get("/puzzle")
        assert response.status_code == 404
        assert alert(response) == "この日のパズルは用意できませんでした。ほかの日の問題をどうぞ"
    assert browser.post(f"/puzzle/{TODAY}", {"card": "1"}).status_code == 404
    assert jobs.puzzle_daily() == 0  # no mail for a day without a puzzle
    assert len(made) == 2  # today once (stored empty), and tomorrow's


def test_the_records_page_shows_the_puzzle_streak_once_one_is_answered(
    browser, clock, todays_puzzle
):
    make_account("solver", clock())
    browser.login("solver")
    assert 'id="puzzle"' not in text(browser.get("/account/records"))
    browser.post(f"/puzzle/{TODAY}", {"card": str(todays_puzzle.answer)})
    page = text(browser.get("/account/records"))
    assert 'id="puzzle"' in page
    assert "連続正解 <strong>1</strong>日・これまでの正解 <strong>1</strong>問" in page
