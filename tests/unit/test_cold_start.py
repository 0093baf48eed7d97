"""Cold start (decisions 216, 217): every function of the stack imports ``app``, so ``app``
imports only what all of them need, and a first call only its own path: each first call that
``make bench`` times (``benchmarks/startup.py``) is read here, in a fresh interpreter, for what
it must leave out. How long each takes is the bench's to say, not a test's."""

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.startup import APP, FIRST_CALLS

ROOT = Path(__file__).resolve().parents[2]

# Needed by some paths only: the rule engines, the duel's CPU search and the villages'
# computer members, the full record, the reply parser, the rating model, the 感想戦's
# what-if, password hashing, mail's line breaking.
VILLAGE_GAMES = ("mobius", "classic")
GAMES = (*VILLAGE_GAMES, "duel")
CPU = (
    "chalicelib.rules.duel.cpu",
    *(f"chalicelib.rulesets.{game}.computer" for game in GAMES),
    "chalicelib.rulesets.turns",  # what a computer member hears and does
)
FULL_RECORD = tuple(f"chalicelib.rulesets.{game}.chronicle" for game in VILLAGE_GAMES)
ENGINES = tuple(f"chalicelib.rules.{game}" for game in GAMES)
REPLY_PARSER = ("chalicelib.inbound.message", "mailparser_reply")
RATINGS = ("openskill", "chalicelib.services.records")
REVIEWS = ("chalicelib.services.reviews",)
PASSWORDS = ("argon2", "zxcvbn")
LINE_BREAKS = ("budoux",)
NOT_FOR_PAGES = (*CPU, *FULL_RECORD, *REPLY_PARSER, *RATINGS, *PASSWORDS, *LINE_BREAKS)
# The games played move by move: their seam, service, storage and clocks (decision 241).
MATCH_PATH = (
    "chalicelib.rulesets.match",
    "chalicelib.services.matches",
    "chalicelib.storage.matches",
    "chalicelib.timecontrol",
)


def imported(*code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = "\n".join((*code, "import json, sys", "print(json.dumps(sorted(sys.modules)))"))
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def among(modules: set[str], packages: tuple[str, ...]) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages)}


def test_import_app_leaves_every_path_to_its_first_call():
    modules = imported(APP)
    paths = ("chalicelib.web", "chalicelib.storage", "chalicelib.gm", "chalicelib.rules")
    assert among(modules, (*paths, "jinja2", *NOT_FOR_PAGES, *REVIEWS)) == set()
    # app.py names its queues and workers from the jobs, which name only the services' errors
    assert "chalicelib.jobs" in modules
    assert among(modules, ("chalicelib.services",)) == {
        "chalicelib.services",
        "chalicelib.services.errors",
    }


def test_the_top_page_names_the_games_without_their_engines():
    modules = imported(APP, FIRST_CALLS["lounge"])
    assert among(modules, (*ENGINES, *NOT_FOR_PAGES, *REVIEWS)) == set()
    assert "chalicelib.web.pages" in modules  # the probe did load the page's path


def test_a_village_page_imports_its_engine_not_its_computer_members_full_record_or_match_path():
    modules = imported(APP, FIRST_CALLS["village_page"])
    assert among(modules, (*NOT_FOR_PAGES, *REVIEWS, *MATCH_PATH)) == set()
    assert "chalicelib.rules.mobius" in modules


def test_a_game_page_imports_neither_the_cpu_search_nor_the_reply_parser():
    modules = imported(APP, FIRST_CALLS["match_page"])
    assert among(modules, NOT_FOR_PAGES) == set()
    assert "chalicelib.rules.duel" in modules


def test_the_minute_tick_imports_no_page_handler_nor_the_reply_parser():
    modules = imported(APP, FIRST_CALLS["tick"])
    assert among(modules, ("chalicelib.web", *REPLY_PARSER, *RATINGS, *REVIEWS)) == set()
    assert "chalicelib.services.scheduler" in modules


def test_no_first_call_builds_a_dataclass_of_ours():
    """Our records are msgspec Structs (decision 248): a dataclass compiles each of its
    methods at import, which had become more than half of a page's own cold start."""
    probe = (
        "import dataclasses, inspect, sys\n"
        "found = sorted(f'{name}.{n}' for name, m in list(sys.modules.items())\n"
        "    if name == 'app' or name.startswith('chalicelib')\n"
        "    for n, c in vars(m).items()\n"
        "    if inspect.isclass(c) and c.__module__ == name and dataclasses.is_dataclass(c))\n"
        "print(found)"
    )
    for code in FIRST_CALLS.values():
        done = subprocess.run(
            [sys.executable, "-c", f"{APP}\n{code}\n{probe}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.splitlines()[-1] == "[]"
