"""What the dead are told (issue 20): the judged hear they became ash, as the attacked hear
they died and who struck them (RULES §4.3, §5.7), on the page and in the morning mail; a dead
oni-side member still votes the attack (RULES §3), and its mail offers it in one tap."""

from datetime import timedelta

import pytest

from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.support.mailbox import (
    MailBox,
    Phone,
    account_of,
    body_of,
    member_links,
    names_of,
    seat,
    tick,
    touch_all,
)
from tests.support.villages import cast_of

SHORT = TIMINGS[Pace.SHORT]
ASH = "あなたは裁かれ、灰になりました。"


@pytest.fixture
def first_night(players, clock, rng, village):
    """Day 1 played: every human prays for an oni (judged: ash), one oni attacks a human (a
    corpse); returns (village, slot -> account, slot -> morning mail, the night's plan)."""
    seated = seat(village, players, clock)
    clock.advance(SHORT.first_update)
    tick(clock, rng)
    clock.advance(timedelta(minutes=1))
    touch_all(village, seated, clock)
    cast = cast_of(village)
    night = {"judged": cast.oni[0], "attacked": cast.humans[0], "attacker": cast.oni[1]}
    for slot in cast.humans:
        actions.save_actions(village, seated[slot], {"pray": night["judged"]}, clock())
    actions.save_actions(
        village,
        seated[night["attacker"]],
        {"attack": night["attacked"], "attacker": night["attacker"]},
        clock(),
    )
    box = MailBox()
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)
    morning = load_village(village).game.mornings[-1]
    assert dict(morning.deaths) == {night["judged"]: "ash", night["attacked"]: "corpse"}
    by_account = {account_of(m): m for m in box.new()}
    return village, seated, {s: by_account[a] for s, a in seated.items()}, night


def test_s4_3_the_morning_mail_tells_the_judged_and_the_attacked_of_their_death(first_night):
    village, _, mails, night = first_night
    names = names_of(load_village(village))
    for body in (mails[night["judged"]].text, mails[night["judged"]].html):
        assert ASH in body
        assert "相手は" not in body
    struck = f"あなたは亡くなりました。相手は {names[night['attacker']]} です。"
    assert struck in mails[night["attacked"]].text
    for slot, mail in mails.items():
        if slot not in (night["judged"], night["attacked"]):
            assert ASH not in mail.text and "あなたは亡くなりました" not in mail.text


def test_s4_3_the_judged_read_their_death_on_their_page(first_night, client):
    village, _, mails, night = first_night
    phone = Phone(client)
    way_in = member_links(mails[night["judged"]])[(None, None)]
    phone.get(way_in)
    assert phone.post(way_in).status_code == 303
    page = body_of(phone.get(f"/villages/{village}"))
    panel = page[page.index("あなたの情報") :]
    assert "あなたは2日目の朝に裁かれ、灰になりました。" in panel


def test_s3_a_dead_oni_votes_the_attack_in_one_tap(first_night, client):
    village, seated, mails, night = first_night
    dead_oni = night["judged"]
    quick = member_links(mails[dead_oni])
    keys = {key for key, _ in quick if key}
    assert keys == {"attack"}  # a dead character's prayer is void; its attack vote is not
    record = load_village(village)
    living = sorted(record.game.alive)
    assert sorted(t for k, t in quick if k == "attack") == living
    assert "襲撃:" in mails[dead_oni].html
    target = next(s for s in living if s in cast_of(village).humans)
    phone = Phone(client)
    phone.get(quick[("attack", target)])
    assert phone.post(quick[("attack", target)]).status_code == 303
    assert actions.own_choices(load_village(village), seated[dead_oni]) == {"attack": target}
