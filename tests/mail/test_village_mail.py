"""A whole village through the scheduler, checking every mail sent."""

from datetime import timedelta

from chalicelib.personas import YAMAZATO
from chalicelib.rules import SLOTS
from chalicelib.services import scheduler, villages
from chalicelib.storage.repository import load_village
from tests.mail.conftest import sent_mails


def inline(ids):
    from chalicelib.jobs import process

    process(ids)


def test_day_one_mail_tells_each_member_their_own_side_only(village, players, clock, rng):
    for n, (account, slot) in enumerate(zip(players, SLOTS, strict=True)):
        villages.join(village, account, slot, YAMAZATO[n].key, clock())
    clock.advance(timedelta(hours=6))
    scheduler.tick(clock(), inline, rng)
    mails = sent_mails()
    assert len(mails) == 13
    game = load_village(village).game
    for mail in mails:
        assert "1日目が始まりました" in mail.subject
        account = mail.to.split("@")[0]
        slot = SLOTS[players.index(account)]
        assert "役割は「" in mail.text
    assert len({m.to for m in mails}) == 13
    assert game.day == 1
