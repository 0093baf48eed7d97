"""Mail of a classic village (issue 13): the start (role, partners, cast list, conduct rule,
first deadline), each morning, each new vote round with one-tap signed vote links (GET shows a
confirmation page, only the POST votes), the reminders, the ending; each member gets exactly
their own news."""

from datetime import timedelta

import pytest
from chalice.test import Client

from app import app
from chalicelib import links
from chalicelib.rules.classic import NPC, Role
from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.integration.classic_helpers import (
    account_of,
    create,
    join_all,
    living_seats,
    seat_of_role,
    start,
)
from tests.integration.conftest import make_account
from tests.mail.helpers import MailBox, Phone, body_of, links_in, path_of, tick

ROLE_WORDS = {"seer": "占い師", "werewolf": "人狼", "villager": "村人"}


@pytest.fixture
def client(tmp_path):
    return Client(app, project_dir=str(tmp_path))


@pytest.fixture
def classic(clock, rng):
    """A short classic village of five just started; (village, mails of the start)."""
    accounts = [make_account(f"m{n:02d}", clock()) for n in range(5)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    box = MailBox()
    start(vid, accounts, clock)
    tick(clock, rng)
    return vid, box


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
    clock.now = load_village(vid).meta.next_update
    tick(clock, rng)
    mails = {m.to.split("@")[0]: m for m in box.new()}
    seer = account_of(vid, seat_of_role(vid, Role.SEER))
    assert all("2日目の朝になりました" in m.subject for m in mails.values())
    assert all("身代わり君" in m.text for m in mails.values())
    assert "占い：" in mails[seer].text
    assert all("占い：" not in m.joined for a, m in mails.items() if a != seer)


def test_reminder_warns_non_voters_of_sudden_death_10_minutes_before_sunset(classic, clock, rng):
    vid, box = classic
    clock.now = load_village(vid).meta.next_update
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
    clock.now = load_village(vid).meta.next_update
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
    clock.now = load_village(vid).meta.next_update
    tick(clock, rng)
    box.new()
    clock.now = load_village(vid).meta.next_update
    tick(clock, rng)  # nobody voted: everyone dies suddenly, a draw
    endings = [m for m in box.new() if "ゲームが終わりました" in m.subject]
    assert len(endings) == 5
    assert all("引き分けです" in m.text and "負けました" in m.text for m in endings)
