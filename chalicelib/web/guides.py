"""遊び方 (issue 37): a short page for each game and the glossary every form links, the same for
everyone (nothing private: a visitor may keep them in the back/forward cache). A page is its
template, ``howto_<name>.html``; a name without one is the 404 page."""

import re

from chalice import Response
from jinja2 import TemplateNotFound

from ..render import environment
from .http import BadRequest
from .pages import Ctx, page

NAME = re.compile(r"[a-z]{1,20}")
STYLE = "howto.css"  # the drawings and the glossary: inline on these pages only


@page
def guide(ctx: Ctx, name: str = "index") -> Response:
    template = f"howto_{name}.html"
    if NAME.fullmatch(name) is None or not _exists(template):
        raise BadRequest("ページが見つかりません", 404)
    return ctx.page(template, public=True, own_style=STYLE)


def _exists(template: str) -> bool:
    try:
        environment().get_template(template)
    except TemplateNotFound:
        return False
    return True
