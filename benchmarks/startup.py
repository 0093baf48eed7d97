"""Cold start: ``import app``, and each first call's imports after it, beside the bare
libraries every function needs, side by side (decisions 215–217).

Each figure is the median of ``RUNS`` fresh interpreters under ``python -X importtime``, the
bare libraries' run and the app's taken in turn so that the machine's load falls on both alike.
Modules are read from compiled bytecode, as in the deployed package (``infra/build.py``
compiles every module): a private bytecode cache, written by one warm-up run of each, so a
checkout that never writes bytecode (``PYTHONDONTWRITEBYTECODE``) would otherwise measure the
compiler.
"""

import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
# What every deployed function imports whatever it does: the app's framework, the AWS SDK,
# the table's models (``import pynamodb`` alone is its version string), the templates and
# Powertools' logger (every handler runs inside ``observability.invocation``).
BARE = "import chalice, boto3, jinja2, pynamodb.models; from aws_lambda_powertools import Logger"
APP = "import app"
# What a function's first call imports beyond ``import app``: the top page (its handlers, and
# each game's name and offer), a village's page (its rule set), a game's page (the duel's),
# the minute tick (its scheduler). ``tests/unit/test_cold_start.py`` checks what each leaves out.
FIRST_CALLS = {
    "lounge": (
        "from chalicelib import rulesets\n"
        "from chalicelib.web import front, villages\n"
        "rulesets.labels(), rulesets.offers(), rulesets.next_update_words()"
    ),
    "village_page": (
        "from chalicelib import rulesets\n"
        "from chalicelib.web import front, villages\n"
        "rulesets.get('mobius')"
    ),
    "match_page": (
        "from chalicelib import rulesets\n"
        "from chalicelib.web import front, matches\n"
        "rulesets.match_rules('duel')"
    ),
    "tick": "from chalicelib.services import scheduler",
}
MARK = "-- measured from here --"
TOP = 10  # modules of ours listed by their own import time, wherever a first call loads them


def importtime(code: str, cache: str) -> dict[str, tuple[int, int]]:
    """One fresh interpreter's imports in ``code``: module → (self, cumulative) µs, in order."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # The interpreter's own start-up imports come before the mark and are not counted.
    marked = f"import sys; print({MARK!r}, file=sys.stderr, flush=True)\n{code}"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", marked],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stderr.splitlines()
    times = {}
    for line in lines[lines.index(MARK) + 1 :]:
        if line.startswith("import time:") and "[us]" not in line:
            own, cumulative, name = line.removeprefix("import time:").split("|")
            times[name.rstrip()] = (int(own), int(cumulative))
    return times


def _top_level_ms(times: dict[str, tuple[int, int]]) -> float:
    # importtime indents a module by two spaces per level below the import that needed it.
    return sum(c for name, (_, c) in times.items() if not name.startswith("  ")) / 1000


def figures() -> dict[str, object]:
    runs: dict[str, list[float]] = defaultdict(list)
    own: dict[str, list[int]] = defaultdict(list)
    codes = {"bare": BARE, "app": APP} | {
        name: f"{APP}\n{code}" for name, code in FIRST_CALLS.items()
    }
    with tempfile.TemporaryDirectory() as cache:
        for code in codes.values():
            importtime(code, cache)  # writes the bytecode
        for _ in range(RUNS):
            for name, code in codes.items():
                times = importtime(code, cache)
                runs[name].append(_top_level_ms(times))
                if name != "bare":
                    for module, (self_us, _) in times.items():
                        if module.strip().split(".")[0] in ("app", "chalicelib"):
                            own[module.strip()].append(self_us)
    median = {name: statistics.median(times) for name, times in runs.items()}
    ours = sorted(((statistics.median(us) / 1000, m) for m, us in own.items()), reverse=True)
    return {
        "bare_libraries": BARE,
        "bare_import_ms": round(median["bare"], 1),
        "app_import_ms": round(median["app"], 1),
        "app_over_bare": round(median["app"] / median["bare"], 2),
        # A first call's cold start: ``import app`` and then its own path.
        "first_call_over_bare": {
            name: round(median[name] / median["bare"], 2) for name in FIRST_CALLS
        },
        "our_slowest_modules_own_ms": {module: round(ms, 1) for ms, module in ours[:TOP]},
    }


if __name__ == "__main__":
    print(figures())
