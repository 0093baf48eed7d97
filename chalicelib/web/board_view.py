"""One board page as players of BBS villages read it: numbered posts, ``>>12`` anchors that
open inline without JavaScript, a speaker filter and unread marks.

Presentation only: every post given here was already read through ``posts.read``, which
asks ``visibility``; an anchor opens inline only a post of the same page, and links any
other to its own page (which checks again).
"""

from collections.abc import Callable, Sequence
from datetime import datetime

from markupsafe import Markup, escape
from msgspec import Struct

from ..rules.talk import ANCHOR, number
from ..storage.villages import Post


class ShownPost(Struct, frozen=True):
    n: int | None  # its number on this board and day, from 1; None: a nameless trace
    item: Post
    body: Markup  # the text, escaped, with anchors
    unread: bool


class Numbering(Struct, frozen=True):
    """How a page numbers its posts and where its anchors lead."""

    first: int  # the number of the page's first post
    day: int  # the day shown
    last_day: int  # the game's day: no anchor leads past it
    url: Callable[[int, int], str]  # (day, number) -> the post's place
    more: bool = False  # the day goes on after this page


def body(text: str, on_page: dict[int, Post], numbering: Numbering) -> Markup:
    """``text`` escaped, each anchor made a ``<details>`` showing the post when it is on this
    page, a link to its page when it is on another day or page, or left as text when there is
    no such post."""
    day, last_day, url = numbering.day, numbering.last_day, numbering.url
    first = min(on_page, default=1)
    last = max(on_page, default=0)
    out: list[Markup] = []
    pos = 0
    for match in ANCHOR.finditer(text):
        out.append(escape(text[pos : match.start()]))
        pos = match.end()
        label = match.group(0)
        target_day = number(match.group(1)) if match.group(1) else day
        n = number(match.group(2))
        quoted = on_page.get(n) if target_day == day else None
        if quoted is not None:
            out.append(
                Markup(
                    '<details class="anchor"><summary>{}</summary>'
                    '<span class="quoted"><a href="{}">{}</a> <b>{}</b> {}</span></details>'
                ).format(label, url(day, n), n, quoted.author or "村の記録", quoted.text)
            )
        elif (
            n >= 1
            and target_day <= last_day
            and (target_day != day or n < first or (n > last and numbering.more))
        ):
            out.append(
                Markup('<a class="anchor" href="{}">{}</a>').format(url(target_day, n), label)
            )
        else:
            out.append(escape(label))
    out.append(escape(text[pos:]))
    return Markup("").join(out)


def spoken_by(item: Post, slot: str, name: str) -> bool:
    """Whether ``item`` was written by the one now named ``name`` in ``slot``: a seat taken
    again under another persona does not take its earlier holder's posts (decision 78)."""
    return item.slot == slot and item.author == name


def shown_posts(
    items: Sequence[Post],
    numbering: Numbering,
    *,
    since: datetime | None,
    own_slot: str | None,
    speaker: tuple[str, str] | None,
    traces: frozenset[str] = frozenset(),
) -> list[ShownPost]:
    """Numbers the page's posts from its first number; marks as unread what others wrote after
    ``since`` (the viewer's previous visit); keeps only ``speaker``'s posts when one is given
    (numbers and anchors still count every post). ``traces``: the texts of the nameless
    entries another board leaves here (classic howls): shown in their place without a number,
    since nobody can anchor them, and never counted."""
    numbered = [item for item in items if not is_trace(item, traces)]
    on_page = {numbering.first + i: item for i, item in enumerate(numbered)}
    number = {id(item): n for n, item in on_page.items()}
    shown = []
    for item in items:
        n = number.get(id(item))
        if speaker is not None and not spoken_by(item, *speaker):
            continue
        unread = (
            n is not None
            and since is not None
            and item.created_at > since
            and item.slot != own_slot
        )
        shown.append(ShownPost(n, item, body(item.text, on_page, numbering), unread))
    return shown


def is_trace(item: Post, traces: frozenset[str]) -> bool:
    return item.slot is None and item.text in traces
