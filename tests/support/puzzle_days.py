"""The daily puzzles of 2026-12-01 … 2026-12-30 as the generator made them
(`tests/fixtures/puzzles/2026-12.json`): the tests verify them independently and read them
instead of spending a generation's seconds; one test regenerates a day and compares. The
generator plays CPU games: a change to the CPUs changes the puzzles, and the fixture is made
again with ``python -m tests.support.puzzle_days`` (a few minutes)."""

import json
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from functools import cache
from pathlib import Path

from chalicelib.clock import JST
from chalicelib.storage import puzzles as puzzle_store

from .fakes import START

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "puzzles" / "2026-12.json"


@cache
def generated() -> dict[str, dict]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def puzzle_of(day: date) -> dict:
    return generated()[day.isoformat()]


def puzzle_json() -> dict:
    """The daily puzzle of START's JST day."""
    return puzzle_of(START.astimezone(JST).date())


def store_puzzle(day: date, now) -> None:
    """Stores that puzzle as ``day``'s (the web tests need a stored puzzle, not its seconds)."""
    puzzle_store.save_puzzle(day.isoformat(), puzzle_json(), now)


def _made(day: date) -> tuple[str, dict]:
    from chalicelib.rules.duel.puzzle import generate
    from chalicelib.services.puzzles import seed_of

    return day.isoformat(), generate(seed_of(day)).to_json()


def main() -> None:
    days = [date(2026, 12, 1) + timedelta(days=n) for n in range(30)]
    with ProcessPoolExecutor() as pool:
        made = dict(pool.map(_made, days))
    text = json.dumps(made, ensure_ascii=False, separators=(",", ":"))
    FIXTURE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
