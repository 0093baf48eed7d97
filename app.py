"""Chalice entrypoints: thin routes over chalicelib's page handlers and services."""

from chalice import Chalice, Response

from chalicelib.web import pages, static

app = Chalice(app_name="mobius-village")

FORM = ["application/x-www-form-urlencoded"]


def _request() -> pages.Request:
    request = app.current_request
    return pages.Request(
        method=request.method,
        path=request.path,
        headers={k.lower(): v for k, v in (request.headers or {}).items()},
        query=dict(request.query_params or {}),
        raw_body=request.raw_body if request.method == "POST" else None,
        context=request.context or {},
    )


@app.route("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.route("/static/{name}")
def static_file(name: str) -> Response:
    return static.serve(name)


@app.route("/")
def lounge() -> Response:
    return pages.lounge(_request())


@app.route("/register", methods=["GET", "POST"], content_types=FORM)
def register() -> Response:
    return pages.register(_request())


@app.route("/verify", methods=["GET", "POST"], content_types=FORM)
def verify() -> Response:
    return pages.verify(_request())


@app.route("/login", methods=["GET", "POST"], content_types=FORM)
def login() -> Response:
    return pages.login(_request())


@app.route("/logout", methods=["POST"], content_types=FORM)
def logout() -> Response:
    return pages.logout(_request())


@app.route("/account", methods=["GET"])
def account() -> Response:
    return pages.account(_request())


@app.route("/account", methods=["POST"], content_types=FORM)
def account_update() -> Response:
    return pages.account_update(_request())


@app.route("/villages/{village_id}", methods=["GET"])
def village(village_id: str) -> Response:
    return pages.village(village_id)(_request())


@app.route("/villages/{village_id}/posts", methods=["POST"], content_types=FORM)
def village_post(village_id: str) -> Response:
    return pages.village_post(village_id)(_request())


@app.route("/villages/{village_id}/actions", methods=["POST"], content_types=FORM)
def village_actions(village_id: str) -> Response:
    return pages.village_actions(village_id)(_request())


@app.route("/villages/{village_id}/join", methods=["POST"], content_types=FORM)
def village_join(village_id: str) -> Response:
    return pages.village_join(village_id)(_request())


@app.route("/villages/{village_id}/leave", methods=["GET", "POST"], content_types=FORM)
def village_leave(village_id: str) -> Response:
    return pages.village_leave(village_id)(_request())
