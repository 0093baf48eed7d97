"""Computer members (issue 24) on the platform: a practice village's CPU seats, their turns
through the same services as a person's, and a whole classic village of one person and four
CPUs that never stalls."""

from datetime import timedelta

import pytest

from chalicelib import effects
from chalicelib.personas import YAMAZATO, persona
from chalicelib.rules.classic import Cause
from chalicelib.rulesets.base import VISITOR, State, is_computer
from chalicelib.rulesets.mobius.ruleset import Mobius
from chalicelib.rulesets.turns import ComputerTurn
from chalicelib.services import actions, outbox, posts, scheduler, villages
from chalicelib.services import computers as computers_module
from chalicelib.services.errors import InvalidInput
from chalicelib.storage.models import PresenceItem
from chalicelib.storage.repository import load_account, load_village
from tests.support.accounts import make_account
from tests.support.classic_villages import game


def practice(clock, rng, cpus: int = 4, rules: str = "classic") -> str:
    return villages.create_village(
        villages.AskedVillage(
            pace="short", name="練習村", rules=rules, cpu_members=cpus, practice=True
        ),
        now=clock(),
        rng=rng,
    )


def join_person(vid: str, clock, name: str = "person") -> tuple[str, str]:
    """A person takes the free seat with a persona no computer holds: (account, seat)."""
    person = make_account(name, clock())
    seats = load_village(vid).seats()
    free = next(s for s, m in seats.items() if m.account_id is None)
    held = {m.persona for m in seats.values()}
    persona = next(p.key for p in YAMAZATO if p.key not in held)
    villages.join(vid, person, free, persona, clock())
    return person, free


def computers(vid: str) -> dict[str, str]:
    return {s: m.name for s, m in load_village(vid).seats().items() if m.computer}


def test_practice_village_seats_its_computers_at_once(clock, rng):
    vid = practice(clock, rng)
    record = load_village(vid)
    held = computers(vid)
    assert len(held) == 4
    assert all(name.endswith("（CPU）") for name in held.values())  # marked wherever named
    assert record._meta.occupied == 4
    assert list(game(vid).prologue.members) == list(held)  # in the join order, as a person
    personas = [m.persona for m in record.seats().values() if m.computer]
    assert len(set(personas)) == 4
    # No account: no presence, no hold.
    assert not list(PresenceItem.query(f"VILLAGE#{vid}", PresenceItem.sk.startswith("ACCOUNT#")))
    assert all(is_computer(m.account_id) for m in record.seats().values() if m.computer)


def test_real_villages_get_no_computers_by_default(clock, rng):
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="村", rules="classic"), now=clock(), rng=rng
    )
    assert computers(vid) == {}


@pytest.mark.parametrize("count", [16, -1, "たくさん"])
def test_cpu_members_out_of_range_is_refused_before_anything_is_written(clock, rng, count):
    with pytest.raises(InvalidInput, match="CPUの人数"):
        practice(clock, rng, count)
    assert villages.lounge("opening").villages == []


def test_computers_start_vote_only_once_a_person_is_there(clock, rng):
    vid = practice(clock, rng)
    effects.advance_village(vid, clock())
    assert game(vid).prologue.start_votes == set()  # 4 CPUs alone never start a village
    person, _ = join_person(vid, clock)
    assert vid in scheduler.due_village_ids(clock()).found  # the join calls the scheduler at once
    effects.advance_village(vid, clock())
    assert game(vid).prologue.start_votes == set(computers(vid))
    assert actions.prologue(vid, person, "start", None, clock()) == "started"
    # The person's hold is kept; the computers have no account to hold one.
    account = load_account(person)
    assert account is not None and account.holds["short"] == vid


def test_a_person_and_four_computers_play_a_classic_village_to_its_ending(clock, rng):
    """The CPUs' choices are always legal and never stall a day: none of them ever dies
    suddenly, every round and night closes, the village reaches its ending; only the person
    is mailed; the CPUs talk on the boards."""
    vid = practice(clock, rng)
    person, free = join_person(vid, clock)
    effects.advance_village(vid, clock())
    actions.prologue(vid, person, "start", None, clock())
    for _ in range(80):
        record = load_village(vid)
        if record.state.value != "running":
            break
        clock.now += timedelta(seconds=10)  # the next look: the computers take their turns
        effects.advance_village(vid, clock())
        record = load_village(vid)
        vote = next((q for q in record.rules.quick_choices(record, free) if q.key == "vote"), None)
        if vote is not None and vote.was is None:  # the person votes, maybe closing the round
            actions.save_actions(vid, person, {"vote": vote.targets[0]}, clock())
            continue
        if record.look_at is not None:  # nothing left to do before the scheduler's next look
            # (a computer's paced moment, or the next event): a round it closes early opens
            # a re-vote the person then sees, as the re-vote's mail would tell it.
            clock.now = max(clock.now, record.look_at)
            effects.advance_village(vid, clock())
    record = load_village(vid)
    assert record.state.value in ("ending", "ended")
    engine = game(vid).village
    assert engine is not None and engine.ending is not None
    sudden = [c for c, d in engine.deaths.items() if d.cause is Cause.SUDDEN]
    assert sudden == []
    mailed = {item.account_id for item in outbox.village_mail(vid)}
    assert mailed == {person}
    page = record.rules.page(record, VISITOR, clock(), 1)
    ids = {row.seat: row.account for row in page["cast_table"]}
    assert {ids[s] for s in computers(vid)} == {"CPU"} and ids[free] == person
    assert all(m.name.endswith("（CPU）") for m in page["members"] if m.seat in computers(vid))
    said = posts.read(record, posts.viewer_of(record, person), "public", 2, clock()).posts
    assert any(p.slot in computers(vid) for p in said)


def test_a_late_look_gives_the_computers_their_turn_before_the_update_it_preceded(clock, rng):
    """A person's vote closes a round early and opens another (a re-vote, or the next day's
    after a night closed at once); the scheduler's next look comes only at that round's
    deadline (a slow tick, the local clock moved on): the CPUs vote as of the look's moment
    first, and none of them dies suddenly."""
    for attempt in range(12):
        vid = practice(clock, rng)
        person, free = join_person(vid, clock, f"late{attempt:02d}")
        effects.advance_village(vid, clock())
        actions.prologue(vid, person, "start", None, clock())
        clock.now += timedelta(seconds=10)
        effects.advance_village(vid, clock())  # night 1's choices
        clock.now = load_village(vid).next_update
        effects.advance_village(vid, clock())  # the dawn, and the CPUs' votes
        record = load_village(vid)
        vote = next((q for q in record.rules.quick_choices(record, free) if q.key == "vote"), None)
        assert vote is not None
        actions.save_actions(vid, person, {"vote": vote.targets[0]}, clock())
        record = load_village(vid)
        engine = game(vid).village
        if record.state.value != "running" or not engine.voting:
            continue  # the game ended, or a night waits: no round for the CPUs yet
        clock.now = record.next_update  # no look before the deadline
        effects.advance_village(vid, clock())
        engine = game(vid).village
        sudden = {game(vid).seats[c] for c, d in engine.deaths.items() if d.cause is Cause.SUDDEN}
        assert not sudden & set(computers(vid))
        return
    pytest.fail("no village reached a round opened by the person's vote")


def _day_two(clock, rng, name: str):
    """A practice village of four CPUs and a person on day 2's morning, before any vote."""
    vid = practice(clock, rng)
    person, free = join_person(vid, clock, name)
    effects.advance_village(vid, clock())
    actions.prologue(vid, person, "start", None, clock())
    clock.now += timedelta(seconds=10)
    effects.advance_village(vid, clock())  # night 1's choices
    clock.now = load_village(vid).next_update
    effects.advance_village(vid, clock())  # day 2's morning: the CPUs' first posts
    return vid, person, free


def test_computers_read_a_persons_seer_claim_and_answer_a_question_naming_them(clock, rng):
    """Decision 126: a person's claim on the public board moves the CPU villagers' votes (to
    whom it calls a wolf), and a CPU asked by name answers on the board at its next look."""
    vid, person, free = _day_two(clock, rng, "reader")
    g = game(vid)
    engine = g.village
    villagers = [
        g.seats[c] for c in engine.living() if c != "npc" and engine.roles[c].value == "villager"
    ]
    villagers = [s for s in villagers if s != free]
    role = {g.seats[c]: engine.roles[c].value for c in engine.living() if c != "npc"}
    # Not the real seer: a seer computer called black answers with its own claim, and a
    # disputed claim rightly splits the villagers' votes.
    suspects = [s for s in computers(vid) if s not in villagers and role[s] != "seer"]
    wolves = [s for s in suspects if role[s] == "werewolf"]
    record = load_village(vid)
    names = {s: m.name.replace("（CPU）", "") for s, m in record.seats().items()}
    target = (wolves or suspects or [s for s in computers(vid) if role[s] != "seer"])[0]
    asked = next(s for s in computers(vid) if s != target)
    posts.post(vid, person, "public", f"占いCO！{names[target]}さんは黒でした", clock())
    clock.now += timedelta(seconds=6)
    posts.post(vid, person, "public", f"{names[asked]}さん、役職は何ですか？", clock())
    asked_at = clock.now
    answers: list = []
    for _ in range(8):  # the CPUs' next paced looks, through the day's talk
        record = load_village(vid)
        if record.state.value != "running" or record.look_at is None:
            break
        clock.now = record.look_at
        effects.advance_village(vid, clock())
        record = load_village(vid)
        viewer = posts.viewer_of(record, person)
        said = posts.read(record, viewer, "public", 2, clock()).posts
        answers = [p for p in said if p.slot == asked and p.created_at > asked_at]
        answers = [p for p in answers if p.text.startswith(f"{record.seats()[free].name}さん、")]
        if answers:
            break
    assert answers  # one answer, addressed to the person
    for _ in range(12):  # the looks until a third of the day's talk: every CPU votes then
        record = load_village(vid)
        votes = record.recorded(2)
        if all("vote@0" in votes.get(s, {}) for s in villagers if s in computers(vid)):
            break
        assert record.look_at is not None
        clock.now = max(clock.now, record.look_at)
        effects.advance_village(vid, clock())
    votes = load_village(vid).recorded(2)  # day 2's first round
    # A wolf called black counter-claims at a sixth of the talk, calling the person a wolf
    # (the CPUs now listen before their vote, so the villagers hear it): the claims are
    # disputed, and each villager votes one of the two called.
    record = load_village(vid)
    said = posts.read(record, posts.viewer_of(record, person), "public", 2, clock()).posts
    disputed = any(p.slot == target and "対抗します" in p.text for p in said)
    called = {target, free} if disputed else {target}
    for seat in villagers:
        if seat != target and seat in computers(vid):
            assert votes[seat]["vote@0"] in called


def test_posts_of_steps_taken_at_one_moment_read_in_the_order_they_were_taken(clock, rng):
    """Issue 37: a person who never votes, looked at every 3 minutes: a round closes at its
    deadline (a sudden death), the computers vote again at that same moment and close the
    re-vote early, and the game may end there too. Each day's board reads as it happened:
    the morning first, the rounds in their order, the ending before the computers' farewells
    (a post made at a step's moment answers it)."""
    vid = practice(clock, rng)
    person, _free = join_person(vid, clock)
    effects.advance_village(vid, clock())
    actions.prologue(vid, person, "start", None, clock())
    for _ in range(200):
        if load_village(vid).state.value != "running":
            break
        clock.now += timedelta(minutes=3)
        effects.advance_village(vid, clock())
    record = load_village(vid)
    engine = game(vid).village
    assert engine is not None and engine.ending is not None
    reader = posts.viewer_of(record, person)
    boards = {d: posts.read(record, reader, "public", d, clock()).posts for d in range(1, 9)}
    said = [p for d in sorted(boards) for p in boards[d]]
    rounds = [p.text.split("回投票")[0] for p in said if p.slot is None and "回投票" in p.text]
    assert rounds == [f"{r.day}日目・第{r.round}" for r in engine.rounds]
    for day, shown in boards.items():
        if day >= 2 and shown:
            assert "日目の朝になりました" in shown[0].text, [p.text for p in shown]
    ending = next(i for i, p in enumerate(said) if p.text.startswith("ゲームが終わりました"))
    moment = said[ending].created_at.replace(microsecond=0)  # the ending step's moment
    assert not [p.text for p in said[:ending] if p.slot and p.created_at >= moment]


def test_decision181_a_mobius_cpu_answers_its_given_name_and_an_anchor_to_its_post(clock, rng):
    """Issue 37: a question calling a CPU by its character's given name (「権六さん」), or
    anchoring its post (>>N, as the page numbers it), is answered at its next look."""
    vid = practice(clock, rng, cpus=12, rules="mobius")
    person, free = join_person(vid, clock, "asker")
    clock.now = load_village(vid).next_update
    effects.advance_village(vid, clock())  # day 1: the update and the CPUs' morning posts
    record = load_village(vid)
    assert record.state.value == "running"
    said = posts.read(record, posts.viewer_of(record, person), "public", 1, clock()).posts
    numbered = {p.slot: n for n, p in enumerate(said, start=1) if p.slot in computers(vid)}
    by_name, by_anchor = list(numbered)[:2]
    given = persona(record._meta.character_set, record.seats()[by_name].persona or "")
    mine = persona(record._meta.character_set, record.seats()[free].persona or "")
    assert given is not None and mine is not None
    clock.now += timedelta(minutes=3)
    posts.post(vid, person, "public", f"{given.name}さん、どう思いますか？", clock())
    clock.now += timedelta(seconds=6)
    posts.post(vid, person, "public", f">>{numbered[by_anchor]} それはなぜですか？", clock())
    asked_at = clock.now
    answered: set[str] = set()
    for _ in range(12):  # the CPUs' next looks through the day
        record = load_village(vid)
        if record.look_at is None or record.look_at >= record.next_update:
            break
        clock.now = max(clock.now, record.look_at)
        effects.advance_village(vid, clock())
        record = load_village(vid)
        said = posts.read(record, posts.viewer_of(record, person), "public", 1, clock()).posts
        answered = {
            p.slot
            for p in said
            if p.created_at >= asked_at and p.text.startswith(f"{mine.name}さん、")
        }
        if {by_name, by_anchor} <= answered:
            break
    assert {by_name, by_anchor} <= answered


def test_decision182_a_turn_whose_save_ends_the_game_says_nothing_after_it(clock, rng, monkeypatch):
    """The third oni-side resignation ends the game with its save (RULES §7): what the turn
    meant to say was for a running day, and the platform does not write it into the ending."""
    vid = practice(clock, rng, cpus=12, rules="mobius")
    join_person(vid, clock, "watcher")
    clock.now = load_village(vid).next_update
    effects.advance_village(vid, clock())  # day 1
    record = load_village(vid)
    oni_side = [s for s in computers(vid) if record.game.sides[s] != "human"][:3]
    assert len(oni_side) == 3
    clock.now += timedelta(minutes=1)
    for slot in oni_side[:2]:
        actions.save_actions(vid, record.seats()[slot].account_id, {"resign": slot}, clock())
    last = oni_side[2]
    original = Mobius.computer_turn

    def speaking(self, village, slot, now, rng, heard=()):  # a turn that still means to talk
        if village.state is State.RUNNING and slot == last:
            return ComputerTurn({"resign": slot}, (("public", "今日は様子を見ます。"),))
        return original(self, village, slot, now, rng, heard)

    monkeypatch.setattr(Mobius, "computer_turn", speaking)
    clock.now += timedelta(minutes=1)
    computers_module.play(vid, clock())
    record = load_village(vid)
    assert record.state.value == "ending"
    said = posts.read(record, VISITOR, "public", 1, clock()).posts
    assert not [p for p in said if p.slot == last and p.text == "今日は様子を見ます。"]
