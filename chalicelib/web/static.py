"""Static files (templates/static): the stylesheet pages carry inline, and the files under
content-hashed names, cached for a year.

Pages carry app.css inline in a ``<style>`` (it is small: no request holds their first
paint, issue 29); their Content-Security-Policy allows exactly that text by its SHA-256
(``inline_source``). The files are still served as before, for pages of earlier releases
that linked ``/static/app.<sha256[:12]>.css``: the names are computed once per process from
the files themselves; a hashed name that is not the current one is redirected to the current
file, not refused: a page never loses its styles. The plain name (``/static/app.css``) is
served with a short cache.
"""

import base64
import hashlib
import re
from functools import cache

from chalice import Response
from msgspec import Struct

from ..render import TEMPLATES
from .http import SECURITY_HEADERS

TYPES = {
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".js": "text/javascript; charset=utf-8",
}
ICON = "icon.svg"  # the site's icon, also served at /favicon.ico
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=3600"
HASHED_NAME = re.compile(r"(?P<stem>[\w-]+)\.(?P<digest>[0-9a-f]{12})(?P<suffix>\.\w+)")


class StaticFile(Struct, frozen=True):
    name: str  # app.css
    hashed_name: str  # app.0123456789ab.css
    content_type: str
    body: str
    inline_source: str  # its CSP source when inlined: 'sha256-<base64>'


@cache
def files() -> dict[str, StaticFile]:
    """Every static file by its plain name, read and hashed once per process."""
    found = {}
    for path in sorted((TEMPLATES / "static").iterdir()):
        if path.suffix not in TYPES or not path.is_file():
            continue
        body = path.read_text(encoding="utf-8")
        digest = hashlib.sha256(body.encode("utf-8"))
        found[path.name] = StaticFile(
            name=path.name,
            hashed_name=f"{path.stem}.{digest.hexdigest()[:12]}{path.suffix}",
            content_type=TYPES[path.suffix],
            body=body,
            inline_source=f"'sha256-{base64.b64encode(digest.digest()).decode('ascii')}'",
        )
    return found


def url(name: str) -> str:
    """The versioned URL of a static file; an unknown name is a template bug (KeyError)."""
    return f"/static/{files()[name].hashed_name}"


def serve(name: str) -> Response:
    known = files()
    hashed = HASHED_NAME.fullmatch(name)
    if hashed:
        static = known.get(hashed["stem"] + hashed["suffix"])
        if static is None:
            return _not_found()
        if name != static.hashed_name:
            headers: dict[str, str | list[str]] = {**SECURITY_HEADERS, "Location": url(static.name)}
            return Response(body="", status_code=307, headers=headers)
        return _file(static, IMMUTABLE)
    static = known.get(name)
    return _file(static, SHORT) if static else _not_found()


def _file(static: StaticFile, cache_control: str) -> Response:
    headers: dict[str, str | list[str]] = {
        **SECURITY_HEADERS,
        "Content-Type": static.content_type,
        "Cache-Control": cache_control,
    }
    return Response(body=static.body, status_code=200, headers=headers)


def _not_found() -> Response:
    return Response(body="見つかりません", status_code=404, headers={**SECURITY_HEADERS})
