"""The GM's command line: ``python -m chalicelib.gm create|list|abandon|move|grant|revoke|log``
(``make gm ARGS="…"``).

Which table it works on is never a guess: the local runner's (``make run`` writes where its
local AWS listens in ``.local/server.json``; ``DYNAMODB_ENDPOINT`` names another one), or an
AWS stage's only when ``--stage`` names it (the stage's table, from ``.chalice/config.json``,
and the usual AWS credentials). Without either it refuses, before touching anything.
"""

import argparse
import getpass
import json
import os
import sys
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError
from pynamodb.exceptions import PynamoDBException

from . import rulesets, runtime
from .clock import jst, system_clock
from .labels import PACE_LABELS, STATE_LABELS
from .personas import CHARACTER_SETS, DEFAULT_CHARACTER_SET
from .rulesets.options import Option
from .services import hosting, villages
from .services.errors import InvalidInput, ServiceError
from .storage import db

STATES = ("opening", "running", "ending", "ended", "abandoned")
ACTIVE = ("opening", "running", "ending")
LOCAL_SERVER = Path(".local/server.json")  # written by ``make run`` while it serves
LOCAL_CLOCK = Path(".local/clock.json")  # its clock's offset from real time (/dev/clock)
CHALICE_CONFIG = Path(".chalice/config.json")
COLUMNS = ("番号", "ルール", "種類", "状態", "人数", "次の予定（日本時間）", "村の名前")


def create(event: Mapping[str, Any], actor: str) -> dict:
    """The body of the GM lambda and of ``gm create``: returns the new village's id."""
    return {"village_id": hosting.create(event, actor, runtime.now())}


def listing(states: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every village in ``states``, each state's soonest update first."""
    rows = []
    for state in states:
        cursor = None
        while True:
            page = villages.lounge(state, cursor, limit=50)
            for v in page.villages:
                rows.append(
                    {
                        "village_id": v.village_id,
                        "rules": v.rules or rulesets.DEFAULT,
                        "pace": v.pace,
                        "state": v.state,
                        "occupied": int(v.occupied),
                        "seats": int(v.seats or 13),
                        "next_update": v.next_update.isoformat() if v.next_update else None,
                        "name": v.name,
                    }
                )
            cursor = page.cursor
            if not cursor:
                break
    return rows


def _table(stage: str | None) -> str:
    """Points storage at the table named on purpose; returns what it is, for stderr."""
    if stage is None or stage == "local":
        endpoint = os.environ.get("DYNAMODB_ENDPOINT")
        if not endpoint and LOCAL_SERVER.exists():
            server = json.loads(LOCAL_SERVER.read_text(encoding="utf-8"))
            endpoint = server["endpoint"]
            os.environ.update(
                DYNAMODB_ENDPOINT=endpoint,
                MOBIUS_TABLE=server["table"],
                AWS_DEFAULT_REGION=server["region"],
                AWS_ACCESS_KEY_ID=os.environ.get("AWS_ACCESS_KEY_ID", "local"),
                AWS_SECRET_ACCESS_KEY=os.environ.get("AWS_SECRET_ACCESS_KEY", "local"),
            )
        if not endpoint:
            raise InvalidInput(
                "ローカルのサーバーが見つかりません（make run を先に起動してください）。"
                "AWS の村を扱うときは --stage dev のようにステージを指定してください"
            )
        if LOCAL_CLOCK.exists():  # the villages there run on the local clock: so does the GM
            offset = json.loads(LOCAL_CLOCK.read_text(encoding="utf-8"))["offset_seconds"]
            shift = timedelta(seconds=float(offset))
            runtime.set_clock(lambda: system_clock() + shift)
        config = db.configure()
        return f"ローカル（{endpoint} のテーブル {config.table_name}）"
    if os.environ.get("DYNAMODB_ENDPOINT"):
        raise InvalidInput("--stage を指定するときは DYNAMODB_ENDPOINT を外してください")
    stages = json.loads(CHALICE_CONFIG.read_text(encoding="utf-8"))
    if stage not in stages.get("stages", {}):
        known = "・".join(sorted(stages.get("stages", {})))
        raise InvalidInput(f"ステージ {stage} はありません（{known}）")
    table = (
        stages["stages"][stage].get("environment_variables", {}).get("MOBIUS_TABLE")
        or stages.get("environment_variables", {}).get("MOBIUS_TABLE")
        or "mobius"
    )
    config = db.configure(db.TableConfig(table, db.config_from_env().region, None))
    return f"AWS の {stage} ステージ（テーブル {table}、{config.region}）"


def _option_arguments(parser: argparse.ArgumentParser) -> dict[str, Option]:
    """Adds each rule set's options (``--key``, ``--no-key`` for a flag, ``--key-file`` for a
    text) from its declaration; a key two rule sets share is one argument."""
    options: dict[str, Option] = {}
    for name in rulesets.PLACES:
        rules = rulesets.get(name)
        group = parser.add_argument_group(f"{rules.label}（--rules {name}）の設定")
        for option in rules.options:
            if option.key in options:
                continue
            options[option.key] = option
            flag = "--" + option.key.replace("_", "-")
            if option.kind == "flag":
                group.add_argument(flag, dest=option.key, action="store_const", const="true")
                group.add_argument(
                    "--no-" + flag[2:], dest=option.key, action="store_const", const="false",
                    help=option.label,
                )  # fmt: skip
            elif option.kind == "text":
                group.add_argument(flag + "-file", dest=option.key, help=option.label)
            else:
                group.add_argument(flag, dest=option.key, help=option.label)
    return options


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise InvalidInput(f"ファイルを読めません: {error}") from None


def _parser() -> tuple[argparse.ArgumentParser, dict[str, Option]]:
    parser = argparse.ArgumentParser(prog="python -m chalicelib.gm", description="村の管理（GM）")
    parser.add_argument(
        "--stage",
        help="AWS のステージ（dev・prod）。省略すると make run のローカルのサーバー",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("create", help="村を作る")
    make.add_argument("--pace", choices=("short", "long"), required=True)
    make.add_argument("--name", required=True)
    make.add_argument("--first-update", help="最初の更新（ISO 8601、時差なしなら日本時間）")
    make.add_argument("--character-set", default=DEFAULT_CHARACTER_SET, choices=CHARACTER_SETS)
    make.add_argument("--rules", default=rulesets.DEFAULT, choices=sorted(rulesets.PLACES))
    make.add_argument(
        "--cpu-members",
        default=0,
        help="CPUの人数（既定0）：村が始まるとき、人が入らなかった席をこの人数まで埋める",
    )
    make.add_argument("--practice", action="store_true", help="練習村：CPUが作成と同時に席に着く")
    options = _option_arguments(make)
    shown = commands.add_parser("list", help="村の一覧（見出しつき、--json でJSON）")
    shown.add_argument("--state", choices=(*STATES, "active", "all"), default="active")
    shown.add_argument("--json", action="store_true", help="1行に1村のJSON")
    close = commands.add_parser("abandon", help="村を廃村にする（理由は参加者に伝わります）")
    close.add_argument("village_id")
    close.add_argument("--reason", required=True, help="参加者に伝える理由")
    move = commands.add_parser("move", help="次の更新（募集中なら募集の締め切り）を動かす")
    move.add_argument("village_id")
    move.add_argument("--to", required=True, help="新しい時刻（ISO 8601、時差なしなら日本時間）")
    move.add_argument("--notice", required=True, help="参加者へのお知らせ")
    for command, words in (("grant", "GMにする"), ("revoke", "GMから外す")):
        role = commands.add_parser(command, help=f"アカウントを{words}")
        role.add_argument("account_id")
    commands.add_parser("log", help="GMの操作の記録（新しい順）")
    return parser, options


def main(argv: list[str] | None = None) -> int:
    parser, options = _parser()
    args = parser.parse_args(argv)
    actor = f"cli:{getpass.getuser()}"
    try:
        if db.configured() is None:  # a caller that set the table (the tests) keeps it
            print(f"対象: {_table(args.stage)}", file=sys.stderr)
        now = runtime.now()
        if args.command == "create":
            event: dict[str, Any] = {
                "pace": args.pace,
                "name": args.name,
                "first_update": args.first_update,
                "character_set": args.character_set,
                "rules": args.rules,
                "cpu_members": args.cpu_members,
                "practice": args.practice,
            }
            for key, option in options.items():
                value = getattr(args, key)
                if option.kind == "text" and value is not None:
                    value = _read_file(value)
                event[key] = value
            print(json.dumps(create(event, actor), ensure_ascii=False))
        elif args.command == "list":
            states = {"active": ACTIVE, "all": STATES}.get(args.state, (args.state,))
            _print_list(listing(states), args.json)
        elif args.command == "abandon":
            hosting.abandon(args.village_id, args.reason, actor, now)
            print(f"{args.village_id}番を廃村にしました")
        elif args.command == "move":
            to = hosting.when(args.to, now, "--to")
            assert to is not None
            hosting.reschedule(args.village_id, to, args.notice, actor, now)
            print(f"{args.village_id}番の次の更新を {jst(to)} にしました")
        elif args.command in ("grant", "revoke"):
            hosting.grant(args.account_id, args.command == "grant", actor, now)
            done = "GMにしました" if args.command == "grant" else "GMから外しました"
            print(f"{args.account_id} を{done}")
        else:
            for line in hosting.recent(now):
                print("\t".join((jst(line.at), line.actor, line.action, line.target,
                                 line.detail or "")))  # fmt: skip
    except ServiceError as error:
        print(str(error), file=sys.stderr)
        return 2
    except (BotoCoreError, PynamoDBException) as error:  # no server, no credentials …
        print(f"テーブルに届きません（{error}）", file=sys.stderr)
        return 2
    return 0


def _print_list(rows: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return
    labels = rulesets.labels()
    print("\t".join(COLUMNS))
    for row in rows:
        at = datetime.fromisoformat(row["next_update"]) if row["next_update"] else None
        cells = (
            row["village_id"],
            labels[row["rules"]],
            PACE_LABELS[row["pace"]],
            STATE_LABELS[row["state"]],  # in words, as the GM page says it (--json: the key)
            f"{row['occupied']}/{row['seats']}",
            jst(at) if at else "—",
            row["name"],
        )
        print("\t".join(cells))


if __name__ == "__main__":
    raise SystemExit(main())
