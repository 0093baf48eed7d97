"""The local-only pages: sent mail with clickable links, and a clock to move forward."""

import pytest

from chalicelib import runtime
from tests.web.conftest import alert, text


class LocalVillage:
    """What the local runner lends the app (devserver.LocalVillage), recorded."""

    def __init__(self) -> None:
        self.moved: list[int] = []

    def mails(self) -> list[dict]:
        return [
            {
                "to": "alice@example.jp",
                "subject": "【メビウス人狼】メールアドレスの確認",
                "text": "下のリンクを開いてください。\nhttp://127.0.0.1:8000/verify?token=abc\n",
                "sent_at": "2026-12-01T12:00:00+09:00",
            }
        ]

    def advance_clock(self, minutes: int) -> None:
        self.moved.append(minutes)


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
    assert "【メビウス人狼】メールアドレスの確認" in page
    assert "alice@example.jp" in page
    assert '<a href="http://127.0.0.1:8000/verify?token=abc"' in page


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
