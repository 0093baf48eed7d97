"""Queries over every shard of a sharded index key, at once (docs/decisions.md 53)."""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

from msgspec import Struct, field

from .errors import FAULTS
from .keys import SHARDS

T = TypeVar("T")
R = TypeVar("R")

_pool = ThreadPoolExecutor(max_workers=SHARDS, thread_name_prefix="shard")

SHARD_TRIES = 3  # a shard's query, tried again on a fault before it counts as failed


def each_shard(keys: Sequence[str], query: Callable[[str], R]) -> list[R]:
    """``query`` of every key, in the keys' order.

    The first runs in the calling thread: it builds the model's botocore client, whose lazy
    creation in PynamoDB is not thread-safe; the others then share that client (botocore
    clients are thread-safe; PynamoDB keeps its session per thread) from the pool.
    """
    if not keys:
        return []
    first = query(keys[0])
    return [first, *_pool.map(query, keys[1:])]


class Answered(Struct, Generic[T]):
    """What the shards that answered found, and the shards that failed every try."""

    found: list[T] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def every_shard_answering(keys: Sequence[str], query: Callable[[str], list[T]]) -> Answered[T]:
    """``query`` of every key, each shard on its own: a shard that fails is tried again (up
    to ``SHARD_TRIES`` times) and, failing still, is named in ``failed`` while the others'
    finds stand (the scheduler's tick: one shard's fault must not hold up the rest)."""

    def tried(key: str) -> list[T] | None:
        for attempt in range(1, SHARD_TRIES + 1):
            try:
                return query(key)
            except FAULTS:
                if attempt == SHARD_TRIES:
                    return None
        return None

    answered: Answered[T] = Answered()
    for key, found in zip(keys, each_shard(keys, tried), strict=True):
        if found is None:
            answered.failed.append(key)
        else:
            answered.found += found
    return answered
