"""Invoke the deployed Lambda handlers as API Gateway would, with either event shape.

- ``rest``: the REST API's proxy event, handled by ``app.app``. API Gateway routes first:
  a path or method with no route never reaches the Lambda; the gateway answers with its
  404 gateway response (infra/resources.py).
- ``http``: an HTTP API's payload format 1.0 event, handled by ``app.http_api``: the same
  fields, header names in lower case, form bodies in base64, ``$default`` for anything
  without a route, and a response that may be base64 (gzip).

The reply is what the browser gets: the body decoded from base64 and from gzip (whether it
came gzipped is kept in ``gzipped``), headers merged from ``headers`` and
``multiValueHeaders``.
"""

import base64
import gzip
import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from chalice.local import RouteMatcher

import app as app_module
from infra.resources import NOT_FOUND_PAGE

SHAPES = ("rest", "http")
TEXT_BODIES = ("text/", "application/json")


@dataclass
class Reply:
    status: int
    headers: dict[str, list[str]]
    body: bytes
    gzipped: bool = False
    raw: dict = field(default_factory=dict)

    def header(self, name: str) -> str | None:
        values = self.headers.get(name.lower())
        return values[0] if values else None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def _route(method: str, path: str) -> tuple[str, dict[str, str]] | None:
    try:
        match = RouteMatcher(list(app_module.app.routes)).match_route(path)
    except ValueError:
        return None
    if method not in app_module.app.routes[match.route]:
        return None
    return match.route, match.captured


def event(
    shape: str, method: str, target: str, headers: dict[str, str], body: bytes | None
) -> dict | None:
    """The event API Gateway sends for this request (None: the REST API answers itself)."""
    url = urlsplit(target)
    query = parse_qs(url.query, keep_blank_values=True)
    routed = _route(method, url.path)
    if routed is None and shape == "rest":
        return None
    route, captured = routed or ("$default", {})
    if shape == "http":
        headers = {name.lower(): value for name, value in headers.items()}
    # An HTTP API passes only text and JSON bodies as they are: forms come in base64.
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    encoded = shape == "http" and body is not None and not content_type.startswith(TEXT_BODIES)
    context = {
        "accountId": "123456789012",
        "apiId": "abcdef1234",
        "httpMethod": method,
        "identity": {"sourceIp": "198.51.100.7", "userAgent": headers.get("user-agent")},
        "path": url.path if shape == "http" else "/api" + url.path,
        "protocol": "HTTP/1.1",
        "requestId": "request-1",
        "resourcePath": route,
        "stage": "$default" if shape == "http" else "api",
    }
    if shape == "http":
        context["routeKey"] = route if route == "$default" else f"{method} {route}"
    return {
        **({"version": "1.0"} if shape == "http" else {}),
        "resource": route,
        "path": url.path,
        "httpMethod": method,
        "headers": headers or None,
        "multiValueHeaders": {name: [value] for name, value in headers.items()} or None,
        "queryStringParameters": {k: v[-1] for k, v in query.items()} or None,
        "multiValueQueryStringParameters": query or None,
        "pathParameters": captured or None,
        "stageVariables": None,
        "requestContext": context,
        "body": base64.b64encode(body).decode("ascii") if encoded else _text(body),
        "isBase64Encoded": encoded,
    }


def _text(body: bytes | None) -> str | None:
    return body.decode("utf-8") if body is not None else None


def invoke(
    shape: str,
    method: str,
    target: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> Reply:
    request = event(shape, method, target, dict(headers or {}), body)
    if request is None:  # the REST API's gateway response for an unknown path or method
        return Reply(404, {"content-type": ["text/html; charset=utf-8"]}, NOT_FOUND_PAGE.encode())
    handler = app_module.app if shape == "rest" else app_module.http_api
    response = json.loads(json.dumps(handler(request, None)))  # what Lambda serializes
    merged: dict[str, list[str]] = {}
    for name, value in (response.get("headers") or {}).items():
        merged.setdefault(name.lower(), []).append(value)
    for name, values in (response.get("multiValueHeaders") or {}).items():
        merged.setdefault(name.lower(), []).extend(values)
    raw = response.get("body") or ""
    data = base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode("utf-8")
    gzipped = merged.get("content-encoding") == ["gzip"]
    if gzipped:
        data = gzip.decompress(data)
    return Reply(response["statusCode"], merged, data, gzipped, response)
