"""``make bench``: every benchmark, one after another, each announced on stderr as it starts
and ends (with its wall time and this process's CPU time: on a shared machine the wall clock
measures the neighbours); the last line printed is one JSON object of every figure.

A benchmark that fails (a refusal, a fault) is reported with its traceback and its figure
says so; the others still run, and the exit status is 1 when any failed.
"""

import json
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from . import (
    classic,
    computers,
    cost,
    duel,
    faults,
    matches,
    mobius_cpu,
    package,
    puzzle,
    reads,
    replies,
    requests,
    rules,
    scale,
    scheduler,
    startup,
    talk,
)

BENCHMARKS: dict[str, Callable[[], Any]] = {
    "rules": rules.figures,
    "mobius_cpu": mobius_cpu.figures,
    "talk": talk.figures,  # how the CPUs talk (issue 37)
    "classic": classic.figures,
    "computers": computers.figures,
    "requests": requests.figures,
    "reads": reads.figures,
    "replies": replies.figures,
    "scheduler": scheduler.figures,
    "scale": scale.figures,
    "startup": startup.figures,
    "duel": duel.figures,
    "matches": matches.figures,
    "puzzle": puzzle.figures,
    "package": package.figures,
    "faults": faults.figures,  # whole villages while AWS fails (issue 28)
    "cost": cost.figures,  # last: the longest (two whole games through the handlers)
}


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Every benchmark, or those named (``python -m benchmarks talk scheduler``)."""
    names = sys.argv[1:] if argv is None else argv
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        _say(f"no such benchmark: {', '.join(unknown)} (known: {', '.join(BENCHMARKS)})")
        return 2
    chosen = {name: run for name, run in BENCHMARKS.items() if not names or name in names}
    figures: dict[str, Any] = {}
    failed = []
    began, began_cpu = time.perf_counter(), time.process_time()
    for n, (name, run) in enumerate(chosen.items(), start=1):
        _say(f"[{n}/{len(chosen)}] {name} …")
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            figures[name] = run()
        except Exception as error:  # one benchmark's failure must not hide the others'
            traceback.print_exc(file=sys.stderr)
            figures[name] = {"failed": f"{type(error).__name__}: {error}"}
            failed.append(name)
        took, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        outcome = "FAILED" if name in failed else "done"
        _say(f"[{n}/{len(chosen)}] {name} {outcome} in {took:.0f} s ({cpu:.0f} s of CPU)")
    took, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    _say(f"make bench: {took:.0f} s ({cpu:.0f} s of CPU); failed: {', '.join(failed) or 'none'}")
    print(json.dumps(figures, ensure_ascii=False))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
