"""Signed links in mail: the member's way in, one-tap choices, one-click unsubscribe.

A GET only shows a confirmation page and changes nothing; the POST there acts, and doing
it twice changes nothing more. Links are bound to account, village and day, and expire at
the next update.
"""

import re
from datetime import timedelta

from chalicelib import links, signing
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import actions, posts, villages
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import (
    MailBox,
    Phone,
    account_of,
    alert,
    body_of,
    header,
    member_links,
    path_of,
    seer,
    session_account,
    split_idle_warnings,
    tick,
)

SHORT = TIMINGS[Pace.SHORT]
EXPIRED = "このリンクは正しくないか、期限が切れています。村のページからログインしてください"
NOT_A_MEMBER = "このリンクの持ち主は、いまこの村の村民ではありません"


# ----- tokens -----


def test_member_tokens_are_bound_signed_and_expire(clock):
    until = clock() + timedelta(hours=1)
    token = links.member_token(links.MemberLink("alice", "7", 2, "pray", "seer_b"), until)
    link = links.read_member_token(token, clock())
    assert (link.account_id, link.village_id, link.day, link.key, link.target) == (
        "alice",
        "7",
        2,
        "pray",
        "seer_b",
    )
    assert links.read_member_token(token, until - timedelta(seconds=1)) is not None
    assert links.read_member_token(token, until) is None  # expired at the update
    payload, signature = token.rsplit(".", 1)
    assert links.read_member_token(payload + "." + signature[::-1], clock()) is None
    forged = signing.sign("member", {"a": "mallory", "v": "7", "d": 2}, until)
    assert links.read_member_token(forged.rsplit(".", 1)[0] + "." + signature, clock()) is None
    # A token made for another purpose never passes as a member link, nor the other way.
    unsubscribe = links.unsubscribe_url("alice", clock()).rsplit("/", 1)[1]
    assert links.read_member_token(unsubscribe, clock()) is None
    assert links.read_unsubscribe_token(token, clock()) is None
    assert links.read_unsubscribe_token(unsubscribe, clock()) == "alice"


def test_tokens_signed_with_another_key_are_refused(clock, monkeypatch):
    until = clock() + timedelta(hours=1)
    token = links.member_token(links.MemberLink("alice", "7", 2), until)
    monkeypatch.setenv("MOBIUS_SECRET", "another-key")
    assert links.read_member_token(token, clock()) is None


# ----- the personal link -----


def test_the_personal_link_shows_a_page_on_get_and_signs_in_on_post(running, client, clock):
    village, seated, mails = running
    account = seated["guard_a"]
    path = member_links(mails[account])[(None, None)]
    before = load_village(village)._members["guard_a"].last_access
    clock.advance(timedelta(minutes=2))
    phone = Phone(client)
    page = phone.get(path)
    assert page.status_code == 200
    assert f"{account} さんとして村に入ります" in body_of(page)
    assert f'action="{path}"' in body_of(page)
    # The mail said 「村を開く（ログイン不要）」: the button says the same, not 「ログインして…」.
    assert '<button type="submit">村を開く</button>' in body_of(page)
    assert "ログイン" not in body_of(page).split("<main")[-1]
    # A GET (a mail scanner) signs nobody in and records no access.
    assert session_account(page) is None
    assert load_village(village)._members["guard_a"].last_access == before
    done = phone.post(path)
    assert done.status_code == 303
    assert header(done, "Location") == f"/villages/{village}"
    assert session_account(done) == account
    # The village page then knows the member, and records the visit (decision 66).
    assert load_village(village)._members["guard_a"].last_access == before
    assert phone.get(f"/villages/{village}").status_code == 200
    assert load_village(village)._members["guard_a"].last_access == clock()


def test_a_link_without_the_page_s_csrf_token_does_nothing(running, client):
    village, seated, mails = running
    path = member_links(mails[seated["seer_a"]])[("pray", "seer_b")]
    refused = Phone(client).post(path, csrf=False)
    assert refused.status_code == 403
    assert actions.own_choices(load_village(village), seated["seer_a"]) == {}


# ----- quick links -----


def test_a_quick_link_confirms_on_get_and_saves_on_post_keeping_other_choices(
    running, client, clock
):
    village, account, slot = seer(running)
    mails = running[2]
    quick = member_links(mails[account])
    assert ("pray", "seer_b") in quick and ("divine", "assassin") in quick
    assert all(key in ("pray", "divine") for key, _ in quick if key)
    assert (("pray", slot)) not in quick  # never oneself
    actions.save_actions(village, account, {"divine": "assassin"}, clock())
    phone = Phone(client)
    page = phone.get(quick[("pray", "seer_b")])
    assert page.status_code == 200
    assert "祈り" in body_of(page) and "占い師B" in body_of(page)
    assert "この内容で行動" in body_of(page)
    assert actions.own_choices(load_village(village), account) == {"divine": "assassin"}
    saves = load_village(village)._days[1].saves

    cookie, csrf = phone.cookie, phone.csrf
    done = phone.post(quick[("pray", "seer_b")])
    assert done.status_code == 303
    assert header(done, "Location") == f"/villages/{village}?done=saved#actions"
    assert session_account(done) == account
    wanted = {"divine": "assassin", "pray": "seer_b"}
    assert actions.own_choices(load_village(village), account) == wanted
    # The very same POST again (a double tap): the same choices.
    phone.cookie, phone.csrf = cookie, csrf
    assert phone.post(quick[("pray", "seer_b")]).status_code == 303
    assert actions.own_choices(load_village(village), account) == wanted
    # The repeat found the choice already set and saved nothing (a quick link acts once).
    assert load_village(village)._days[1].saves == saves + 1


def test_the_page_a_quick_link_leads_to_marks_what_came_since_the_last_visit(
    running, client, clock
):
    """The save is the member's access: the page after it still marks the posts written
    since the member last looked (decision 66)."""
    village, account, _ = seer(running)
    mails = running[2]
    clock.advance(timedelta(minutes=10))
    posts.post(village, running[1]["seer_b"], "public", "占い師Aはどう思う？", clock())
    clock.advance(timedelta(minutes=10))
    phone = Phone(client)
    phone.get(member_links(mails[account])[("pray", "seer_b")])
    done = phone.post(member_links(mails[account])[("pray", "seer_b")])
    page = body_of(phone.get(header(done, "Location").split("#")[0]))
    assert page.count('<span class="new">未読</span>') == 1
    assert "占い師Aはどう思う？" in page


def test_links_expire_at_the_update_and_are_refused_after_it(running, client, clock, rng):
    village, account, _ = seer(running)
    quick = member_links(running[2][account])
    update_at = load_village(village)._meta.next_update
    # Past the update time, even before the scheduler ran it: expired.
    clock.now = update_at + timedelta(seconds=1)
    for path in (quick[(None, None)], quick[("pray", "seer_b")]):
        expired = Phone(client).get(path)
        assert expired.status_code == 400
        assert alert(expired) == EXPIRED
    # After the update the day has changed: replaying the old link does nothing.
    clock.now = update_at
    tick(clock, rng)
    assert load_village(village).game.day == 2
    phone = Phone(client)
    replay = phone.get(quick[("pray", "seer_b")])
    assert replay.status_code == 400
    phone.get("/login")  # a page with a form: a valid CSRF token for the replayed POST
    replayed = phone.post(quick[("pray", "seer_b")])
    assert replayed.status_code == 400
    assert alert(replayed) == EXPIRED
    assert actions.own_choices(load_village(village), account) == {}


def test_the_idle_warning_s_link_works_until_the_departure_it_announces(
    running, client, clock, rng
):
    """The warning (decision 140) names a departure after the village's next update: its
    link works until that departure, across the update (issue 38), and using it keeps the
    seat; after the departure it is refused like any expired link."""
    village, seated, _ = running
    box = MailBox()
    begin = load_village(village)._meta.day_started_at
    clock.now = begin + timedelta(minutes=46)  # the visits were at 1 min: due at 61 min
    tick(clock, rng)
    _, warned = split_idle_warnings(box.new())
    by_account = {account_of(m): m for m in warned}
    path = member_links(by_account[seated["guard_a"]])[(None, None)]
    late = member_links(by_account[seated["guard_b"]])[(None, None)]
    due = begin + timedelta(minutes=61)
    update_at = load_village(village)._meta.next_update
    assert update_at < due
    clock.now = update_at
    tick(clock, rng)  # day 2 begins: the day the link was made for is over
    assert load_village(village).game.day == 2
    clock.now = update_at + timedelta(seconds=30)
    phone = Phone(client)
    assert phone.get(path).status_code == 200
    done = phone.post(path)
    assert done.status_code == 303, alert(done)
    assert phone.get(f"/villages/{village}").status_code == 200
    assert load_village(village)._members["guard_a"].last_access == clock()
    clock.now = due - timedelta(seconds=1)
    assert Phone(client).get(late).status_code == 200  # until the departure it names
    clock.now = due
    tick(clock, rng)
    assert load_village(village)._members["guard_a"].account_id == seated["guard_a"]  # kept
    expired = Phone(client).get(late)
    assert expired.status_code == 400 and alert(expired) == EXPIRED


def test_a_link_from_an_old_day_is_refused_even_with_a_valid_signature(running, client, clock):
    village, account, _ = seer(running)
    token = links.member_token(
        links.MemberLink(account, village, 0, "pray", "seer_b"), clock() + timedelta(hours=1)
    )
    page = Phone(client).get(f"/m/{token}")
    assert page.status_code == 400
    assert alert(page) == EXPIRED


def test_a_tampered_link_is_refused(running, client):
    village, account, _ = seer(running)
    path = member_links(running[2][account])[("pray", "seer_b")]
    payload, signature = path.rsplit(".", 1)
    for bad in (payload + "." + signature[:-2] + "xx", path.replace("/m/", "/m/x"), "/m/abc"):
        page = Phone(client).get(bad)
        assert page.status_code == 400
        assert alert(page) == EXPIRED
    assert actions.own_choices(load_village(village), account) == {}


def test_a_link_of_someone_who_is_not_a_member_is_refused(running, client, clock, players, rng):
    village, seated, mails = running
    leaver = seated["commoner_a"]
    path = member_links(mails[leaver])[(None, None)]
    villages.leave(village, leaver, clock())
    page = Phone(client).get(path)
    assert page.status_code == 403
    assert alert(page) == NOT_A_MEMBER
    # A validly signed link of an account that never played here: refused too.
    stranger = links.member_token(
        links.MemberLink("stranger", village, 1), clock() + timedelta(minutes=30)
    )
    assert Phone(client).get(f"/m/{stranger}").status_code == 403
    # A member's link names its village: another village does not accept it.
    other = villages.create_village(
        villages.AskedVillage(pace="short", name="別の村"), now=clock(), rng=rng
    )
    moved = links.member_token(
        links.MemberLink(seated["seer_a"], other, 0), clock() + timedelta(minutes=30)
    )
    assert Phone(client).get(f"/m/{moved}").status_code == 403


def test_a_signed_link_for_a_choice_the_member_may_not_make_saves_nothing(running, client, clock):
    village, account, _ = seer(running)
    until = load_village(village)._meta.next_update
    for key, target in (("attack", "seer_b"), ("guard", "seer_b"), ("pray", "seer_a"), ("x", "y")):
        token = links.member_token(links.MemberLink(account, village, 1, key, target), until)
        phone = Phone(client)
        page = phone.get(f"/m/{token}")
        if page.status_code == 200:
            page = phone.post(f"/m/{token}")
        assert page.status_code == 400, (key, target)
    assert actions.own_choices(load_village(village), account) == {}


# ----- one-click unsubscribe (RFC 8058) -----


def test_every_notice_carries_one_click_unsubscribe_headers(running):
    for account, mail in running[2].items():
        unsubscribe = mail.message["List-Unsubscribe"]
        assert mail.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert unsubscribe.startswith("<https://mobius.example/unsubscribe/")
        url = unsubscribe.strip("<>")
        assert url in mail.text and f'href="{url}"' in mail.html
        token = path_of(url).rsplit("/", 1)[1]
        assert links.read_unsubscribe_token(token, links.runtime.now()) == account


def test_unsubscribe_get_asks_and_post_stops_the_mail_without_a_session(
    running, client, clock, rng
):
    village, seated, mails = running
    account = seated["medium_b"]
    path = path_of(mails[account].message["List-Unsubscribe"].strip("<>"))
    page = client.http.get(path)
    assert page.status_code == 200
    assert "停止する" in body_of(page)
    assert load_account(account).preferences == {
        "morning_mail": True,
        "reminder_mail": True,
    }
    # What a mail client posts (RFC 8058): no cookie, no CSRF token, only the signed URL.
    for _ in range(2):  # twice is harmless
        done = client.http.post(
            path,
            headers={"content-type": "application/x-www-form-urlencoded"},
            body="List-Unsubscribe=One-Click",
        )
        assert done.status_code == 200
        assert "お知らせメールを停止しました" in body_of(done)
    assert load_account(account).preferences == {
        "morning_mail": False,
        "reminder_mail": False,
    }
    # No reminder and no morning mail to that member; the others still get theirs.
    box = MailBox()
    box.new()
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)
    mails, warned = split_idle_warnings(box.new())
    got = {account_of(m) for m in mails}
    assert account not in got
    # Only a seat's idle warning still comes (it is about the seat, not news: decision 140).
    assert account in {account_of(m) for m in warned}
    assert got == set(seated.values()) - {account}


def test_unsubscribe_accepts_the_multipart_post_rfc_8058_recommends(running, client):
    _, seated, mails = running
    account = seated["guard_a"]
    path = path_of(mails[account].message["List-Unsubscribe"].strip("<>"))
    body = (
        '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n'
        "One-Click\r\n--b--\r\n"
    )
    done = client.http.post(
        path, headers={"content-type": "multipart/form-data; boundary=b"}, body=body
    )
    assert done.status_code == 200
    assert "お知らせメールを停止しました" in body_of(done)
    assert load_account(account).preferences == {
        "morning_mail": False,
        "reminder_mail": False,
    }


def test_unsubscribe_refuses_a_bad_or_foreign_token(running, client, clock):
    _, seated, mails = running
    member = member_links(mails[seated["seer_a"]])[(None, None)].split("/m/")[1]
    for token in ("nonsense", member):
        for response in (
            client.http.get(f"/unsubscribe/{token}"),
            client.http.post(
                f"/unsubscribe/{token}",
                headers={"content-type": "application/x-www-form-urlencoded"},
                body="List-Unsubscribe=One-Click",
            ),
        ):
            assert response.status_code == 400
    assert load_account(seated["seer_a"]).preferences["morning_mail"] is True


# ----- a mail link lends only its village, until the update (issue #9) -----


def test_a_mail_link_gives_only_that_village_until_the_update(running, client, clock, rng):
    village, seated, mails = running
    account = seated["guard_a"]
    path = member_links(mails[account])[(None, None)]
    phone = Phone(client)
    phone.get(path)
    assert phone.post(path).status_code == 303
    page = phone.get(f"/villages/{village}")
    assert "メールのリンクで参加中" in body_of(page)
    assert 'action="/villages/' + village + '/actions"' in body_of(page)
    # Acting in the village works ...
    saved = phone.post(f"/villages/{village}/actions", {"pray": "seer_b"})
    assert saved.status_code == 303
    assert actions.own_choices(load_village(village), account) == {"pray": "seer_b"}
    # ... the account does not: no account page, no leaving, no joining elsewhere.
    assert phone.get("/account").status_code == 401
    assert phone.post(f"/villages/{village}/leave").status_code == 401
    assert load_village(village).slot_of(account) == "guard_a"
    other = villages.create_village(
        villages.AskedVillage(pace="long", name="別の村"), now=clock(), rng=rng
    )
    joined = phone.post(f"/villages/{other}/join", {"slot": "seer_a", "persona": "x"})
    assert joined.status_code == 401
    # After the update the pass has expired: the page shows a visitor's view.
    clock.now = load_village(village)._meta.next_update + timedelta(seconds=1)
    late = phone.post(f"/villages/{village}/actions", {"pray": "seer_a"})
    assert late.status_code == 401


def test_a_quick_link_is_refused_once_the_member_changed_that_choice(running, client, clock):
    village, account, _ = seer(running)
    quick = member_links(running[2][account])
    # The member set the prayer by hand after the mail came.
    actions.save_actions(village, account, {"pray": "medium_a"}, clock())
    phone = Phone(client)
    phone.get(quick[("pray", "seer_b")])
    clock.advance(timedelta(minutes=50))
    replayed = phone.post(quick[("pray", "seer_b")])
    assert replayed.status_code == 409
    assert "変更されているため" in alert(replayed)
    assert actions.own_choices(load_village(village), account) == {"pray": "medium_a"}
    # Refused, the link still logged the member in to the village: an access (RULES §9).
    assert load_village(village)._members["seer_a"].last_access == clock()
    # A link for another choice still works: it changes only its own.
    phone.get(quick[("divine", "assassin")])
    assert phone.post(quick[("divine", "assassin")]).status_code == 303
    wanted = {"pray": "medium_a", "divine": "assassin"}
    assert actions.own_choices(load_village(village), account) == wanted


# ----- refused links lead on (decision 82) -----


def _ways_on(page) -> list[str]:
    """The links a refused link's page offers, in order."""
    return re.findall(r'<a class="button[^"]*" href="([^"]+)"', body_of(page))


def test_an_expired_or_tampered_link_offers_the_login_and_its_village(running, client, clock):
    village, account, _ = seer(running)
    quick = member_links(running[2][account])
    payload, signature = quick[("pray", "seer_b")].rsplit(".", 1)
    tampered = f"{payload}.{signature[:-4]}abcd"
    clock.now = load_village(village)._meta.next_update + timedelta(seconds=1)
    for path in (quick[(None, None)], quick[("pray", "seer_b")], tampered):
        page = Phone(client).get(path)
        assert page.status_code == 400
        assert alert(page) == EXPIRED
        assert _ways_on(page) == [
            f"/villages/{village}",
            f"/login?next=/villages/{village}",
            "/",
        ]
        assert "テスト村を見る" in body_of(page)


def test_a_link_naming_no_village_offers_the_login(running, client, clock):
    for path in ("/m/abc", f"/m/{links.member_token(links.MemberLink('x', '999', 1), clock())}"):
        page = Phone(client).get(path)
        assert page.status_code == 400
        assert _ways_on(page) == ["/login", "/"]


def test_a_link_of_a_member_who_left_offers_the_village(running, client, clock):
    village, seated, mails = running
    phone = Phone(client)
    path = member_links(mails[seated["seer_a"]])[(None, None)]
    phone.get(path)
    assert phone.post(path).status_code == 303  # now in the village through the link
    villages.leave(village, seated["seer_a"], clock())
    page = phone.get(path)
    assert page.status_code == 403
    assert alert(page) == NOT_A_MEMBER
    assert f"/villages/{village}" in _ways_on(page)


def test_an_expired_login_or_verification_link_offers_the_login(running, client):
    for path in ("/login/link", "/verify"):
        phone = Phone(client)
        phone.get(f"{path}?token=abc")
        page = phone.post(path, {"token": "abc"})
        assert page.status_code == 400
        assert _ways_on(page) == ["/login", "/"]
