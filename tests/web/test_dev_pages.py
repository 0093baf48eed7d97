"""The local-only pages: sent mail with clickable links, and a clock to move forward."""

import html as html_module
import random
import re
from datetime import datetime, timedelta

import pytest

from chalicelib import runtime
from chalicelib.clock import jst
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.storage.repository import load_village
from tests.support import classic_villages as classic
from tests.support.accounts import make_account
from tests.support.clients import Browser, alert, text
from tests.support.mail import sent_messages
from tests.support.mailbox import tick


class LocalVillage:
    """What the local runner lends the app (devserver.LocalVillage), recorded."""

    def __init__(self) -> None:
        self.moved: list[int] = []
        self.to: list[datetime] = []

    def mails(self) -> list[dict]:
        return [
            {
                "to": "alice@example.jp",
                "subject": "【人狼ひろば】メールアドレスの確認",
                "text": "下のリンクを開いてください。\nhttp://127.0.0.1:8000/verify?token=abc\n",
                "sent_at": "2026-12-01T12:00:00+09:00",
            },
            {
                "to": "bob@example.jp",
                "subject": "【人狼ひろば・人狼BBS式】1番 村：2日目の朝になりました",
                "text": "村を開く（ログイン不要）:\nhttp://127.0.0.1:8000/m/abc\n",
                "html": '<html><head><title>t</title></head><body><p><a href="http://127.0.0.1:8000/m/vote">B</a></p></body></html>',
                "sent_at": "2026-12-01T12:01:00+09:00",
            },
        ]

    def advance_clock(self, minutes: int) -> None:
        self.moved.append(minutes)

    def advance_to(self, at: datetime) -> None:
        self.to.append(at)


@pytest.fixture
def local_village():
    tools = LocalVillage()
    runtime.set_dev_tools(tools)
    yield tools
    runtime.set_dev_tools(None)


def test_dev_pages_do_not_exist_without_the_local_runner(browser):
    for path in ("/dev/outbox", "/dev/clock"):
        response = browser.get(path)
        assert response.status_code == 404
        assert alert(response) == "ページが見つかりません"


def test_dev_pages_do_not_exist_in_a_deployed_stage(prod_client, local_village):
    assert prod_client.http.get("/dev/outbox").status_code == 404


def test_the_outbox_lists_sent_mail_with_clickable_links(browser, local_village):
    page = text(browser.get("/dev/outbox"))
    assert "【人狼ひろば】メールアドレスの確認" in page
    assert "alice@example.jp" in page
    assert '<a href="http://127.0.0.1:8000/verify?token=abc"' in page
    # Sent at 12:00 JST, shown in JST as every time is.
    assert "alice@example.jp・2026年12月1日 12:00" in page
    assert "2026-12-01T" not in page


def test_the_outbox_shows_a_mails_html_part_in_a_sandboxed_frame_whose_links_work(
    browser, local_village
):
    """Issue 37: the one-tap choices live in the HTML part. It is shown as the mail client
    shows it, in a frame without scripts or this page's origin, its links opening in the
    window (the confirmation page, as from the mail); a text-only mail has no frame."""
    page = text(browser.get("/dev/outbox"))
    frames = re.findall(r"<iframe[^>]*>", page)
    assert len(frames) == 1
    [frame] = frames
    assert 'sandbox="allow-top-navigation-by-user-activation"' in frame
    assert "allow-scripts" not in frame and "allow-same-origin" not in frame
    srcdoc = html_module.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1))
    assert '<head><base target="_top">' in srcdoc
    assert '<a href="http://127.0.0.1:8000/m/vote">B</a>' in srcdoc
    assert '<a href="http://127.0.0.1:8000/m/vote">' not in page.replace(frame, "")


def test_the_clock_moves_forward_by_the_minutes_chosen(browser, local_village):
    assert browser.get("/dev/clock").status_code == 200
    moved = browser.post("/dev/clock", {"minutes": "60"})
    assert moved.status_code == 303
    assert local_village.moved == [60]
    for bad in ("0", "abc", "99999999"):
        refused = browser.post("/dev/clock", {"minutes": bad})
        assert refused.status_code == 400
        assert "進める分数は1〜" in alert(refused)
    assert local_village.moved == [60]


def test_the_local_runner_links_its_pages_from_every_page(browser, local_village):
    page = text(browser.get("/"))
    assert '<a href="/dev/outbox" title="送信メール（ローカル）">メール</a>' in page
    assert '<a href="/dev/clock" title="時計（ローカル）">時計</a>' in page


def test_no_dev_links_without_the_local_runner(browser):
    assert "/dev/outbox" not in text(browser.get("/"))


def test_the_clock_moves_a_village_to_its_next_phase(browser, local_village, clock, game):
    vid, _ = game
    meta = load_village(vid)._meta
    short = TIMINGS[Pace.SHORT]
    clock.advance(timedelta(minutes=3, seconds=20))  # day 1, 3 min 20 s in
    page = text(browser.get("/dev/clock"))
    card = re.search(rf'<a href="/villages/{vid}">.*?</section>', page, re.S).group(0)
    assert "短期・進行中・いまは昼" in card
    assert f"次の更新: {jst(meta.next_update)}" in card
    buttons = re.findall(r'name="to" value="([a-z_]+)">(.+?)（', card)
    assert buttons == [("loss_time", "ロスタイムへ"), ("night", "夜へ"), ("update", "次の更新へ")]
    deadline = meta.day_started_at + short.day
    steps = {
        "loss_time": deadline,
        "night": deadline + short.loss_time,
        "update": meta.next_update,
    }
    for step, moment in steps.items():
        moved = browser.post("/dev/clock", {"to": step, "village": vid})
        assert moved.status_code == 303
        assert local_village.to[-1] == moment  # exactly there
    # In loss time only the night and the update are ahead.
    clock.now = deadline + timedelta(minutes=1)
    card = re.search(
        rf'<a href="/villages/{vid}">.*?</section>', text(browser.get("/dev/clock")), re.S
    )
    assert "いまはロスタイム" in card.group(0)
    assert 'value="loss_time"' not in card.group(0)
    refused = browser.post("/dev/clock", {"to": "loss_time", "village": vid})
    assert refused.status_code == 400
    assert alert(refused) == "その村の、その時刻へは進められません"
    for bad in ({"to": "dawn", "village": vid}, {"to": "night", "village": "999"}):
        assert browser.post("/dev/clock", bad).status_code == 400
    assert len(local_village.to) == 3 and local_village.moved == []


class SteppingVillage(LocalVillage):
    """The local runner's clock as it moves: the test clock goes exactly where asked and the
    scheduler ticks, as devserver.LocalVillage does."""

    def __init__(self, clock) -> None:
        super().__init__()
        self.clock = clock

    def advance_to(self, at: datetime) -> None:
        super().advance_to(at)
        self.clock.now = max(self.clock.now, at)
        tick(self.clock, random.Random(7))


def test_the_clock_steps_a_classic_village_from_prologue_to_epilogue_by_labelled_buttons(
    browser, clock
):
    """Issue 23: every event of a classic village is a labelled button that goes exactly to
    it; pressing the first button each time walks the village to its end."""
    tools = SteppingVillage(clock)
    runtime.set_dev_tools(tools)
    try:
        accounts = [make_account(f"dc{n}", clock()) for n in range(4)]
        vid = classic.create(clock, random.Random(3), opening=True)
        classic.join_all(vid, accounts, clock)

        def buttons() -> list[tuple[str, str]]:
            page = text(browser.get("/dev/clock"))
            card = re.search(rf'<a href="/villages/{vid}">.*?</section>', page, re.S)
            found = r'name="to" value="([a-z_]+)">(.+?)（\d{4}年'
            return re.findall(found, card.group(0)) if card else []

        assert buttons() == [("abandon", "廃村の時刻へ（始まっていなければ廃村になります）")]
        classic.start(vid, accounts, clock)
        pressed = []
        for _ in range(20):
            shown = buttons()
            if not shown:
                break
            to, label = shown[0]
            pressed.append(label)
            before = load_village(vid)._meta.next_update
            assert browser.post("/dev/clock", {"to": to, "village": vid}).status_code == 303
            if to != "sunset" or label.startswith("日没へ（1日目"):
                assert tools.to[-1] == before  # the event itself, exactly
        assert pressed[:2] == ["日没へ（1日目の夜になります）", "夜明けへ（2日目の朝）"]
        assert pressed[2:4] == ["日没へ（超過時間に入ります）", "第1回投票の締め切りへ"]
        assert pressed[-1] == "エピローグの終わりへ（村が閉じます）"
        assert load_village(vid).state.value == "ended"
        assert "夜へ" not in pressed  # never the Mobius words
    finally:
        runtime.set_dev_tools(None)


def test_issue24_dev_accounts_makes_verified_test_accounts_and_logs_in_as_each_in_one_click(
    browser, local_village
):
    from chalicelib.web.dev_pages import TEST_PASSWORD

    page = text(browser.get("/dev/accounts"))
    assert "まだテスト用アカウントはありません" in page and TEST_PASSWORD in page
    assert browser.post("/dev/accounts", {"count": "2"}).status_code == 303
    assert browser.post("/dev/accounts", {"count": "1"}).status_code == 303  # the next free ID
    page = text(browser.get("/dev/accounts"))
    assert [a for a in ("test01", "test02", "test03", "test04") if f"{a} でログイン" in page] == [
        "test01",
        "test02",
        "test03",
    ]
    logged = browser.post("/dev/accounts", {"login": "test02"})
    assert logged.status_code == 303
    assert "test02" in text(browser.get("/"))
    # The known password works on the ordinary login page too.
    other = Browser(browser.client)
    other.login("test03", TEST_PASSWORD)
    for bad in ({"count": "0"}, {"count": "99"}, {"count": "x"}, {"login": "someone"}):
        assert browser.post("/dev/accounts", bad).status_code == 400


def test_issue24_dev_accounts_does_not_exist_without_the_local_runner(browser, prod_client):
    assert browser.get("/dev/accounts").status_code == 404
    assert prod_client.http.get("/dev/accounts").status_code == 404


def test_the_inbox_sends_a_reply_as_a_member_and_the_receipt_is_mailed(
    browser, local_village, game
):
    """Issue 27: /dev/inbox replies as a member; the reply is applied and its receipt sent."""
    vid, _ = game
    page = text(browser.get("/dev/inbox"))
    assert f'<option value="{vid}:commoner_a">' in page
    before = len(sent_messages())
    answer = browser.post("/dev/inbox", {"seat": f"{vid}:commoner_a", "text": "祈り 霊能者A"})
    assert answer.status_code == 200
    assert "受け付けました" in text(answer)
    record = load_village(vid)
    assert record.saved(record.day)["commoner_a"] == {"pray": "medium_a"}
    assert len(sent_messages()) == before + 1
    pasted = browser.post("/dev/inbox", {"raw": "From: x@example.jp\r\n\r\n祈り 霊能者A\r\n"})
    assert pasted.status_code == 200 and "捨てました" in text(pasted)


def test_the_inbox_does_not_exist_without_the_local_runner(browser, prod_client):
    assert browser.get("/dev/inbox").status_code == 404
    assert prod_client.http.get("/dev/inbox").status_code == 404


def test_the_inbox_sends_a_reply_as_a_correspondence_duels_player_and_the_move_is_played(
    browser, new_browser, clock, local_village
):
    """Issue 27 for duels: /dev/inbox lists each side of the running correspondence games (of
    the test accounts and of whoever is logged in) and replies as its player to the mail of
    the game's move now; the move is played and confirmed by mail."""
    from tests.web.test_match_mail import two_people
    from tests.web.test_matches import stored

    match_id, _ = two_people(browser, new_browser, clock, control="day")
    page = text(browser.get("/dev/inbox"))
    assert f'<option value="M:{match_id}:A">' in page
    assert f'<option value="M:{match_id}:B">' in page
    before = len(sent_messages())
    answer = browser.post("/dev/inbox", {"seat": f"M:{match_id}:A", "text": "CO要請 占い師"})
    assert answer.status_code == 200 and "受け付けました" in text(answer)
    assert stored(match_id).moves == 1
    # alice's confirmation and bob's turn.
    assert len(sent_messages()) == before + 2
    gone = browser.post("/dev/inbox", {"seat": "M:nosuchgame00000:A", "text": "処刑 1"})
    assert gone.status_code == 400


def test_the_inbox_offers_each_game_once_and_only_the_seats_people_play(
    browser, new_browser, clock, local_village
):
    """Issue 37: a game between two test accounts is on both their lists: its sides are
    offered once each; a practice village's computer members read no mail: never offered
    (nor preselected as the first option)."""
    from chalicelib.services import villages
    from tests.web.test_matches import start

    for name in ("test01", "test02"):
        make_account(name, clock())
    browser.login("test01")
    match_id = start(browser, clock="day", opponent="invite")
    friend = new_browser()
    friend.login("test02")
    friend.get(f"/matches/{match_id}")
    assert friend.post(f"/matches/{match_id}/join").status_code == 303
    vid = villages.create_village(
        villages.AskedVillage(
            pace="short", name="練習村", rules="classic", cpu_members=4, practice=True
        ),
        now=clock(),
        rng=random.Random(1),
    )
    page = text(browser.get("/dev/inbox"))
    assert page.count(f'<option value="M:{match_id}:A">') == 1
    assert page.count(f'<option value="M:{match_id}:B">') == 1
    assert f'<option value="{vid}:' not in page  # only CPUs sit there yet
    assert "（CPU）" not in page and "cpu:" not in page
