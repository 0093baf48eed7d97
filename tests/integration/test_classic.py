"""A classic village on the platform (issue 13): GM options, the prologue, the start exactly once,
vote rounds and nights as scheduled events, early close, sudden death with its ID lock, wills,
howls, overtime, the epilogue. Through the services against moto."""

from datetime import timedelta

import pytest

from chalicelib import effects, rulesets
from chalicelib.rules.classic import Role
from chalicelib.rulesets.base import VISITOR, State, Viewer
from chalicelib.services import actions, posts, update, villages
from chalicelib.services.errors import Forbidden, InvalidInput
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import (
    account_of,
    create,
    game,
    join_all,
    living_seats,
    seat_of_role,
    start,
    to_due,
)

MIN = timedelta(minutes=1)


@pytest.fixture
def five(clock):
    return [make_account(f"cl{n:02d}", clock()) for n in range(6)]


def test_classic_is_registered_with_its_lounge_label():
    assert rulesets.labels()["classic"] == "人狼BBS式"
    assert rulesets.labels()["mobius"] == "メビウス"


def test_gm_options_and_template_are_kept_and_the_template_is_the_first_post(clock, rng):
    vid = create(clock, rng, tie="runoff", opening=True, template="この村のルールです。")
    g = game(vid)
    assert g.options.tie.value == "runoff" and g.options.opening
    record = load_village(vid)
    first = posts.read(record, VISITOR, "public", 0, clock()).posts[0]
    assert first.text == "この村のルールです。"


@pytest.mark.parametrize(
    "given",
    [{"tie": "coin"}, {"min_members": 2}, {"sunset": "21:00"}, {"template": "あ" * 5001}],
)
def test_bad_gm_options_are_refused_and_create_nothing(clock, rng, given):
    before = villages.lounge("opening").villages
    with pytest.raises(InvalidInput):
        create(clock, rng, **given)
    assert villages.lounge("opening").villages == before


def test_mobius_refuses_classic_options(clock, rng):
    with pytest.raises(InvalidInput):
        villages.create_village(
            villages.AskedVillage(pace="short", name="村", given={"tie": "bbs"}),
            now=clock(),
            rng=rng,
        )


def test_s2_1_joining_keeps_join_order_and_no_role_is_chosen(clock, rng, five):
    vid = create(clock, rng)
    seated = join_all(vid, five[:4], clock)
    assert game(vid).prologue.members == [seated[a] for a in five[:4]]


def test_s2_1_the_last_start_vote_starts_the_game_exactly_once(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five[:5], clock)
    done = start(vid, five[:5], clock)
    assert done == ["start"] * 4 + ["started"]
    record = load_village(vid)
    assert record.state is State.RUNNING and record.day == 1
    assert len(game(vid).seats) == 5
    # the night 1 close is the next scheduled event: 15 minutes later
    assert record.next_update == clock() + 15 * MIN


def test_s2_1_start_waits_for_min_members(clock, rng, five):
    vid = create(clock, rng, min_members=6)
    join_all(vid, five[:5], clock)
    assert start(vid, five[:5], clock)[-1] == "start"
    assert load_village(vid).state is State.OPENING


def test_s2_1_a_departure_clears_every_start_vote_and_says_so(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five[:5], clock)
    start(vid, five[:3], clock)
    villages.leave(vid, five[4], clock())
    assert game(vid).prologue.start_votes == set()
    record = load_village(vid)
    texts = [p.text for p in posts.read(record, VISITOR, "public", 0, clock()).posts]
    assert any("開始投票はすべて取り消されました" in t for t in texts)


def test_s2_1_three_kicks_remove_a_member_at_once(clock, rng, five):
    vid = create(clock, rng)
    seated = join_all(vid, five[:5], clock)
    target = seated[five[4]]
    for voter in five[:3]:
        actions.prologue(vid, voter, "kick", target, clock())
    record = load_village(vid)
    assert record.slot_of(five[4]) is None
    assert target not in game(vid).prologue.members
    with pytest.raises(Forbidden):
        villages.join(vid, five[4], "s16", "natsu", clock())


def test_s2_1_kick_votes_can_be_withdrawn(clock, rng, five):
    vid = create(clock, rng)
    seated = join_all(vid, five[:5], clock)
    target = seated[five[4]]
    actions.prologue(vid, five[0], "kick", target, clock())
    actions.prologue(vid, five[0], "unkick", target, clock())
    assert target not in game(vid).prologue.kicks


def test_s8_no_joining_or_leaving_after_the_start(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five[:5], clock)
    start(vid, five[:5], clock)
    with pytest.raises(Forbidden):
        villages.join(vid, five[5], "s16", "natsu", clock())
    with pytest.raises(Forbidden):
        villages.leave(vid, five[0], clock())


def test_s2_1_abandoned_72_hours_after_creation(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five[:2], clock)
    created = clock()
    happened = to_due(vid, clock)
    assert [h.kind for h in happened] == ["abandoned"]
    assert clock() == created + timedelta(hours=72)
    assert load_village(vid).state is State.ABANDONED
    assert load_account(five[0]).holds == {} if load_account(five[0]).holds else True


def started_village(clock, rng, five, **given):
    vid = create(clock, rng, **given)
    join_all(vid, five[:5], clock)
    start(vid, five[:5], clock)
    return vid


def test_night_1_close_opens_day_2_with_its_first_round(clock, rng, five):
    vid = started_village(clock, rng, five)
    happened = to_due(vid, clock)
    assert [h.kind for h in happened] == ["night"]
    g = game(vid)
    assert g.village is not None and g.village.day == 2 and g.village.voting
    assert "npc" in g.village.deaths  # the scapegoat dies on night 1
    record = load_village(vid)
    assert record.next_update == clock() + 45 * MIN  # sunset 40 min + overtime 5 min


def vote_all(vid, clock, choose):
    """Every living voter votes ``choose(seat, living)``; returns the last save's result."""
    living = living_seats(vid)
    result = None
    for seat in living:
        target = choose(seat, living)
        if target is not None:
            result = actions.save_actions(vid, account_of(vid, seat), {"vote": target}, clock())
    return result


def test_s7_early_close_the_vote_that_completes_the_round_closes_it(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    clock.now += 5 * MIN
    wolf = seat_of_role(vid, Role.WEREWOLF)
    target = next(s for s in living_seats(vid) if s != wolf)
    vote_all(vid, clock, lambda seat, _: target if seat != target else wolf)
    g = game(vid)
    assert g.village is not None
    assert g.village.rounds[-1].executed is not None
    record = load_village(vid)
    texts = [p.text for p in posts.read(record, VISITOR, "public", 2, clock()).posts]
    assert any("→" in t and "処刑されました" in t for t in texts)  # the full vote list


def choices_set_during_day_2(vid, clock):
    """Day 2: the wolf and the seer set night 2's choices in advance; returns the wolf, the
    seer, the villager everyone will execute, the wolf's prey and the last villager."""
    to_due(vid, clock)
    wolf, seer = seat_of_role(vid, Role.WEREWOLF), seat_of_role(vid, Role.SEER)
    executed, prey, other = (s for s in living_seats(vid) if s not in (wolf, seer))
    actions.save_actions(vid, account_of(vid, wolf), {"attack": prey}, clock())
    actions.save_actions(vid, account_of(vid, seer), {"divine": wolf}, clock())
    clock.now += 5 * MIN
    return wolf, seer, executed, prey, other


def public_texts(vid, clock, day):
    record = load_village(vid)
    return [p.text for p in posts.read(record, VISITOR, "public", day, clock()).posts]


def test_s2_4_the_last_vote_closes_a_night_whose_choices_were_all_set_during_the_day(
    clock, rng, five
):
    vid = started_village(clock, rng, five)
    wolf, seer, executed, prey, other = choices_set_during_day_2(vid, clock)
    vote_all(vid, clock, lambda seat, _: executed if seat != executed else wolf)
    record = load_village(vid)
    assert record.day == 3 and game(vid).village.voting
    assert record.next_update == clock() + 45 * MIN  # day 3's first round, not night 2's close
    assert set(living_seats(vid)) == {wolf, seer, other}
    assert sum("処刑されました" in t for t in public_texts(vid, clock, 2)) == 1
    morning = [t for t in public_texts(vid, clock, 3) if "3日目の朝" in t]
    assert len(morning) == 1 and record.seats()[prey].name in morning[0]
    for seat in (executed, prey):  # both deaths end the hold on the pace
        assert load_account(account_of(vid, seat)).holds == {}
    assert load_account(account_of(vid, other)).holds == {"short": vid}


def test_s2_4_a_round_closed_by_the_tick_closes_such_a_night_in_the_same_step(clock, rng, five):
    from chalicelib.storage import villages as store

    vid = started_village(clock, rng, five)
    wolf, _, executed, _, _ = choices_set_during_day_2(vid, clock)
    # Every vote saved, but no early close (as when the saving request lost its race): the
    # round's deadline closes it, and the night with it.
    for seat in living_seats(vid):
        record = load_village(vid)
        vote = {"vote@0": executed if seat != executed else wolf}
        store.save_choices(record, 2, seat, {**record.saved(2).get(seat, {}), **vote}, clock())
    happened = to_due(vid, clock)
    assert [h.kind for h in happened] == ["round", "night"]
    assert load_village(vid).day == 3 and game(vid).village.voting
    assert update.advance(vid, clock()) == []  # a duplicate tick: nothing more
    assert sum("3日目の朝" in t for t in public_texts(vid, clock, 3)) == 1


def test_s7_a_re_vote_opens_with_no_votes_even_when_everyone_voted_in_the_tied_round(
    clock, rng, five
):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    morning = clock()
    a, b, c, d, e = living_seats(vid)
    plan = {a: b, b: a, c: a, d: b, e: c}  # 2–2–1: a tie, a re-vote under the bbs rule
    vote_all(vid, clock, lambda seat, _: plan[seat])
    g = game(vid)
    assert g.village.voting and g.village.round == 2 and g.village.day == 2
    record = load_village(vid)
    assert all(actions.own_choices(record, account_of(vid, s)) == {} for s in plan)
    assert record.next_update == morning + 45 * MIN  # waits for its votes (sunset + 5 min)


def test_s2_3_short_vote_is_final(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    seats = living_seats(vid)
    voter, a, b = seats[0], seats[1], seats[2]
    actions.save_actions(vid, account_of(vid, voter), {"vote": a}, clock())
    with pytest.raises(InvalidInput):
        actions.save_actions(vid, account_of(vid, voter), {"vote": b}, clock())


def test_s2_3_long_vote_can_be_changed(clock, rng, five):
    vid = started_village(clock, rng, five, pace="long")
    to_due(vid, clock)
    seats = living_seats(vid)
    voter, a, b = seats[0], seats[1], seats[2]
    actions.save_actions(vid, account_of(vid, voter), {"vote": a}, clock())
    actions.save_actions(vid, account_of(vid, voter), {"vote": b}, clock())
    record = load_village(vid)
    own = actions.own_choices(record, account_of(vid, voter))
    assert own["vote"] == b


def test_s2_3_4_1_sudden_death_announced_by_name_with_an_id_lock(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    seats = living_seats(vid)
    silent = seats[0]
    silent_account = account_of(vid, silent)
    for seat in seats[1:]:
        target = seats[0] if seat != seats[0] else seats[1]
        actions.save_actions(vid, account_of(vid, seat), {"vote": target}, clock())
    happened = to_due(vid, clock)
    assert happened[0].kind == "round"
    g = game(vid)
    assert g.village is not None
    assert g.village.rounds[-1].sudden
    account = load_account(silent_account)
    assert account.lock_until is not None and account.lock_until > clock()
    record = load_village(vid)
    name = record.seats()[silent].name
    texts = [p.text for p in posts.read(record, VISITOR, "public", 2, clock()).posts]
    assert any("突然死" in t and name in t for t in texts)


def test_s6_howl_shows_on_the_public_board_without_name_or_text(clock, rng, five):
    vid = started_village(clock, rng, five)
    wolf = seat_of_role(vid, Role.WEREWOLF)
    posts.post(vid, account_of(vid, wolf), "wolves", "今夜は誰を襲う？", clock())
    record = load_village(vid)
    public = posts.read(record, VISITOR, "public", 1, clock()).posts
    howls = [p for p in public if p.text == "遠吠えが聞こえた"]
    assert len(howls) == 1 and howls[0].slot is None and howls[0].author is None
    assert all("今夜は誰を襲う" not in p.text for p in public)


def test_s6_overtime_allows_only_the_monologue(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    clock.now += 41 * MIN  # after sunset, before the round's close
    seat = living_seats(vid)[0]
    with pytest.raises(Forbidden):
        posts.post(vid, account_of(vid, seat), "public", "まだ話したい", clock())
    posts.post(vid, account_of(vid, seat), "monologue", "ひとりごと", clock())


def test_s6_wills_are_published_at_the_morning_after_an_execution(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    wolf = seat_of_role(vid, Role.WEREWOLF)
    victim = next(s for s in living_seats(vid) if s != wolf)
    actions.save_will(vid, account_of(vid, victim), "犯人は別にいる。", clock())
    vote_all(vid, clock, lambda seat, _: victim if seat != victim else wolf)
    g = game(vid)
    if g.village is not None and g.village.ending is None:
        to_due(vid, clock)
        record = load_village(vid)
        texts = [p.text for p in posts.read(record, VISITOR, "public", 3, clock()).posts]
        assert any("犯人は別にいる。" in t for t in texts)


def test_s6_a_will_is_at_most_1000_characters(clock, rng, five):
    vid = create(clock, rng)
    join_all(vid, five[:1], clock)
    with pytest.raises(InvalidInput):
        actions.save_will(vid, five[0], "あ" * 1001, clock())


def test_s2_5_the_epilogue_opens_every_board_and_closes_after_60_minutes(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    to_due(vid, clock)  # nobody votes: everyone dies suddenly, a draw
    record = load_village(vid)
    assert record.state is State.ENDING
    # Every board that exists: five players have no masons, so no 共鳴 (issue 23).
    assert set(record.rules.readable_boards(record, VISITOR, clock())) == {
        "public",
        "wolves",
        "monologue",
        "heaven",
    }
    to_due(vid, clock)
    assert load_village(vid).state is State.ENDED


def test_s2_4_wolves_see_each_others_attack_and_which_counts(clock, rng):
    accounts = [make_account(f"w{n:02d}", clock()) for n in range(9)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    start(vid, accounts, clock)
    wolves = [
        s
        for s in living_seats(vid)
        if game(vid).village.roles[next(c for c, x in game(vid).seats.items() if x == s)]
        is Role.WEREWOLF
    ]
    assert len(wolves) == 2
    to_due(vid, clock)  # night 1 → day 2: choices for night 2 may be set now
    target = next(s for s in living_seats(vid) if s not in wolves)
    actions.save_actions(vid, account_of(vid, wolves[0]), {"attack": target}, clock())
    record = load_village(vid)
    viewer = Viewer(account_of(vid, wolves[1]), wolves[1])
    shown = record.rules.visible_choices(record, viewer, record.day)
    assert shown[wolves[0]] == {"attack": target}
    page = record.rules.page(record, viewer, clock(), record.day)
    assert page["wolves"]["counts"]["target"] == record.seats()[target].name


def test_s3_the_attack_saved_most_recently_counts_whoever_voted_last(clock, rng):
    accounts = [make_account(f"v{n:02d}", clock()) for n in range(9)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    start(vid, accounts, clock)
    to_due(vid, clock)  # day 2: night 2's choices may be set now
    older, latest = [s for s in living_seats(vid) if s in wolf_seats(vid)]
    first_prey, second_prey = [s for s in living_seats(vid) if s not in (older, latest)][:2]
    actions.save_actions(vid, account_of(vid, older), {"attack": first_prey}, clock())
    clock.now += MIN
    actions.save_actions(vid, account_of(vid, latest), {"attack": second_prey}, clock())
    clock.now += MIN
    actions.save_actions(vid, account_of(vid, older), {"vote": first_prey}, clock())
    record = load_village(vid)
    viewer = Viewer(account_of(vid, older), older)
    page = record.rules.page(record, viewer, clock(), record.day)
    assert page["wolves"]["counts"]["target"] == record.seats()[second_prey].name
    assert record.rules.visible_choices(record, viewer, 2)[older] == {
        "attack": first_prey,
        "vote": first_prey,
    }
    clock.now += MIN  # naming the attack again makes it the latest
    actions.save_actions(vid, account_of(vid, older), {"attack": first_prey}, clock())
    record = load_village(vid)
    page = record.rules.page(record, viewer, clock(), record.day)
    assert page["wolves"]["counts"]["target"] == record.seats()[first_prey].name
    # The same from the page's form, which sends the attack as it showed it (decision 72): a
    # save that names the attack makes it the latest, changed on the page or not.
    clock.now += MIN
    shown = {"attack": second_prey}
    actions.save_actions(vid, account_of(vid, latest), shown, clock(), shown=shown)
    record = load_village(vid)
    page = record.rules.page(record, viewer, clock(), record.day)
    assert page["wolves"]["counts"]["target"] == record.seats()[second_prey].name


def wolf_seats(vid):
    g = game(vid)
    return [g.seats[c] for c, r in g.village.roles.items() if r is Role.WEREWOLF]


def test_update_is_idempotent_for_a_round_close(clock, rng, five):
    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    clock.now = load_village(vid)._meta.next_update
    first = update.advance(vid, clock())
    again = update.advance(vid, clock())
    assert first and not again


def test_s4_1_a_gj_reaches_the_hunter_alone_on_the_page(clock, rng):
    accounts = [make_account(f"h{n:02d}", clock()) for n in range(10)]
    vid = create(clock, rng)
    join_all(vid, accounts, clock)
    start(vid, accounts, clock)
    to_due(vid, clock)  # night 1 → day 2: night 2's choices may be set now
    hunter = seat_of_role(vid, Role.HUNTER)
    g = game(vid)
    wolves = [g.seats[c] for c, r in g.village.roles.items() if r is Role.WEREWOLF]
    prey = next(s for s in living_seats(vid) if s != hunter and s not in wolves)
    actions.save_actions(vid, account_of(vid, hunter), {"guard": prey}, clock())
    for wolf in wolves:
        actions.save_actions(vid, account_of(vid, wolf), {"attack": prey}, clock())
    seer = seat_of_role(vid, Role.SEER)  # lives, divination unset: the night waits for it
    victim = next(s for s in living_seats(vid) if s not in (hunter, prey, seer, *wolves))
    vote_all(vid, clock, lambda seat, _: victim if seat != victim else prey)
    assert game(vid).village.phase.value == "night"
    to_due(vid, clock)  # night 2 closes: the guard holds
    record = load_village(vid)
    assert prey not in record.dead()
    for seat in living_seats(vid):
        viewer = Viewer(account_of(vid, seat), seat)
        page = record.rules.page(record, viewer, clock(), record.day)
        lines = [line for n in page["private"]["news"] for line in n["lines"]]
        assert any("護衛成功" in line for line in lines) == (seat == hunter)


def test_s2_1_an_idle_prologue_member_is_removed_after_24_hours(clock, rng, five):

    vid = create(clock, rng)
    join_all(vid, five[:3], clock)
    start(vid, five[:2], clock)
    clock.now += timedelta(hours=23)
    for account in five[:2]:
        villages.touch(vid, account, clock())
    clock.now += timedelta(hours=1, minutes=1)
    effects.advance_village(vid, clock())
    record = load_village(vid)
    assert record.slot_of(five[2]) is None
    assert record.slot_of(five[0]) is not None
    assert game(vid).prologue.start_votes == set()


def test_s2_1_two_last_start_votes_at_the_same_instant_start_the_game_once(clock, rng, five):
    from tests.integration.test_concurrency import race

    vid = create(clock, rng)
    join_all(vid, five[:5], clock)
    start(vid, five[:3], clock)
    results = race(
        lambda: actions.prologue(vid, five[3], "start", None, clock()),
        lambda: actions.prologue(vid, five[4], "start", None, clock()),
    )
    assert sorted(results) == ["start", "started"]
    record = load_village(vid)
    assert record.state is State.RUNNING and record.day == 1
    texts = [p.text for p in posts.read(record, VISITOR, "public", 1, clock()).posts]
    assert sum("ゲームが始まりました" in t for t in texts) == 1


def test_s7_an_early_close_and_a_tick_at_once_close_the_round_once(clock, rng, five):
    from tests.integration.test_concurrency import race

    vid = started_village(clock, rng, five)
    to_due(vid, clock)
    living = living_seats(vid)
    wolf = seat_of_role(vid, Role.WEREWOLF)
    target = next(s for s in living if s != wolf)
    for seat in living[:-1]:
        actions.save_actions(
            vid, account_of(vid, seat), {"vote": target if seat != target else wolf}, clock()
        )
    last = living[-1]
    clock.now = load_village(vid)._meta.next_update - timedelta(seconds=1)
    deadline = load_village(vid)._meta.next_update
    race(
        lambda: actions.save_actions(
            vid, account_of(vid, last), {"vote": target if last != target else wolf}, clock()
        ),
        lambda: update.advance(vid, deadline),
    )
    g = game(vid)
    assert len([r for r in g.village.rounds if r.day == 2]) == 1
    record = load_village(vid)
    texts = [p.text for p in posts.read(record, VISITOR, "public", 2, clock()).posts]
    assert sum("第1回投票" in t for t in texts) == 1


@pytest.mark.parametrize("heaven_sees_all", [True, False])
def test_s6_heaven_option_the_dead_read_every_monologue_during_the_game(
    clock, rng, five, heaven_sees_all
):
    vid = started_village(clock, rng, five, heaven_sees_all=heaven_sees_all)
    to_due(vid, clock)
    wolf = seat_of_role(vid, Role.WEREWOLF)
    victim = next(s for s in living_seats(vid) if s != wolf)
    writer = next(s for s in living_seats(vid) if s not in (wolf, victim))
    posts.post(vid, account_of(vid, writer), "monologue", "ひとりごとの秘密", clock())
    vote_all(vid, clock, lambda seat, _: victim if seat != victim else wolf)
    to_due(vid, clock)
    record = load_village(vid)
    assert victim not in living_seats(vid)  # executed
    day = game(vid).village.day
    dead = posts.viewer_of(record, account_of(vid, victim))
    living = posts.viewer_of(record, account_of(vid, wolf))
    writer_account = account_of(vid, writer)

    def read(viewer):
        return [
            p.text
            for d in range(1, day + 1)
            for p in posts.read(
                record, viewer, "monologue", d, clock(), inner_of=writer_account
            ).posts
        ]

    with pytest.raises(Forbidden):
        read(living)  # the living never read another's monologue
    if heaven_sees_all:
        assert "ひとりごとの秘密" in read(dead)
    else:
        with pytest.raises(Forbidden):
            read(dead)
