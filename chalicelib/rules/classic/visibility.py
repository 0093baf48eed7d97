"""Boards and who reads or writes each (RULES-CLASSIC §6): the one place that decides secrecy for
classic villages. Pure: the caller says who the viewer is and which moment of the village it is.
"""

from collections.abc import Mapping
from enum import StrEnum

from msgspec import Struct

from .cast import NPC, Cause, Role

WILL_LENGTH = 1000  # [decided] characters of a will


class Board(StrEnum):
    PUBLIC = "public"  # 表
    WOLVES = "wolves"  # 囁き
    MASONS = "masons"  # 共鳴
    MONOLOGUE = "monologue"  # 独り言 (one per writer)
    HEAVEN = "heaven"  # 墓下


class Moment(StrEnum):
    """Where the village is, as far as talking goes."""

    PROLOGUE = "prologue"
    DAY = "day"  # from the morning (or the start, with the opening) until sunset
    OVERTIME = "overtime"  # from sunset until the day's execution: nobody talks
    NIGHT = "night"
    EPILOGUE = "epilogue"  # and the past log after it


# The partner boards and the role whose holders read them (alive or dead).
PARTNER_BOARDS: dict[Board, Role] = {Board.WOLVES: Role.WEREWOLF, Board.MASONS: Role.MASON}

IN_GAME = frozenset({Moment.DAY, Moment.OVERTIME, Moment.NIGHT})


class Viewer(Struct, frozen=True):
    """Who is looking: a visitor (no character), a prologue member (no role yet) or a character."""

    character: str | None = None
    role: Role | None = None
    alive: bool = True

    @property
    def visitor(self) -> bool:
        return self.character is None

    @property
    def dead(self) -> bool:
        return self.character is not None and not self.alive


VISITOR = Viewer()


def can_read(
    board: Board,
    viewer: Viewer,
    moment: Moment,
    *,
    writer: str | None = None,
    heaven_sees_all: bool = True,
) -> bool:
    """Whether ``viewer`` may read ``board`` (for a monologue, ``writer``'s) now."""
    if moment is Moment.EPILOGUE or board is Board.PUBLIC:
        return True  # §2.5: in the epilogue everything is readable by everyone
    if viewer.visitor:
        return False
    if board is Board.MONOLOGUE:
        return writer == viewer.character or (viewer.dead and heaven_sees_all)
    if moment is Moment.PROLOGUE:
        return False  # no role yet: the other boards do not exist
    if board is Board.HEAVEN:
        return viewer.dead
    # A partner board: its holders, alive or dead; the other dead only with heaven_sees_all
    # ([decided] with it off, "their own team's board" is the partner board they could read alive).
    return viewer.role is PARTNER_BOARDS[board] or (viewer.dead and heaven_sees_all)


def board_exists(board: Board, roles: Mapping[str, Role] | None) -> bool:
    """A partner board exists only in a village where a player holds its role (a village
    without masons has no 共鳴 to read, even in the epilogue); ``roles``: None in the prologue."""
    role = PARTNER_BOARDS.get(board)
    if role is None:
        return True
    return roles is not None and any(r is role for c, r in roles.items() if c != NPC)


def can_write(board: Board, viewer: Viewer, moment: Moment) -> bool:
    """Whether ``viewer`` may post on ``board`` (their own monologue) now."""
    if viewer.visitor or viewer.character == NPC:
        return False  # the scapegoat never posts
    if board is Board.PUBLIC:
        if moment in (Moment.PROLOGUE, Moment.EPILOGUE):
            return True
        return moment is Moment.DAY and viewer.alive
    if board is Board.MONOLOGUE:
        return viewer.alive  # from joining until death
    if board is Board.HEAVEN:
        return viewer.dead and moment in IN_GAME
    return (
        viewer.alive
        and viewer.role is PARTNER_BOARDS[board]
        and moment in (Moment.DAY, Moment.NIGHT)  # from the start to the ending, not overtime
    )


def sees_roles(viewer: Viewer, moment: Moment, *, heaven_sees_all: bool) -> bool:
    """Whether ``viewer`` sees every role (and the scapegoat's card): the epilogue, or the dead
    with ``heaven_sees_all``. Otherwise each player sees only their own private information."""
    return moment is Moment.EPILOGUE or (viewer.dead and heaven_sees_all)


def cause_shown(cause: Cause, viewer: Viewer, moment: Moment, *, heaven_sees_all: bool) -> bool:
    """Whether ``viewer`` learns how a character died: an execution and a sudden death are
    announced by name (§2.3.4); the morning report gives no causes (§4.6), so an attack or a
    curse is known only to whoever sees every role."""
    return cause in (Cause.EXECUTION, Cause.SUDDEN) or sees_roles(
        viewer, moment, heaven_sees_all=heaven_sees_all
    )


def full_record_open(moment: Moment) -> bool:
    """§2.5: every role, every vote and every board open to everyone in the epilogue, and with
    them the full record (全記録: every choice, draw, result and news); before it, nobody reads
    any of it, not even their own part (a player's own news is their private information)."""
    return moment is Moment.EPILOGUE


def will_published(cause: Cause) -> bool:
    """§6: a will is published at the first morning after the death, never after a sudden death
    (not even in the epilogue)."""
    return cause is not Cause.SUDDEN
