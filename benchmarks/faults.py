"""When AWS fails (issue 28): faults injected at the botocore clients, and the fault run.

``Faults`` makes AWS fail as it does once the SDK has retried: a DynamoDB call answered with
a throttling or an internal error (nothing written), or written and its answer lost; an SES
send refused, or accepted and its answer lost. It hooks the ``before-call`` / ``after-call``
events of every botocore client the app uses, so everything above botocore (PynamoDB, the
storage module, the services, the handlers) meets the fault as it would in AWS.
"""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ReadTimeoutError

from chalicelib.notify import ses
from chalicelib.storage import db
from chalicelib.storage.models import MODELS, CounterItem, Item

THROTTLED = "ProvisionedThroughputExceededException"
INTERNAL = "InternalServerError"
# DynamoDB operations that write: only those can be "written, answer lost".
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"})


@dataclass
class _Answer:
    """What botocore's ``before-call`` short-circuit needs of an HTTP answer."""

    status_code: int
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes = b""


def _error(code: str, message: str) -> tuple[_Answer, dict[str, Any]]:
    return _Answer(400 if code == THROTTLED else 500), {
        "Error": {"Code": code, "Message": message},
        "ResponseMetadata": {"HTTPStatusCode": 400 if code == THROTTLED else 500},
    }


def app_clients() -> list[Any]:
    """Every botocore client the app's storage and mail use (created here if not yet)."""
    connections = [model._get_connection().connection for model in (Item, CounterItem, *MODELS)]
    connections.append(db.transaction()._connection)
    clients = {id(c.client): c.client for c in connections}
    mail = ses.ses()
    clients[id(mail)] = mail
    return list(clients.values())


@dataclass
class Faults:
    """Which calls fail. ``rate``: the share of DynamoDB calls that fail at random (drawn
    from ``rng``), half refused before the write, half (writes only) written and their
    answer lost; ``ses_rate``: the same for SES sends. ``fail``: operation → how many of
    its next calls fail before writing (a deterministic fault for a test); ``lose``: the
    same, written and their answer lost. ``only``: when set, the random faults hit only
    these operations."""

    rate: float = 0.0
    ses_rate: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(28))
    fail: dict[str, int] = field(default_factory=dict)
    lose: dict[str, int] = field(default_factory=dict)
    only: frozenset[str] | None = None
    # Only the calls this holds for (operation, request body as sent) count for ``fail``.
    fail_when: Callable[[str, str], bool] | None = None
    on: bool = True  # the fault run turns faults off to check what was kept
    injected: Counter[str] = field(default_factory=Counter)  # kind:operation → count

    def _before(
        self, model: Any, params: dict[str, Any], **_: Any
    ) -> tuple[_Answer, dict[str, Any]] | None:
        name = model.name
        if not self.on:
            return None
        if self.fail.get(name, 0) > 0 and self._chosen(name, params):
            self.fail[name] -= 1
            return self._refuse(name)
        if self.lose.get(name, 0) > 0:
            return None  # the call happens; its answer is lost after
        if model.service_model.service_name == "ses":
            if self.ses_rate and self.rng.random() < self.ses_rate / 2:
                self.injected[f"failed:{name}"] += 1
                return _error("ServiceUnavailable", "injected: SES unavailable")
            return None
        if self.only is not None and name not in self.only:
            return None
        if self.rate and self.rng.random() < self.rate / 2:
            return self._refuse(name)
        return None

    def _chosen(self, name: str, params: dict[str, Any]) -> bool:
        if self.fail_when is None:
            return True
        body = params.get("body") or b""
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
        return self.fail_when(name, text)

    def _refuse(self, name: str) -> tuple[_Answer, dict[str, Any]]:
        code = THROTTLED if self.rng.random() < 0.5 else INTERNAL
        self.injected[f"failed:{name}"] += 1
        return _error(code, "injected: AWS failed after the SDK's retries")

    def _after(self, model: Any, **_: Any) -> None:
        name = model.name
        if not self.on:
            return
        lost = False
        if self.lose.get(name, 0) > 0:
            self.lose[name] -= 1
            lost = True
        elif model.service_model.service_name == "ses":
            lost = bool(self.ses_rate) and self.rng.random() < self.ses_rate / 2
        elif name in WRITES and (self.only is None or name in self.only):
            lost = bool(self.rate) and self.rng.random() < self.rate / 2
        if lost:
            self.injected[f"lost:{name}"] += 1
            raise ReadTimeoutError(endpoint_url=f"injected: {name}'s answer lost")

    @contextmanager
    def installed(self, clients: Iterable[Any] | None = None) -> Iterator["Faults"]:
        """Hooks every app client (or ``clients``) while the block runs."""
        hooked = list(clients) if clients is not None else app_clients()
        handlers: list[tuple[Any, str, Callable[..., Any]]] = []
        for client in hooked:
            service = client.meta.service_model.service_id.hyphenize()
            for event, handler in (
                (f"before-call.{service}", self._before),
                (f"after-call.{service}", self._after),
            ):
                client.meta.events.register(event, handler)
                handlers.append((client, event, handler))
        try:
            yield self
        finally:
            for client, event, handler in handlers:
                client.meta.events.unregister(event, handler)
