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

from ..rulesets.base import Heard, State, Viewer
from ..storage import villages as store
from ..storage.keys import board_pk
from ..storage.repository import VillageRecord
from . import actions, posts
from .errors import ServiceError
from .unit import Unit

# Rounds of turns in one look: a computer's save may close a round or a night at once (early
# close), opening a new round the computers must vote in before its deadline; each such
# step is one more round of turns. A village's day can chain only a few (re-votes are bounded).
MAX_ROUNDS = 8


# The most posts of a board's day the computers read at a look (oldest first): a bound on
# what one look reads, whatever the village says (decision 126).
HEARD_LIMIT = 200


def play(village_id: str, now: datetime, unit: Unit | None = None) -> datetime | None:
    """Every computer member takes its turn now, again after a round of turns that changed
    the village (a save closed a round early), until nothing changes. Returns the earliest
    moment one wants to be asked again."""
    unit = unit or Unit()
    again: list[datetime] = []
    record = unit.village(village_id)
    heard = _heard(record, now) if record is not None else []
    for _ in range(MAX_ROUNDS):
        if not _round(village_id, now, unit, again, heard):
            break
    return min(again, default=None)


def _heard(record: VillageRecord, now: datetime) -> list[Heard]:
    """Today's members' posts on the shared boards some computer member may read now, read
    once for the look (one query a board): each rule set keeps, for each seat, only what
    that seat may read. Nothing before the game, nor for a village without computers."""
    if record.state is not State.RUNNING:
        return []
    rules = record.rules
    boards: set[str] = set()
    for slot, seat in record.seats().items():
        if seat.computer:
            readable = rules.readable_boards(record, Viewer(seat.account_id, slot), now)
            boards |= {b for b in readable if not rules.personal_board(b)}
    posts = [
        post
        for board in sorted(boards)
        for post in store.read_board(
            board_pk(record.village_id, board), record.day, HEARD_LIMIT, None
        ).items
        if post.slot is not None
    ]
    posts.sort(key=lambda post: post.created_at)
    return [Heard(post.board, post.slot, post.text, post.created_at) for post in posts]


def _round(
    village_id: str, now: datetime, unit: Unit, again: list[datetime], heard: list[Heard]
) -> bool:
    """One turn of every computer member, one after another (each sees what the ones before
    it did: their posts are added to ``heard``). Returns whether any of them wrote."""
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
        rng = random.Random(secrets.randbits(64))
        turn = record.rules.computer_turn(record, slot, now, rng, tuple(heard))
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
            said = _try(partial(posts.post, village_id, account, board, text, now, unit))
            if said and not record.rules.personal_board(board):
                heard.append(Heard(board, slot, text, now))
            wrote |= said
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
