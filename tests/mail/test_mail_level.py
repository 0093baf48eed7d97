"""How much game mail a member wants (docs/playing.md, "Mail a member wants"): every update (the
default), only what concerns them and the deadlines, or none; for both rule sets."""

from datetime import timedelta
from types import SimpleNamespace

from chalicelib.rules.classic import Role
from chalicelib.rulesets.mobius.ruleset import MOBIUS, _concerns
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import accounts
from chalicelib.storage.repository import load_account, load_village
from tests.support.classic_villages import account_of as classic_account
from tests.support.classic_villages import seat_of_role
from tests.support.mailbox import MailBox, account_of, seat, tick, touch_all

SHORT = TIMINGS[Pace.SHORT]


def test_the_level_defaults_to_every_update_and_is_checked(players, clock):
    assert load_account(players[0]).mail_level is None  # "all"
    accounts.set_mail_level(players[0], "mine")
    assert load_account(players[0]).mail_level == "mine"
    # The older switches are untouched by the level.
    assert load_account(players[0]).preferences == {
        "morning_mail": True,
        "reminder_mail": True,
    }
    from chalicelib.services.errors import InvalidInput

    try:
        accounts.set_mail_level(players[0], "lots")
    except InvalidInput:
        pass
    else:
        raise AssertionError("an unknown level was accepted")


def test_mobius_mine_gets_the_start_and_only_mornings_that_concern_them(
    players, clock, rng, village
):
    seated = seat(village, players, clock)
    mine, nothing = players[1:7], players[7]
    for account in mine:
        accounts.set_mail_level(account, "mine")
    accounts.set_mail_level(nothing, "none")
    box = MailBox()
    clock.advance(SHORT.first_update)
    tick(clock, rng)  # the start
    got = {account_of(m) for m in box.new()}
    assert got == set(seated.values()) - {nothing}
    start = clock()
    for minutes in (50, 60):  # the members stay (RULES §9) until the first morning
        clock.now = start + timedelta(minutes=minutes)
        touch_all(village, seated, clock)
        tick(clock, rng)
    record = load_village(village)
    assert record.day == 2
    slot_of = {a: s for s, a in seated.items()}
    said = {a: MOBIUS.notice(record, slot_of[a], "morning", 2, clock()) for a in mine}
    concerned = {a for a, notice in said.items() if notice is not None and notice.concerns}
    got = {account_of(m) for m in box.new() if "朝になりました" in m.subject}
    assert got - set(mine) == set(seated.values()) - set(mine) - {nothing}
    assert got & set(mine) == concerned
    assert set(mine) - concerned  # a plain morning brings some members nothing of their own


def test_mobius_a_morning_concerns_its_dead_and_those_with_news():
    def morning(**parts):
        base = {"deaths": {}, "results": {}, "dms": {}, "killers": {}, "attack": None}
        return SimpleNamespace(**{**base, **parts})

    assert not _concerns("morning", morning(), "A")
    assert not _concerns("morning", None, "A")
    assert _concerns("morning", morning(deaths={"A": "ash"}), "A")
    assert _concerns("morning", morning(results={"A": {}}), "A")
    assert _concerns("morning", morning(dms={"A": {}}), "A")
    assert _concerns("morning", morning(attack=SimpleNamespace(target="B", attacker="A")), "A")
    for kind in ("start", "reminder", "ending", "abandoned"):
        assert _concerns(kind, None, "A")


def test_classic_mine_gets_the_seers_morning_not_a_plain_villagers(classic, clock, rng):
    vid, box = classic
    seer = classic_account(vid, seat_of_role(vid, Role.SEER))
    villager = classic_account(vid, seat_of_role(vid, Role.VILLAGER))
    wolf = classic_account(vid, seat_of_role(vid, Role.WEREWOLF))
    for account in (seer, villager):
        accounts.set_mail_level(account, "mine")
    accounts.set_mail_level(wolf, "none")
    box.new()
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2: the scapegoat found dead, the seer's result
    got = {m.to.split("@")[0] for m in box.new()}
    assert seer in got
    assert villager not in got
    assert wolf not in got
    assert len(got) == 3  # the two other members, on "every update"
