"""Logins, sessions and registration over HTTP (issue #9): revocable sessions, the Origin
check, registration that completes or leaves nothing, the same answer for known and unknown
addresses, resending verification, and logging in by a one-time link from mail."""

import random
import re
from datetime import timedelta
from urllib.parse import urlsplit

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError

from benchmarks.requests import counting
from chalicelib import jobs
from chalicelib.notify import ses as mail
from chalicelib.services import accounts
from chalicelib.storage import accounts as account_store
from chalicelib.storage.repository import load_account, load_village
from chalicelib.web.http import BadRequest
from chalicelib.web.http import read_session as read_cookie
from tests.support.accounts import PASSWORD, make_account
from tests.support.clients import alert, text
from tests.support.mail import REGION, mail_text, sent_messages
from tests.support.mailbox import tick
from tests.support.queues import sqs_event

LOGIN_LINK = re.compile(r"/login/link\?token=([A-Za-z0-9_\-.]+)")


def register(browser, account_id="alice", email="alice@example.jp"):
    browser.get("/register")
    return browser.post(
        "/register", {"account_id": account_id, "password": PASSWORD, "email": email}
    )


def login_link(to: str) -> str:
    for message in reversed(sent_messages()):
        if to in message.destinations:
            match = LOGIN_LINK.search(mail_text(message))
            if match:
                return match.group(1)
    raise AssertionError(f"no login link to {to}")


# ----- 2. sessions end on logout and on a new password -----


def test_logout_ends_the_session_even_in_a_copied_cookie(browser, new_browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    copy = new_browser()
    copy.cookie = browser.cookie
    assert copy.get("/account").status_code == 200
    assert browser.post("/logout").status_code == 303
    assert copy.get("/account").status_code == 401
    assert browser.get("/account").status_code == 401


def test_a_new_password_logs_out_every_other_browser(browser, new_browser, clock):
    make_account("alice", clock())
    phone = new_browser()
    phone.login("alice")
    browser.login("alice")
    browser.get("/account")
    done = browser.post("/account", {"what": "password", "old": PASSWORD, "new": "lantern moss 42"})
    assert done.status_code == 200
    assert "ほかの端末はログアウトしました" in text(done)
    assert phone.get("/account").status_code == 401
    assert browser.get("/account").status_code == 200  # this browser stays


# ----- 6. a second CSRF defence: the Origin header -----


def test_a_post_from_another_origin_is_refused(browser, clock):
    make_account("alice", clock())
    browser.get("/login")
    form = {"account_id": "alice", "password": PASSWORD, "csrf": browser.csrf}
    for extra in (
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"origin": "http://[bad"},
        {"origin": "https://127.0.0.1:8000"},  # our name under another scheme
        {"sec-fetch-site": "cross-site"},
        {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "same-site"},
    ):
        response = browser.client.http.post(
            "/login",
            headers=browser.headers({"content-type": "application/x-www-form-urlencoded", **extra}),
            body="&".join(f"{k}={v}" for k, v in form.items()).replace(" ", "+"),
        )
        assert response.status_code == 403, extra
        assert alert(response) == "ほかのサイトからの送信は受け付けていません"
    ours = browser.client.http.post(
        "/login",
        headers=browser.headers(
            {
                "content-type": "application/x-www-form-urlencoded",
                "origin": "http://127.0.0.1:8000",
                "sec-fetch-site": "same-origin",
            }
        ),
        body="&".join(f"{k}={v}" for k, v in form.items()).replace(" ", "+"),
    )
    assert ours.status_code == 303


def test_deployed_a_post_from_our_name_over_plain_http_is_refused(monkeypatch):
    """A page served over http (a network that rewrites traffic) is not our origin."""
    from chalicelib.web.http import check_origin

    monkeypatch.setenv("MOBIUS_BASE_URL", "https://mobius-jinro.example")
    monkeypatch.setenv("MOBIUS_STAGE", "prod")
    check_origin({"origin": "https://mobius-jinro.example"})
    check_origin({"origin": "https://api.example", "host": "api.example"})
    for origin, host in (
        ("http://mobius-jinro.example", None),
        ("http://api.example", "api.example"),
    ):
        with pytest.raises(BadRequest):
            check_origin({"origin": origin, "host": host} if host else {"origin": origin})


# ----- 7. registration stands; its mail is owed until it is sent (decision 84) -----


def _ses_down(*args, **kwargs):
    raise EndpointConnectionError(endpoint_url="https://email.ap-northeast-1.amazonaws.com")


def _tick(clock) -> None:
    """The minute tick, as the local runner ticks (no mail queue: it sends due mail itself)."""
    tick(clock, random.Random(1))


def test_registration_when_mail_fails_stands_and_its_mail_follows(browser, clock, monkeypatch):
    monkeypatch.setattr(mail, "send", _ses_down)
    done = register(browser)
    assert done.status_code == 200
    assert load_account("alice") is not None
    assert sent_messages() == []
    monkeypatch.undo()
    clock.advance(timedelta(minutes=1))  # the first retry's wait
    _tick(clock)
    assert [set(m.destinations) for m in sent_messages()] == [{"alice@example.jp"}]
    assert "/verify?token=" in mail_text(sent_messages()[0])


def test_a_change_of_address_when_mail_fails_is_mailed_later(browser, clock, monkeypatch):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    monkeypatch.setattr(mail, "send", _ses_down)
    form = {"what": "email", "password": PASSWORD, "email": "new@example.jp"}
    asked = browser.post("/account", form)
    assert asked.status_code == 200
    assert "確認メールを送りました" in text(asked)
    assert load_account("alice").email == "alice@example.jp"  # nothing taken before verifying
    monkeypatch.undo()
    clock.advance(timedelta(minutes=1))
    _tick(clock)
    assert [set(m.destinations) for m in sent_messages()] == [{"new@example.jp"}]


def test_the_account_page_resends_the_verification_mail(browser):
    register(browser)
    browser.login("alice")
    page = browser.get("/account")
    assert "確認メールを再送" in text(page)
    resent = browser.post("/account", {"what": "resend"})
    assert resent.status_code == 200
    assert "確認メールを送り直しました" in text(resent)
    assert len(sent_messages()) == 2
    assert "/verify?token=" in mail_text(sent_messages()[-1])


# ----- 10. registration does not tell which addresses have accounts -----


def test_registering_a_known_address_answers_alike_and_mails_its_owner(new_browser, clock):
    make_account("owner", clock())
    fresh = register(new_browser(), "newbie", "someone@example.jp")
    known = register(new_browser(), "intruder", "owner@example.jp")
    assert fresh.status_code == known.status_code == 200

    def page_of(response, address):
        return text(response).replace(address, "ADDRESS")

    # Apart from the address typed, the two pages are the same (CSRF tokens aside).
    csrf = re.compile(r'name="csrf" value="[^"]*"')
    assert csrf.sub("", page_of(fresh, "someone@example.jp")) == csrf.sub(
        "", page_of(known, "owner@example.jp")
    )
    to_owner = [m for m in sent_messages() if "owner@example.jp" in m.destinations][-1]
    # The text part's lines are cut at 78 octets (decision 88): read it as one line.
    assert "すでに ID「owner」のアカウントで使われています" in mail_text(to_owner).replace("\n", "")
    assert "/verify?token=" not in mail_text(to_owner)
    assert load_account("owner").email == "owner@example.jp"


# ----- 4. a member is never locked out: a login link by mail -----


def test_a_throttled_owner_logs_in_by_a_one_time_link_from_mail(browser, new_browser, clock):
    make_account("alice", clock())
    browser.get("/login")
    for _ in range(accounts.LOGIN_FREE_FAILURES):
        browser.post("/login", {"account_id": "alice", "password": "guess guess"})
    limited = browser.post("/login", {"account_id": "alice", "password": PASSWORD})
    assert limited.status_code == 429
    assert "ログイン用のリンクをメールで受け取る" in alert(limited)
    asked = browser.post("/login/mail", {"identifier": "alice"})
    assert asked.status_code == 200
    assert "ログイン用のリンクを送りました" in text(asked)
    token = login_link("alice@example.jp")
    # A GET (a mail scanner) logs nobody in.
    landing = browser.get("/login/link", token=token)
    assert landing.status_code == 200
    assert "ログインする" in text(landing)
    assert browser.get("/account").status_code == 401
    done = browser.post("/login/link", {"token": token})
    assert done.status_code == 303
    assert browser.get("/account").status_code == 200
    # The link works once.
    other = new_browser()
    other.get("/login")
    again = other.post("/login/link", {"token": token})
    assert again.status_code == 400
    assert "すでに使われています" in alert(again)
    assert other.get("/account").status_code == 401


@pytest.mark.parametrize("identifier", ["nobody", "nobody@example.jp", "x" * 3000, "名前"])
def test_asking_a_login_link_answers_alike_for_unknown_ids(browser, clock, identifier):
    make_account("alice", clock())
    browser.get("/login")
    known = browser.post("/login/mail", {"identifier": "alice@example.jp"})
    unknown = browser.post("/login/mail", {"identifier": identifier})
    assert known.status_code == unknown.status_code == 200
    assert "ログイン用のリンクを送りました" in text(unknown)
    assert [set(m.destinations) for m in sent_messages()] == [{"alice@example.jp"}]


def test_a_login_link_request_takes_the_same_path_for_every_address(browser, clock, monkeypatch):
    """Deployed (a mail queue): the request counts its source, owes the mail and hands it to
    the mail workers, the same calls whether the ID or address is registered or not; SES is
    never called inside it. The mail worker then mails the registered address only."""
    make_account("alice", clock())
    sqs = boto3.client("sqs", region_name=REGION)
    queue = sqs.create_queue(QueueName="mobius-mail")["QueueUrl"]
    monkeypatch.setenv("MOBIUS_MAIL_QUEUE_URL", queue)
    in_request = []
    monkeypatch.setattr(mail, "send", lambda *args, **kwargs: in_request.append(args))
    browser.get("/login")
    paths = []
    identifiers = ["alice@example.jp", "nobody@example.jp", "alice", "nobody"]
    for identifier in identifiers:
        with counting() as calls:
            answer = browser.post("/login/mail", {"identifier": identifier})
        paths.append((answer.status_code, text(answer), sorted(calls.items())))
    assert in_request == []
    assert all(path == paths[0] for path in paths), paths
    handed = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in handed] == ["accounts"] * len(identifiers)
    monkeypatch.undo()
    jobs.mail_batch(sqs_event("accounts"))
    assert [set(m.destinations) for m in sent_messages()] == [{"alice@example.jp"}] * 2
    sqs.delete_queue(QueueUrl=queue)  # moto lives as long as the package's tests


def test_login_links_are_rate_limited_per_address(browser, clock):
    make_account("alice", clock())
    browser.get("/login")
    for _ in range(accounts.MAIL_PER_ADDRESS):
        assert browser.post("/login/mail", {"identifier": "alice"}).status_code == 200
    # Past the limit the answer is the same (it tells nothing), and nothing more is sent.
    flooded = browser.post("/login/mail", {"identifier": "alice"})
    assert flooded.status_code == 200
    assert len(sent_messages()) == accounts.MAIL_PER_ADDRESS


# ----- 9. changing the address cannot flood a third party -----


def test_alternating_address_changes_cannot_flood_an_address(browser, clock):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    statuses = []
    for n in range(8):
        target = ("victim@example.jp", "other@example.jp")[n % 2]
        form = {"what": "email", "password": PASSWORD, "email": target}
        statuses.append(browser.post("/account", form).status_code)
    assert statuses.count(200) == accounts.MAIL_PER_ACCOUNT
    assert set(statuses[accounts.MAIL_PER_ACCOUNT :]) == {429}
    to_victim = [m for m in sent_messages() if "victim@example.jp" in m.destinations]
    assert len(to_victim) <= accounts.MAIL_PER_ADDRESS


def test_mail_links_point_at_our_own_site(browser):
    register(browser)
    link = re.search(r"https?://\S+/verify\?token=\S+", mail_text(sent_messages()[0])).group(0)
    assert urlsplit(link).netloc == "127.0.0.1:8000"


# ----- a page view: three requests, four when it records the access (decision 65) -----


def test_a_members_page_view_reads_the_session_before_it_records_the_access(
    game, browser, new_browser, clock
):
    vid, seated = game
    browser.login(seated["seer_a"])
    clock.advance(timedelta(minutes=5))  # the access write is due
    with counting() as calls:
        page = browser.get(f"/villages/{vid}")
    assert page.status_code == 200 and 'action="/villages/' in text(page)
    # The village, the session item, the access (a plain update, no transaction), the posts.
    assert calls == {"Query": 2, "GetItem": 1, "UpdateItem": 1}, calls
    assert load_village(vid)._members["seer_a"].last_access == clock()
    with counting() as calls:  # within the minute: no access write
        assert browser.get(f"/villages/{vid}").status_code == 200
    assert calls == {"Query": 2, "GetItem": 1}, calls
    # The page a post leads to writes no access either: the post was one.
    clock.advance(timedelta(minutes=5))
    browser.post(f"/villages/{vid}/posts", {"board": "public", "text": "おはよう"})
    with counting() as calls:
        assert browser.get(f"/villages/{vid}").status_code == 200
    assert calls == {"Query": 2, "GetItem": 1}, calls
    # A logged-out cookie copied elsewhere: the session item refuses it before any write.
    copy = new_browser()
    copy.cookie = browser.cookie
    browser.post("/logout")
    clock.advance(timedelta(minutes=5))
    seen = copy.get(f"/villages/{vid}")
    assert seen.status_code == 200
    assert f'action="/villages/{vid}/actions"' not in text(seen)
    assert load_village(vid)._members["seer_a"].last_access < clock() - timedelta(minutes=5)
    assert copy.get("/account").status_code == 401


def stale_copies(monkeypatch, stale):
    """DynamoDB's eventually consistent reads may answer from a copy that lags: ``stale``
    says what such a read finds instead of the session item (a consistent read is exact)."""
    exact = account_store.read_session

    def read_session(account_id, session_id, consistent):
        found = exact(account_id, session_id, consistent=True)
        return found if consistent else stale(found)

    monkeypatch.setattr(account_store, "read_session", read_session)


def test_a_session_just_opened_is_found_though_a_lagging_copy_misses_it(
    game, browser, clock, monkeypatch
):
    vid, seated = game
    browser.login(seated["seer_a"])
    stale_copies(monkeypatch, lambda found: None)  # the login's Put not yet everywhere
    page = browser.get(f"/villages/{vid}")
    assert f'action="/villages/{vid}/actions"' in text(page)  # still the member
    assert browser.get("/account").status_code == 200  # and the cookie was kept


def test_a_write_reads_the_session_consistently_a_page_may_read_a_lagging_copy(
    game, browser, new_browser, clock, monkeypatch
):
    """Decision 69: a session ended a moment ago never changes anything, not even the
    access a view records; a page that only reads may still show for as long as a copy
    lags (well under a second)."""
    vid, seated = game
    browser.login(seated["seer_a"])
    browser.get(f"/villages/{vid}")  # the access is recorded: none due for a minute
    visited = load_village(vid)._members["seer_a"].last_access
    copy = new_browser()
    copy.cookie = cookie = browser.cookie
    claim = read_cookie({"cookie": cookie}, clock())
    ended = account_store.read_session(claim.account_id, claim.session_id, consistent=True)
    stale_copies(monkeypatch, lambda found: ended)  # every lagging copy still has it
    browser.post("/logout")
    assert f'action="/villages/{vid}/actions"' in text(copy.get(f"/villages/{vid}"))
    refused = copy.post(f"/villages/{vid}/posts", {"board": "public", "text": "まだいる？"})
    assert refused.status_code in (401, 403)
    assert "まだいる？" not in text(browser.get(f"/villages/{vid}"))
    clock.advance(timedelta(minutes=2))  # a view now records the access: read consistently
    late = new_browser()
    late.cookie = cookie
    page = late.get(f"/villages/{vid}")
    assert f'action="/villages/{vid}/actions"' not in text(page)
    assert load_village(vid)._members["seer_a"].last_access == visited


# ----- a member who forgot the password gets back in and sets a new one -----


def test_a_login_link_lets_a_member_set_a_new_password_within_the_hour(browser, new_browser, clock):
    make_account("alice", clock())
    phone = new_browser()
    phone.login("alice")
    browser.get("/login")
    browser.post("/login/mail", {"identifier": "alice"})
    token = login_link("alice@example.jp")
    browser.get("/login/link", token=token)
    browser.post("/login/link", {"token": token})
    page = browser.get("/account")
    assert "新しいパスワードを設定" in text(page)
    assert 'name="old"' in text(page)  # the usual form is there too
    done = browser.post("/account", {"what": "reset", "new": "lantern moss 42"})
    assert done.status_code == 200
    assert "新しいパスワードを設定しました" in text(done)
    assert "新しいパスワードを設定</h2>" not in text(done)  # used up
    assert phone.get("/account").status_code == 401  # other browsers are out
    assert browser.get("/account").status_code == 200
    again = browser.post("/account", {"what": "reset", "new": "another moss 43"})
    assert again.status_code == 403
    other = new_browser()
    other.login("alice", "lantern moss 42")


def test_setting_a_password_without_the_old_one_needs_a_fresh_login_link(
    browser, new_browser, clock
):
    make_account("alice", clock())
    browser.login("alice")
    browser.get("/account")
    plain = browser.post("/account", {"what": "reset", "new": "lantern moss 42"})
    assert plain.status_code == 403
    assert "メールのリンクでログインしてから1時間以内" in alert(plain)
    linked = new_browser()
    linked.get("/login")
    linked.post("/login/mail", {"identifier": "alice"})
    token = login_link("alice@example.jp")
    linked.post("/login/link", {"token": token})
    assert "新しいパスワードを設定</h2>" in text(linked.get("/account"))
    clock.advance(timedelta(hours=1, seconds=1))
    assert "新しいパスワードを設定</h2>" not in text(linked.get("/account"))
    late = linked.post("/account", {"what": "reset", "new": "lantern moss 42"})
    assert late.status_code == 403
    assert "1時間以内" in alert(late)
    weak = new_browser()
    weak.get("/login")
    weak.post("/login/mail", {"identifier": "alice"})
    weak.post("/login/link", {"token": login_link("alice@example.jp")})
    weak.get("/account")
    refused = weak.post("/account", {"what": "reset", "new": "password"})
    assert refused.status_code == 400
    assert "推測されやすい" in alert(refused)
    browser.post("/logout")
    assert new_browser().login("alice") is not None  # the old password still works
