"""The local village's state on disk (.local/): the table, sent mail and the clock offset."""

import json
import os
from pathlib import Path
from typing import Any

import boto3

STATE_DIR = Path(".local")
STATE_FILE = STATE_DIR / "state.json"
SERVER_FILE = STATE_DIR / "server.json"  # read by the GM command line (chalicelib/gm.py)
CLOCK_FILE = STATE_DIR / "clock.json"  # the local clock's offset, read there too


def load() -> dict[str, Any]:
    if not STATE_FILE.exists():
        return {"items": [], "mails": [], "clock_offset_seconds": 0}
    return json.loads(STATE_FILE.read_text(encoding="utf-8"))


def save(state: dict[str, Any]) -> None:
    """Atomically: a crash mid-write leaves the previous state whole."""
    STATE_DIR.mkdir(exist_ok=True)
    temporary = STATE_FILE.with_suffix(".tmp")
    temporary.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, STATE_FILE)


def announce_server(server: dict[str, str] | None) -> None:
    """Where the running server's local AWS listens (None: it stopped)."""
    if server is None:
        SERVER_FILE.unlink(missing_ok=True)
        return
    STATE_DIR.mkdir(exist_ok=True)
    SERVER_FILE.write_text(json.dumps(server), encoding="utf-8")


def announce_clock(offset_seconds: float) -> None:
    """The local clock's offset from real time, each time it moves: the GM command line runs
    on it too, so its log and its 村建て share the villages' time (issue 37)."""
    STATE_DIR.mkdir(exist_ok=True)
    temporary = CLOCK_FILE.with_suffix(".tmp")
    temporary.write_text(json.dumps({"offset_seconds": offset_seconds}), encoding="utf-8")
    os.replace(temporary, CLOCK_FILE)


def dump_table(table: str, client) -> list[dict[str, Any]]:
    """Every item in DynamoDB's own JSON form (the local runner only; never on request paths)."""
    items: list[dict[str, Any]] = []
    for page in client.get_paginator("scan").paginate(TableName=table):
        items.extend(page["Items"])
    return items


def restore_table(table: str, client, items: list[dict[str, Any]]) -> None:
    for start in range(0, len(items), 25):
        chunk = items[start : start + 25]
        client.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": i}} for i in chunk]})


def dynamodb_client(endpoint: str, region: str):
    return boto3.client("dynamodb", region_name=region, endpoint_url=endpoint)
