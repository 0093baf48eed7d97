"""The daily puzzles of 2026-12-01 … 2026-12-30 as the generator made them
(`tests/fixtures/puzzles/2026-12.json`): the tests verify them independently and read them
instead of spending a generation's seconds; one test regenerates a day and compares."""

import json
from datetime import date
from functools import cache
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "puzzles" / "2026-12.json"


@cache
def generated() -> dict[str, dict]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def puzzle_of(day: date) -> dict:
    return generated()[day.isoformat()]
