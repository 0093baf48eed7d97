"""Fanning ids out to an SQS queue: batches of ten, sent concurrently, failures retried.

10,000 villages due at once are 1,000 ``SendMessageBatch`` calls; one after another they
would take most of the tick's minute, so a small thread pool sends them (boto3 clients are
thread-safe). SQS may refuse single entries of a batch that it otherwise accepted
(``Failed``): those are sent again, as is a whole batch whose call failed, after a short
jittered wait. An id still refused after ``TRIES`` is raised, never dropped: the tick fails
loudly, and the next tick finds the village due again (its index entry has not moved).
"""

import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

BATCH = 10  # SQS's most entries per SendMessageBatch
THREADS = 8
TRIES = 5


class NotSent(RuntimeError):
    def __init__(self, bodies: list[str]) -> None:
        super().__init__(f"{len(bodies)} messages not sent: {', '.join(bodies[:20])}")
        self.bodies = bodies


def send_all(
    sqs: Any,
    queue_url: str,
    bodies: list[str],
    threads: int = THREADS,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> None:
    """Sends one message per body; raises ``NotSent`` with every body SQS kept refusing."""
    rng = rng or random.Random()
    batches = [bodies[start : start + BATCH] for start in range(0, len(bodies), BATCH)]
    if not batches:
        return
    with ThreadPoolExecutor(max_workers=max(1, min(threads, len(batches)))) as pool:
        refused = [
            body
            for left in pool.map(
                lambda batch: _send_batch(sqs, queue_url, batch, sleep, rng), batches
            )
            for body in left
        ]
    if refused:
        raise NotSent(refused)


def _send_batch(
    sqs: Any,
    queue_url: str,
    batch: list[str],
    sleep: Callable[[float], None],
    rng: random.Random,
) -> list[str]:
    """Sends one batch, again and again for what failed; returns what never got through."""
    left = dict(enumerate(batch))
    for attempt in range(TRIES):
        if attempt:
            sleep(rng.uniform(0, 0.1 * 2**attempt))
        try:
            answer = sqs.send_message_batch(
                QueueUrl=queue_url,
                Entries=[{"Id": str(n), "MessageBody": body} for n, body in left.items()],
            )
        except (BotoCoreError, ClientError):
            continue
        left = {int(entry["Id"]): left[int(entry["Id"])] for entry in answer.get("Failed", [])}
        if not left:
            return []
    return list(left.values())
