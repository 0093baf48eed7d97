"""Nightly choices (RULES §3, §7): saved all at once or not at all, last save wins, read by
their owner (and oni-side votes by the oni side), and the oni side's declaration and resignation."""

from datetime import timedelta

import pytest

from chalicelib.rules.mobius import Command
from chalicelib.rulesets.base import VISITOR, Viewer
from chalicelib.services import actions, posts, villages
from chalicelib.services.errors import Forbidden, InvalidInput, NotFound
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.villages import at, cast_of, fill, kill, refused, start, to_update


@pytest.fixture
def day1(village, players, clock):
    """A running short village, every slot played, a few minutes into day 1."""
    seated = start(village, players, clock)
    at(village, clock, 5)
    return seated, cast_of(village)


def own(village_id: str, account_id: str) -> dict:
    record = load_village(village_id)
    viewer = posts.viewer_of(record, account_id)
    return actions.visible_choices(record, viewer, record.game.day).get(viewer.slot, {})


def test_s3_save_is_all_or_nothing_with_a_japanese_reason(village, clock, day1):
    seated, cast = day1
    human = next(s for s in cast.humans if not s.startswith(("seer", "guard", "assassin")))
    account = seated[human]
    target = next(s for s in cast.humans if s != human)
    actions.save_actions(village, account, {"pray": target}, clock())
    invalid = [
        ({"pray": cast.oni[0], "divine": cast.oni[1]}, "占い"),  # not a seer
        ({"pray": human}, "自分"),  # self
        ({"pray": cast.oni[0], "attack": cast.oni[1]}, "鬼サイド"),  # not oni side
        ({"pray": cast.oni[0], "curse": cast.oni[1]}, "curse"),  # no such choice
        ({"pray": "werewolf"}, "werewolf"),  # no such character
    ]
    for data, word in invalid:
        error = refused(InvalidInput, actions.save_actions, village, account, data, clock())
        assert word in str(error)
        assert own(village, account) == {"pray": target}  # nothing of it saved
    day = load_village(village)._days[1]
    assert day.saves == 1


def test_s3_dead_cannot_pray_but_dead_oni_side_still_votes(village, clock, day1):
    seated, cast = day1
    dead_human, voter = cast.humans[0], cast.oni[0]
    kill(village, seated, clock, judged=cast.madman, attacked=dead_human)
    at(village, clock, 1)
    alive = next(s for s in cast.humans[1:])
    error = refused(
        InvalidInput, actions.save_actions, village, seated[dead_human], {"pray": alive}, clock()
    )
    assert "死んだ" in str(error)
    refused(
        InvalidInput, actions.save_actions, village, seated[alive], {"pray": dead_human}, clock()
    )
    votes = {"attack": alive, "attacker": voter}
    actions.save_actions(village, seated[cast.madman], votes, clock())
    assert own(village, seated[cast.madman]) == votes


def test_s3_last_save_wins_and_changes_are_allowed_until_the_update(village, clock, day1):
    seated, cast = day1
    prayer = seated[cast.humans[1]]
    first, second, last = cast.humans[2], cast.humans[3], cast.oni[2]
    actions.save_actions(village, prayer, {"pray": first}, clock())
    at(village, clock, 50)  # loss time
    actions.save_actions(village, prayer, {"pray": second}, clock())
    assert own(village, prayer) == {"pray": second}
    at(village, clock, 59)  # night, just before the update
    actions.save_actions(village, prayer, {"pray": last}, clock())
    assert own(village, prayer) == {"pray": last}
    [morning] = [h for h in to_update(village, clock) if h.kind == "morning"]
    assert morning.morning.judged == last  # the only prayer: the last one saved
    # The next day starts undecided; a save keeps what it leaves out, and an undecided
    # choice (【未定】) clears it.
    assert own(village, prayer) == {}
    at(village, clock, 1)
    actions.save_actions(village, prayer, {"pray": cast.humans[4]}, clock())
    actions.save_actions(village, prayer, {}, clock())
    assert own(village, prayer) == {"pray": cast.humans[4]}
    actions.save_actions(village, prayer, {"pray": None}, clock())
    assert own(village, prayer) == {}


def test_s3_only_the_owner_reads_choices_and_the_oni_side_reads_oni_votes(village, clock, day1):
    seated, cast = day1
    human, oni, madman = cast.humans[0], cast.oni[0], cast.madman
    actions.save_actions(village, seated[human], {"pray": cast.humans[1]}, clock())
    oni_choices = {"pray": cast.humans[2], "attack": cast.humans[3], "attacker": oni}
    actions.save_actions(village, seated[oni], oni_choices, clock())
    record = load_village(village)

    def seen_by(slot: str | None) -> dict:
        viewer = Viewer(account_id=seated.get(slot), slot=slot) if slot else VISITOR
        return actions.visible_choices(record, viewer, 1)

    assert seen_by(human) == {human: {"pray": cast.humans[1]}}
    assert seen_by(oni) == {oni: oni_choices}
    # The rest of the oni side reads the votes (attack, attacker), never the prayer.
    assert seen_by(madman) == {oni: {"attack": cast.humans[3], "attacker": oni}}
    assert seen_by(cast.oni[1]) == {oni: {"attack": cast.humans[3], "attacker": oni}}
    assert seen_by(cast.humans[1]) == {}
    assert seen_by(None) == {}


def test_s3_only_members_save_and_only_while_the_game_runs(village, clock, players):
    make_account("visitor", clock())
    villages.join(village, players[0], "seer_a", "kaede", clock())
    error = refused(Forbidden, actions.save_actions, village, players[0], {}, clock())
    assert "行動" in str(error)  # the opening: nothing to choose yet
    refused(Forbidden, actions.save_actions, village, "visitor", {}, clock())
    refused(NotFound, actions.save_actions, "999", players[0], {}, clock())


def test_s7_victory_declaration_during_the_day_starts_the_ending_at_once(village, clock, day1):
    seated, cast = day1
    deciders = [cast.madman, *cast.oni[:2]]
    for slot in deciders[:2]:
        assert actions.save_actions(village, seated[slot], {"victory": slot}, clock()) is None
    assert load_village(village)._meta.state == "running"
    before = load_village(village)._meta.next_update
    third = actions.save_actions(village, seated[deciders[2]], {"victory": cast.humans[0]}, clock())
    assert third is Command.VICTORY
    record = load_village(village)
    assert record._meta.state == "ending"
    assert record._meta.next_update == before  # the game is over at the next update time
    ending = record.game.ending
    assert (ending.winner, ending.by, ending.day) == ("oni", "victory_declaration", 1)
    assert record.game.mornings == []
    assert "勝利宣言" in posts.read(record, VISITOR, "public", 1, clock()).posts[-1].text
    for account in seated.values():
        assert load_account(account).holds == {}
    refused(Forbidden, actions.save_actions, village, seated[cast.humans[0]], {}, clock())
    assert [h.kind for h in to_update(village, clock)] == ["closed"]


@pytest.mark.parametrize("minutes", [50, 56])  # loss time, night
def test_s7_resignation_set_after_the_deadline_ends_at_the_update_unresolved(
    village, clock, day1, minutes
):
    seated, cast = day1
    at(village, clock, minutes)
    for slot in [cast.madman, *cast.oni[:2]]:
        assert actions.save_actions(village, seated[slot], {"resign": slot}, clock()) is None
    # Everyone prays for one oni: had the night been resolved, it would be ash.
    for slot in cast.humans[:3]:
        actions.save_actions(village, seated[slot], {"pray": cast.oni[2]}, clock())
    assert load_village(village)._meta.state == "running"
    happened = to_update(village, clock)
    assert [h.kind for h in happened] == ["ending"]
    record = load_village(village)
    game = record.game
    assert record._meta.state == "ending"
    assert (game.ending.winner, game.ending.by) == ("human", "resignation")
    assert game.mornings == [] and game.deaths == {}  # the night was not resolved
    assert all(load_account(a).holds == {} for a in seated.values())
    [report] = [p.text for p in posts.read(record, VISITOR, "public", game.day, clock()).posts]
    assert "投了" in report
    clock.advance(timedelta(minutes=60))
    assert load_village(village)._meta.state == "ending"
    assert [h.kind for h in to_update(village, clock)] == ["closed"]


def test_s7_two_oni_side_commands_are_not_enough(village, clock, players):
    seated = fill(village, players, clock)
    to_update(village, clock)
    cast = cast_of(village)
    at(village, clock, 3)
    for slot in cast.oni[:2]:
        actions.save_actions(village, seated[slot], {"victory": slot}, clock())
    actions.save_actions(village, seated[cast.madman], {"resign": cast.madman}, clock())
    assert load_village(village)._meta.state == "running"
    assert "morning" in [h.kind for h in to_update(village, clock)]
