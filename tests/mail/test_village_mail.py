"""Day 1's mail through the scheduler: each member learns their own side, and the oni side
its placement and the seers' random targets (RULES §2.1), and nobody anything more."""

from datetime import timedelta

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS, is_oni_side
from chalicelib.rulesets.mobius.labels import SIDE_LABELS, SLOT_LABELS
from chalicelib.services import villages
from chalicelib.storage.repository import load_village
from tests.support.mail import sent_mails
from tests.support.mailbox import assert_tells_nothing_of_others, names_of, tick


def test_day_one_mail_tells_each_member_their_own_side_only(village, players, clock, rng):
    for n, (account, slot) in enumerate(zip(players, SLOTS, strict=True)):
        villages.join(village, account, slot, YAMAZATO[n].key, clock())
    clock.advance(timedelta(hours=6))
    tick(clock, rng)
    mails = sent_mails()
    assert len(mails) == 13
    assert len({m.to for m in mails}) == 13
    record = load_village(village)
    game = record.game
    assert game.day == 1
    names = names_of(record)
    for mail in mails:
        assert mail.subject == "【人狼ひろば・メビウス】1番 テスト村：1日目が始まりました"
        account = mail.to.split("@")[0]
        slot = SLOTS[players.index(account)]
        assert (
            f"あなたは {names[slot]}、役割は「{SIDE_LABELS[game.sides[slot]]}」です。" in mail.text
        )
        assert_tells_nothing_of_others(mail, record, slot)
        if is_oni_side(game.sides[slot]):
            for oni in (s for s in SLOTS if is_oni_side(game.sides[s])):
                assert f"{names[oni]}（{SIDE_LABELS[game.sides[oni]]}）" in mail.text
            for seer, target in game.random_targets.items():
                assert f"{SLOT_LABELS[seer]}→{names[target]}" in mail.text
        else:
            assert "鬼サイドの配置" not in mail.joined
            assert "ランダム占い先" not in mail.joined
