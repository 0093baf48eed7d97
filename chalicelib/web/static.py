"""The stylesheet and other static files, served from templates/static with long caching."""

from chalice import Response

from ..render import TEMPLATES
from .http import SECURITY_HEADERS

TYPES = {".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


def serve(name: str) -> Response:
    suffix = name[name.rfind(".") :] if "." in name else ""
    path = TEMPLATES / "static" / name
    if suffix not in TYPES or "/" in name or ".." in name or not path.is_file():
        return Response(body="見つかりません", status_code=404, headers={**SECURITY_HEADERS})
    headers: dict[str, str | list[str]] = {
        **SECURITY_HEADERS,
        "Content-Type": TYPES[suffix],
        "Cache-Control": "public, max-age=3600",
    }
    return Response(body=path.read_text(encoding="utf-8"), status_code=200, headers=headers)
