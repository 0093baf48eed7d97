"""A lean reference resolver of Mobius nights: the yardstick of the scenario runner's speed.

Benchmark-only. It plays the runner's scenario lines (``chalicelib.scenario``) with the same
draws in the same order and writes the same output, but on plain strings, lists and dicts:
no dataclasses, enums, rule tables or per-choice validation. It trusts its input (choices
that the runner would refuse are not refused here), so it is compared with the runner only
on valid scenarios; ``benchmarks.rules`` checks that both write the same lines before it
times them.
"""

import json
import random
import sys
from collections import Counter

SLOTS = (
    "seer_a",
    "seer_b",
    "medium_a",
    "medium_b",
    "guard_a",
    "guard_b",
    "empath_a",
    "empath_b",
    "commoner_a",
    "commoner_b",
    "commoner_c",
    "commoner_d",
    "assassin",
)
PARTNERS = {
    "empath_a": "empath_b",
    "empath_b": "empath_a",
    "commoner_a": "commoner_b",
    "commoner_b": "commoner_a",
    "commoner_c": "commoner_d",
    "commoner_d": "commoner_c",
}
COMMONERS = ("commoner_a", "commoner_b", "commoner_c", "commoner_d")
NOTHING: dict = {}


def verdict(side: str) -> str:
    return "oni" if side == "oni" else "human"


def play(scenario: dict) -> dict:
    rng = random.Random(scenario.get("seed", 0))
    if scenario.get("sides") is None:
        picked = rng.sample(SLOTS, 4)
        sides = dict.fromkeys(SLOTS, "human")
        sides.update(dict.fromkeys(picked[:3], "oni"), **{picked[3]: "madman"})
    else:
        sides = {slot: scenario["sides"].get(slot, "human") for slot in SLOTS}
    oni_side = [s for s in SLOTS if sides[s] != "human"]
    random_divination = {}
    for seer in ("seer_a", "seer_b"):
        others = [s for s in SLOTS if s != seer and (sides[seer] != "human" or sides[s] != "oni")]
        target = rng.choice(others)
        random_divination[seer] = {"target": target, "result": verdict(sides[target])}
    dead = dict.fromkeys(scenario.get("dead", ()), "corpse")
    empathy = {e: verdict(sides[PARTNERS[e]]) for e in ("empath_a", "empath_b") if e not in dead}
    vacant = set(scenario.get("vacant", ()))
    day, mornings, ending = 1, [], None
    for today in scenario.get("days", ()):
        choices = {s: c for s, c in today.get("actions", NOTHING).items() if s not in vacant}
        command = None
        for key in ("victory", "resign"):
            if sum(1 for s in oni_side if choices.get(s, NOTHING).get(key)) >= 3:
                command = key
                break
        if command:
            day += today.get("declared_at", "day") == "night"
            winner = "oni" if command == "victory" else "human"
            by = "victory_declaration" if command == "victory" else "resignation"
            ending = {"winner": winner, "by": by, "day": day}
            break
        mornings.append(night(day, sides, oni_side, dead, choices, rng))
        day += 1
        living = [s for s in SLOTS if s not in dead]
        oni = sum(1 for s in living if sides[s] == "oni")
        humans = sum(1 for s in living if sides[s] == "human")
        if oni == 0 or oni >= humans:
            winner = "human" if oni == 0 and living else "oni"
            ending = {"winner": winner, "by": "elimination", "day": day}
            break
    return {
        "id": scenario.get("id"),
        "sides": sides,
        "random_divination": random_divination,
        "empathy": empathy,
        "mornings": mornings,
        "ending": ending,
    }


def night(day, sides, oni_side, dead, choices, rng) -> dict:
    """Resolves one night; records its deaths in ``dead`` and returns the morning's JSON."""

    def chosen(slot, key):
        return choices.get(slot, NOTHING).get(key)

    living = [s for s in SLOTS if s not in dead]
    judged = None
    for target, count in Counter(chosen(s, "force") for s in oni_side).items():
        if target is not None and count >= 3:
            judged = target
            break
    if judged is None:
        prayers = Counter(chosen(s, "pray") for s in living)
        most = max(prayers[s] for s in living)
        tied = [s for s in living if prayers[s] == most]
        humans = [s for s in living if sides[s] == "human"]
        human_prayers = {chosen(h, "pray") for h in humans}
        humans_agree = len(human_prayers) == 1 and None not in human_prayers
        if len(tied) == 1:
            judged = tied[0]
        elif 2 * len(humans) == len(living) and humans_agree:
            judged = human_prayers.pop()
        else:
            judged = rng.choice(tied)

    attack = None
    living_oni = [s for s in living if sides[s] == "oni"]
    if living_oni:
        attackers = [a for s in oni_side if (a := chosen(s, "attacker")) is not None]
        attacker = rng.choice(attackers or living_oni)
        targets = [t for s in oni_side if (t := chosen(s, "attack")) is not None]
        candidates = targets or [s for s in living if sides[s] == "human"]
        if candidates:
            attack = (rng.choice(candidates), attacker)
    assassination = chosen("assassin", "assassinate")
    if attack and attack[1] == "assassin":
        assassination = None

    guards_on = {}
    for guard in ("guard_a", "guard_b"):
        target = chosen(guard, "guard")
        if guard not in dead and target is not None:
            guards_on.setdefault(target, []).append(guard)
    struck, blocked, guarding = {}, set(), {}
    strikes = [attack] if attack else []
    if assassination:
        strikes.append((assassination, "assassin"))
    for target, striker in strikes:
        if target in guards_on:
            blocked.add(striker)
            for guard in guards_on[target]:
                guarding.setdefault(guard, striker)
        else:
            struck.setdefault(target, striker)
    deaths = {
        s: "ash" if s == judged else "corpse"
        for s in SLOTS
        if s == judged or s in struck or s in blocked or s in guarding
    }
    killers = {s: struck.get(s) or guarding[s] for s in deaths if s in struck or s in guarding}
    survivors = [s for s in living if s not in deaths]

    dms = {}
    for writer in COMMONERS:
        if deaths.get(writer) == "corpse":
            names = chosen(writer, "dm") if sides[writer] != "human" else struck.get(writer)
            if names is not None and PARTNERS[writer] in survivors:
                dms[PARTNERS[writer]] = {"from": writer, "names": names}
    results = {}
    for slot in survivors:
        if slot.startswith("seer") and (target := chosen(slot, "divine")) is not None:
            seen = "unknown" if target in deaths else verdict(sides[target])
            results[slot] = {"target": target, "verdict": seen}
        elif slot.startswith("medium"):
            results[slot] = {"target": judged, "verdict": verdict(sides[judged])}
        elif slot == "assassin" and assassination:
            results[slot] = {"target": assassination, "verdict": verdict(sides[assassination])}

    dead.update(deaths)
    return {
        "day": day + 1,
        "judged": judged,
        "attack": {"target": attack[0], "attacker": attack[1]} if attack else None,
        "assassination": {"target": assassination} if assassination else None,
        "deaths": deaths,
        "results": results,
        "dms": dms,
        "killers": killers,
    }


def main() -> int:
    for line in sys.stdin:
        sys.stdout.write(json.dumps(play(json.loads(line)), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
