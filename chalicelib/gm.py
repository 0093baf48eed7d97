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
from .services import update, villages
from .services.errors import ServiceError

STATES = ("opening", "running", "ending", "ended", "abandoned")
# A rule set's own options (RULES-CLASSIC §7 and the template), as the lambda event names them.
OPTION_KEYS = (
    "opening",
    "npc_villager",
    "tie",
    "heaven_sees_all",
    "early_close",
    "min_members",
    "sunset",
    "template",
)


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
        given={key: event[key] for key in OPTION_KEYS if event.get(key) is not None},
        # Computer members for a practice village (every village rule set; decision 108).
        cpu_members=event.get("cpu_members") or 0,
    )
    return {"village_id": village_id}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m chalicelib.gm", description="村の管理（GM）")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("create", help="村を作る")
    make.add_argument("--pace", choices=("short", "long"), required=True)
    make.add_argument("--name", required=True)
    make.add_argument("--first-update", help="最初の更新（ISO 8601、時差なしなら日本時間）")
    make.add_argument("--character-set", default=DEFAULT_CHARACTER_SET, choices=CHARACTER_SETS)
    make.add_argument("--rules", default=rulesets.DEFAULT, choices=sorted(rulesets.PLACES))
    make.add_argument(
        "--cpu-members", default=0, help="CPUの人数（練習村：作成と同時に席に着く、既定0）"
    )
    classic = make.add_argument_group("人狼BBS式（--rules classic）の設定")
    classic.add_argument("--opening", action="store_true", default=None, help="1日目（投票なし）")
    classic.add_argument(
        "--npc-villager", action="store_true", default=None, help="身代わり君は村人"
    )
    classic.add_argument("--tie", help="同票のとき: random・bbs・runoff")
    classic.add_argument(
        "--no-heaven-sees-all", dest="heaven_sees_all", action="store_false", default=None
    )
    classic.add_argument("--early-close", dest="early_close", action="store_true", default=None)
    classic.add_argument("--no-early-close", dest="early_close", action="store_false")
    classic.add_argument("--min-members", help="最少人数（4〜16）")
    classic.add_argument("--sunset", help="日没の時刻（長期のみ、HH:MM 日本時間）")
    classic.add_argument("--template-file", help="最初の表の書き込みになるテンプレート")
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
                "cpu_members": args.cpu_members,
            }
            for key in OPTION_KEYS[:-1]:
                event[key] = getattr(args, key)
            if args.template_file:
                try:
                    with open(args.template_file, encoding="utf-8") as file:
                        event["template"] = file.read()
                except OSError as error:
                    raise ServiceError(f"テンプレートを読めません: {error}") from None
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
