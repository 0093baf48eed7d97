"""Odd input never gives a 5xx: every route and every parameter its handler reads.

A property test (hypothesis) throws arbitrary strings at each path, query and form
parameter of every route of app.py: any Unicode but surrogates (control characters too),
digits of other scripts (「²」「１」), %-encodings, empty and very long strings (up to
5,000 characters), mixed with values the page expects, logged out, as a member of a
running village and as an account outside it. Whatever comes, the answer is a page with
a status below 500. moto refuses oversized keys on every request as DynamoDB does
(devserver.moto_local.key_limits), so input that reaches a key unchecked fails here.

The explicit examples below pin the odd inputs issue 9 names and those that gave 500
(an ID, a village id or a cursor naming an oversized key, a day of 5,000 digits).
"""

import base64
import itertools
import json
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chalicelib import runtime
from chalicelib.links import MemberLink, member_token, unsubscribe_url
from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.mobius.ruleset import CHOICE_LABELS
from chalicelib.rulesets.mobius.visibility import Board
from chalicelib.services import accounts, matches
from chalicelib.services.unit import Unit
from chalicelib.storage.repository import load_village
from chalicelib.web import accounts as pages
from tests.support.accounts import PASSWORD, make_account
from tests.support.clients import alert, session_cookie, text

CSRF = "test-csrf"
LONG = 3000

# ----- the strings -----

CHARS = st.characters(blacklist_categories=("Cs",))  # every code point but surrogates
SPECIAL = [
    "",
    " ",
    "²",
    "１",
    "１２３",
    "①",
    "٣",
    "-1",
    "0",
    "00",
    "1e3",
    "9" * 30,
    "%",
    "%00",
    "%E2%91%A0",
    "%ZZ",
    "../app.py",
    "a/b",
    "null",
    "\x00",
    "\r\n",
    "\t",
    "<script>",
    "'\"",
    "A#B",
    "V#1",
    "😀",
    "ｱｶｳﾝﾄ",
    "\u202e",
    "\ufeff",
    "\u3000",
]
ODD = st.one_of(
    st.sampled_from(SPECIAL),
    st.text(CHARS, max_size=40),
    # Digits of every script, and other numbers (superscripts, circled, fractions).
    st.text(st.characters(whitelist_categories=("Nd", "No")), min_size=1, max_size=8),
    st.binary(max_size=30).map(lambda raw: quote(raw, safe="")),  # %-encodings
    st.builds(  # long: a short run repeated up to 5,000 characters
        lambda run, times: (run * times)[:5000],
        st.text(CHARS, min_size=1, max_size=4),
        st.integers(min_value=250, max_value=5000),
    ),
)


# Shaped like an address, with odd parts: it passes a loose check and reaches the mail.
ADDRESSES = st.builds(
    "{}@{}.{}".format,
    st.text(CHARS, min_size=1, max_size=12),
    st.text(CHARS, min_size=1, max_size=12),
    st.sampled_from(["jp", "com", "ｊｐ", "jp.", "-jp", "日本"]),
)


def odd(*plausible) -> st.SearchStrategy[str]:
    """Odd strings, and now and then a value the page expects (to reach further in):
    given as strings, or as strategies of them."""
    strategies = [p for p in plausible if isinstance(p, st.SearchStrategy)]
    values = [p for p in plausible if isinstance(p, str)]
    if values:
        strategies.append(st.sampled_from(values))
    return st.one_of(ODD, *strategies)


# ----- the routes -----


@dataclass(frozen=True)
class Route:
    method: str
    path: str  # with {village_id}, {token} or {name}
    query: dict[str, tuple] = field(default_factory=dict)  # name -> plausible values
    form: dict[str, tuple] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


BOARDS = tuple(b.value for b in Board)
PERSONAS = tuple(p.key for p in YAMAZATO)
VILLAGE_QUERY = {
    "board": BOARDS,
    "day": ("0", "1", "2"),
    "cursor": (),
    "of": SLOTS,
    "done": ("saved", "ending", "joined"),
}
MOVE_FORM = {
    "moves": ("0", "1", "2"),
    "do": ("co", "named", "execute", "night", "answer", "pp", "resign", "release"),
    "move": ('{"do": "co", "roles": ["seer"]}', '{"do": "resign"}', "[]", "{"),
    "card": ("1", "9", "0"),
    "confirm": ("1",),
    "role.seer": ("1",),
    "scope": ("whole", "range"),
    "card.3": ("1",),
    "divine.2.3": ("1",),
    "guard.4.5": ("1", "20"),
    "latent_guard": ("auto", "same", "to"),
    "claim.1": ("seer", "none", ""),
    "oracle_target.1": ("2",),
    "guess": ("", "3"),
    "attack": ("3",),
}
ACCOUNT_FORM = {
    "what": ("password", "email", "preferences", "resend"),
    "old": (PASSWORD,),
    "new": ("another horse battery staple",),
    "password": (PASSWORD,),
    "email": ("new@example.jp", ADDRESSES),
    "morning_mail": ("on",),
    "reminder_mail": ("on",),
    "mail": ("all", "mine", "none"),
}
ROUTES = [
    Route("GET", "/healthz"),
    Route("GET", "/favicon.ico"),
    Route("GET", "/static/{name}"),
    Route("GET", "/howto"),
    Route("GET", "/howto/{name}"),
    Route("GET", "/", query={"state": ("opening", "running", "ended"), "cursor": ()}),
    Route("GET", "/register"),
    Route(
        "POST",
        "/register",
        form={
            "account_id": ("newcomer",),
            "password": (PASSWORD,),
            "email": ("n@example.jp", ADDRESSES),
        },
    ),
    Route("GET", "/verify", query={"token": ()}),
    Route("POST", "/verify", form={"token": ()}),
    Route("GET", "/login", query={"next": ("/account", "/villages/1")}),
    Route(
        "POST",
        "/login",
        form={"account_id": ("p00",), "password": (PASSWORD,), "next": ("/account",)},
    ),
    Route("POST", "/login/mail", form={"identifier": ("p00", "p00@example.jp", ADDRESSES)}),
    Route("GET", "/login/link", query={"token": ()}),
    Route("POST", "/login/link", form={"token": ()}),
    Route("POST", "/logout"),
    Route("GET", "/account"),
    Route("POST", "/account", form=ACCOUNT_FORM),
    Route("GET", "/account/records"),
    Route("GET", "/villages/{village_id}", query=VILLAGE_QUERY),
    Route("GET", "/villages/{village_id}/log"),
    Route(
        "POST",
        "/villages/{village_id}/posts",
        form={"board": BOARDS, "text": ("おはようございます",)},
    ),
    Route("POST", "/villages/{village_id}/actions", form=dict.fromkeys(CHOICE_LABELS, SLOTS)),
    Route("POST", "/villages/{village_id}/join", form={"slot": SLOTS, "persona": PERSONAS}),
    Route(
        "POST",
        "/villages/{village_id}/prologue",
        form={"action": ("start", "unstart", "kick", "unkick", "dance"), "target": SLOTS},
    ),
    Route("POST", "/villages/{village_id}/will", form={"text": ("遺書です",)}),
    Route("GET", "/villages/{village_id}/leave"),
    Route("POST", "/villages/{village_id}/leave"),
    Route(
        "POST",
        "/matches",
        form={
            "rules": ("duel", "mobius"),
            "preset": ("std9", "17A"),
            "side": ("A", "B", "random"),
            "strength": ("beginner", "normal", "strong"),
            "clock": ("none", "3m", "day"),
            "opponent": ("cpu", "invite", "room"),
            "ranked": ("1",),
        },
    ),
    Route("GET", "/matches/{match_id}", query={"stale": ("1",)}),
    Route("POST", "/matches/{match_id}/moves", form=MOVE_FORM),
    Route("POST", "/matches/{match_id}/join"),
    Route("GET", "/matches/{match_id}/view"),
    Route("GET", "/matches/{match_id}/since/{moves}", query={"here": ("x.y",)}),
    Route("GET", "/matches/{match_id}/here/{token}"),
    Route("GET", "/m/{token}"),
    Route("POST", "/m/{token}"),
    Route("GET", "/unsubscribe/{token}"),
    Route("POST", "/unsubscribe/{token}", form={"List-Unsubscribe": ("One-Click",)}),
    Route("POST", "/matches/{match_id}/chat", form={"text": ("よろしくお願いします",)}),
    Route("POST", "/matches/{match_id}/cancel"),
    Route("POST", "/matches/{match_id}/share", form={"do": ("share", "withdraw")}),
    Route("GET", "/matches/{match_id}/review", query={"move": ("0", "1", "3", "999")}),
    Route(
        "POST",
        "/matches/{match_id}/what-if",
        form={
            "move": ("0", "2", "999"),
            "side": ("A", "B"),
            "strength": ("beginner", "normal", "strong"),
        },
    ),
    Route("GET", "/matches/{match_id}/pass/{token}"),
    Route("GET", "/records/{token}"),
    Route("GET", "/puzzle"),
    Route("GET", "/puzzle/{day}"),
    Route("POST", "/puzzle/{day}", form={"card": ("1", "4", "13", "#7", "0", "99")}),
    Route("POST", "/puzzles/mail", form={"mail": ("on", "off"), "back": ("account",)}),
    Route("GET", "/gm"),
    Route("GET", "/gm/new", query={"rules": ("mobius", "classic", "duel")}),
    Route(
        "POST",
        "/gm/new",
        form={
            "rules": ("mobius", "classic"),
            "name": ("練習村",),
            "pace": ("short", "long"),
            "first_update": ("2026-12-02T21:00",),
            "cpu_members": ("0", "4", "12", "99"),
            "practice": ("", "true", "はい"),
            "tie": ("random", "bbs", "runoff"),
            "do": ("preview", "create"),
        },
    ),
    Route("GET", "/gm/villages/{village_id}"),
    Route(
        "POST",
        "/gm/villages/{village_id}/abandon",
        form={"reason": ("人数不足",), "confirm": ("yes",), "seen": ("1",)},
    ),
    Route(
        "POST",
        "/gm/villages/{village_id}/move",
        form={
            "to": ("2026-12-02T21:00",),
            "notice": ("更新を動かします",),
            "extend": ("6", "24"),
            "confirm": ("yes",),
            "seen": ("1",),
        },
    ),
    Route("GET", "/dev/accounts"),
    Route("POST", "/dev/accounts", form={"count": ("1", "16", "99"), "login": ("test01",)}),
    Route("GET", "/dev/inbox"),
    Route(
        "POST",
        "/dev/inbox",
        form={"seat": ("1:commoner_a",), "text": ("祈り 霊能者A",), "raw": ("From: x@example.jp",)},
    ),
    Route("GET", "/dev/outbox"),
    Route("GET", "/dev/clock"),
    Route("POST", "/dev/clock", form={"minutes": ("1", "60")}),
    Route(
        "POST",
        "/dev/clock",
        form={
            "to": ("loss_time", "night", "update", "sunset", "round", "abandon", "close"),
            "village": ("1",),
            "minutes": ("1",),
        },
    ),
]


def test_every_route_of_the_app_is_fuzzed():
    from app import app

    routed = {(method, path) for path, entries in app.routes.items() for method in entries}
    assert routed == {(r.method, r.path) for r in ROUTES}


# ----- sending -----


class DevTools:
    """The local runner's /dev helpers, so that those pages are exercised too."""

    def mails(self) -> list[dict]:
        return []

    def advance_clock(self, minutes: int) -> None:
        pass

    def advance_to(self, at) -> None:
        pass


@pytest.fixture
def dev_tools():
    runtime.set_dev_tools(DevTools())
    yield
    runtime.set_dev_tools(None)


@pytest.fixture
def sources(monkeypatch):
    """Each request from its own address: the per-source login and mail limits would
    otherwise answer 429 to most examples before the code behind them runs."""
    addresses = (f"198.51.100.{n % 250}-{n}" for n in itertools.count())
    monkeypatch.setattr(pages, "client_ip", lambda context: next(addresses))


@pytest.fixture
def people(game, clock):
    """The running village, one of its members and an account outside it."""
    village_id, seated = game
    return village_id, seated[SLOTS[0]], make_account("outsider", clock())


@pytest.fixture
def match_id(people, clock):
    """A game against the computer that the member plays (as A)."""
    _, member, _ = people
    given = {"preset": "std9", "side": "A", "strength": "normal"}
    return matches.start("duel", given, f"a:{member}", clock(), Unit())


@pytest.fixture
def tokens(people, clock):
    """Real tokens for the mail-link paths, now and then among the odd ones."""
    village_id, member, _ = people
    record = load_village(village_id)
    until = record._meta.next_update
    day = record.game.day
    target = next(s for s in SLOTS if s != SLOTS[0])
    return {
        "/m/{token}": (
            member_token(MemberLink(member, village_id, day), until),
            member_token(MemberLink(member, village_id, day, "pray", target, None), until),
        ),
        "/unsubscribe/{token}": (unsubscribe_url(member, clock()).rsplit("/", 1)[1],),
    }


def path_part(value: str, raw: bool) -> str:
    """A value as a path segment: as typed, or %-encoded (the client sends either)."""
    if raw and value and not any(c in value for c in "/?#"):
        return value
    return quote(value, safe="")


def send(client, method: str, path: str, query=None, form=None, cookie=None, headers=None):
    if query:
        path += "?" + urlencode(query)
    headers = dict(headers or {})
    if cookie:
        headers["cookie"] = cookie
    if method == "GET":
        return client.http.get(path, headers=headers)
    headers.setdefault("content-type", "application/x-www-form-urlencoded")
    body = urlencode({"csrf": CSRF, **(form or {})}).encode()
    return client.http.post(path, headers=headers, body=body)


FUZZ = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,  # the same examples on every run (CI)
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # one village per route; examples may share it
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@pytest.mark.parametrize("route", ROUTES, ids=str)
@FUZZ
@given(data=st.data())
def test_odd_input_never_gives_a_server_error(
    client, clock, people, match_id, tokens, dev_tools, sources, todays_puzzle, route, data
):
    village_id, member, outsider = people
    who = data.draw(st.sampled_from([None, member, outsider]), label="logged in as")
    cookie = session_cookie(who, clock(), CSRF)  # anew each time: a logout may end it
    path = route.path
    if "{village_id}" in path:
        # Mostly the real village, so that its pages see the odd query and form values.
        odd_id = data.draw(st.integers(0, 3)) == 2
        value = data.draw(ODD, label="village_id") if odd_id else village_id
        path = path.replace("{village_id}", path_part(value, data.draw(st.booleans())))
    if "{match_id}" in path:
        odd_id = data.draw(st.integers(0, 3)) == 2
        value = data.draw(ODD, label="match_id") if odd_id else match_id
        path = path.replace("{match_id}", path_part(value, data.draw(st.booleans())))
    parts = (
        ("token", tokens.get(route.path, ())),
        ("name", ("app.css", "x.svg", "duel", "terms")),  # a static file, a guide
        ("moves", ("0", "1", "2")),
        ("day", ("2026-12-01", "2026-11-30", "2026-12-02")),
    )
    for name, plausible in parts:
        if "{" + name + "}" in path:
            value = data.draw(odd(*plausible), label=name)
            path = path.replace("{" + name + "}", path_part(value, data.draw(st.booleans())))
    query = {
        key: data.draw(odd(*plausible), label=key)
        for key, plausible in route.query.items()
        if data.draw(st.booleans())
    }
    form = {
        key: data.draw(odd(*plausible), label=key)
        for key, plausible in route.form.items()
        if data.draw(st.integers(0, 3)) != 2  # mostly present
    }
    if route.method == "POST" and data.draw(st.integers(0, 9)) == 5:  # mostly the right one
        form["csrf"] = data.draw(ODD, label="csrf")
    response = send(client, route.method, path, query, form, cookie)
    assert response.status_code < 500, (route, path, query, form, text(response)[:500])


@FUZZ
@given(cookie=ODD, origin=ODD, content_type=ODD, body=st.binary(max_size=200))
def test_odd_headers_and_bodies_never_give_a_server_error(
    client, cookie, origin, content_type, body
):
    headers = {"cookie": cookie, "origin": origin, "content-type": content_type}
    for path in ("/", "/login"):
        assert client.http.get(path, headers={"cookie": cookie}).status_code < 500
        response = client.http.post(path, headers=headers, body=body)
        assert response.status_code < 500, (path, headers, body)


# ----- explicit examples -----


def post(client, path: str, form: dict, cookie: str | None = None):
    return send(client, "POST", path, form=form, cookie=cookie)


@pytest.fixture
def anonymous(clock):
    return session_cookie(None, clock(), CSRF)


def test_a_3000_character_login_id_is_refused_as_a_wrong_login(client, anonymous):
    response = post(client, "/login", {"account_id": "a" * LONG, "password": PASSWORD}, anonymous)
    assert response.status_code == 401
    assert alert(response) == "IDまたはパスワードが違います"


def test_a_3000_character_id_cannot_register(client, anonymous):
    form = {"account_id": "a" * LONG, "password": PASSWORD, "email": "long@example.jp"}
    response = post(client, "/register", form, anonymous)
    assert response.status_code == 400
    assert alert(response) == "IDは半角英数字と _ の3〜20文字にしてください"


@pytest.mark.parametrize("account_id", ["ａｌｉｃｅ", "al²", "ab", "a" * 21, "a b", "a" * LONG])
def test_an_id_of_the_wrong_form_counts_no_mail_and_says_why(client, anonymous, account_id):
    form = {"account_id": account_id, "password": PASSWORD, "email": "odd@example.jp"}
    response = post(client, "/register", form, anonymous)
    assert response.status_code == 400
    assert alert(response) == "IDは半角英数字と _ の3〜20文字にしてください"
    # Nothing was counted against the address: the right ID registers at once.
    for _ in range(accounts.MAIL_PER_ADDRESS):
        assert post(client, "/register", form, anonymous).status_code == 400
    form["account_id"] = "odd_one"
    assert post(client, "/register", form, anonymous).status_code == 200


ODD_ADDRESSES = [
    "ü@example.jp",
    "😀@example.jp",
    "a@exämple.jp",
    "a\x01b@example.jp",
    "a,b@example.jp",
    "a<b>@example.jp",
    'a"b@example.jp',
    "a;b@example.jp",
    "a(b)@example.jp",
    "a..b@example.jp",
    ".a@example.jp",
    "a@-x.jp",
    "a@example..jp",
    "a@example.jp.",
    "a@[1.2.3.4].jp",
    "a" * 65 + "@example.jp",
]


@pytest.mark.parametrize("address", ODD_ADDRESSES)
def test_an_address_ses_cannot_take_is_refused_as_malformed(client, clock, anonymous, address):
    """Each of these was accepted, and SES refuses such an address (moto already refuses
    most): the player saw a 503 for a typing mistake."""
    form = {"account_id": "newcomer", "password": PASSWORD, "email": address}
    response = post(client, "/register", form, anonymous)
    assert response.status_code == 400
    assert alert(response) == "メールアドレスの形式が正しくありません"
    make_account("mover", clock())
    form = {"what": "email", "password": PASSWORD, "email": address}
    response = post(client, "/account", form, session_cookie("mover", clock(), CSRF))
    assert response.status_code == 400
    assert alert(response) == "メールアドレスの形式が正しくありません"


def test_a_full_width_address_is_still_welcome(client, anonymous):
    form = {
        "account_id": "newcomer",
        "password": PASSWORD,
        "email": "ｈａｎａ．ｋｏ＋ｍｏｂｉｕｓ＠Ｅｘａｍｐｌｅ．ｊｐ",
    }
    response = post(client, "/register", form, anonymous)
    assert response.status_code == 200
    assert "hana.ko+mobius@example.jp" in text(response)


@pytest.mark.parametrize("day", ["²", "１", "٣", "-1", "1.0", " 1"])
def test_an_odd_day_is_a_400_with_a_message(client, game, day):
    village_id, _ = game
    response = client.http.get(f"/villages/{village_id}?" + urlencode({"day": day}))
    assert response.status_code == 400
    assert alert(response) == "日付の指定が正しくありません"


@pytest.mark.parametrize("day", ["9" * 5000, "0" * 4999 + "1", "1" + "0" * 4999])
def test_a_day_of_thousands_of_digits_shows_a_day(client, game, day):
    """int() refuses more than 4,300 digits: a longer day is read as the last day, as any
    day after it is, and zeros in front change nothing."""
    village_id, _ = game
    response = client.http.get(f"/villages/{village_id}?" + urlencode({"day": day}))
    assert response.status_code == 200


@pytest.mark.parametrize("village_id", ["²", "１", "%EF%BC%91", "1a", "a" * LONG, "9" * 13])
@pytest.mark.parametrize("action", ["", "/posts", "/actions", "/join", "/leave"])
def test_an_odd_village_id_is_not_found(client, clock, game, village_id, action):
    _, seated = game
    cookie = session_cookie(seated[SLOTS[0]], clock(), CSRF)
    path = f"/villages/{village_id}{action}"
    if action in ("/posts", "/actions", "/join"):
        response = post(client, path, {"text": "こんにちは", "slot": SLOTS[0]}, cookie)
    else:
        response = send(client, "GET", path, cookie=cookie)
    assert response.status_code == 404
    assert alert(response) == "その村は見つかりません"


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("path", ["/m/{}", "/unsubscribe/{}", "/login/link?token={}"])
def test_a_3000_character_token_is_refused(client, anonymous, method, path):
    token = "t" * LONG
    if method == "GET":
        response = send(client, "GET", path.format(token), cookie=anonymous)
        assert response.status_code in (200, 400)  # a link's GET page only shows a button
    else:
        if "?" in path:
            response = post(client, "/login/link", {"token": token}, anonymous)
        else:
            response = post(client, path.format(token), {}, anonymous)
        assert response.status_code == 400
        assert "このリンクは正しくないか" in alert(response)


def test_a_3000_character_verification_token_is_refused(client, anonymous):
    assert send(client, "GET", "/verify?token=" + "t" * LONG).status_code == 200  # a button
    response = post(client, "/verify", {"token": "t" * LONG}, anonymous)
    assert response.status_code == 400
    assert alert(response) == "確認リンクが正しくないか、期限が切れています"


def cursor_of(key) -> str:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode()


def test_a_cursor_naming_an_oversized_key_is_refused(client):
    key = {
        "pk": {"S": "V#" + "1" * 2100},
        "sk": {"S": "META"},
        "gsi1pk": {"S": "STATE#opening"},
        "gsi1sk": {"S": "x"},
    }
    response = client.http.get("/?" + urlencode({"state": "opening", "cursor": cursor_of(key)}))
    assert response.status_code == 400
    assert alert(response) == "ページの指定が正しくありません"


def test_a_deeply_nested_cursor_is_refused(client, game):
    village_id, _ = game
    cursor = base64.urlsafe_b64encode(b"[" * 5000 + b"]" * 5000).decode()
    response = client.http.get(f"/villages/{village_id}?" + urlencode({"cursor": cursor}))
    assert response.status_code == 400
    assert alert(response) == "ページの指定が正しくありません"


def test_odd_minutes_on_the_dev_clock_are_a_400(client, anonymous, dev_tools):
    for minutes in ("²", "１", "٣"):
        response = post(client, "/dev/clock", {"minutes": minutes}, anonymous)
        assert response.status_code == 400
        assert alert(response).startswith("進める分数は")
