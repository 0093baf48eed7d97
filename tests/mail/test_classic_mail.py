"""Mail of a classic village (issue 13): the start (role, partners, cast list, conduct rule,
first deadline), each morning, each new vote round with one-tap signed vote links (GET shows a
confirmation page, only the POST votes), the reminders, the ending; each member gets exactly
their own news."""

from datetime import timedelta

import pytest

from chalicelib import links
from chalicelib.clock import jst
from chalicelib.rules.classic import NPC, Role
from chalicelib.rulesets.base import Viewer
from chalicelib.services import accounts, actions, scheduler
from chalicelib.services.outbox import Delivery
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import (
    account_of,
    create,
    join_all,
    living_seats,
    seat_of_role,
    start,
)
from tests.support.mailbox import MailBox, Phone, body_of, links_in, path_of, tick

ROLE_WORDS = {"seer": "占い師", "werewolf": "人狼", "villager": "村人"}


def roles_by_account(vid: str) -> dict[str, Role]:
    record = load_village(vid)
    game = record.game
    return {
        record.seats()[game.seats[c]].account_id: r
        for c, r in game.village.roles.items()
        if c != NPC
    }


def test_start_mail_tells_each_member_only_their_role_and_the_conduct_rule(classic, clock):
    vid, box = classic
    mails = {m.to.split("@")[0]: m for m in box.new()}
    roles = roles_by_account(vid)
    assert set(mails) == set(roles)
    for account, mail in mails.items():
        assert "ゲームが始まりました" in mail.subject
        # The site's name, then the game's: not 【メビウス人狼】 on a classic village's mail.
        assert mail.subject.startswith(f"【人狼ひろば・人狼BBS式】{vid}番 ")
        assert f"あなたの役職は「{ROLE_WORDS[roles[account].value]}」です" in mail.text
        assert "外部相談の禁止" in mail.text
        assert "配役: 占い師1、人狼1、村人4" in mail.text
        assert "夜明け:" in mail.text  # the first deadline (night 1 closes), in JST
        for other, role in roles.items():
            if other != account and role is not roles[account]:
                assert f"あなたの役職は「{ROLE_WORDS[role.value]}」" not in mail.joined


def test_morning_mail_names_the_dead_and_the_seer_alone_gets_the_divination(classic, clock, rng):
    vid, box = classic
    box.new()
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    mails = {m.to.split("@")[0]: m for m in box.new()}
    seer = account_of(vid, seat_of_role(vid, Role.SEER))
    assert all("2日目の朝になりました" in m.subject for m in mails.values())
    assert all("身代わり君" in m.text for m in mails.values())
    assert "占い：" in mails[seer].text
    assert all("占い：" not in m.joined for a, m in mails.items() if a != seer)


def test_s2_4_a_night_closed_as_it_begins_is_mailed_as_one_morning_once(classic, clock, rng):
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2
    wolf, seer = seat_of_role(vid, Role.WEREWOLF), seat_of_role(vid, Role.SEER)
    executed, prey, _ = (s for s in living_seats(vid) if s not in (wolf, seer))
    actions.save_actions(vid, account_of(vid, wolf), {"attack": prey}, clock())
    actions.save_actions(vid, account_of(vid, seer), {"divine": wolf}, clock())
    for seat in living_seats(vid):
        vote = executed if seat != executed else wolf
        actions.save_actions(vid, account_of(vid, seat), {"vote": vote}, clock())
    box.new()
    tick(clock, rng)  # the same minute: the round and the night closed with the last vote
    mails = box.new()
    assert sorted(m.subject.split("：")[-1] for m in mails) == ["3日目の朝になりました"] * 5
    by_account = {m.to.split("@")[0]: m for m in mails}
    assert "占い：" in by_account[account_of(vid, seer)].text
    tick(clock, rng)  # a duplicate tick sends nothing more
    assert box.new() == []


def test_reminder_warns_non_voters_of_sudden_death_10_minutes_before_sunset(classic, clock, rng):
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2
    morning = clock()
    voter = living_seats(vid)[0]
    actions.save_actions(vid, account_of(vid, voter), {"vote": living_seats(vid)[1]}, clock())
    box.new()
    clock.now = morning + timedelta(minutes=31)
    tick(clock, rng)
    reminders = [m for m in box.new() if "〆切が近づいています" in m.subject]
    assert len(reminders) == 4  # five living players, one has voted
    assert all("突然死" in m.text for m in reminders)
    assert account_of(vid, voter) not in {m.to.split("@")[0] for m in reminders}
    clock.now += timedelta(minutes=1)
    tick(clock, rng)
    assert not [m for m in box.new() if "〆切が近づいています" in m.subject]  # once


def test_a_re_vote_mails_the_round_with_one_tap_vote_links(classic, clock, rng, client):
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2: five living players (the scapegoat died)
    seats = living_seats(vid)
    assert len(seats) == 5
    # a 2–2–1 split: a tie, and with the bbs rule a re-vote
    a, b, c, d, e = seats
    plan = {a: b, b: a, c: a, d: b, e: c}
    for voter, target in plan.items():
        actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
    box.new()
    tick(clock, rng)
    rounds = [m for m in box.new() if "投票をやり直します" in m.subject]
    assert len(rounds) == 5
    mail = next(m for m in rounds if m.to.startswith(account_of(vid, a)))
    assert "第2回" in mail.text and "突然死" in mail.text
    tokens = [path_of(u) for u in links_in(mail.html) if "/m/" in u]
    votes = [(p, links.read_member_token(p[3:], clock())) for p in tokens]
    votes = [(p, link) for p, link in votes if link.key == "vote"]
    assert votes  # one per living other
    path, link = votes[0]
    phone = Phone(client)
    page = phone.get(path)
    assert page.status_code == 200 and "処刑投票" in body_of(page)
    record = load_village(vid)
    assert actions.own_choices(record, account_of(vid, a)).get("vote") is None  # GET: nothing
    done = phone.post(path)
    assert done.status_code == 303
    assert actions.own_choices(load_village(vid), account_of(vid, a))["vote"] == link.target


def test_ending_mail_tells_the_winner_and_the_members_team_result(classic, clock, rng):
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    box.new()
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # nobody voted: everyone dies suddenly, a draw
    endings = [m for m in box.new() if "ゲームが終わりました" in m.subject]
    assert len(endings) == 5
    assert all("引き分けです" in m.text and "負けました" in m.text for m in endings)


ATTACKED = "昨夜、あなたは人狼に襲われましたが、生き延びました。"


@pytest.fixture
def thirteen(clock, rng):
    """A short classic village of 13 (two wolves, the fox, a hunter) at day 2, the fox alive
    (night 1's divination was set on a wolf); (village, mail box)."""
    accounts_ = [make_account(f"x{n:02d}", clock()) for n in range(13)]
    vid = create(clock, rng)
    join_all(vid, accounts_, clock)
    box = MailBox()
    start(vid, accounts_, clock)
    seer, wolves = seat_of_role(vid, Role.SEER), seats_of(vid, Role.WEREWOLF)
    actions.save_actions(vid, account_of(vid, seer), {"divine": wolves[0]}, clock())
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    assert seat_of_role(vid, Role.FOX) in living_seats(vid)
    return vid, box


def seats_of(vid: str, role: Role) -> list[str]:
    game = load_village(vid).game
    return [game.seats[c] for c, r in game.village.roles.items() if r is role and c != NPC]


def own_news(vid: str, seat: str, clock) -> list[str]:
    record = load_village(vid)
    page = record.rules.page(record, Viewer(account_of(vid, seat), seat), clock(), record.day)
    return [line for n in page["private"]["news"] for line in n["lines"]]


def attack_the_fox_on_night_2(
    vid: str, clock, rng, divine: str | None = None, guard: bool = True
) -> dict[str, str]:
    """Night 2's choices, set during day 2: one wolf attacks a villager the hunter guards,
    then the other wolf the fox; the seer divines the first wolf (or ``divine``). Then every
    vote, the wolf whose attack is older voting last (its vote must not make its attack the
    latest, §3). The night closes with the last vote, or without the guard at its deadline
    (the tick). Returns the seats by part."""
    fox, seer, hunter = (seat_of_role(vid, r) for r in (Role.FOX, Role.SEER, Role.HUNTER))
    first, latest = seats_of(vid, Role.WEREWOLF)
    others = [s for s in living_seats(vid) if s not in (fox, seer, hunter, first, latest)]
    prey, executed = others[0], others[1]
    actions.save_actions(vid, account_of(vid, first), {"attack": prey}, clock())
    actions.save_actions(vid, account_of(vid, seer), {"divine": divine or first}, clock())
    if guard:
        actions.save_actions(vid, account_of(vid, hunter), {"guard": prey}, clock())
    clock.advance(timedelta(seconds=1))
    actions.save_actions(vid, account_of(vid, latest), {"attack": fox}, clock())
    for voter in [s for s in living_seats(vid) if s != first] + [first]:
        clock.advance(timedelta(seconds=1))
        vote = executed if voter != executed else fox
        actions.save_actions(vid, account_of(vid, voter), {"vote": vote}, clock())
    if not guard:
        assert load_village(vid).game.village.day == 2  # the night waits for the hunter
        clock.now = load_village(vid)._meta.next_update
        tick(clock, rng)
    assert load_village(vid).game.village.day == 3
    return {"fox": fox, "prey": prey, "executed": executed}


@pytest.mark.parametrize("guard", [True, False], ids=["closed-by-the-last-vote", "by-the-tick"])
def test_s4_3_s4_6_the_fox_attacked_by_the_latest_attack_is_told_on_its_page_and_by_mail(
    thirteen, clock, rng, guard
):
    """In a 16-player village the fox was not told: the wolf whose attack was older voted
    later, and a vote moved that wolf's save time, so its attack counted instead of the
    fox's (§3 counts the attack saved most recently)."""
    vid, box = thirteen
    fox = seat_of_role(vid, Role.FOX)
    accounts.set_mail_level(account_of(vid, fox), "mine")  # a morning with news concerns it
    box.new()
    seats = attack_the_fox_on_night_2(vid, clock, rng, guard=guard)
    game = load_village(vid).game  # the stored night, which the full record will read
    morning = game.village.mornings[-1].to_json()
    assert morning["attack"] == game.character_of(fox)
    assert morning["news"][game.character_of(fox)] == {"attacked": True}
    assert {fox, seats["prey"]} <= set(living_seats(vid))  # nobody died in the night
    assert own_news(vid, fox, clock) == [ATTACKED]
    assert all(ATTACKED not in own_news(vid, s, clock) for s in living_seats(vid) if s != fox)
    tick(clock, rng)  # sends the morning's mail, if the night's tick has not
    mails = {m.to.split("@")[0]: m for m in box.new() if "3日目の朝" in m.subject}
    assert ATTACKED in mails[account_of(vid, fox)].text
    assert all(ATTACKED not in m.text for a, m in mails.items() if a != account_of(vid, fox))


def test_s4_6_a_morning_mail_sent_after_a_later_morning_tells_its_own_morning(thirteen, clock, rng):
    """The outbox keeps which mail is owed, its text is made when it is sent: a morning
    mail sent late (a retry, a slow mail worker) says that morning's news, not the last."""
    vid, _ = thirteen
    seats = attack_the_fox_on_night_2(vid, clock, rng)
    fox = seats["fox"]
    living = living_seats(vid)
    executed = next(s for s in living if s not in (fox, *seats_of(vid, Role.WEREWOLF)))
    for voter in living:  # day 3: an execution, then night 3 closes at its deadline
        vote = executed if voter != executed else fox
        actions.save_actions(vid, account_of(vid, voter), {"vote": vote}, clock())
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    record = load_village(vid)
    assert record.game.village.day == 4
    said = record.rules.notice(record, fox, "morning", 300, clock())
    assert said is not None and said.context["morning"]["day"] == 3
    assert said.context["morning"]["news"] == [ATTACKED] and said.concerns


def test_s4_5_a_fox_attacked_and_divined_the_same_night_dies_and_is_not_told(thirteen, clock, rng):
    vid, box = thirteen
    fox = seat_of_role(vid, Role.FOX)
    attack_the_fox_on_night_2(vid, clock, rng, divine=fox)
    assert fox not in living_seats(vid)  # cursed (§4.2)
    assert own_news(vid, fox, clock) == []
    box.new()
    tick(clock, rng)
    mail = next(m for m in box.new() if m.to.startswith(account_of(vid, fox)))
    assert ATTACKED not in mail.text and "無残な姿で発見された" in mail.text


def test_a_re_vote_mail_says_why_the_vote_is_redone_and_shows_sunset_beside_its_deadline(
    classic, clock, rng
):
    """Issue 23: a tie names the tied and their votes; a sudden death names who died; each
    round's mail gives the day's sunset and the round's own deadline."""
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2
    names = {s: m.name for s, m in load_village(vid).seats().items()}
    a, b, c, d, e = living_seats(vid)
    for voter, target in {a: b, b: a, c: a, d: b, e: c}.items():
        actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
    box.new()
    tick(clock, rng)  # the round closed early: a tie
    mail = next(m for m in box.new() if "投票をやり直します" in m.subject)
    reason = (
        f"2日目・第1回投票は、{names[a]}、{names[b]} が2票ずつの同数だったため決まりませんでした。"
    )
    assert reason in mail.joined and reason in mail.html
    assert "日没（話し合いの終わり）: " in mail.joined and "第2回投票の締め切り: " in mail.joined
    # Round 2: a villager does not vote and dies by sudden death; the vote is held again.
    silent = all_vote_but_a_villager(vid, (a, b, c, d, e), clock)
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)
    assert load_village(vid).state.value == "running"
    mail = next(m for m in box.new() if "投票をやり直します" in m.subject)
    reason = f"2日目・第2回投票で、投票しなかった {names[silent]} が突然死しました。"
    assert reason in mail.joined and "投票をやり直します（第2回）" in mail.joined


def all_vote_but_a_villager(vid: str, seats: tuple[str, ...], clock) -> str:
    """Every seat but one villager votes (for someone else than itself and the silent one);
    returns the silent seat (it dies by sudden death at the round's close)."""
    wolf = seat_of_role(vid, Role.WEREWOLF)
    silent = next(s for s in seats if s != wolf)
    for voter in seats:
        if voter != silent:
            target = next(s for s in seats if s not in (voter, silent))
            actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
    return silent


def test_s2_3_4_a_re_vote_mail_sent_late_is_one_mail_that_still_holds(
    classic, clock, rng, monkeypatch
):
    """Issue 37: the mail worker ran only after two re-votes (a tie, then a sudden death).
    Each living member gets one mail, the open round's, with its reason and deadline; the
    member who died for not voting is told so and never called to vote; the round closed
    since is not mailed at all (it would read like the open one)."""
    vid, box = classic
    clock.now = load_village(vid)._meta.next_update
    tick(clock, rng)  # day 2
    names = {s: m.name for s, m in load_village(vid).seats().items()}
    a, b, c, d, e = living_seats(vid)
    box.new()
    with monkeypatch.context() as held:  # the mail worker is late
        held.setattr(scheduler.outbox, "deliver", lambda *args, **kwargs: Delivery())
        for voter, target in {a: b, b: a, c: a, d: b, e: c}.items():
            actions.save_actions(vid, account_of(vid, voter), {"vote": target}, clock())
        tick(clock, rng)  # round 1 closed early: a tie, a re-vote owed
        silent = all_vote_but_a_villager(vid, (a, b, c, d, e), clock)
        clock.now = load_village(vid)._meta.next_update
        tick(clock, rng)  # round 2: the silent one dies, round 2 again
        assert load_village(vid).state.value == "running" and box.new() == []
    scheduler.send_owed_mail(vid, clock())
    mails = box.new()
    by_member = {
        s: [m for m in mails if m.to.startswith(account_of(vid, s))] for s in (a, b, c, d, e)
    }
    assert all(len(got) == 1 for got in by_member.values()), mails
    [died] = by_member[silent]
    assert died.subject.endswith("投票しなかったため突然死しました（2日目）")
    assert "あなたは投票しなかったため突然死しました" in died.text
    assert "投票をやり直します" not in died.joined and "締め切り" not in died.joined
    reason = f"2日目・第2回投票で、投票しなかった {names[silent]} が突然死しました。"
    deadline = jst(load_village(vid).next_update)
    for seat in {a, b, c, d, e} - {silent}:
        [mail] = by_member[seat]
        assert mail.subject.endswith("2日目の投票をやり直します")
        assert reason in mail.joined and "同数" not in mail.joined  # round 1's is stale
        assert f"{deadline}までに投票してください" in mail.joined
