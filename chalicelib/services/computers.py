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

from msgspec import Struct

from ..rulesets.base import State, Viewer
from ..rulesets.turns import Heard
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
    talk = _heard(record, now) if record is not None else _Talk([], {})
    for _ in range(MAX_ROUNDS):
        if not _round(village_id, now, unit, again, talk):
            break
    return min(again, default=None)


class _Talk(Struct):
    """The day's talk as the computers hear it during one look: the members' posts, oldest
    first, each numbered as the board's page numbers it; and how many posts each board holds
    today, so that a computer's own post gets its number too (``>>n`` answers it)."""

    heard: list[Heard]
    count: dict[str, int]

    def add(self, board: str, slot: str, text: str, at: datetime) -> None:
        self.count[board] = self.count.get(board, 0) + 1
        self.heard.append(Heard(board, slot, text, at, self.count[board]))


def _heard(record: VillageRecord, now: datetime) -> _Talk:
    """Today's members' posts on the shared boards some computer member may read now, read
    once for the look (one query a board): each rule set keeps, for each seat, only what
    that seat may read. Nothing before the game, nor for a village without computers."""
    if record.state is not State.RUNNING:
        return _Talk([], {})
    rules = record.rules
    boards: set[str] = set()
    for slot, seat in record.seats().items():
        if seat.computer:
            readable = rules.readable_boards(record, Viewer(seat.account_id, slot), now)
            boards |= {b for b in readable if not rules.personal_board(b)}
    heard: list[Heard] = []
    count: dict[str, int] = {}
    for board in sorted(boards):
        traces = posts.traces(record, board)
        items = store.read_board(board_pk(record.village_id, board), record.day, HEARD_LIMIT, None)
        # Numbered as the page numbers them: the village's own posts count, traces do not.
        numbered = [post for post in items.items if not (post.slot is None and post.text in traces)]
        count[board] = len(numbered)
        heard += [
            Heard(post.board, post.slot, post.text, post.created_at, n)
            for n, post in enumerate(numbered, start=1)
            if post.slot is not None
        ]
    heard.sort(key=lambda post: post.at)
    return _Talk(heard, count)


def _round(village_id: str, now: datetime, unit: Unit, again: list[datetime], talk: _Talk) -> bool:
    """One turn of every computer member, one after another (each sees what the ones before
    it did: their posts are added to ``talk``). Returns whether any of them wrote."""
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
        turn = record.rules.computer_turn(record, slot, now, rng, tuple(talk.heard))
        if turn.again is not None:
            again.append(turn.again)
        wrote = False
        for action, target in turn.prologue:
            wrote |= _try(partial(actions.prologue, village_id, account, action, target, now, unit))
        said = turn.posts
        if turn.choices:
            try:
                set_off = actions.save_actions(village_id, account, turn.choices, now, unit)
                wrote = True
            except ServiceError:
                set_off = None
            if set_off is not None and said and _moved_on(record, unit.reload(village_id)):
                # Its own save ended the game or the day (a command, a round closed early):
                # what it meant to say was for the village it played, not this one.
                said = ()
        for board, text in said:
            posted = _try(partial(posts.post, village_id, account, board, text, now, unit))
            if posted and not record.rules.personal_board(board):
                talk.add(board, slot, text, now)
            wrote |= posted
        if wrote:
            unit.reload(village_id)
            wrote_any = True
    return wrote_any


def _moved_on(played: VillageRecord, now: VillageRecord | None) -> bool:
    """Whether the village is no longer the state and day the turn was played in."""
    return now is None or now.state is not played.state or now.day != played.day


def _try(act: Callable[[], object]) -> bool:
    """Whether the act was written: a refusal is a person's refusal, asked again later."""
    try:
        act()
    except ServiceError:
        return False
    return True
