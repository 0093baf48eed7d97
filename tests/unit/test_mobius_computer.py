"""The Mobius computer member (issue 24): legal, secret and plausible, from its seat's view.

Random states come from games played by computer members and random players mixed; every
computer turn is checked against the rule set's own validation and write refusals, and the
secrecy property is checked on twins: two villages that differ only in what the seat may not
see (RULES §8: others' choices and news, the sides, and the posts of boards it may not read)
give the same turn for the same seed. The hidden parts are written here from the rule book,
not read from the visibility module.
"""

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace as struct_replace

from chalicelib.rules.mobius import CHOICE_KEYS, PARTNERS, SLOTS, Choices, Result, Village
from chalicelib.rulesets.base import Pace, Seat, State, Viewer
from chalicelib.rulesets.mobius import computer, simulate
from chalicelib.rulesets.mobius.ruleset import MOBIUS
from chalicelib.rulesets.mobius.timeline import TIMINGS
from chalicelib.rulesets.turns import Heard, SeatClock

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
GAMES = settings(max_examples=12, deadline=None)
START = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
DAY = TIMINGS[Pace.SHORT].day
SHARED = ("attack", "attacker", "victory", "resign", "force")  # RULES §8 table, oni side


@dataclass
class View:
    """A running short village as the rule set reads it, without DynamoDB."""

    game: Village
    saved_today: dict[str, dict[str, str]] = field(default_factory=dict)
    seed: int = 7
    last_posts: dict[str, datetime] = field(default_factory=dict)
    people: set[str] = field(default_factory=set)  # seats held by persons, not computers
    state: State = State.RUNNING
    pace: Pace = Pace.SHORT
    village_id: str = "1"
    name: str = "村"
    created_at: datetime = START - timedelta(hours=6)
    day_started_at: datetime | None = START
    next_update: datetime | None = START + TIMINGS[Pace.SHORT].turn
    heard: list[Heard] = field(default_factory=list)  # today's posts, oldest first
    names: dict[str, str] = field(default_factory=dict)  # public names, else 名前0…

    def seats(self) -> dict[str, Seat]:
        return {
            slot: Seat(
                slot,
                slot if slot in self.people else f"cpu:{slot}",
                None,
                self.names.get(slot, f"名前{n}"),
                last_post_at=self.last_posts.get(slot),
            )
            for n, slot in enumerate(SLOTS)
        }

    def saved(self, day: int) -> dict[str, dict[str, str]]:
        return self.saved_today if day == self.game.day else {}

    def recorded(self, day: int) -> dict[str, dict[str, str]]:
        return self.saved(day)

    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]:
        return {self.game.day: self.saved_today}

    def saved_at(self, day: int) -> dict[str, str]:
        return {slot: START.isoformat() for slot in self.saved(day)}


def copy(game: Village) -> Village:
    return Village.from_json(json.loads(json.dumps(game.to_json())))


def random_choices(game: Village, slot: str, rng: random.Random) -> dict[str, str]:
    made = {}
    for key in CHOICE_KEYS:
        targets = game.legal_targets(slot, key)
        if targets and key not in ("victory", "resign") and rng.random() < 0.6:
            made[key] = rng.choice(targets)
    return made


# Posts members write, naming members by their public names (RULES §8 boards).
SAYINGS = (
    "{a}は鬼でした。",
    "占いの結果です。{a}は人でした。",
    "{a}さん、あなたは鬼ですか？",
    "{a}が怪しいと思います。",
    "今夜は{a}を襲撃しましょう、実行犯は{b}。",
    "{a}のダイイングメッセージは{b}を指していました。",
    "今日は{a}に祈ります。",
)
BOARDS = ("public", "oni", "grave", "inner")


def name(slot: str) -> str:
    return f"名前{SLOTS.index(slot)}"


def saying(rng: random.Random, game: Village, board: str | None = None) -> Heard:
    a, b = rng.sample(SLOTS, 2)
    text = rng.choice(SAYINGS).format(a=name(a), b=name(b))
    at = START + DAY * rng.random() * 0.5
    return Heard(board or rng.choice(BOARDS), rng.choice(SLOTS), text, at)


def states(seed: int) -> list[tuple[View, datetime]]:
    """Every day of one game of computer and random members mixed, each day saved member by
    member in a random order, with posts on every board (the computers' own and random
    members' sayings); with a moment of the day (day, loss time or night)."""
    rng = random.Random(seed)
    game = Village.create(rng)
    game.start(dead=rng.sample(SLOTS, rng.choice((0, 0, 1, 2))))
    computers = set(rng.sample(SLOTS, rng.randint(8, 13)))
    found = []
    for _ in range(14):
        if game.ending is not None:
            break
        view = View(copy(game), seed=rng.getrandbits(32), people=set(SLOTS) - computers)
        for slot in rng.sample(SLOTS, len(SLOTS)):
            if slot in computers:
                turn = MOBIUS.computer_turn(
                    view, slot, START, random.Random(rng.getrandbits(64)), view.heard
                )
                merged = {**view.saved_today.get(slot, {}), **turn.choices}
                made = {k: v for k, v in merged.items() if v is not None}
                view.heard += [Heard(b, slot, text, START) for b, text in turn.posts]
            else:
                made = random_choices(view.game, slot, rng)
            if rng.random() < 0.5:
                view.heard.append(saying(rng, view.game))
            if rng.random() < 0.2:
                view.last_posts[slot] = START + DAY * rng.random()
            view.saved_today[slot] = made
            if len(found) < 40 or rng.random() < 0.3:
                now = START + rng.choice((DAY * 0.05, DAY * rng.random(), DAY * 1.1, DAY * 1.3))
                saved = dict(view.saved_today)
                found.append((replace(view, saved_today=saved, heard=list(view.heard)), now))
        simulate.end_day(game, view.saved_today, rng)
    return found


def computer_turn(view: View, slot: str, now: datetime, rng: random.Random) -> Any:
    """The seat's turn, hearing the view's posts as the platform hands them."""
    return MOBIUS.computer_turn(view, slot, now, rng, tuple(view.heard))


# ----- always legal (RULES §3, §8) -----


@GAMES
@given(SEEDS)
def test_s3_s8_every_computer_turn_is_legal_in_random_states(seed):
    rng = random.Random(seed)
    for view, now in states(seed):
        for slot in SLOTS:
            turn = computer_turn(view, slot, now, random.Random(rng.getrandbits(64)))
            MOBIUS.check_choices(view, slot, turn.choices, now)  # raises when refused
            assert set(turn.choices) <= set(CHOICE_KEYS)
            assert len(turn.posts) <= 1
            for board, text in turn.posts:
                assert MOBIUS.write_refusal(view, Viewer(slot=slot), board, now) is None
                assert text and not any(s in text for s in SLOTS)  # names, never slot ids
            assert turn.again is None or turn.again > now


@GAMES
@given(SEEDS)
def test_s3_a_living_computer_always_prays_and_uses_its_job(seed):
    """Nothing left undecided that its seat can choose: the day never stalls on a CPU."""
    for view, now in states(seed):
        game = view.game
        for slot in game.living():
            turn = computer_turn(view, slot, now, random.Random(seed))
            chosen = {**view.saved_today.get(slot, {}), **turn.choices}
            for key in ("pray", "divine", "guard", "attack"):
                if game.legal_targets(slot, key):
                    assert chosen.get(key) is not None, (slot, key)


# ----- secrecy: twins (RULES §8) -----


def known_sides(game: Village, slot: str) -> set[str]:
    """The characters whose side or verdict a human-side member knows: itself, its empathy
    partner, its day-0 random target, and every target of its own results (RULES §5)."""
    known = {slot}
    if slot.startswith("empath"):
        known.add(PARTNERS[slot])
    if slot in game.random_targets:
        known.add(game.random_targets[slot])
    for morning in game.mornings:
        if slot in morning.results:
            known.add(morning.results[slot].target)
    return known


def twin(view: View, slot: str, rng: random.Random) -> tuple[View, list[str]]:
    """A village that differs from ``view`` only in what ``slot`` may not see; and what
    differs."""
    game = copy(view.game)
    oni_side = game.sides[slot] != "human"
    changed = []
    alive = game.living()
    # Others' choices: the oni side sees its partners' shared votes, nobody sees the rest.
    saved = {}
    for owner, made in view.saved_today.items():
        if owner == slot:
            saved[owner] = dict(made)
            continue
        keep = SHARED if oni_side and game.sides[owner] != "human" else ()
        other = {k: v for k, v in made.items() if k in keep}
        for key in ("pray", "divine", "guard", "assassinate", "dm"):
            if key not in keep and rng.random() < 0.5:
                other[key] = rng.choice(alive)
        saved[owner] = other
        changed += ["choices"] if other != made else []
    # Each morning's private parts belong to their readers; the draws are the oni side's.
    for n, morning in enumerate(game.mornings):
        other = rng.choice(SLOTS)
        results = {s: r for s, r in morning.results.items() if s == slot}
        dms = {s: d for s, d in morning.dms.items() if s == slot}
        killers = {s: k for s, k in morning.killers.items() if s == slot}
        if other != slot:
            results[other] = Result(rng.choice(SLOTS), "oni")
            killers[other] = rng.choice(SLOTS)
        attack = morning.attack
        if not oni_side and attack is not None:
            attack = type(attack)(rng.choice(SLOTS), rng.choice(SLOTS))
        assassination = morning.assassination if slot == "assassin" else rng.choice(SLOTS)
        game.mornings[n] = struct_replace(
            morning,
            results=results,
            dms=dms,
            killers=killers,
            attack=attack,
            assassination=assassination,
        )
        changed.append("morning")
    if not oni_side:
        for seer in game.random_targets:
            if seer != slot:
                game.random_targets[seer] = rng.choice([s for s in SLOTS if s != seer])
                changed.append("random target")
        unknown = [s for s in SLOTS if s not in known_sides(view.game, slot)]
        a, b = rng.sample(unknown, 2)
        if game.sides[a] != game.sides[b]:
            sides = {**game.sides, a: game.sides[b], b: game.sides[a]}
            game = struct_replace(game, sides=sides)  # a new game lists its oni side anew
            changed.append("sides")
    if slot != "assassin":
        game.assassination_used = rng.random() < 0.5
    # Posts of the boards it may not read: the oni world unless it is of the oni side, the
    # grave unless it is a dead human, and every inner board (its own notes are not talk).
    hidden = {"inner"}
    hidden |= set() if oni_side else {"oni"}
    hidden |= {"grave"} if oni_side or slot not in view.game.deaths else set()
    heard = []
    for post in view.heard:
        if post.board not in hidden:
            heard.append(post)
        elif rng.random() < 0.5:
            heard.append(saying(rng, game, post.board))  # another post there instead
    for _ in range(rng.randint(1, 4)):  # and more, anywhere among the others
        heard.insert(rng.randint(0, len(heard)), saying(rng, game, rng.choice(sorted(hidden))))
    changed.append("posts")
    twin = replace(view, game=game, saved_today=saved, seed=rng.getrandbits(32), heard=heard)
    return twin, changed


@GAMES
@given(SEEDS)
def test_s8_twins_differing_only_in_what_the_seat_may_not_see_get_the_same_turn(seed):
    rng = random.Random(seed ^ 0x7717)
    kinds: set[str] = set()
    for view, now in states(seed):
        for slot in SLOTS:
            other, changed = twin(view, slot, rng)
            kinds.update(changed)
            draw = rng.getrandbits(64)
            mine = computer_turn(view, slot, now, random.Random(draw))
            theirs = computer_turn(other, slot, now, random.Random(draw))
            assert mine == theirs, (slot, changed)
    assert {"choices", "posts"} <= kinds
    assert "morning" in kinds or all(not view.game.mornings for view, _ in states(seed))


# ----- what the seat's view holds (RULES §8) -----


def game_with(sides: dict[str, str], seed: int = 1) -> Village:
    game = Village.create(random.Random(seed), sides)
    game.start()
    return game


ONI = {"seer_b": "oni", "guard_a": "oni", "commoner_c": "oni", "empath_b": "madman"}


def test_s8_a_human_seat_view_holds_no_placement_and_no_other_choices():
    view = View(game_with(ONI), {"seer_b": {"attack": "medium_a"}, "guard_b": {"pray": "seer_a"}})
    seen = _seat(view, "seer_a")
    assert seen["side"] == "human" and seen["private"]["placement"] == {}
    assert seen["private"]["random_targets"] == {} and seen["private"]["attacks"] == {}
    assert seen["team"] == {} and seen["own"] == {}
    assert seen["legal"]["attack"] == [] and seen["legal"]["force"] == []


def test_s8_an_oni_side_seat_view_holds_the_placement_and_only_the_partners_shared_votes():
    saved = {
        "seer_b": {"attack": "medium_a", "pray": "seer_a"},
        "guard_b": {"pray": "seer_b"},
        "empath_b": {"force": "assassin", "pray": "guard_b"},
    }
    seen = _seat(View(game_with(ONI), saved), "guard_a")
    assert seen["private"]["placement"] == ONI
    assert seen["team"] == {"seer_b": {"attack": "medium_a"}, "empath_b": {"force": "assassin"}}


def _seat(view: View, slot: str) -> dict[str, Any]:
    from chalicelib.rulesets.mobius import visibility

    game = view.game
    return visibility.seat_view(
        game,
        MOBIUS.phase(view, START),
        slot,
        names=dict.fromkeys(SLOTS, "x"),
        computers=SLOTS,
        saved=view.saved_today,
        bans=view.seats()[slot].bans,
        clock=SeatClock(START, START, DAY, None),
    )


# ----- plausible play -----


def turn(view: View, slot: str, seed: int = 3, now: datetime = START) -> Any:
    return computer_turn(view, slot, now, random.Random(seed))


def test_s4_2_the_oni_side_votes_the_attack_and_attacker_a_partner_cast_first():
    view = View(game_with(ONI), {"seer_b": {"attack": "medium_a", "attacker": "guard_a"}})
    for slot in ("guard_a", "commoner_c", "empath_b"):
        for seed in range(20):
            choices = turn(view, slot, seed).choices
            assert (choices["attack"], choices["attacker"]) == ("medium_a", "guard_a")


def test_s4_2_computers_defer_to_a_person_partners_attack_vote():
    saved = {
        "seer_b": {"attack": "medium_a"},
        "guard_a": {"attack": "medium_a"},
        "commoner_c": {"attack": "assassin"},
    }
    view = View(game_with(ONI), saved, people={"commoner_c"})
    for slot in ("seer_b", "guard_a", "empath_b"):
        assert turn(view, slot).choices["attack"] == "assassin"


def test_s4_2_the_oni_side_attacks_humans_only():
    view = View(game_with(ONI))
    for seed in range(50):
        assert ONI.get(turn(view, "seer_b", seed).choices["attack"]) is None


def test_s7_a_computer_follows_a_partners_forced_judgment_and_declaration():
    view = View(game_with(ONI), {"seer_b": {"force": "medium_a", "victory": "seer_b"}})
    choices = turn(view, "guard_a").choices
    assert choices["force"] == "medium_a" and choices["victory"] == "guard_a"
    assert choices.get("resign") is None


def test_s7_computers_never_start_a_declaration_or_forced_judgment():
    view = View(game_with(ONI))
    for slot in ONI:
        for seed in range(20):
            choices = turn(view, slot, seed).choices
            assert choices.get("victory") is None and choices.get("force") is None


def test_s7_a_lone_oni_against_five_humans_resigns():
    game = Village.create(random.Random(1), ONI)
    game.start(dead=["seer_b", "guard_a"])
    choices = turn(View(game), "commoner_c").choices
    assert choices["resign"] == "commoner_c" and choices.get("victory") is None


def test_s5_5_an_oni_side_commoner_leaves_a_fake_dm_naming_a_human_not_its_partner():
    view = View(game_with(ONI))
    for seed in range(30):
        dm = turn(view, "commoner_c", seed).choices["dm"]
        assert dm not in ONI and dm not in ("commoner_c", "commoner_d")


def test_s5_1_a_human_seer_prays_for_the_oni_it_found_and_says_so():
    game = game_with(ONI)
    attack = Choices(attack="commoner_a", attacker="guard_a")
    night = {"seer_a": Choices(divine="seer_b"), "medium_a": Choices(pray="commoner_b")}
    game.resolve_night({**night, **dict.fromkeys(ONI, attack)}, random.Random(0))
    assert set(game.deaths) == {"commoner_a", "commoner_b"}
    view = View(game)
    assert turn(view, "seer_a").choices["pray"] == "seer_b"
    ((board, text),) = turn(view, "seer_a").posts
    report, words = text.split("\n")
    assert board == "public"
    assert report in phrasings(computer.REPORTS["seer"], what="占い", name="名前1", said="鬼")
    assert words in phrasings(computer.PRAY_LINES, computer.REASONS["oni"], name="名前1")


def phrasings(*parts: Sequence[str], **facts: str) -> set[str]:
    """Every line the computer may say from these parts, one phrasing of each, in order."""
    lines = [""]
    for part in parts:
        lines = [done + line.format(**facts) for done in lines for line in part]
    return set(lines)


def test_s5_1_an_oni_side_seer_covers_its_partners():
    game = Village.create(random.Random(1), ONI)
    game.random_targets["seer_b"] = "guard_a"  # an oni partner
    game.start()
    for seed in range(20):
        (board, text), *_ = turn(View(game), "seer_b", seed).posts
        assert board == "public"
        report, words = text.split("\n")
        facts = {"what": "初日のランダム占い", "name": "名前4", "said": "人"}
        assert report in phrasings(computer.REPORTS["seer"], **facts)
        assert "祈" in words


def test_a_saved_choice_stands_and_only_what_changes_is_answered():
    view = View(game_with(ONI))
    first = turn(view, "seer_a", 1).choices
    saved = {k: v for k, v in first.items() if v is not None}
    view.saved_today["seer_a"] = saved
    for seed in range(20):
        assert turn(view, "seer_a", seed).choices == {}


def test_s8_posts_are_paced_one_at_a_time_and_at_most_two_a_day():
    view = View(game_with(ONI))
    posted = []
    now = START
    while now < START + DAY:
        answer = turn(view, "seer_b", now=now)
        for board, _ in answer.posts:
            posted.append(board)
            view.last_posts["seer_b"] = now
        now = answer.again or START + DAY
    assert posted == ["public", "oni"]


def test_s8_no_public_post_after_the_deadline_and_the_dead_write_in_the_grave():
    game = Village.create(random.Random(1), ONI)
    game.start(dead=["seer_a"])
    view = View(game)
    assert turn(view, "medium_a", now=START + DAY * 1.05).posts == []
    assert turn(view, "seer_a", now=START + DAY * 0.2).posts == [
        ("grave", "墓の下から見守ります。")
    ]
    assert turn(view, "seer_a", now=START + DAY * 0.2).choices == {}


def test_no_turn_outside_a_running_day():
    game = game_with(ONI)
    assert turn(View(game, state=State.ENDING), "seer_a").choices == {}
    late = START + TIMINGS[Pace.SHORT].turn
    assert turn(View(game), "seer_a", now=late).posts == ()


# ----- strength (issue 24) -----


def test_computer_only_villages_win_within_10_points_of_the_simulator():
    """docs/mobius.md's figures come from 2,000 games each; fewer here, the same seed."""
    cpu = simulate.simulate(200, 1, cpu=True)["win_rate"]
    plain = simulate.simulate(600, 1)["win_rate"]
    for side in ("human", "oni"):
        assert abs(cpu[side] - plain[side]) <= 0.10, (cpu, plain)


def test_the_strategy_gets_plain_data_only():
    """The view is plain data all through: no game, village, seed or engine object."""

    def plain(value: Any) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str | int) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, str | int | bool | datetime | timedelta)

    for slot in SLOTS:
        view = _seat(View(game_with(ONI)), slot)
        assert plain(view)
        assert computer.turn(view, random.Random(1)).choices


# ----- reading the boards (RULES §8; decision 110) -----


def said(view: View, board: str, writer: str, text: str, at: datetime = START) -> View:
    """``view`` with one more post today."""
    return replace(view, heard=[*view.heard, Heard(board, writer, text, at)])


def test_s8_a_result_told_on_the_public_board_changes_a_human_computers_prayer():
    view = View(game_with(ONI))
    before = turn(view, "commoner_a").choices["pray"]
    target = next(s for s in ("medium_a", "medium_b") if s != before)
    told = said(view, "public", "seer_a", f"占いの結果です。{name(target)}は鬼でした。")
    for seed in range(10):
        answer = turn(told, "commoner_a", seed)
        assert answer.choices["pray"] == target
        words = answer.posts[0][1].split("\n")[-1]
        reasons = computer.REASONS["black"]
        assert words in phrasings(
            computer.PRAY_LINES, reasons, name=name(target), teller="名前0さん"
        )


def test_s8_a_computer_prays_for_one_it_knows_lies_about_it():
    view = View(game_with(ONI))
    lie = said(view, "public", "seer_b", "名前2は鬼でした。")  # seer_b calls medium_a 鬼
    for seed in range(10):
        assert turn(lie, "medium_a", seed).choices["pray"] == "seer_b"


def test_s8_a_saying_on_a_board_the_seat_may_not_read_changes_nothing():
    view = View(game_with(ONI))
    text = "占いの結果です。名前3は鬼でした。名前2さん、あなたは鬼ですか？"
    for board in ("oni", "grave", "inner"):
        hidden = said(view, board, "seer_a", text, START + DAY * 0.1)
        for seed in range(5):
            now = START + DAY * 0.2
            assert turn(hidden, "medium_a", seed, now) == turn(view, "medium_a", seed, now)
    # ... and its own notes are not talk either, nor the grave for the oni side
    for board, slot in (("inner", "medium_a"), ("grave", "seer_b")):
        hidden = said(view, board, slot, text, START + DAY * 0.1)
        assert turn(hidden, slot, 1) == turn(view, slot, 1)


def test_s4_2_the_oni_side_follows_a_partners_proposal_on_the_oni_world():
    view = View(game_with(ONI))
    plan = said(
        view,
        "oni",
        "commoner_c",
        f"今夜は{name('assassin')}を襲撃しましょう、実行犯は{name('seer_b')}。",
    )
    for slot in ("seer_b", "guard_a", "empath_b"):
        for seed in range(10):
            choices = turn(plan, slot, seed).choices
            assert (choices["attack"], choices["attacker"]) == ("assassin", "seer_b")
    # ... the same words on the public board are no proposal of the side's
    public = said(
        view,
        "public",
        "commoner_c",
        f"今夜は{name('assassin')}を襲撃しましょう、実行犯は{name('seer_b')}。",
    )
    attackers = {turn(public, "guard_a", seed).choices["attacker"] for seed in range(20)}
    assert len(attackers) > 1


def test_s8_a_computer_answers_a_question_that_names_it_truly_and_only_once():
    game = game_with(ONI)
    view = View(game, last_posts={"seer_a": START})
    now = START + DAY * 0.1
    asked = said(view, "public", "guard_b", "名前0さん、あなたは鬼ですか？", START + DAY * 0.05)
    answer = turn(asked, "seer_a", 1, now)
    target = game.random_targets["seer_a"]
    facts = {"who": "名前5さん", "what": "初日のランダム占い", "name": name(target), "said": "人"}
    ((board, text),) = answer.posts
    assert board == "public"
    start = phrasings(computer.ADDRESSES, computer.CLAIMS, computer.REPORTS["seer"], **facts)
    assert any(text.startswith(line) for line in start)
    rest = next(text.removeprefix(line) for line in start if text.startswith(line))
    pray = name(answer.choices["pray"])
    assert rest in phrasings(computer.PRAYING_LINES, computer.NO_REASON, name=pray)
    answered = replace(asked, last_posts={"seer_a": now})
    assert turn(answered, "seer_a", 1, now + DAY * 0.01).posts == []
    assert turn(view, "seer_a", 1, now).posts == []  # nobody asked
    # An oni-side seat says what its side would: that it is human; no result of its own.
    oni = said(view, "public", "guard_b", "名前4が怪しい。", START + DAY * 0.05)
    (board, text), *_ = turn(replace(oni, last_posts={"guard_a": START}), "guard_a", 1, now).posts
    pray = turn(oni, "guard_a", 1, now).choices["pray"]
    lines = phrasings(
        computer.ADDRESSES,
        computer.CLAIMS,
        computer.PRAYING_LINES,
        who="名前5さん",
        name=name(pray),
    )
    assert board == "public" and text in lines


def test_s8_answers_are_bounded_a_day():
    view = View(game_with(ONI))
    heard = []
    for n in range(computer.MAX_POSTS + computer.MAX_ANSWERS):
        heard.append(Heard("public", "seer_a", f"返事{n}", START + DAY * 0.01 * n))
    heard.append(Heard("public", "guard_b", "名前0さん、本当ですか？", START + DAY * 0.1))
    full = replace(view, heard=heard, last_posts={"seer_a": START + DAY * 0.05})
    assert turn(full, "seer_a", 1, START + DAY * 0.15).posts == []


# ----- talking like players (issue 37; decisions 180–182) -----

# The names pages show: the seat's label, the persona, the computer's mark.
PERSONAS = (
    "楓",
    "源蔵",
    "小夜",
    "徳兵衛",
    "花江",
    "権六",
    "お梅",
    "平吉",
    "志乃",
    "又左",
    "菊枝",
    "三治",
    "龍之介",
)
LABELS = dict(
    zip(
        SLOTS,
        (
            "占い師A",
            "占い師B",
            "霊能者A",
            "霊能者B",
            "守護者A",
            "守護者B",
            "共感者A",
            "共感者B",
            "庶民A",
            "庶民B",
            "庶民C",
            "庶民D",
            "暗殺者",
        ),
        strict=True,
    )
)
NAMED = {
    slot: f"{LABELS[slot]} {persona}（CPU）" for slot, persona in zip(SLOTS, PERSONAS, strict=True)
}


def morning(view: View, seed: int) -> View:
    """Every member's turns of the morning's look, one after another in slot order, each
    hearing the posts of those before it (as the platform's look does), numbered per board."""
    rng = random.Random(seed)
    for _ in range(2):  # the platform's second round of turns
        for slot in SLOTS:
            answer = turn(view, slot, rng.getrandbits(32))
            saved = {**view.saved_today.get(slot, {}), **answer.choices}
            view.saved_today[slot] = {k: v for k, v in saved.items() if v is not None}
            for board, text in answer.posts:
                n = 1 + sum(1 for post in view.heard if post.board == board)
                view.heard.append(Heard(board, slot, text, START, n))
                view.last_posts[slot] = START
    return view


def test_decision180_no_two_computers_post_the_same_line_the_same_day():
    for seed in range(6):
        view = morning(View(game_with(ONI, seed), names=NAMED), seed)
        texts = [post.text for post in view.heard]
        lines = [line for text in texts for line in text.split("\n")]
        assert len(texts) >= 13
        assert len(set(lines)) == len(lines), seed


def test_decision180_with_no_reason_prayers_spread_but_lean_one_way():
    """Computers who know nothing do not all pray for one member (the issue's day: 7 of 10 on
    one), yet the village leans: the most prayed-for member gathers the most."""
    single, shares = 0, []
    for seed in range(20):
        game = game_with(ONI, seed)
        view = morning(View(game), seed)
        humans = [s for s in SLOTS if s not in ONI and s in view.saved_today]
        prayers = [view.saved_today[s]["pray"] for s in humans]
        most = max(prayers.count(p) for p in prayers)
        single += len(set(prayers)) == 1
        shares.append(most / len(prayers))
    assert single <= 6  # of 20 days
    assert sum(shares) / len(shares) >= 0.4


ASKED_AT = START + DAY * 0.3
LATER = ASKED_AT + DAY * 0.05


def asked_by(view: View, text: str) -> View:
    """``view`` with a question of 守護者B 権六's."""
    return said(view, "public", "guard_b", text, ASKED_AT)


def test_decision181_a_computer_answers_every_name_a_player_calls_it_by():
    view = morning(View(game_with(ONI), names=NAMED), 1)
    own = next(post.n for post in view.heard if post.slot == "seer_a" and post.board == "public")
    for question in (
        "楓さん、あなたは鬼ですか？",
        "占い師Aさんはどう思いますか？",
        "占い師A 楓（CPU）さん、結果を教えてください。",
        f">>{own} 本当ですか？",
        f"＞＞{own}　それはなぜ？",
    ):
        (board, text), *_ = turn(asked_by(view, question), "seer_a", 1, LATER).posts
        assert board == "public" and text.startswith("権六さん、"), question
        assert "私は人" in text or "人ですよ" in text  # its side, truly
    # ... and an anchor to another's post, or a name without a question, asks it nothing
    other = next(post.n for post in view.heard if post.slot == "seer_b")
    for remark in (f">>{other} 本当ですか？", "楓さん、おはようございます。"):
        assert turn(asked_by(view, remark), "seer_a", 1, LATER).posts == []


def test_decision181_a_question_late_in_the_day_is_answered_before_the_deadline():
    view = View(game_with(ONI), last_posts={"seer_a": START})
    late = START + DAY * 0.93
    asked = said(view, "public", "guard_b", "名前0さん、どうですか？", late)
    listen = turn(asked, "seer_a", 1, late).again
    assert listen is not None and late < listen < START + DAY
    ((board, text),) = turn(asked, "seer_a", 1, listen).posts
    assert board == "public" and text.startswith("名前5さん、")


def test_decision182_no_game_talk_once_the_side_resigns():
    """Two partners have set the resignation; the third joins it (RULES §7): the game ends
    with its save, and it says nothing of a game that is over."""
    saved = {"seer_b": {"resign": "seer_b"}, "guard_a": {"resign": "guard_a"}}
    view = View(game_with(ONI), saved)
    for seed in range(10):
        answer = turn(view, "empath_b", seed)
        assert answer.choices.get("resign") == "empath_b"
        assert answer.posts == ()
