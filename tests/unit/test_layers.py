"""README's "Layout", checked over every import of ``app.py`` and ``chalicelib/`` (decision 220).

The contracts import-linter would check, read from the source with ``ast`` (import-linter is not
among the project's tools): every module has a layer and imports only its own layer and the
ones below; the two entrypoints' bodies, web and jobs, do not import each other; the pure
engines import nothing of ours but the engines; nothing outside the rule sets names a game. An
import inside a function counts as much as one at the top: it runs all the same.

``KNOWN`` lists the imports that break a contract today, each with the issue that removes it.
A new one fails its contract; so does an entry whose import is gone, so the list only shrinks.
"""

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from msgspec.structs import fields

from chalicelib.storage.repository import VillageRecord

ROOT = Path(__file__).resolve().parents[2]

# Top first. A module may import its own layer and every layer below it, never one above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("app",),  # the routes, schedules and workers Chalice calls
    (
        "chalicelib.web",  # the pages' handlers
        "chalicelib.jobs",  # the non-HTTP entrypoints' bodies
        "chalicelib.gm",  # the GM command line (the GM lambda's body, through jobs)
        "chalicelib.scenario",  # the scenario runner and the simulator: command lines
        "chalicelib.simulate",
    ),
    # What a use case owes once committed, sent by both bodies after it returns (decision 225).
    ("chalicelib.effects",),
    ("chalicelib.services",),  # the use cases
    (
        "chalicelib.rulesets",  # the rule-set seam and each game's rule set
        "chalicelib.storage",
        "chalicelib.notify",
        "chalicelib.inbound",  # reply mail, read for services and for notify's examples
        "chalicelib.membership",  # seat rules for every game, over the rule-set seam
    ),
    ("chalicelib.rules",),  # the pure engines
    (
        # What every layer may use: none of them imports anything above.
        "chalicelib.clock",
        "chalicelib.labels",
        "chalicelib.personas",
        "chalicelib.timecontrol",
        "chalicelib.runtime",
        "chalicelib.signing",
        "chalicelib.links",
        "chalicelib.render",
        "chalicelib.bounded",
        "chalicelib.observability",
        "chalicelib.queues",
        "chalicelib.fanout",
    ),
)

# The two entrypoints' bodies, each its own way in: neither is the other's helper.
INDEPENDENT = ("chalicelib.web", "chalicelib.jobs")

ENGINES = "chalicelib.rules"
# The PynamoDB items: storage hands back plain records and takes intentions, so nothing above
# it sees an item.
STORAGE = "chalicelib.storage"
ITEMS = "chalicelib.storage.models"
GAMES = ("mobius", "classic", "duel")
# Where a game's package may be named: the rule sets (their registry loads each by name) and
# the engines themselves.
NAMING_GAMES = ("chalicelib.rulesets", "chalicelib.rules")

# (importing module, imported package) → the issue that removes the import.
KNOWN: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    where: str  # the importing file, as a failure names it
    line: int

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.importer} imports {self.imported}"


def _modules() -> dict[str, Path]:
    found = {"app": ROOT / "app.py"}
    for path in sorted((ROOT / "chalicelib").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts == ("chalicelib", "__init__"):
            continue  # empty: the package only holds the others
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imports_of(module: str, path: Path, where: str) -> Iterator[Import]:
    """Each import of one of our modules; ``from package import name`` names the submodule
    when ``name`` is one."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{up}.{base}" if base else up
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target in MODULES:
                yield Import(module, target, where, node.lineno)


IMPORTS = sorted(
    {
        found
        for module, path in MODULES.items()
        for found in _imports_of(module, path, str(path.relative_to(ROOT)))
    },
    key=str,
)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _layer(module: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        if any(_within(module, package) for package in layer):
            return index
    return None


def _upward(found: Import) -> bool:
    importer, imported = _layer(found.importer), _layer(found.imported)
    return importer is not None and imported is not None and imported < importer


def _across(found: Import) -> bool:
    first, second = INDEPENDENT
    return (_within(found.importer, first) and _within(found.imported, second)) or (
        _within(found.importer, second) and _within(found.imported, first)
    )


def _out_of_the_engines(found: Import) -> bool:
    return _within(found.importer, ENGINES) and not _within(found.imported, ENGINES)


def _reads_an_item(found: Import) -> bool:
    return _within(found.imported, ITEMS) and not _within(found.importer, STORAGE)


def _names_a_game(found: Import) -> bool:
    games = [f"{package}.{game}" for package in NAMING_GAMES for game in GAMES]
    return any(_within(found.imported, game) for game in games) and not any(
        _within(found.importer, package) for package in NAMING_GAMES
    )


CONTRACTS: dict[str, Callable[[Import], bool]] = {
    "dependencies point down only": _upward,
    "web and jobs do not import each other": _across,
    "the engines import nothing of ours but the engines": _out_of_the_engines,
    "nothing outside the rule sets names a game": _names_a_game,
    "no PynamoDB item above storage": _reads_an_item,
}


def _known(found: Import) -> bool:
    return any(
        importer == found.importer and _within(found.imported, imported)
        for importer, imported in KNOWN
    )


def test_every_module_has_a_layer():
    unplaced = [module for module in MODULES if _layer(module) is None]
    assert not unplaced, f"place these modules in LAYERS: {unplaced}"


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_contract_holds(contract):
    broken = [str(found) for found in IMPORTS if CONTRACTS[contract](found) and not _known(found)]
    assert not broken, f"{contract}, broken by:\n" + "\n".join(broken)


def test_every_known_exception_still_breaks_a_contract():
    stale = [
        f"{importer} → {imported} ({why})"
        for (importer, imported), why in KNOWN.items()
        if not any(
            found.importer == importer
            and _within(found.imported, imported)
            and any(breaks(found) for breaks in CONTRACTS.values())
            for found in IMPORTS
        )
    ]
    assert not stale, f"the import is gone: remove it from KNOWN: {stale}"


# A village's items travel inside the record storage hands back (its conditioned writes need
# them): importing nothing of ``models``, a module above storage could still read one through
# these attributes, so none may.
RECORD_ITEMS = frozenset(f.name for f in fields(VillageRecord) if f.name.startswith("_"))


def _item_reads(path: Path, where: str) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in RECORD_ITEMS:
            yield f"{where}:{node.lineno}: reads .{node.attr}"


def test_no_item_of_a_village_record_is_read_above_storage():
    found = [
        read
        for module, path in MODULES.items()
        if not _within(module, STORAGE)
        for read in _item_reads(path, str(path.relative_to(ROOT)))
    ]
    assert not found, "read the record's plain reads (village, seats(), …):\n" + "\n".join(found)


def test_a_read_of_a_record_item_is_found_with_its_line(tmp_path):
    assert {"_meta", "_members", "_open_days", "_look"} == RECORD_ITEMS
    source = tmp_path / "peeking.py"
    source.write_text(
        "def pace(record):\n    return record.village.pace or record._meta.pace\n",
        encoding="utf-8",
    )
    assert list(_item_reads(source, "peeking.py")) == ["peeking.py:2: reads ._meta"]


def test_an_upward_import_is_found_with_its_line(tmp_path):
    source = tmp_path / "reaching.py"
    source.write_text(
        '"""A storage module that reaches up."""\n\nfrom ..web import pages\n'
        "from .. import jobs, runtime\n",
        encoding="utf-8",
    )
    found = list(_imports_of("chalicelib.storage.reaching", source, "reaching.py"))
    assert [str(i) for i in found] == [
        "reaching.py:3: chalicelib.storage.reaching imports chalicelib.web.pages",
        "reaching.py:4: chalicelib.storage.reaching imports chalicelib.jobs",
        "reaching.py:4: chalicelib.storage.reaching imports chalicelib.runtime",
    ]
    assert [_upward(i) for i in found] == [True, True, False]
    assert not any(_known(i) for i in found)


def test_an_engine_reaching_out_and_a_game_named_outside_the_rule_sets_are_found():
    engine = Import("chalicelib.rules.duel.state", "chalicelib.clock", "state.py", 1)
    assert _out_of_the_engines(engine)
    assert not _out_of_the_engines(replace(engine, imported="chalicelib.rules.talk"))
    named = Import("chalicelib.services.matches", "chalicelib.rulesets.duel.forms", "m.py", 1)
    assert _names_a_game(named)
    assert not _names_a_game(replace(named, importer="chalicelib.rulesets.base"))
    assert not _names_a_game(replace(named, imported="chalicelib.rulesets.base"))
