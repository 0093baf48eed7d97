"""§6 of RULES-CLASSIC (boards and who sees what), a test per rule, and the visibility decisions
of docs/decisions-classic.md (``test_d…``). A property runs every board × viewer × moment."""

import itertools

import pytest

from chalicelib.rules.classic import NPC, Cause, Role
from chalicelib.rules.classic.visibility import (
    VISITOR,
    Board,
    Moment,
    Viewer,
    can_read,
    can_write,
    sees_roles,
    will_published,
)

WOLF = Viewer("p3", Role.WEREWOLF)
DEAD_WOLF = Viewer("p4", Role.WEREWOLF, alive=False)
MASON = Viewer("p5", Role.MASON)
VILLAGER = Viewer("p6", Role.VILLAGER)
DEAD_VILLAGER = Viewer("p7", Role.VILLAGER, alive=False)
FOX = Viewer("p9", Role.FOX)
MEMBER = Viewer("p1")  # a prologue member: no role yet
GAME = (Moment.DAY, Moment.OVERTIME, Moment.NIGHT)


def test_s6_public_board_read_by_all_written_in_prologue_epilogue_and_by_the_living_by_day():
    for moment in Moment:
        assert can_read(Board.PUBLIC, VISITOR, moment)
    assert can_write(Board.PUBLIC, MEMBER, Moment.PROLOGUE)
    assert can_write(Board.PUBLIC, DEAD_VILLAGER, Moment.EPILOGUE)
    assert can_write(Board.PUBLIC, VILLAGER, Moment.DAY)
    assert not can_write(Board.PUBLIC, VILLAGER, Moment.OVERTIME)
    assert not can_write(Board.PUBLIC, VILLAGER, Moment.NIGHT)
    assert not can_write(Board.PUBLIC, DEAD_VILLAGER, Moment.DAY)
    assert not can_write(Board.PUBLIC, VISITOR, Moment.EPILOGUE)


@pytest.mark.parametrize(
    ("board", "holder", "dead_holder"),
    [
        (Board.WOLVES, WOLF, DEAD_WOLF),
        (Board.MASONS, MASON, Viewer("p8", Role.MASON, alive=False)),
    ],
)
def test_s6_partner_boards_read_by_holders_alive_or_dead_written_by_the_living_except_overtime(
    board, holder, dead_holder
):
    for moment in GAME:
        assert can_read(board, holder, moment) and can_read(board, dead_holder, moment)
        assert not can_read(board, VILLAGER, moment)
        assert not can_read(board, VISITOR, moment)
        assert not can_write(board, dead_holder, moment)
    assert can_write(board, holder, Moment.DAY) and can_write(board, holder, Moment.NIGHT)
    assert not can_write(board, holder, Moment.OVERTIME)
    assert not can_write(board, VILLAGER, Moment.NIGHT)


def test_s6_monologue_read_by_its_writer_written_from_joining_until_death():
    assert can_read(Board.MONOLOGUE, VILLAGER, Moment.NIGHT, writer="p6")
    assert not can_read(Board.MONOLOGUE, WOLF, Moment.NIGHT, writer="p6")
    assert can_write(Board.MONOLOGUE, MEMBER, Moment.PROLOGUE)
    assert can_write(Board.MONOLOGUE, VILLAGER, Moment.OVERTIME)
    assert not can_write(Board.MONOLOGUE, DEAD_VILLAGER, Moment.NIGHT)


def test_s6_the_fox_has_no_board_and_writes_to_its_monologue():
    assert can_write(Board.MONOLOGUE, FOX, Moment.NIGHT)
    assert not any(can_write(b, FOX, Moment.NIGHT) for b in (Board.WOLVES, Board.MASONS))


def test_s6_heaven_read_and_written_by_the_dead_any_time_in_the_game():
    for moment in GAME:
        assert can_read(Board.HEAVEN, DEAD_VILLAGER, moment)
        assert can_write(Board.HEAVEN, DEAD_VILLAGER, moment)
        assert not can_read(Board.HEAVEN, VILLAGER, moment)
        assert not can_write(Board.HEAVEN, VILLAGER, moment)


def test_s6_heaven_sees_all_on_the_dead_read_every_board_and_see_every_role():
    dead = DEAD_VILLAGER
    for board in Board:
        assert can_read(board, dead, Moment.NIGHT, writer="p3", heaven_sees_all=True)
    assert sees_roles(dead, Moment.NIGHT, heaven_sees_all=True)
    assert not sees_roles(VILLAGER, Moment.NIGHT, heaven_sees_all=True)


def test_s6_heaven_sees_all_off_the_dead_read_public_heaven_own_monologue_and_own_team_board():
    off = {"heaven_sees_all": False}
    assert can_read(Board.PUBLIC, DEAD_VILLAGER, Moment.NIGHT, **off)
    assert can_read(Board.HEAVEN, DEAD_VILLAGER, Moment.NIGHT, **off)
    assert can_read(Board.MONOLOGUE, DEAD_VILLAGER, Moment.NIGHT, writer="p7", **off)
    assert not can_read(Board.MONOLOGUE, DEAD_VILLAGER, Moment.NIGHT, writer="p3", **off)
    assert not can_read(Board.WOLVES, DEAD_VILLAGER, Moment.NIGHT, **off)
    assert can_read(Board.WOLVES, DEAD_WOLF, Moment.NIGHT, **off)
    assert not sees_roles(DEAD_VILLAGER, Moment.NIGHT, heaven_sees_all=False)


def test_s6_in_the_epilogue_everything_is_readable_by_everyone():
    for board, viewer in itertools.product(Board, (VISITOR, VILLAGER, DEAD_WOLF)):
        assert can_read(board, viewer, Moment.EPILOGUE, writer="p3", heaven_sees_all=False)
    assert sees_roles(VISITOR, Moment.EPILOGUE, heaven_sees_all=False)


def test_s6_wills_published_except_after_a_sudden_death():
    assert will_published(Cause.EXECUTION) and will_published(Cause.ATTACK)
    assert will_published(Cause.CURSE) and not will_published(Cause.SUDDEN)


def test_s1_the_scapegoat_never_posts():
    npc = Viewer(NPC, Role.VILLAGER)
    assert not any(can_write(board, npc, moment) for board in Board for moment in Moment)


def test_no_board_but_public_is_open_to_visitors_or_the_living_outsiders_during_the_game():
    viewers = (VISITOR, VILLAGER, FOX, MEMBER)
    for board, viewer, moment in itertools.product(Board, viewers, GAME):
        readable = can_read(board, viewer, moment, writer="p3", heaven_sees_all=True)
        assert readable == (board is Board.PUBLIC)


def test_d15_own_team_board_is_the_partner_board_read_alive_the_madman_reads_none():
    dead_madman = Viewer("p2", Role.MADMAN, alive=False)
    dead_mason = Viewer("p5", Role.MASON, alive=False)
    assert not can_read(Board.WOLVES, dead_madman, Moment.NIGHT, heaven_sees_all=False)
    assert can_read(Board.MASONS, dead_mason, Moment.NIGHT, heaven_sees_all=False)
    assert not can_read(Board.WOLVES, dead_mason, Moment.NIGHT, heaven_sees_all=False)


def test_d16_heaven_written_only_in_the_game_monologue_by_the_living_at_any_time():
    assert not can_write(Board.HEAVEN, DEAD_VILLAGER, Moment.EPILOGUE)
    assert can_write(Board.MONOLOGUE, VILLAGER, Moment.EPILOGUE)
    assert not can_write(Board.MONOLOGUE, DEAD_VILLAGER, Moment.EPILOGUE)


def test_d17_with_heaven_sees_all_the_dead_read_every_monologue():
    assert can_read(Board.MONOLOGUE, DEAD_VILLAGER, Moment.DAY, writer="p3", heaven_sees_all=True)
    assert not can_read(
        Board.MONOLOGUE, DEAD_VILLAGER, Moment.DAY, writer="p3", heaven_sees_all=False
    )
