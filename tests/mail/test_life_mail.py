"""A short village's whole life through the scheduler alone, checking every mail sent.

The clock travels in 5-minute ticks; the players act through the services (save actions,
log in). Every mail is checked against the game's full truth: its recipient, its subject,
the member's own news in it, and none of anyone else's secrets (RULES §5, §8).
"""

from datetime import timedelta

from chalicelib.clock import jst
from chalicelib.links import read_member_token
from chalicelib.rules.mobius import JOBS, PARTNERS, SLOTS, Job, is_oni_side
from chalicelib.rulesets.base import Viewer
from chalicelib.rulesets.mobius.labels import SIDE_LABELS
from chalicelib.rulesets.mobius.ruleset import ABILITY
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace, deadline_of
from chalicelib.rulesets.mobius.visibility import private
from chalicelib.services import actions, villages
from chalicelib.storage.keys import state_keys
from chalicelib.storage.models import VillageItem
from chalicelib.storage.repository import load_account, load_village
from tests.support.mailbox import (
    MailBox,
    account_of,
    assert_tells_nothing_of_others,
    facts_in,
    links_in,
    names_of,
    news_of,
    path_of,
    seat,
    secrets_of,
    split_idle_warnings,
    tick,
    tick_until,
)
from tests.support.villages import cast_of

SHORT = TIMINGS[Pace.SHORT]


def plan(village_id: str) -> list[dict]:
    """Three nights that end the game: each night the living humans judge one oni and the
    oni side attacks one human; seers divine the last oni, guards guard a seer."""
    cast = cast_of(village_id)
    humans = cast.humans
    # A human commoner whose partner is a human: its true DM reaches that partner.
    paired = [s for s in humans if JOBS[s] is Job.COMMONER and PARTNERS[s] in humans]
    lazy = lazy_member(village_id)
    others = [s for s in humans if s not in (*paired[:1], lazy)]
    victims = [*paired[:1], *[s for s in others if JOBS[s] not in (Job.SEER, Job.MEDIUM)]][:3]
    return [
        {"judged": cast.oni[n], "attacked": victims[n], "attacker": cast.oni[min(n + 1, 2)]}
        for n in range(3)
    ]


def lazy_member(village_id: str) -> str:
    """A living human who only logs in and never saves: it gets the reminders."""
    return next(s for s in cast_of(village_id).humans if JOBS[s] is Job.EMPATH)


def play_day(village_id: str, seated: dict[str, str], night: dict, lazy: str, clock) -> None:
    record = load_village(village_id)
    game = record.game
    cast = cast_of(village_id)
    for slot in game.alive:
        account = seated[slot]
        if slot == lazy:
            villages.touch(village_id, account, clock())
            continue
        choices: dict[str, str] = {}
        if slot in cast.humans:
            choices["pray"] = night["judged"]
            if JOBS[slot] is Job.SEER and cast.oni[2] != slot:
                choices["divine"] = cast.oni[2]
            if JOBS[slot] is Job.GUARD:
                seers = [s for s in game.alive if JOBS[s] is Job.SEER and s != night["attacked"]]
                guarded = next((s for s in seers if s != slot), None)
                if guarded:
                    choices["guard"] = guarded
        else:
            choices["attack"] = night["attacked"]
            choices["attacker"] = night["attacker"]
        actions.save_actions(village_id, account, choices, clock())


def check_batch(mails, village_id, seated, kind: str, day: int, clock) -> dict[str, object]:
    """One mail per member, with the right subject, own news only; returns slot -> mail."""
    record = load_village(village_id)
    meta = record._meta
    game = record.game
    names = names_of(record)
    by_account = {account_of(m): m for m in mails}
    assert len(by_account) == len(mails), "a member got two mails"
    assert set(by_account) == set(seated.values())
    by_slot = {}
    for slot, account in seated.items():
        mail = by_account[account]
        by_slot[slot] = mail
        assert mail.to == load_account(account).email
        assert mail.subject.startswith(f"【人狼ひろば・メビウス】{village_id}番 テスト村：")
        assert f"{names[slot]} さん" in mail.text
        assert_tells_nothing_of_others(mail, record, slot, ending=kind == "ending")
        mine = private(game, Viewer(account_id=account, slot=slot))
        # The personal link: this account, this village, today; it expires at the update.
        # The text part: one link in (and the unsubscribe link); the one-tap links are in
        # the HTML part, one line of short target links per action.
        [link] = [u for u in links_in(mail.text) if "/m/" in u]
        [html_link, *quick] = [u for u in links_in(mail.html) if "/m/" in u]
        assert html_link == link
        token = path_of(link).split("/m/")[1]
        signed = read_member_token(token, meta.next_update - timedelta(seconds=1))
        assert (signed.account_id, signed.village_id, signed.day) == (account, village_id, day)
        assert signed.key is None
        assert read_member_token(token, meta.next_update) is None
        if kind == "start":
            assert mail.subject.endswith("1日目が始まりました")
            assert f"役割は「{SIDE_LABELS[mine.side]}」" in mail.text
            # Everything this member alone knows at the start, and nothing else.
            assert facts_in(mail, record, slot) == secrets_of(game, names, slot).facts
        else:
            morning = next(m for m in game.mornings if m.day == day)
            for dead, how in morning.deaths.items():
                assert f"{'灰' if how == 'ash' else '遺体'}: {names[dead]}" in mail.text
            # That morning's own news (results, DM, killer), and no other day's.
            assert facts_in(mail, record, slot) == news_of(game, names, slot, day)
        if kind == "ending":
            assert mail.subject.endswith(f"決着がつきました（{day}日目）")
            assert "人間サイドの勝利です" in mail.text
            for s in SLOTS:  # the ending opens every side to everyone
                assert f"{names[s]}: {SIDE_LABELS[game.sides[s]]}" in mail.text
            assert not quick
        else:
            deadline = deadline_of(Pace.SHORT, meta.day_started_at)
            assert f"〆切: {jst(deadline)}" in mail.text
            assert f"次の更新: {jst(meta.next_update)}" in mail.text
            if slot in game.alive:
                # One-tap prayers for every other living character, signed for this member.
                signed_quick = [read_member_token(path_of(u)[3:], clock()) for u in quick]
                assert {q.account_id for q in signed_quick} == {account}
                prayers = {q.target for q in signed_quick if q.key == "pray"}
                assert prayers == set(game.alive) - {slot}
                abilities = {q.key for q in signed_quick} - {"pray"}
                attack = {"attack"} if is_oni_side(game.sides[slot]) else set()
                assert abilities <= {ABILITY.get(JOBS[slot]), *attack}
            elif is_oni_side(game.sides[slot]):
                # The dead oni side still votes the attack (RULES §3), and nothing else.
                signed_quick = [read_member_token(path_of(u)[3:], clock()) for u in quick]
                assert {q.key for q in signed_quick} == {"attack"}
            else:
                assert quick == []  # the dead human side chooses nothing
        assert mail.html.count("<a href=") >= 2  # the village link and the unsubscribe link
    return by_slot


def test_a_short_village_lives_and_ends_through_the_scheduler(village, players, clock, rng):
    box = MailBox()
    seated = seat(village, players, clock)
    first_update = load_village(village)._meta.next_update

    # The opening: ticks every half hour send nothing and do not start the village early.
    tick_until(clock, rng, first_update - timedelta(minutes=1), step=timedelta(minutes=30))
    assert load_village(village)._meta.state == "opening"
    assert box.new() == []

    # Day 1 starts at its update: one mail each, side and oni-side secrets as allowed.
    clock.now = first_update
    tick(clock, rng)
    record = load_village(village)
    assert record._meta.state == "running"
    assert record._meta.day_started_at == first_update
    start = check_batch(box.new(), village, seated, "start", 1, clock)
    cast = cast_of(village)
    for slot in cast.oni_side:
        assert "鬼サイドの配置" in start[slot].text
    for slot in cast.humans:
        assert "鬼サイドの配置" not in start[slot].joined
    # A duplicate tick at the same minute sends nothing more.
    tick(clock, rng)
    assert box.new() == []

    lazy = lazy_member(village)
    for day, night in enumerate(plan(village), start=1):
        record = load_village(village)
        day_start = record._meta.day_started_at
        clock.now = day_start + timedelta(minutes=1)
        play_day(village, seated, night, lazy, clock)
        # Up to the update: only the reminder, to the one member who saved nothing.
        tick_until(clock, rng, day_start + SHORT.turn - timedelta(minutes=1))
        reminders, warned = split_idle_warnings(box.new())
        assert [account_of(m) for m in reminders] == [seated[lazy]]
        # Everyone looked in at the day's first minute only: the living are warned (decision 140).
        living = {seated[s] for s in load_village(village).game.living()}
        assert sorted(account_of(m) for m in warned) == sorted(living)
        assert reminders[0].subject.endswith(f"〆切が近づいています（{day}日目）")
        assert_tells_nothing_of_others(reminders[0], load_village(village), lazy)
        # The update: everyone (the dead too) hears of the morning.
        clock.now = day_start + SHORT.turn
        tick(clock, rng)
        record = load_village(village)
        assert record.game.day == day + 1
        morning = record.game.mornings[-1]
        assert dict(morning.deaths) == {night["judged"]: "ash", night["attacked"]: "corpse"}
        kind = "ending" if record.game.ending else "morning"
        mails = check_batch(box.new(), village, seated, kind, day + 1, clock)
        if kind == "morning":
            assert all(m.subject.endswith(f"{day + 1}日目の朝になりました") for m in mails.values())
        # The struck victim learns its killer; a human commoner's partner reads its DM.
        victim = night["attacked"]
        assert f"相手は {names_of(record)[night['attacker']]}" in mails[victim].text
        if JOBS[victim] is Job.COMMONER:
            assert "ダイイングメッセージ" in mails[PARTNERS[victim]].text
        for slot, mail in mails.items():
            if slot not in (victim, PARTNERS.get(victim)):
                assert "ダイイングメッセージ" not in mail.joined
                assert "相手は" not in mail.joined

    record = load_village(village)
    assert record._meta.state == "ending"
    assert record.game.ending.winner == "human"
    # The ending lasts until the next update; then the village closes, silently.
    tick_until(clock, rng, record._meta.next_update)
    record = load_village(village)
    assert record._meta.state == "ended"
    assert box.new() == []
    # A closed village is no longer due: later ticks leave it alone.
    version = record._meta.version
    tick_until(clock, rng, clock() + timedelta(hours=2), step=timedelta(minutes=30))
    assert load_village(village)._meta.version == version
    assert box.new() == []
    ended = [v for key in state_keys("ended") for v in VillageItem.by_state.query(key)]
    assert [v.village_id for v in ended] == [village]
