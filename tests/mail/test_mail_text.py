"""How game mail reads: the self-attacked oni's wording, and (issue 9 item 12) text parts
that are short, with one or a few links, lines of at most 78 characters where possible and
no runs of blank lines; one-tap links grouped by action in the HTML part."""

from datetime import timedelta

from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from chalicelib.timeline import TIMINGS, Pace
from tests.integration.helpers import cast_of
from tests.mail.helpers import MailBox, account_of, names_of, seat, tick

SHORT = TIMINGS[Pace.SHORT]


def started(village, players, clock, rng) -> tuple[dict[str, str], MailBox]:
    seated = seat(village, players, clock)
    box = MailBox()
    clock.advance(SHORT.first_update)
    tick(clock, rng)
    return seated, box


def test_a_self_attacked_oni_is_told_it_struck_itself(players, clock, rng, village):
    seated, box = started(village, players, clock, rng)
    cast = cast_of(village)
    oni = cast.oni[0]
    clock.advance(timedelta(minutes=1))
    # Every oni-side vote: this oni attacks itself (nobody guards: the guards stay undecided).
    for slot in cast.oni_side:
        actions.save_actions(village, seated[slot], {"attack": oni, "attacker": oni}, clock())
    box.new()
    clock.now = load_village(village).meta.next_update
    tick(clock, rng)
    record = load_village(village)
    morning = record.game.mornings[-1]
    assert morning.killers.get(oni) == oni
    mails = {account_of(m): m for m in box.new()}
    mine = mails[seated[oni]]
    for body in (mine.text, mine.html):
        assert "実行犯として自分自身を襲撃しました。" in body
        assert f"相手は {names_of(record)[oni]}" not in body
