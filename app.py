"""Chalice entrypoints: thin routes over chalicelib's page handlers and services.

Every function of the stack imports this module at its cold start, so it imports only what
all of them need; each route imports its page handlers' module on its first request, and each
job its own path (``chalicelib.jobs``): the mail worker never loads the pages, nor a page the
reply parser (decision 216).
"""

from typing import TYPE_CHECKING
from urllib.parse import quote

from chalice import Chalice, Cron, Rate, Response

from chalicelib import jobs, observability

if TYPE_CHECKING:
    from chalicelib.web import pages

app = Chalice(app_name="mobius-village")


def http_api(event: dict, context: object) -> dict:
    """The Lambda handler behind the HTTP API (infra/): the app, the 404 page and gzip."""
    request_id = str((event.get("requestContext") or {}).get("requestId", ""))
    from chalicelib.web import front

    with observability.invocation(context, correlation_id=request_id):
        return front.handle(app, event, context)


# Only POST routes name content types: Chalice checks them on every method of a route,
# and a browser's GET has no Content-Type (it would get a 415). Beyond the browser's form
# type, the others are let in so that the page, not Chalice's JSON, says what is wrong
# (and one-click unsubscribe may come as multipart, RFC 8058).
FORM = [
    "application/x-www-form-urlencoded",
    "multipart/form-data",
    "text/plain",
    "application/json",
]


def _request() -> "pages.Request":
    from chalicelib.web import pages

    request = app.current_request
    assert request is not None  # inside a route
    raw = request.raw_body if request.method == "POST" else None
    return pages.Request(
        method=request.method,
        path=_path(request.path, request.uri_params or {}),
        headers={k.lower(): v for k, v in (request.headers or {}).items()},
        query=dict(request.query_params or {}),
        raw_body=raw.encode() if isinstance(raw, str) else raw,
        context=request.context or {},
    )


def _path(route: str, params: dict[str, str]) -> str:
    """The path the browser asked for (Chalice's ``path`` is the route's pattern)."""
    return route.format(**{name: quote(value, safe="") for name, value in params.items()})


@app.route("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.route("/favicon.ico")
def favicon() -> Response:
    """The address browsers ask for an icon by themselves (pages link the hashed one)."""
    from chalicelib.web import static

    return static.serve(static.ICON)


@app.route("/static/{name}")
def static_file(name: str) -> Response:
    from chalicelib.web import static

    return static.serve(name)


@app.route("/")
def lounge() -> Response:
    from chalicelib.web import villages

    return villages.lounge(_request())


@app.route("/howto", methods=["GET"])
def howto() -> Response:
    from chalicelib.web import guides

    return guides.guide(_request())


@app.route("/howto/{name}", methods=["GET"])
def howto_page(name: str) -> Response:
    from chalicelib.web import guides

    return guides.guide(_request(), name)


@app.route("/register", methods=["GET"])
def register() -> Response:
    from chalicelib.web import accounts

    return accounts.register(_request())


@app.route("/register", methods=["POST"], content_types=FORM)
def register_post() -> Response:
    from chalicelib.web import accounts

    return accounts.register(_request())


@app.route("/verify", methods=["GET"])
def verify() -> Response:
    from chalicelib.web import accounts

    return accounts.verify(_request())


@app.route("/verify", methods=["POST"], content_types=FORM)
def verify_post() -> Response:
    from chalicelib.web import accounts

    return accounts.verify(_request())


@app.route("/login", methods=["GET"])
def login() -> Response:
    from chalicelib.web import accounts

    return accounts.login(_request())


@app.route("/login", methods=["POST"], content_types=FORM)
def login_post() -> Response:
    from chalicelib.web import accounts

    return accounts.login(_request())


@app.route("/login/mail", methods=["POST"], content_types=FORM)
def login_link_request() -> Response:
    from chalicelib.web import accounts

    return accounts.login_link_request(_request())


@app.route("/login/link", methods=["GET"])
def login_link() -> Response:
    from chalicelib.web import accounts

    return accounts.login_link(_request())


@app.route("/login/link", methods=["POST"], content_types=FORM)
def login_link_post() -> Response:
    from chalicelib.web import accounts

    return accounts.login_link(_request())


@app.route("/logout", methods=["POST"], content_types=FORM)
def logout() -> Response:
    from chalicelib.web import accounts

    return accounts.logout(_request())


@app.route("/account", methods=["GET"])
def account() -> Response:
    from chalicelib.web import accounts

    return accounts.account(_request())


@app.route("/account", methods=["POST"], content_types=FORM)
def account_update() -> Response:
    from chalicelib.web import accounts

    return accounts.account_update(_request())


@app.route("/account/records", methods=["GET"])
def account_records() -> Response:
    from chalicelib.web import records

    return records.records_page(_request())


@app.route("/villages/{village_id}", methods=["GET"])
def village(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village(_request(), village_id)


@app.route("/villages/{village_id}/log", methods=["GET"])
def village_log(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_log(_request(), village_id)


@app.route("/villages/{village_id}/posts", methods=["POST"], content_types=FORM)
def village_post(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_post(_request(), village_id)


@app.route("/villages/{village_id}/actions", methods=["POST"], content_types=FORM)
def village_actions(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_actions(_request(), village_id)


@app.route("/villages/{village_id}/prologue", methods=["POST"], content_types=FORM)
def village_prologue(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_prologue(_request(), village_id)


@app.route("/villages/{village_id}/will", methods=["POST"], content_types=FORM)
def village_will(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_will(_request(), village_id)


@app.route("/villages/{village_id}/join", methods=["POST"], content_types=FORM)
def village_join(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_join(_request(), village_id)


@app.route("/villages/{village_id}/leave", methods=["GET"])
def village_leave(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_leave(_request(), village_id)


@app.route("/villages/{village_id}/leave", methods=["POST"], content_types=FORM)
def village_leave_post(village_id: str) -> Response:
    from chalicelib.web import villages

    return villages.village_leave(_request(), village_id)


# ----- games played move by move (against the computer, for now) -----


@app.route("/matches", methods=["POST"], content_types=FORM)
def match_start() -> Response:
    from chalicelib.web import matches

    return matches.start(_request())


@app.route("/matches/{match_id}", methods=["GET"])
def match_page(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.match_page(_request(), match_id)


@app.route("/matches/{match_id}/moves", methods=["POST"], content_types=FORM)
def match_move(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.move(_request(), match_id)


@app.route("/matches/{match_id}/join", methods=["POST"], content_types=FORM)
def match_join(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.join(_request(), match_id)


@app.route("/matches/{match_id}/chat", methods=["POST"], content_types=FORM)
def match_chat(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.chat(_request(), match_id)


@app.route("/matches/{match_id}/cancel", methods=["POST"], content_types=FORM)
def match_cancel(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.cancel(_request(), match_id)


@app.route("/matches/{match_id}/share", methods=["POST"], content_types=FORM)
def match_share(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.share(_request(), match_id)


@app.route("/records/{token}", methods=["GET"])
def match_record(token: str) -> Response:
    from chalicelib.web import matches

    return matches.record(_request(), token)


@app.route("/matches/{match_id}/review", methods=["GET"])
def match_review(match_id: str) -> Response:
    from chalicelib.web import reviews

    return reviews.review(_request(), match_id)


@app.route("/matches/{match_id}/what-if", methods=["POST"], content_types=FORM)
def match_what_if(match_id: str) -> Response:
    from chalicelib.web import reviews

    return reviews.what_if(_request(), match_id)


@app.route("/matches/{match_id}/pass/{token}", methods=["GET"])
def match_pass(match_id: str, token: str) -> Response:
    from chalicelib.web import matches

    return matches.mail_pass(_request(), match_id, token)


@app.route("/matches/{match_id}/view", methods=["GET"])
def match_view(match_id: str) -> Response:
    from chalicelib.web import matches

    return matches.seen(_request(), match_id)


@app.route("/matches/{match_id}/here/{token}", methods=["GET"])
def match_heartbeat(match_id: str, token: str) -> Response:
    from chalicelib.web import matches

    return matches.heartbeat(_request(), match_id, token)


@app.route("/matches/{match_id}/since/{moves}", methods=["GET"])
def match_progress(match_id: str, moves: str) -> Response:
    from chalicelib.web import matches

    return matches.progress(_request(), match_id, moves)


# ----- the daily puzzle (今日の盤面パズル) -----


@app.route("/puzzle", methods=["GET"])
def puzzle_today() -> Response:
    from chalicelib.web import puzzles

    return puzzles.today_page(_request())


@app.route("/puzzle/{day}", methods=["GET"])
def puzzle_day(day: str) -> Response:
    from chalicelib.web import puzzles

    return puzzles.day_page(_request(), day)


@app.route("/puzzle/{day}", methods=["POST"], content_types=FORM)
def puzzle_answer(day: str) -> Response:
    from chalicelib.web import puzzles

    return puzzles.answer(_request(), day)


@app.route("/puzzles/mail", methods=["POST"], content_types=FORM)
def puzzle_mail() -> Response:
    from chalicelib.web import puzzles

    return puzzles.mail(_request())


# ----- the GM's pages (the GM role checked by each) -----


@app.route("/gm", methods=["GET"])
def gm_home() -> Response:
    from chalicelib.web import hosting

    return hosting.home(_request())


@app.route("/gm/new", methods=["GET"])
def gm_new() -> Response:
    from chalicelib.web import hosting

    return hosting.new(_request())


@app.route("/gm/new", methods=["POST"], content_types=FORM)
def gm_new_post() -> Response:
    from chalicelib.web import hosting

    return hosting.new(_request())


@app.route("/gm/villages/{village_id}", methods=["GET"])
def gm_village(village_id: str) -> Response:
    from chalicelib.web import hosting

    return hosting.village(_request(), village_id)


@app.route("/gm/villages/{village_id}/abandon", methods=["POST"], content_types=FORM)
def gm_abandon(village_id: str) -> Response:
    from chalicelib.web import hosting

    return hosting.abandon(_request(), village_id)


@app.route("/gm/villages/{village_id}/move", methods=["POST"], content_types=FORM)
def gm_move(village_id: str) -> Response:
    from chalicelib.web import hosting

    return hosting.move(_request(), village_id)


# ----- mail links -----


@app.route("/m/{token}", methods=["GET"])
def member_link(token: str) -> Response:
    from chalicelib.web import mail_links

    return mail_links.member_link(_request(), token)


@app.route("/m/{token}", methods=["POST"], content_types=FORM)
def member_link_post(token: str) -> Response:
    from chalicelib.web import mail_links

    return mail_links.member_link(_request(), token)


@app.route("/unsubscribe/{token}", methods=["GET"])
def unsubscribe(token: str) -> Response:
    from chalicelib.web import mail_links

    return mail_links.unsubscribe(_request(), token)


@app.route("/unsubscribe/{token}", methods=["POST"], content_types=FORM)
def unsubscribe_post(token: str) -> Response:
    from chalicelib.web import mail_links

    return mail_links.unsubscribe(_request(), token)


# ----- the scheduler, its workers and the GM -----


@app.schedule(Rate(1, unit=Rate.MINUTES), name="tick")
def tick(event) -> None:
    with observability.invocation(event.context):
        jobs.tick()


# 07:00 JST: the day's puzzle (made now if no request made it since midnight) and its mail.
@app.schedule(Cron(0, 22, "*", "*", "?", "*"), name="puzzle_daily")
def puzzle_daily(event) -> None:
    with observability.invocation(event.context):
        jobs.puzzle_daily()


@app.on_sqs_message(queue=jobs.QUEUE_NAME, batch_size=10, name="advance_worker")
def advance_worker(event) -> dict:
    with observability.invocation(event.context):
        return jobs.advance_batch(event.to_dict())


# At most MAIL_WORKERS at once: together they keep to the account's SES rate (decision 58).
@app.on_sqs_message(
    queue=jobs.MAIL_QUEUE_NAME,
    batch_size=1,
    name="mail_worker",
    maximum_concurrency=jobs.MAIL_WORKERS,
)
def mail_worker(event) -> dict:
    context = event.context  # None when a test or a bench calls the handler
    with observability.invocation(context):
        return jobs.mail_batch(
            event.to_dict(),
            seconds_left=(lambda: context.get_remaining_time_in_millis() / 1000)
            if context
            else None,
        )


@app.on_sns_message(topic=jobs.SES_TOPIC_NAME, name="ses_notifications")
def ses_notifications(event) -> None:
    notice = str(event.to_dict()["Records"][0]["Sns"].get("MessageId", ""))
    with observability.invocation(event.context, notice_id=notice):
        jobs.ses_notification(event.message)


# SES receives a reply: its receipt rule stores the message in S3, then invokes this (infra/).
# Not an on_s3_event handler: Chalice's SAM package refuses those (decision 118).
@app.lambda_function(name="reply_mail")
def reply_mail(event, context) -> list[str]:
    with observability.invocation(context):
        return jobs.reply_mail(event)


@app.lambda_function(name="gm_create_village")
def gm_create_village(event, context) -> dict:
    with observability.invocation(context):
        return jobs.gm_create_village(event)


# ----- local-only (404 in AWS) -----


@app.route("/dev/outbox", methods=["GET"])
def dev_outbox() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.outbox(_request())


@app.route("/dev/accounts", methods=["GET"])
def dev_accounts() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.test_accounts(_request())


@app.route("/dev/accounts", methods=["POST"], content_types=FORM)
def dev_accounts_post() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.test_accounts(_request())


@app.route("/dev/clock", methods=["GET"])
def dev_clock() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.clock(_request())


@app.route("/dev/clock", methods=["POST"], content_types=FORM)
def dev_clock_post() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.clock(_request())


@app.route("/dev/inbox", methods=["GET"])
def dev_inbox() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.inbox(_request())


@app.route("/dev/inbox", methods=["POST"], content_types=FORM)
def dev_inbox_post() -> Response:
    from chalicelib.web import dev_pages

    return dev_pages.inbox(_request())
