"""``make bench``: every benchmark; the last line printed is one JSON object of every figure."""

import json

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
)


def main() -> int:
    figures = {
        "rules": rules.figures(),
        "mobius_cpu": mobius_cpu.figures(),
        "classic": classic.figures(),
        "computers": computers.figures(),
        "requests": requests.figures(),
        "reads": reads.figures(),
        "replies": replies.figures(),
        "scheduler": scheduler.figures(),
        "scale": scale.figures(),
        "startup": startup.figures(),
        "duel": duel.figures(),
        "matches": matches.figures(),
        "puzzle": puzzle.figures(),
        "package": package.figures(),
        "faults": faults.figures(),  # whole villages while AWS fails (issue 28)
        "cost": cost.figures(),  # last: the longest (two whole games through the handlers)
    }
    print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
