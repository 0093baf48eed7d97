"""The GM creates classic villages (issue 13): ``gm create --rules classic`` with the options of
RULES-CLASSIC §7 and a template file, the lambda with the same keys; bad options are one clear
sentence and create nothing."""

import json

import pytest

from chalicelib import gm, jobs, rulesets
from chalicelib.services import villages
from chalicelib.storage.repository import load_village


def test_the_cli_creates_a_classic_village_with_the_issue_s_options(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("この村では昼に必ず一言どうぞ。\n", encoding="utf-8")
    argv = ["create", "--rules", "classic", "--pace", "long", "--name", "BBS村"]
    argv += ["--sunset", "22:00", "--opening", "--tie", "runoff", "--npc-villager"]
    argv += ["--min-members", "8", "--no-heaven-sees-all", "--template-file", str(notes)]
    assert gm.main(argv) == 0
    vid = json.loads(capsys.readouterr().out)["village_id"]
    record = load_village(vid)
    assert record._meta.rules == "classic"
    options = record.game.options
    assert options.to_json() == {
        "pace": "long",
        "opening": True,
        "npc_villager": True,
        "tie": "runoff",
        "heaven_sees_all": False,
        "early_close": False,
        "min_members": 8,
        "sunset": "22:00",
    }
    assert record.game.template == "この村では昼に必ず一言どうぞ。"
    assert gm.main(["list"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert row[:2] == [vid, "人狼BBS式"] and row[4] == "0/16"


def test_bad_classic_options_are_a_clear_error_and_create_nothing(capsys):
    argv = ["create", "--rules", "classic", "--pace", "short", "--name", "村"]
    assert gm.main([*argv, "--tie", "coin"]) == 2
    assert "同票のときは random・bbs・runoff のいずれかです" in capsys.readouterr().err
    assert gm.main([*argv, "--sunset", "21:00"]) == 2
    assert "長期の村だけ" in capsys.readouterr().err
    assert gm.main([*argv, "--min-members", "20"]) == 2
    assert "最少人数" in capsys.readouterr().err
    assert gm.main(["create", "--pace", "short", "--name", "村", "--opening"]) == 2
    assert "メビウスの村には「opening」という設定はありません" in capsys.readouterr().err
    assert villages.lounge("opening").villages == []


def test_the_lambda_takes_the_same_options():
    answer = jobs.gm_create_village(
        {
            "rules": "classic",
            "pace": "short",
            "name": "ラムダ村",
            "tie": "bbs",
            "template": "ルール",
        }
    )
    record = load_village(answer["village_id"])
    assert record.game.options.tie.value == "bbs" and record.game.template == "ルール"
    refused = jobs.gm_create_village({"rules": "classic", "pace": "short", "name": "x", "tie": "?"})
    assert "error" in refused


def test_issue24_the_gm_creates_a_practice_village_with_cpu_members(capsys):
    argv = ["create", "--rules", "classic", "--pace", "short", "--name", "練習村"]
    assert gm.main([*argv, "--cpu-members", "4", "--practice"]) == 0
    vid = json.loads(capsys.readouterr().out)["village_id"]
    record = load_village(vid)
    assert sum(1 for m in record.seats().values() if m.computer) == 4
    assert gm.main([*argv, "--cpu-members", "16"]) == 2
    assert "CPUの人数（cpu_members）は0〜15人にしてください" in capsys.readouterr().err
    assert jobs.gm_create_village(
        {"rules": "mobius", "pace": "short", "name": "練習", "cpu_members": 12, "practice": True}
    )
    mobius = [v for v in villages.lounge("opening").villages if v.rules != "classic"]
    assert [v.occupied for v in mobius] == [12]
    # Without --practice the computers wait for the start (decision 125).
    assert gm.main([*argv, "--cpu-members", "3"]) == 0
    waiting = load_village(json.loads(capsys.readouterr().out)["village_id"])
    assert waiting.waiting_computers == 3 and waiting._meta.occupied == 0


def test_every_declared_option_is_a_command_line_argument_and_a_lambda_key(capsys):
    """One declaration per rule set: the command line offers each option, the lambda refuses a
    key no rule set declares."""
    with pytest.raises(SystemExit):
        gm.main(["create", "--help"])
    usage = capsys.readouterr().out
    for name in rulesets.PLACES:
        for option in rulesets.get(name).options:
            flag = "--" + option.key.replace("_", "-")
            assert (flag + "-file" if option.kind == "text" else flag) in usage
    refused = jobs.gm_create_village(
        {"rules": "classic", "pace": "short", "name": "x", "tei": "bbs"}
    )
    assert refused == {"error": "人狼BBS式の村には「tei」という設定はありません"}
    assert villages.lounge("opening").villages == []
