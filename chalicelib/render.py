"""Jinja2 pages and mail: one lazily built environment, autoescaped, with the JST filter and
the platform's labels (a rule set hands its own labels to its templates)."""

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from . import labels
from .clock import jst

# Locally the templates sit at the project root; in the Lambda package vendor/templates
# lands at the package root, the same place relative to chalicelib/.
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(("html", "xml", "j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["jst"] = lambda moment: jst(moment) if moment else "—"
    env.globals.update(
        site_name=labels.SITE_NAME,
        pace_label=labels.PACE_LABELS,
        state_label=labels.STATE_LABELS,
    )
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
