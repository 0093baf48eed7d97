"""A village's boards: a post written (at the member's pace), a board read by day or whole."""

import secrets
from datetime import datetime, timedelta
from typing import Any

from msgspec import Struct
from msgspec.structs import asdict, replace
from pynamodb.expressions.update import Action

from ...rulesets.base import Step, SystemPost
from ..db import ensure_configured
from ..errors import conditioned, retried
from ..keys import (
    board_pk,
    post_sk_prefix,
    time_key,
)
from ..models import MemberItem, PostItem, record_of
from ..repository import VillageRecord
from .reads import Page

POST_INTERVAL = timedelta(seconds=5)  # one post per member per 5 s


class Post(Struct, frozen=True):
    """One board post, as read or to be written (``PostItem``'s fields)."""

    partition: str  # the board's (a personal board's: its owner's)
    key: str  # its place on the board: the day, the moment, then a tie-break
    village_id: str
    board: str
    day: int
    slot: str | None  # None: a system post
    author: str | None  # persona name at the time of writing
    text: str
    created_at: datetime


def new_post(
    village_id: str,
    board: str,
    day: int,
    text: str,
    now: datetime,
    *,
    slot: str | None = None,
    author: str | None = None,
    owner: str | None = None,
    order: str | None = None,
) -> Post:
    """``owner``: the account of a personal board (each member's own partition); ``order``:
    a step's post's place (``stepped_post_item``), else a random suffix keeps two posts of
    the same microsecond apart, after any step's posts of that microsecond (what was said
    then answers the update: a computer member's turn is taken at the moment of the step it
    follows)."""
    suffix = order if order is not None else f"r{secrets.token_hex(4)}"
    return Post(
        partition=board_pk(village_id, board, owner),
        key=f"{post_sk_prefix(day)}{time_key(now)}#{suffix}",
        village_id=village_id,
        board=board,
        day=day,
        slot=slot,
        author=author,
        text=text,
        created_at=now,
    )


def _post_item(post: Post) -> PostItem:
    fields = asdict(post)
    return PostItem(fields.pop("partition"), fields.pop("key"), **fields)


def _post(item: PostItem) -> Post:
    return record_of(Post, item, partition=item.pk, key=item.sk)


def system_post_item(village_id: str, post: SystemPost) -> PostItem:
    return _post_item(new_post(village_id, post.board, post.day, post.text, post.at))


def stepped_post_item(
    village_id: str, post: SystemPost, step: Step, version: int, index: int
) -> PostItem:
    """A step's post, sorted by the step's moment, the village's version and its place in
    the step: steps taken at one moment (a late look: a round closed at its deadline, then
    the re-vote the computers closed at once) read in the order they were taken (issue 37).
    It shows its own time."""
    placed = new_post(
        village_id, post.board, post.day, post.text, step.at, order=f"0{version:010d}{index:04d}"
    )
    return _post_item(replace(placed, created_at=post.at))


def add_post(
    record: VillageRecord,
    post: Post,
    slot: str,
    account_id: str,
    now: datetime,
    shadow: Post | None = None,
    seen: datetime | None = None,
) -> None:
    """A member's post; refused (``Refused``) within 5 s of its last one or once it left.
    ``shadow``: its nameless trace on another board, written with it (classic howls).

    No transaction (decision 67): the member's item takes the post's moment first, under
    the condition that keeps the pace, and only then are the posts written (in one batch).
    A failure between the two leaves a moment with no post, which costs the member only
    the 5 s wait; a post is never written without its moment.

    ``seen``: when the page the post was written on was shown (decision 66), recorded as the
    member's last visit: the page after the post marks as unread what came since."""
    actions: list[Action] = [MemberItem.last_post_at.set(now)]
    if seen is not None:
        actions.append(MemberItem.last_access.set(seen))
    paced = (MemberItem.account_id == account_id) & (
        MemberItem.last_post_at.does_not_exist() | (MemberItem.last_post_at <= now - POST_INTERVAL)
    )
    conditioned(
        "add_post: too soon or not a member",
        lambda: record._members[slot].update(actions=actions, condition=paced),
    )
    # The posts' keys were drawn once: writing them again writes the same items.
    retried(lambda: _write_posts([p for p in (post, shadow) if p is not None]))


def _write_posts(posts: list[Post]) -> None:
    with PostItem.batch_write() as batch:
        for post in posts:
            batch.save(_post_item(post))


def read_board(partition: str, day: int, limit: int, start: dict[str, Any] | None) -> Page:
    """One board's posts of one day, oldest first."""
    ensure_configured()
    result = PostItem.query(
        partition,
        PostItem.sk.startswith(post_sk_prefix(day)),
        limit=limit,
        last_evaluated_key=start,
    )
    items = [_post(item) for item in result]
    return Page(items, result.last_evaluated_key)


def read_whole_board(partition: str) -> list[Post]:
    """One board's posts of every day, oldest first (a village's whole log, decision 52)."""
    ensure_configured()
    return [_post(item) for item in PostItem.query(partition)]
