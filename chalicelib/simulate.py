"""Simulator: ``python -m chalicelib.simulate [--rules mobius|classic|duel] ...``.

Plays whole games of one rule set and prints its figures (win rates, game lengths, speed),
the last line one JSON object of them. ``--rules`` (Mobius without it) hands the rest of the
command line to that rule set's simulator, found through the registry
(``rulesets.simulator``).
"""

import argparse

from . import rulesets


def main(argv: list[str] | None = None) -> int:
    chooser = argparse.ArgumentParser(add_help=False)
    chooser.add_argument("--rules", choices=rulesets.TOOLS, default=rulesets.DEFAULT)
    chosen, rest = chooser.parse_known_args(argv)
    return rulesets.simulator(chosen.rules)(rest)


if __name__ == "__main__":
    raise SystemExit(main())
