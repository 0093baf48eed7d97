"""Jinja2 pages: one lazily built environment, autoescaped, with the JST and label filters."""

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .. import labels
from ..clock import jst

# Locally the templates sit at the project root; in the Lambda package vendor/templates
# lands at the package root, the same place relative to chalicelib/.
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


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
        slot_label=labels.SLOT_LABELS,
        side_label=labels.SIDE_LABELS,
        verdict_label=labels.VERDICT_LABELS,
        pace_label=labels.PACE_LABELS,
        board_label=labels.BOARD_LABELS,
        state_label=labels.STATE_LABELS,
        choice_label=labels.CHOICE_LABELS_SHORT,
        ability_label=labels.ABILITY_LABELS,
    )
    from . import static  # static.py reads TEMPLATES from this module

    env.globals["static_url"] = static.url  # content-hashed: /static/app.<hash>.css
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
