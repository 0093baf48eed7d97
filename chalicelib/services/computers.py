"""Computer members (CPU): they play their seats (taken as ``computer_seats`` says) through
the same services as a person (saves, posts, the prologue's votes).

A computer member holds its seat under a pseudo account (``rulesets.base.computer_account``):
no account item, no presence, no hold, no mail, no ID lock, never idle. Its turn is its rule
set's (``RuleSet.computer_turn``): what that seat may see, and its own secret randomness,
drawn here from ``secrets`` and never from the village's seed. Its refusals are a person's:
whatever a service refuses it (a round closed meanwhile, the post pace) is left, and the
computer is asked again at the next look.
"""

import random
import secrets
from collections.abc import Callable
from datetime import datetime
from functools import partial

from . import actions, posts
from .errors import ServiceError
from .unit import Unit

# Rounds of turns in one look: a computer's save may close a round or a night at once (early
# close), opening a new round the computers must vote in before its deadline; each such
# step is one more round of turns. A village's day can chain only a few (re-votes are bounded).
MAX_ROUNDS = 8


def play(village_id: str, now: datetime, unit: Unit | None = None) -> datetime | None:
    """Every computer member takes its turn now, again after a round of turns that changed
    the village (a save closed a round early), until nothing changes. Returns the earliest
    moment one wants to be asked again."""
    unit = unit or Unit()
    again: list[datetime] = []
    for _ in range(MAX_ROUNDS):
        if not _round(village_id, now, unit, again):
            break
    return min(again, default=None)


def _round(village_id: str, now: datetime, unit: Unit, again: list[datetime]) -> bool:
    """One turn of every computer member, one after another (each sees what the ones before
    it did). Returns whether any of them wrote."""
    record = unit.village(village_id)
    if record is None:
        return False
    wrote_any = False
    for slot in [s for s, m in record.seats().items() if m.computer]:
        record = unit.village(village_id)
        if record is None:
            break
        member = record.seats().get(slot)
        if member is None or member.account_id is None or not member.computer:
            continue
        account = member.account_id
        turn = record.rules.computer_turn(record, slot, now, random.Random(secrets.randbits(64)))
        if turn.again is not None:
            again.append(turn.again)
        wrote = False
        for action, target in turn.prologue:
            wrote |= _try(partial(actions.prologue, village_id, account, action, target, now, unit))
        if turn.choices:
            wrote |= _try(
                partial(actions.save_actions, village_id, account, turn.choices, now, unit)
            )
        for board, text in turn.posts:
            wrote |= _try(partial(posts.post, village_id, account, board, text, now, unit))
        if wrote:
            unit.reload(village_id)
            wrote_any = True
    return wrote_any


def _try(act: Callable[[], object]) -> bool:
    """Whether the act was written: a refusal is a person's refusal, asked again later."""
    try:
        act()
    except ServiceError:
        return False
    return True
