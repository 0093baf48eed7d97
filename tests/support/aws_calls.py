"""Every AWS call the suite makes, checked against the policy of the function that makes it.

A pytest plugin (tests/conftest.py). Each test process records the SDK calls of the code under
test (botocore's ``_make_api_call``, which PynamoDB and boto3 both go through) with the Lambda
function whose code made it: the innermost entrypoint on the way in (``ENTRYPOINTS``: a route is
the API's, ``scheduler.process_village`` the advance worker's, ``scheduler.send_owed_mail`` the
mail worker's — where each runs in AWS, though the local runner and the tests call them inline).
A call made outside any entrypoint (a test calling a service directly) must be allowed to some
function. At the end of the session (the controller's, with pytest-xdist: each worker's record
comes to it in its ``workeroutput``) every recorded call is evaluated against its function's
policy (``tests/support/iam.py``): a denied call fails the run, and so does, on a run of the
whole suite, an action a policy allows that no call of that function used.
Statements whose ``Sid`` starts with ``Platform`` are what Lambda itself does with the role (the
SQS event source polling, logs, traces), never the code's calls: they are not expected here.
"""

import contextlib
import contextvars
import functools
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.support import iam

LOCAL = "local"  # set-up that never runs in a Lambda (the tests' and the local runner's)

_function: contextvars.ContextVar[str | None] = contextvars.ContextVar("function", default=None)
# (function or "", action, resource) → the test that first made it (to say where to look).
_recorded: dict[tuple[str, str, str], str] = {}
_collectors: list[set[tuple[str, str, str]]] = []  # collecting(): a test's own record


@contextlib.contextmanager
def collecting(function: str) -> Iterator[set[tuple[str, str]]]:
    """The IAM requests of the code's calls inside the block, made as ``function`` would."""
    calls: set[tuple[str, str, str]] = set()
    requests: set[tuple[str, str]] = set()
    _collectors.append(calls)
    token = _function.set(function)
    try:
        yield requests
    finally:
        _function.reset(token)
        _collectors.remove(calls)
        requests.update((action, resource) for _, action, resource in calls)


def _note(service: str, operation: str, params: dict[str, Any]) -> None:
    """Records a call of the code's as the IAM requests of the function it runs in."""
    function = _function.get()
    if function == LOCAL or not _called_by_the_code():
        return
    for action, resource in iam.requests(service, operation, iam.normalized(service, params)):
        call = (function or "", action, resource)
        _recorded.setdefault(call, os.environ.get("PYTEST_CURRENT_TEST", "").rpartition(" ")[0])
        for calls in _collectors:
            calls.add(call)


# (module, attribute) → the function it runs in, in AWS.
ENTRYPOINTS: dict[tuple[str, str], str] = {
    ("chalicelib.jobs", "tick"): "tick",
    ("chalicelib.services.scheduler", "tick"): "tick",
    ("chalicelib.jobs", "puzzle_daily"): "puzzle_daily",
    ("chalicelib.jobs", "advance"): "advance_worker",
    ("chalicelib.jobs", "advance_batch"): "advance_worker",
    ("chalicelib.services.scheduler", "process_village"): "advance_worker",
    ("chalicelib.jobs", "deliver"): "mail_worker",
    ("chalicelib.jobs", "mail_batch"): "mail_worker",
    ("chalicelib.services.scheduler", "send_owed_mail"): "mail_worker",
    # Deployed, only the mail worker sends: every other function hands owed mail to its
    # queue, and sends it itself only locally, where there is no queue.
    ("chalicelib.services.outbox", "deliver"): "mail_worker",
    ("chalicelib.jobs", "ses_notification"): "ses_notifications",
    ("chalicelib.services.bounces", "mark_undeliverable"): "ses_notifications",
    ("chalicelib.jobs", "reply_mail"): "reply_mail",
    ("chalicelib.services.replies", "receive"): "reply_mail",
    ("chalicelib.jobs", "gm_create_village"): "gm_create_village",
    ("chalicelib.gm", "create"): "gm_create_village",
    ("chalicelib.storage.db", "create_table"): LOCAL,
    ("chalicelib.web.dev_pages", "outbox"): LOCAL,
    ("chalicelib.web.dev_pages", "clock"): LOCAL,
    ("chalicelib.web.dev_pages", "test_accounts"): LOCAL,
    ("chalicelib.web.dev_pages", "inbox"): LOCAL,
}


def _running_as(name: str, body: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(body)
    def entrypoint(*args: Any, **kwargs: Any) -> Any:
        token = _function.set(name)
        try:
            return body(*args, **kwargs)
        finally:
            _function.reset(token)

    entrypoint.__wrapped_entrypoint__ = True  # type: ignore[attr-defined]
    return entrypoint


def _install() -> None:
    import importlib

    import botocore.client
    from chalice.app import Chalice

    for (module_name, attribute), name in ENTRYPOINTS.items():
        module = importlib.import_module(module_name)
        body = getattr(module, attribute)
        if not getattr(body, "__wrapped_entrypoint__", False):
            setattr(module, attribute, _running_as(name, body))
    # Every HTTP request (chalice.test.Client and the HTTP API front both call the app).
    Chalice.__call__ = _running_as("api_handler", Chalice.__call__)  # type: ignore[method-assign]

    # Work handed to a thread pool runs as the function that handed it (fanout, shard queries).
    submit = ThreadPoolExecutor.submit

    def submit_in_context(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        return submit(self, contextvars.copy_context().run, fn, *args, **kwargs)

    ThreadPoolExecutor.submit = submit_in_context  # type: ignore[method-assign]

    make_api_call = botocore.client.BaseClient._make_api_call

    def recorded(self, operation_name, api_params):  # type: ignore[no-untyped-def]
        _note(self.meta.service_model.service_name, operation_name, api_params)
        return make_api_call(self, operation_name, api_params)

    botocore.client.BaseClient._make_api_call = recorded  # type: ignore[method-assign]

    # The link-signing key: MOBIUS_SECRET in tests, in AWS an SSM GetParameter (once per
    # container) by each function that signs or checks a link or a cookie.
    from chalicelib import runtime

    keys = runtime.secrets

    def keys_from_ssm() -> list[str]:
        _note("ssm", "GetParameter", {})
        return keys()

    runtime.secrets = keys_from_ssm


PROJECT = Path(__file__).resolve().parents[2]
CODE = (str(PROJECT / "chalicelib") + os.sep, str(PROJECT / "app.py"))
LIBRARIES = ("botocore", "boto3", "pynamodb", "s3transfer", "concurrent")


def _called_by_the_code() -> bool:
    """The SDK call was made by the project's code, not by a test setting up AWS (a queue, an
    identity) or checking what the code left there."""
    frame = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if path == __file__ or any(f"{os.sep}{lib}{os.sep}" in path for lib in LIBRARIES):
            frame = frame.f_back
            continue
        return path.startswith(CODE)
    return False


def pytest_configure(config: pytest.Config) -> None:
    _install()


@pytest.hookimpl(tryfirst=True)  # before xdist's own tells the controller this worker is done
def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: its record goes to the controller
        workeroutput["aws_calls"] = sorted([*call, test] for call, test in _recorded.items())
        return
    problems = verdict(_recorded, whole_run=_whole_run(session))
    if problems:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.section("AWS calls against the Lambda policies", red=True)
            for line in problems:
                reporter.line(line)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """A pytest-xdist worker is done: the controller adds its record to the run's."""
    for *call, test in node.workeroutput.get("aws_calls", []):
        _recorded.setdefault((call[0], call[1], call[2]), test)


def verdict(calls: Mapping[tuple[str, str, str], str], whole_run: bool) -> list[str]:
    """What is wrong: calls a function's policy denies, and (on a whole run) grants unused.
    ``calls``: each with the test that first made it."""
    functions = iam.functions()
    problems = []
    for (function, action, resource), test in sorted(calls.items()):
        request = (action, resource)
        if function:
            if not iam.allowed(function, request):
                problems.append(f"denied: {function} {action} on {resource} (in {test})")
        elif not any(iam.allowed(f, request) for f in functions):
            problems.append(f"denied to every function: {action} on {resource} (in {test})")
    if whole_run:
        for function in functions:
            used = [(a, r) for f, a, r in calls if f == function]
            for grant in iam.granted(function, platform=False):
                if not any(iam.covers(grant, request) for request in used):
                    problems.append(f"allowed but never used: {function} {grant[0]} on {grant[1]}")
    return problems


def _whole_run(session: pytest.Session) -> bool:
    """The whole suite ran: no file, node, keyword or marker chose a part of it."""
    option = session.config.option
    args = [Path(a).resolve() for a in session.config.args]
    everything = not args or args == [Path(session.config.rootpath, "tests").resolve()]
    return (
        everything
        and not option.keyword
        and not option.markexpr
        and not getattr(option, "lf", False)
        and session.testsfailed == 0
    )
