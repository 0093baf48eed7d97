"""Scenario runner: ``python -m chalicelib.scenario [--rules mobius|classic|duel]``.

Reads one JSON scenario per line on stdin and writes one JSON line per input
line on stdout, in order. The same input always gives the same output. Without
``--rules`` it plays Mobius (the contract of issue #2); each rule set's runner lives
in its own package, found through the registry (``rulesets.scenario_runner``), and
follows its rule book's contract.
"""

import argparse
import json
import sys
from typing import Any

from . import rulesets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="シナリオランナー (JSON Lines)")
    parser.add_argument("--rules", choices=rulesets.TOOLS, default=rulesets.DEFAULT)
    args = parser.parse_args(argv)
    play = rulesets.scenario_runner(args.rules)
    # A rule set whose contract skips blank lines says so (RULES-DUEL §9); Mobius answers them.
    skip_blank = getattr(sys.modules.get(play.__module__), "SKIP_BLANK_LINES", False)
    for line in sys.stdin:
        if skip_blank and not line.strip():
            continue
        try:
            scenario = json.loads(line)
        except json.JSONDecodeError as error:
            # Even a blank line gets its answer: one output line per input line.
            out: dict[str, Any] = {"id": None, "error": f"JSON として読めません: {error.msg}"}
        else:
            if isinstance(scenario, dict):
                out = play(scenario)
            else:
                out = {"id": None, "error": "シナリオは JSON オブジェクトです"}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
