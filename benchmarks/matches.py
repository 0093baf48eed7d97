"""Games played move by move (issue 22): DynamoDB requests per move and per poll, counted
through the app's routes on moto; the computer's reply time; the cost of a live std9 game.
Not measured here, rare by design (decision duel 102): an end refused because another game of
the same account ended meanwhile reads and writes again, and a batch read DynamoDB answers
in part under throttling asks again for the rest.

Targets: a move (with the computer's reply; the one that ends the game, reading the records,
included) ≤ 3 DynamoDB requests, a "nothing new" poll ≤ 1,
the computer's reply well within a second, a 20-minute live std9 game ≤ $0.002.
"""

import json
import random
import statistics
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from chalice.test import Client
from moto import mock_aws

from chalicelib import rulesets, runtime
from chalicelib.rules.duel import Duel, view
from chalicelib.rules.duel.cpu import choose
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.storage import db
from chalicelib.storage import matches as store
from chalicelib.storage.keys import MATCH_SK, match_pk
from chalicelib.storage.models import MatchItem, MoveItem
from devserver.moto_local import like_dynamodb

from .capacity import item_size, read_units, write_units
from .prices import Usage, cost
from .requests import counting, fake_aws, verified_accounts

LATENCY_GAMES = 30  # per preset: the computer's replies timed as a request makes them
LIVE_MINUTES = 20
LIVE_MOVES = 40  # a person's moves in 20 minutes: questions, executions, nights (assumed)
POLL_SECONDS = 15  # the live script's pace on the person's own move (2 s while waiting)
# Assumed, as in the cost bench: Lambda at 512 MB, the handler's time on top of its calls.
HANDLER_MS = {"move": 40.0, "page": 25.0, "poll": 5.0}
CALL_MS = 5.0  # per DynamoDB call


class Phone:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.cookie = ""
        self.csrf = ""

    def get(self, path: str) -> Any:
        response = self.client.http.get(path, headers={"cookie": self.cookie})
        self._keep(response)
        return response

    def post(self, path: str, form: dict[str, str]) -> Any:
        body = urlencode({"csrf": self.csrf, **form}).encode()
        headers = {"cookie": self.cookie, "content-type": "application/x-www-form-urlencoded"}
        response = self.client.http.post(path, headers=headers, body=body)
        self._keep(response)
        return response

    def _keep(self, response: Any) -> None:
        cookie = response.headers.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        text = response.body.decode() if response.body else ""
        if 'name="csrf" value="' in text:
            self.csrf = text.split('name="csrf" value="', 1)[1].split('"', 1)[0]


def _whole_game(phone: Phone, rng: random.Random) -> dict[str, Any]:
    """A std9 game as A, the person's moves chosen by the strong CPU-A; what each request cost."""
    phone.get("/")
    started = phone.post(
        "/matches",
        {"rules": "duel", "preset": "std9", "side": "A", "strength": "normal", "clock": "10m"},
    )
    match_id = started.headers["Location"].rsplit("/", 1)[1]
    moves, pages, polls, request_ms = [], [], [], []
    for _ in range(300):
        item = store.load_match(match_id)
        assert item is not None
        if item.state == "ended":
            break
        duel = Duel.from_json(item.game)
        move = choose(view(duel, "A"), legal_moves(duel, "A"), rng)
        form = {"moves": str(item.moves), "move": json.dumps(move)}
        with counting() as calls:
            began = time.perf_counter()
            answer = phone.post(f"/matches/{match_id}/moves", form)
            request_ms.append((time.perf_counter() - began) * 1000)
        assert answer.status_code == 303, answer.body[:300]
        moves.append(sum(calls.values()))
        with counting() as calls:
            phone.get(f"/matches/{match_id}")
        pages.append(sum(calls.values()))
        after = store.load_match(match_id)
        assert after is not None
        with counting() as calls:
            nothing = json.loads(phone.get(f"/matches/{match_id}/since/{after.moves}").body)
        assert nothing["new"] is (after.state != "running")
        polls.append(sum(calls.values()))
    final = store.load_match(match_id)
    assert final is not None and final.state == "ended"
    # The move that ends the game also reads the accounts' records (decisions 66, duel 102):
    # it counts in the maximum and the target like any other move.
    ending = moves[-1]
    sizes = {
        # The items as stored, beneath storage's records: their sizes are what DynamoDB bills.
        "meta_bytes": item_size(MatchItem.get(match_pk(match_id), MATCH_SK).serialize()),
        "move_bytes": max(
            item_size(m.serialize())
            for m in MoveItem.query(match_pk(match_id), MoveItem.sk.startswith("MOVE#"))
        ),
        "moves_stored": int(final.moves),
    }
    return {
        "person_moves": len(moves),
        "requests_per_move_max": max(moves),
        "requests_of_the_ending_move": ending,
        "requests_per_page_max": max(pages),
        "requests_per_poll_max": max(polls),
        "move_request_ms_p95_on_moto": round(statistics.quantiles(request_ms, n=20)[-1], 1),
        **sizes,
    }


def _reply_latency() -> dict[str, Any]:
    """The computer's replies after each person's move, as a request computes them (its view,
    its legal options, its move, the engine's play), in ms per request."""
    rules = rulesets.match_rules("duel")
    out = {}
    for preset in ("std9", "17A"):
        times: list[float] = []
        for game in range(LATENCY_GAMES):
            rng = random.Random(game)
            duel = rules.create({"preset": preset}, rng)
            number = 0
            while rules.to_move(duel) is not None:
                side = rules.to_move(duel)
                if side == "A":  # the person
                    move = choose(view(duel, "A"), legal_moves(duel, "A"), rng)
                    duel = rules.play(duel, "A", move, rng).game
                    continue
                began = time.perf_counter()
                while rules.to_move(duel) == "B":
                    number += 1
                    reply = rules.computer_move(duel, "B", "normal", random.SystemRandom())
                    duel = rules.play(duel, "B", reply, random.Random(number)).game
                times.append((time.perf_counter() - began) * 1000)
        out[preset] = {
            "cpu_reply_ms_mean": round(statistics.mean(times), 2),
            "cpu_reply_ms_p95": round(statistics.quantiles(times, n=20)[-1], 2),
            "replies": len(times),
        }
    return out


def _live_game_cost(game: dict[str, Any]) -> dict[str, Any]:
    """A 20-minute std9 game on paper from the measured counts and sizes: 40 person's moves,
    each a POST and the page it leads to; the open page polls every 15 s; one delayed watch
    message per move (a clock chosen)."""
    moves = LIVE_MOVES
    polls = LIVE_MINUTES * 60 // POLL_SECONDS
    requests = 2 + 2 * moves + polls  # the top page and the start, moves and their pages
    meta_read = read_units(game["meta_bytes"], consistent=True)
    usage = Usage(
        http_requests=requests,
        lambda_invocations=requests,
        lambda_gb_seconds=0.5
        / 1000
        * (
            moves * (HANDLER_MS["move"] + CALL_MS * game["requests_per_move_max"])
            + (moves + 1) * (HANDLER_MS["page"] + CALL_MS * game["requests_per_page_max"])
            + polls * (HANDLER_MS["poll"] + CALL_MS)
        ),
        # move: META read; the transaction writes META and two moves (billed double);
        # page: META; poll: a 3-attribute GetItem (one unit)
        rru=moves * meta_read + (moves + 1) * meta_read + polls * 1.0,
        wru=moves
        * (
            write_units(game["meta_bytes"], transactional=True)
            + 2 * write_units(game["move_bytes"], transactional=True)
        ),
        bytes_out=(moves + 1) * 4000 + polls * 60,
        sqs_requests=moves,
    )
    dollars = cost(usage)
    return {
        "minutes": LIVE_MINUTES,
        "person_moves": LIVE_MOVES,
        "http_requests": requests,
        "dollars": round(dollars["total"], 6),
        "by_service": {k: round(v, 6) for k, v in dollars.items() if k != "total"},
    }


def figures() -> dict[str, Any]:
    fake_aws()
    with mock_aws(), like_dynamodb():
        db.configure()
        db.create_table()  # no mail in these games: no SES sender to verify
        runtime.set_clock(lambda: datetime(2026, 12, 1, 3, 0, tzinfo=UTC))
        from app import app

        with Client(app) as client:
            guest = _whole_game(Phone(client), random.Random(1))
            [account] = verified_accounts("duelbench", 1, runtime.now())
            signed = Phone(client)
            signed.get("/login")
            signed.post("/login", {"account_id": account, "password": "bench-password"})
            signed_in = _whole_game(signed, random.Random(2))
        runtime.set_clock(runtime.system_clock)
    return {
        "guest": guest,
        "signed_in": signed_in,
        "reply_latency": _reply_latency(),
        "live_std9_game": _live_game_cost(signed_in),
        "meets_targets": max(guest["requests_per_move_max"], signed_in["requests_per_move_max"])
        <= 3
        and max(guest["requests_per_poll_max"], signed_in["requests_per_poll_max"]) <= 1,
    }


if __name__ == "__main__":
    print(json.dumps(figures(), ensure_ascii=False))
