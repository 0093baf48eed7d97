"""Dependencies point down (README "Layout"; decision 225): the web reaches the workers' queues
only through the one dispatcher of what a use case owes (``chalicelib/effects.py``), never by
importing the jobs, and the use cases import neither: they record what they owe. Read from
the source (every ``import``, a function's own too), followed through ``chalicelib``."""

import ast
from functools import cache
from pathlib import Path

import pytest

CHALICELIB = Path(__file__).resolve().parents[2] / "chalicelib"
ROOT = CHALICELIB.parent


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in CHALICELIB.rglob("*.py")}


@cache
def imported_by(module: str) -> frozenset[str]:
    """The ``chalicelib`` modules ``module`` imports itself."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
            target = node.module if node.level == 0 else base
            if node.level and node.module:
                target = f"{base}.{node.module}"
            for alias in node.names:
                whole = f"{target}.{alias.name}"
                found.add(whole if whole in MODULES else target)
    return frozenset(name for name in found if name in MODULES)


def reached_from(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        for found in imported_by(todo.pop()):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return seen


def test_the_reader_follows_relative_imports():
    """``from .. import effects``, ``from .services.unit import Unit``, and onwards."""
    assert "chalicelib.effects" in imported_by("chalicelib.web.pages")
    assert "chalicelib.services.unit" in imported_by("chalicelib.effects")
    assert "chalicelib.services.matches" in reached_from("chalicelib.jobs")


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("chalicelib.web")))
def test_no_page_imports_the_jobs(module):
    assert "chalicelib.jobs" not in reached_from(module)


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if m.startswith("chalicelib.services"))
)
def test_no_use_case_imports_the_dispatcher_the_jobs_or_the_web(module):
    reached = reached_from(module)
    assert not {"chalicelib.effects", "chalicelib.jobs"} & reached
    assert not any(name.startswith("chalicelib.web") for name in reached)
