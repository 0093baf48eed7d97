"""The Lambda handler behind the HTTP API: Chalice's app, plus what the REST API did itself.

An HTTP API with payload format 1.0 sends the REST API's proxy event and reads the same
answer, so the routes run unchanged. Two things the REST API did in front of the Lambda are
done here instead (docs/decisions.md):

- Unknown paths and methods come through the ``$default`` route: an unknown path gets the 404
  page, a known path asked with another method (a reload of a form's answer: ``GET /matches``)
  the 405 page (the REST API answered both with its gateway response). The local runner answers
  them through ``unrouted`` too, so that both keep the visitor's session.
- Text of 1 KB or more is gzipped when the client accepts it: HTTP APIs do not compress.
"""

import base64
import re
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from chalice import Chalice, Response

from . import compression, pages


def handle(app: Chalice, event: dict[str, Any], context: Any) -> dict[str, Any]:
    context_ = event.get("requestContext") or {}
    route = _route(app, event)
    if route is None:
        response = unrouted(app, _request(event)).to_dict()
    else:
        # Chalice finds the view by the route's path in requestContext.resourcePath.
        event = {**event, "requestContext": {**context_, "resourcePath": route}}
        response = app(event, context)
    return _gzipped(response, _header(event, "accept-encoding"))


def unrouted(app: Chalice, request: pages.Request) -> Response:
    """The page for a request no route takes, under the visitor's own session: 405 (with
    ``Allow``) when the path has routes for other methods, else 404."""
    allowed = allowed_methods(app, request.path)
    if not allowed:
        return pages.not_found(request)
    return pages.wrong_method(request, allowed, _page_above(app, request.path))


def _page_above(app: Chalice, path: str) -> str:
    """The nearest page above a form's address: ``/villages/12/posts`` -> ``/villages/12``,
    ``/matches`` (the start form's) -> ``/``."""
    parts = urlsplit(path).path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        above = "/".join(parts) or "/"
        if "GET" in allowed_methods(app, above):
            return above
    return "/"


def allowed_methods(app: Chalice, path: str) -> list[str]:
    """The methods the app's routes take at ``path`` (none: no route has that path). A
    ``{parameter}`` matches one non-empty path segment, as API Gateway matches it."""
    path = urlsplit(path).path
    return sorted(
        method
        for route, pattern in _patterns(tuple(app.routes)).items()
        if pattern.fullmatch(path)
        for method in app.routes[route]
    )


@cache
def _patterns(routes: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    return {
        route: re.compile(
            "".join(
                "[^/]+" if part.startswith("{") else re.escape(part)
                for part in re.split(r"(\{\w+\})", route)
            )
        )
        for route in routes
    }


def _route(app: Chalice, event: dict[str, Any]) -> str | None:
    """The Chalice route this event was routed to, or None for ``$default``."""
    context = event.get("requestContext") or {}
    method = context.get("httpMethod") or event.get("httpMethod")
    route_key = context.get("routeKey") or event.get("routeKey") or ""
    candidates = (
        context.get("resourcePath"),
        event.get("resource"),
        route_key.partition(" ")[2],  # "GET /villages/{village_id}"
    )
    for candidate in candidates:
        if candidate in app.routes and method in app.routes[candidate]:
            return candidate
    return None


def _header(event: dict[str, Any], name: str) -> str | None:
    for key, value in (event.get("headers") or {}).items():
        if key.lower() == name:
            return value
    return None


def _request(event: dict[str, Any]) -> pages.Request:
    return pages.Request(
        method=event.get("httpMethod") or "GET",
        path=event.get("path") or "/",
        headers={k.lower(): v for k, v in (event.get("headers") or {}).items()},
        query={},
        raw_body=None,
        context=event.get("requestContext") or {},
    )


def _gzipped(response: dict[str, Any], accept_encoding: str | None) -> dict[str, Any]:
    if response.get("isBase64Encoded") or not isinstance(response.get("body"), str):
        return response
    headers = dict(response.get("headers") or {})
    body = response["body"].encode("utf-8")
    if not compression.should_compress(headers, body, accept_encoding):
        return response
    headers["Content-Encoding"] = "gzip"
    compression.vary(headers)
    encoded = base64.b64encode(compression.compress(body)).decode("ascii")
    return {**response, "headers": headers, "body": encoded, "isBase64Encoded": True}
