"""The Lambda handler behind the HTTP API: Chalice's app, plus what the REST API did itself.

An HTTP API with payload format 1.0 sends the REST API's proxy event and reads the same
answer, so the routes run unchanged. Two things the REST API did in front of the Lambda are
done here instead (docs/decisions.md):

- Unknown paths and methods come through the ``$default`` route: they get the 404 page
  (the REST API answered them with its gateway response).
- Text of 1 KB or more is gzipped when the client accepts it: HTTP APIs do not compress.
"""

import base64
from typing import Any

from chalice import Chalice

from . import compression, pages


def handle(app: Chalice, event: dict[str, Any], context: Any) -> dict[str, Any]:
    context_ = event.get("requestContext") or {}
    route = _route(app, event)
    if route is None:
        response = pages.not_found(_request(event)).to_dict()
    else:
        # Chalice finds the view by the route's path in requestContext.resourcePath.
        event = {**event, "requestContext": {**context_, "resourcePath": route}}
        response = app(event, context)
    return _gzipped(response, _header(event, "accept-encoding"))


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
