"""The GM's command line: ``python -m chalicelib.gm create|list|abandon``.

Works against the local runner (set DYNAMODB_ENDPOINT, as ``make run`` prints)
and against AWS (the stage's table in MOBIUS_TABLE, the usual AWS credentials).
"""

import argparse
import json
import random
import secrets
import sys
from datetime import datetime

from . import rulesets, runtime
from .clock import JST, jst
from .personas import CHARACTER_SETS, DEFAULT_CHARACTER_SET
from .rulesets.options import Option
from .services import update, villages
from .services.errors import ServiceError

STATES = ("opening", "running", "ending", "ended", "abandoned")
# The lambda event's keys every village has; any other key is an option of its rule set.
COMMON_KEYS = ("pace", "name", "first_update", "character_set", "rules")


def create(event: dict) -> dict:
    """The body of the GM lambda and of ``gm create``: returns the new village's id."""
    first_update = event.get("first_update")
    try:
        first = datetime.fromisoformat(first_update) if first_update else None
    except (TypeError, ValueError):
        raise ServiceError("first_update は ISO 8601 の日時で指定してください") from None
    if first is not None and first.tzinfo is None:
        first = first.replace(tzinfo=JST)  # a bare time is Japan time, as players read it
    village_id = villages.create_village(
        pace=str(event.get("pace", "")),
        name=str(event.get("name", "")),
        now=runtime.now(),
        rng=random.Random(secrets.randbits(64)),
        first_update=first,
        character_set=str(event.get("character_set", DEFAULT_CHARACTER_SET)),
        rules=str(event.get("rules", rulesets.DEFAULT)),
        given={key: value for key, value in event.items() if key not in COMMON_KEYS},
    )
    return {"village_id": village_id}


def _declared() -> dict[str, Option]:
    """Every village rule set's options by key (a key two rule sets share is one argument)."""
    return {o.key: o for name in rulesets.PLACES for o in rulesets.get(name).options}


def _option_arguments(parser: argparse.ArgumentParser) -> set[str]:
    """Adds each rule set's options (``--key``, ``--no-key`` for a flag, ``--key-file`` for a
    text); returns the keys read from a file."""
    files = set()
    for name in rulesets.PLACES:
        rules = rulesets.get(name)
        group = parser.add_argument_group(f"{rules.label}（--rules {name}）の設定")
        for option in rules.options:
            if option.key in files or any(a.dest == option.key for a in parser._actions):
                continue  # declared by an earlier rule set too
            flag = "--" + option.key.replace("_", "-")
            if option.kind == "flag":
                group.add_argument(flag, dest=option.key, action="store_const", const="true")
                group.add_argument(
                    "--no-" + flag[2:], dest=option.key, action="store_const", const="false",
                    help=option.label,
                )  # fmt: skip
            elif option.kind == "text":
                files.add(option.key)
                group.add_argument(flag + "-file", dest=option.key, help=option.label)
            else:
                group.add_argument(flag, dest=option.key, help=option.label)
    return files


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ServiceError(f"ファイルを読めません: {error}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chalicelib.gm", description="村の管理（GM）")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("create", help="村を作る")
    make.add_argument("--pace", choices=("short", "long"), required=True)
    make.add_argument("--name", required=True)
    make.add_argument("--first-update", help="最初の更新（ISO 8601、時差なしなら日本時間）")
    make.add_argument("--character-set", default=DEFAULT_CHARACTER_SET, choices=CHARACTER_SETS)
    make.add_argument("--rules", default=rulesets.DEFAULT, choices=sorted(rulesets.PLACES))
    files = _option_arguments(make)
    listing = commands.add_parser("list", help="村の一覧")
    listing.add_argument("--state", choices=STATES, default="opening")
    close = commands.add_parser("abandon", help="村を廃村にする")
    close.add_argument("village_id")
    args = parser.parse_args(argv)
    try:
        if args.command == "create":
            event = {
                "pace": args.pace,
                "name": args.name,
                "first_update": args.first_update,
                "character_set": args.character_set,
                "rules": args.rules,
            }
            for key in _declared():
                value = getattr(args, key)
                if key in files and value is not None:
                    value = _read_file(value)
                event[key] = value
            result = create(event)
            print(json.dumps(result, ensure_ascii=False))
        elif args.command == "list":
            cursor = None
            while True:
                page = villages.lounge(args.state, cursor, limit=50)
                for v in page.villages:
                    when = jst(v.next_update) if v.next_update else "—"
                    seats = v.seats or 13
                    row = [v.village_id, v.pace, v.state, f"{v.occupied}/{seats}", when, v.name]
                    if (v.rules or rulesets.DEFAULT) != rulesets.DEFAULT:
                        row.append(rulesets.labels()[v.rules])  # 人狼BBS式: named at the end
                    print("\t".join(map(str, row)))
                cursor = page.cursor
                if not cursor:
                    break
        else:
            update.abandon(args.village_id, runtime.now())
            print(f"{args.village_id}番を廃村にしました")
    except ServiceError as error:
        print(str(error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
