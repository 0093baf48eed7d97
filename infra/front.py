"""The HTTP API in front of the routes, in place of the REST API Chalice generates.

An HTTP API costs $1.29 per million requests in Tokyo against the REST API's $4.25, and
with payload format 1.0 it sends the REST API's event shape, which Chalice's handler reads.
Each of Chalice's routes becomes a route of the HTTP API (API Gateway still routes, as the
REST API did); everything else reaches the ``$default`` route, whose handler answers with
the 404 page. The function's handler is ``app.http_api`` (chalicelib/web/front.py), which
also gzips, since HTTP APIs do not compress. Findings: docs/decisions.md.
"""

import re
from typing import Any

FRONTS = ("http", "rest")
PAYLOAD_FORMAT = "1.0"


def use_http_api(template: dict[str, Any]) -> dict[str, Any]:
    """Chalice's SAM template with its REST API replaced by an HTTP API."""
    resources = template["Resources"]
    swagger = resources.pop("RestAPI")["Properties"]["DefinitionBody"]
    resources.pop("APIHandlerInvokePermission")  # SAM grants each HttpApi event its own
    events: dict[str, Any] = {}
    for path, operations in swagger["paths"].items():
        for method in operations:
            if method == "parameters":
                continue
            events[_event_name(method, path)] = _event(Method=method.upper(), Path=path)
    events["Unrouted"] = _event()  # no Path and Method: the $default route
    handler = resources["APIHandler"]["Properties"]
    handler["Handler"] = "app.http_api"
    handler["Events"] = events
    resources["HttpApi"] = {
        "Type": "AWS::Serverless::HttpApi",
        "Properties": {"FailOnWarnings": True},  # the $default stage: no path prefix
    }
    outputs = template["Outputs"]
    outputs.pop("RestAPIId", None)
    outputs["HttpApiId"] = {"Value": {"Ref": "HttpApi"}}
    outputs["EndpointURL"] = {
        "Value": {"Fn::Sub": "https://${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/"}
    }
    return template


def _event(**route: str) -> dict[str, Any]:
    return {
        "Type": "HttpApi",
        "Properties": {
            "ApiId": {"Ref": "HttpApi"},
            **route,
            "PayloadFormatVersion": PAYLOAD_FORMAT,
        },
    }


def _event_name(method: str, path: str) -> str:
    """``GET /villages/{village_id}/posts`` -> ``GetVillagesVillageIdPosts``."""
    words = re.findall(r"[A-Za-z0-9]+", path.replace("_", " "))
    return method.capitalize() + ("".join(w.capitalize() for w in words) or "Root")
