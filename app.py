"""Chalice entrypoints: thin routes, schedules and lambdas over chalicelib services."""

from chalice import Chalice

app = Chalice(app_name="mobius-village")


@app.route("/healthz")
def healthz() -> dict[str, str]:
    """Liveness probe for the load balancer and the local runner."""
    return {"status": "ok"}
