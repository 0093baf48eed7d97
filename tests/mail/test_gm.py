"""The GM: the gm_create_village lambda and ``python -m chalicelib.gm create|list|abandon``."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from chalicelib import gm, jobs
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import villages
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import MailBox, account_of, seat, tick

SHORT = TIMINGS[Pace.SHORT]
LONG = TIMINGS[Pace.LONG]


def test_the_lambda_creates_a_village(client, clock):
    answer = client.lambda_.invoke(
        "gm_create_village", {"pace": "short", "name": "夜更かし村"}
    ).payload
    meta = load_village(answer["village_id"])._meta
    assert (meta.name, meta.pace, meta.state) == ("夜更かし村", "short", "opening")
    assert meta.created_at == clock()
    assert meta.next_update == clock() + SHORT.first_update
    assert meta.character_set == "yamazato"


def test_the_lambda_takes_a_first_update_in_japan_time(clock):
    answer = jobs.gm_create_village(
        {"pace": "long", "name": "週末村", "first_update": "2026-12-05T21:00"}
    )
    meta = load_village(answer["village_id"])._meta
    assert meta.next_update == datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    explicit = jobs.gm_create_village(
        {"pace": "long", "name": "時差村", "first_update": "2026-12-05T21:00+00:00"}
    )
    assert load_village(explicit["village_id"])._meta.next_update == datetime(
        2026, 12, 5, 21, 0, tzinfo=UTC
    )


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"pace": "weekly", "name": "村"}, "村の種類は長期か短期を選んでください"),
        ({"name": "村"}, "村の種類は長期か短期を選んでください"),
        ({"pace": "short", "name": "  "}, "村の名前は1〜40文字にしてください"),
        ({"pace": "short", "name": "あ" * 41}, "村の名前は1〜40文字にしてください"),
        (
            {"pace": "short", "name": "村", "first_update": "tomorrow"},
            "first_update は ISO 8601 の日時で指定してください",
        ),
        (
            {"pace": "short", "name": "村", "first_update": 20261205},
            "first_update は ISO 8601 の日時で指定してください",
        ),
        (
            {"pace": "short", "name": "村", "first_update": "2026-11-30T12:00"},
            "最初の更新時刻は未来にしてください",
        ),
        (
            {"pace": "short", "name": "村", "character_set": "nope"},
            "そのキャラクターセットはありません",
        ),
        (["not", "an", "object"], "村の種類は長期か短期を選んでください"),
    ],
)
def test_the_lambda_answers_a_refusal_in_japanese(client, event, message):
    assert client.lambda_.invoke("gm_create_village", event).payload == {"error": message}
    assert villages.lounge("opening").villages == []


def test_the_cli_creates_lists_and_abandons(players, clock, rng, capsys):
    assert gm.main(["create", "--pace", "long", "--name", "GMの村"]) == 0
    created = json.loads(capsys.readouterr().out)
    vid = created["village_id"]
    meta = load_village(vid)._meta
    assert (meta.pace, meta.name, meta.next_update) == (
        "long",
        "GMの村",
        clock() + LONG.first_update,
    )
    assert gm.main(["create", "--pace", "short", "--name", "二番村", "--first-update",
                    "2026-12-01T20:30"]) == 0  # fmt: skip
    second = json.loads(capsys.readouterr().out)["village_id"]
    assert load_village(second)._meta.next_update == datetime(2026, 12, 1, 11, 30, tzinfo=UTC)

    assert gm.main(["list"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    # A header, then soonest update first: id, rules, pace, state, occupancy, next (JST), name.
    assert rows == [
        ["番号", "ルール", "種類", "状態", "人数", "次の予定（日本時間）", "村の名前"],
        [second, "メビウス", "短期", "募集中", "0/13", "2026年12月1日 20:30", "二番村"],
        [vid, "メビウス", "長期", "募集中", "0/13", "2026年12月2日 18:00", "GMの村"],
    ]

    seated = seat(vid, players[:4], clock)
    box = MailBox()
    assert gm.main(["abandon", vid, "--reason", "サーバーの移転のため"]) == 0
    assert capsys.readouterr().out.strip() == f"{vid}番を廃村にしました"
    meta = load_village(vid)._meta
    assert (meta.state, meta.next_update) == ("abandoned", None)
    assert all(load_account(a).holds == {} for a in seated.values())
    # The members hear of it at the next tick.
    clock.advance(timedelta(minutes=1))
    tick(clock, rng)
    mails = box.new()
    assert sorted(account_of(m) for m in mails) == sorted(seated.values())
    assert all(m.subject.endswith("廃村になりました") for m in mails)
    # The reason reaches the members, in their mail and on the village's board.
    assert all("理由: サーバーの移転のため" in m.text for m in mails)

    assert gm.main(["list", "--state", "abandoned"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split("\t")[:4] == [
        vid, "メビウス", "長期", "廃村"
    ]  # fmt: skip
    # Refusals: a message on stderr and exit status 2.
    assert gm.main(["abandon", vid, "--reason", "二度目"]) == 2
    assert capsys.readouterr().err.strip() == "その村はもう終わっています"
    assert gm.main(["abandon", "999", "--reason", "なし"]) == 2
    assert capsys.readouterr().err.strip() == "その村は見つかりません"
    assert gm.main(["create", "--pace", "short", "--name", "村", "--first-update", "x"]) == 2
    assert "ISO 8601" in capsys.readouterr().err


def test_the_cli_list_prints_a_header_even_when_empty_and_json_for_scripts(clock, capsys):
    assert gm.main(["list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "番号\tルール\t種類\t状態\t人数\t次の予定（日本時間）\t村の名前"
    ]
    assert gm.main(["create", "--pace", "short", "--name", "JSON村"]) == 0
    vid = json.loads(capsys.readouterr().out)["village_id"]
    assert gm.main(["list", "--json"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {
        "village_id": vid,
        "rules": "mobius",
        "pace": "short",
        "state": "opening",
        "occupied": 0,
        "seats": 13,
        "next_update": (clock() + SHORT.first_update).isoformat(),
        "name": "JSON村",
    }


def test_the_cli_moves_an_update_and_grants_the_gm_role(players, clock, capsys):
    assert gm.main(["create", "--pace", "short", "--name", "延長村"]) == 0
    vid = json.loads(capsys.readouterr().out)["village_id"]
    clock.advance(timedelta(seconds=1))
    argv = ["move", vid, "--to", "2026-12-02T21:00", "--notice", "募集を延ばします"]
    assert gm.main(argv) == 0
    assert capsys.readouterr().out.strip() == f"{vid}番の次の更新を 2026年12月2日 21:00 にしました"
    assert load_village(vid)._meta.next_update == datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    clock.advance(timedelta(seconds=1))
    assert gm.main(["grant", players[0]]) == 0
    assert load_account(players[0]).gm
    clock.advance(timedelta(seconds=1))
    assert gm.main(["revoke", players[0]]) == 0
    assert not load_account(players[0]).gm
    assert gm.main(["grant", "nobody"]) == 2
    assert capsys.readouterr().err.strip() == "そのアカウントは見つかりません"
    # Who did what, newest first.
    assert gm.main(["log"]) == 0
    actions = [line.split("\t")[2:4] for line in capsys.readouterr().out.splitlines()]
    assert actions == [["revoke", players[0]], ["grant", players[0]], ["reschedule", vid],
                       ["create", vid]]  # fmt: skip


def test_the_cli_refuses_bad_arguments(capsys):
    for argv in ([], ["create", "--pace", "daily", "--name", "村"], ["list", "--state", "x"]):
        with pytest.raises(SystemExit) as exited:
            gm.main(argv)
        assert exited.value.code == 2
        capsys.readouterr()
