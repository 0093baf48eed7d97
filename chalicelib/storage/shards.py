"""Queries over every shard of a sharded index key, at once (docs/decisions.md 53)."""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from .keys import SHARDS

T = TypeVar("T")

_pool = ThreadPoolExecutor(max_workers=SHARDS, thread_name_prefix="shard")


def each_shard(keys: Sequence[str], query: Callable[[str], list[T]]) -> list[list[T]]:
    """``query`` of every key, in the keys' order.

    The first runs in the calling thread: it builds the model's botocore client, whose lazy
    creation in PynamoDB is not thread-safe; the others then share that client (botocore
    clients are thread-safe; PynamoDB keeps its session per thread) from the pool.
    """
    if not keys:
        return []
    first = query(keys[0])
    return [first, *_pool.map(query, keys[1:])]
