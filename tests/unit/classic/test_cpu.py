"""The classic computer player (issue 24): legal, paced, true to its seat, and blind to what
its seat may not see. Pure: games are driven through the same seat view and strategy as a
computer member (``rulesets.classic.computer``), without storage."""

import random
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.classic import NPC, Ability, NightChoices, Options, Phase, Role, cpu
from chalicelib.rulesets.classic.computer import seat_view
from chalicelib.rulesets.classic.game import ClassicGame
from chalicelib.rulesets.classic.practice import START, new_game
from tests.unit.classic.helpers import JAPANESE

GAMES = settings(max_examples=40, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=4, max_value=16)
NAMES = {f"s{i}": f"名{i}" for i in range(1, 17)} | {NPC: "身代わり君"}


def character(game: ClassicGame, slot: str) -> str:
    return NPC if slot == NPC else next(c for c, s in game.seats.items() if s == slot)


def view_of(game, slot, saved, now, posted_at=None, heard=()):
    return seat_view(game, slot, NAMES, saved, posted_at, now, heard)


def drive(seed: int, players: int, visit):
    """A CPU-only game; ``visit(game, slot, seen, plan, saved, now, heard)`` at every turn.
    A day with a vote is asked ten minutes in and again at sunset, when every voter must
    have voted (a computer waits for the morning's claims, then asks to be asked again)."""
    rng, own = random.Random(seed), random.Random(seed + 1)
    game = new_game(players, rng, Options.create("short"))
    engine = game.village
    assert engine is not None
    now = START
    game.night_began = now
    saved: dict[str, dict[str, str]] = {}
    heard: list[dict[str, str]] = []
    posted: dict[str, object] = {}
    while engine.ending is None:
        now += timedelta(minutes=10)
        key = f"vote@{len(engine.rounds)}"
        moments = [now]
        if engine.voting and game.day_began is not None:
            moments.append(max(now, game.day_began + timedelta(minutes=40)))
        for moment in moments:
            for c in engine.living():
                if c == NPC:
                    continue
                slot = game.seats[c]
                seen = view_of(game, slot, saved, moment, posted.get(slot), heard)
                plan = cpu.turn(seen, random.Random(own.getrandbits(64)))
                visit(game, slot, seen, plan, saved, moment, heard)
                for name, value in plan.choices.items():
                    saved.setdefault(slot, {})[key if name == "vote" else name] = value
                for board, text in plan.posts:
                    heard.append({"seat": slot, "board": board, "text": text})
                    posted[slot] = moment
        if engine.phase is Phase.NIGHT:
            night = {
                character(game, s): NightChoices.from_dict(
                    {
                        k: character(game, v)
                        for k, v in m.items()
                        if k in ("attack", "divine", "guard")
                    }
                )
                for s, m in saved.items()
            }
            engine.resolve_night(night, rng)
            saved, game.day_began, game.night_began = {}, now, None
            heard.clear()
        else:
            votes = {
                character(game, s): character(game, m[key]) for s, m in saved.items() if key in m
            }
            engine.close_round(votes, rng)
            if not engine.voting:
                game.night_began = now
    return game


@GAMES
@given(SEEDS, PLAYERS)
def test_issue24_every_choice_a_computer_makes_is_legal_and_it_never_misses_a_vote(seed, n):
    """Its vote is a legal target, never itself; its night choices are legal; every living
    voter votes in every round, or asks to be asked again before the round can close (a
    computer never dies suddenly, never stalls a day)."""

    def visit(game, slot, seen, plan, saved, now, heard):
        engine = game.village
        me = character(game, slot)
        vote = plan.choices.get("vote")
        if me in engine.voters() and seen["vote"]["mine"] is None:
            sunset = game.day_began + timedelta(minutes=40)
            assert vote is not None or (plan.again is not None and plan.again < sunset)
        if vote is not None:
            assert vote != slot
            engine.validate_vote(me, character(game, vote))
        for ability in ("attack", "divine", "guard"):
            if ability in plan.choices:
                target = plan.choices[ability]
                target_c = NPC if target == NPC else character(game, target)
                assert engine.choice_refusal(me, Ability(ability), target_c) is None

    game = drive(seed, n, visit)
    assert game.village is not None and game.village.ending is not None
    assert all(d.cause.value != "sudden" for d in game.village.deaths.values())


def test_issue24_a_seer_votes_for_the_wolf_it_found_and_claims_it_in_the_morning():
    rng = random.Random(3)
    game = new_game(9, rng, Options.create("short"))
    engine = game.village
    seer = next(c for c, r in engine.roles.items() if r is Role.SEER)
    wolf = next(c for c, r in engine.roles.items() if r is Role.WEREWOLF)
    engine.resolve_night({seer: NightChoices(divine=wolf)}, rng)
    game.day_began = START
    now = START + timedelta(minutes=1)
    seen = view_of(game, game.seats[seer], {}, now)
    plan = cpu.turn(seen, random.Random(0))
    result = f"{NAMES[game.seats[wolf]]}さんを占った結果は人狼でした。"
    assert plan.posts in [[("public", claim + result)] for claim in cpu.CLAIM_LINES["seer"]]
    assert "vote" not in plan.choices and plan.again is not None  # it hears the claims first
    at = plan.again
    for _ in range(cpu.LISTENS):  # it listens at its moments, and votes at a third of the talk
        later = cpu.turn(view_of(game, game.seats[seer], {}, at, now), random.Random(0))
        if "vote" in later.choices:
            break
        assert later.again is not None
        at = later.again
    assert later.choices["vote"] == game.seats[wolf]
    assert at == START + (datetime.fromisoformat(seen["sunset"]) - START) * cpu.VOTE_POST_AT


def test_issue24_posts_are_paced_at_most_one_a_turn_two_a_day_in_public_and_a_wolf_whispers():
    """Asked every minute of a day and a night, a computer writes one post a turn at most: the
    morning's, whom it voted for at a third of the day, and a wolf's plan on the wolves' board
    at night; a wolf never names its role in public."""
    rng = random.Random(5)
    game = new_game(9, rng, Options.create("short"))
    engine = game.village
    engine.resolve_night({}, rng)
    game.day_began = START
    sunset = START + timedelta(minutes=40)
    for c in engine.living():
        if c == NPC:
            continue
        slot, posted, public = game.seats[c], None, []
        saved: dict[str, dict[str, str]] = {}
        for minute in range(0, 40):
            now = START + timedelta(minutes=minute)
            plan = cpu.turn(view_of(game, slot, saved, now, posted), random.Random(minute))
            for name, value in plan.choices.items():
                saved.setdefault(slot, {})["vote@0" if name == "vote" else name] = value
            assert len(plan.posts) <= 1
            if plan.posts:
                posted = now
                public.append(plan.posts[0])
                assert JAPANESE.search(plan.posts[0][1])
            if plan.again is not None:
                assert now < plan.again < sunset
        assert [board for board, _ in public] == ["public", "public"]
        if engine.roles[c] in (Role.WEREWOLF, Role.MADMAN):
            assert all("人狼です" not in t and "狂人" not in t for _, t in public)
    wolf = next(c for c, r in engine.roles.items() if r is Role.WEREWOLF)
    engine.close_round({v: engine.vote_targets(v)[0] for v in engine.voters()}, rng)
    if engine.ending is None and engine.phase is Phase.NIGHT and wolf not in engine.deaths:
        game.night_began = sunset
        seen = view_of(game, game.seats[wolf], {}, sunset + timedelta(minutes=1), sunset)
        plan = cpu.turn(seen, random.Random(1))
        assert plan.posts and plan.posts[0][0] == "wolves"


def _swap_hidden(game: ClassicGame, slot: str, pick: random.Random) -> ClassicGame | None:
    """The same game but for what ``slot`` may not see: two other players' roles swapped (two
    it has no result about, neither its partner, itself nor the scapegoat), and other seats'
    saved choices replaced. None when no such pair exists."""
    engine = game.village
    me = character(game, slot)
    seen = {
        r.target
        for m in engine.mornings
        if (n := m.news.get(me))
        for r in (n.divination, n.medium)
        if r
    }
    partners = set(engine.partners().get(me, []))
    hidden = [
        c
        for c in engine.players
        if c != me
        and c not in seen
        and c not in partners
        and engine.roles[c] is not engine.roles[me]
    ]
    pairs = [(a, b) for a in hidden for b in hidden if a < b and engine.roles[a] != engine.roles[b]]
    # A swap must keep the seat's own partners' knowledge: never move a partner's role onto
    # or off the seat's side (a wolf would see the new wolf as a partner).
    mine = engine.roles[me]
    pairs = [(a, b) for a, b in pairs if mine not in (engine.roles[a], engine.roles[b])]
    if not pairs:
        return None
    a, b = pick.choice(pairs)
    other = ClassicGame.from_json(game.to_json())
    roles = other.village.roles
    roles[a], roles[b] = roles[b], roles[a]
    return other


@GAMES
@given(SEEDS, PLAYERS, SEEDS)
def test_issue24_secrecy_a_computer_decides_the_same_when_only_what_its_seat_may_not_see_differs(
    seed, n, turn_seed
):
    """RULES-CLASSIC §6 over computer choices: two states differing only in others' roles the
    seat cannot know and in others' saved choices give the same view and the same turn for
    the same generator."""
    pick = random.Random(seed ^ 0xC0FFEE)
    checked = 0

    def visit(game, slot, seen, plan, saved, now, heard):
        nonlocal checked
        other = _swap_hidden(game, slot, pick)
        if other is None:
            return
        key = f"vote@{len(game.village.rounds)}"
        # Others' votes, divinations and guards are theirs alone (a wolf sees its partners'
        # attacks, which stay as they are).
        noise = {
            s: {**saved.get(s, {}), key: slot, "divine": slot, "guard": slot}
            for s in game.seats.values()
            if s != slot
        }
        # Posts the seat may not read (§6): another's monologue, the partner boards it is not
        # on, heaven while alive; the ones it may read are the same in both.
        writer = next(s for s in game.seats.values() if s != slot)
        role = game.village.roles[character(game, slot)]
        unread = [{"seat": writer, "board": "monologue", "text": "占い師です。実は秘密です。"}]
        unread += [{"seat": writer, "board": "heaven", "text": "墓下から。人狼は誰？"}]
        if role is not Role.WEREWOLF:
            unread.append({"seat": writer, "board": "wolves", "text": f"{NAMES[slot]}を噛もう"})
        if role is not Role.MASON:
            unread.append({"seat": writer, "board": "masons", "text": "共有です"})
        a = view_of(game, slot, saved, now, None, heard)
        theirs = {**noise, **({slot: saved[slot]} if slot in saved else {})}
        b = view_of(other, slot, theirs, now, None, [*unread, *heard])
        assert a == b
        assert cpu.turn(a, random.Random(turn_seed)) == cpu.turn(b, random.Random(turn_seed))
        checked += 1

    drive(seed, n, visit)
    assert checked > 0


# ----- reading the boards (decisions-classic 72) -----


def _day2(seed: int = 7, players: int = 9):
    """A game on day 2's morning (nobody divined), its cast by role."""
    rng = random.Random(seed)
    game = new_game(players, rng, Options.create("short"))
    engine = game.village
    engine.resolve_night({}, rng)
    game.day_began = START
    roles: dict[Role, list[str]] = {}
    for c, r in engine.roles.items():
        if c != NPC and c not in engine.deaths:
            roles.setdefault(r, []).append(game.seats[c])
    return game, roles


def _said(seat: str, text: str, minute: int = 2, board: str = "public") -> dict[str, str]:
    return {
        "seat": seat,
        "board": board,
        "text": text,
        "at": (START + timedelta(minutes=minute)).isoformat(),
    }


VOTE_TIME = START + timedelta(minutes=14)  # past a third of the day's talk


def test_issue24_a_computer_votes_for_whom_a_persons_seer_claim_calls_a_wolf():
    game, roles = _day2()
    seer_claimer, villager = roles[Role.VILLAGER][0], roles[Role.VILLAGER][1]
    wolf = roles[Role.WEREWOLF][0]
    claim = _said(seer_claimer, f"占いCOします。{NAMES[wolf]}を占ったら黒でした！")
    seen = view_of(game, villager, {}, VOTE_TIME, START, [claim])
    plan = cpu.turn(seen, random.Random(1))
    assert plan.choices["vote"] == wolf
    line = cpu.turn(seen, random.Random(1)).posts
    assert line and f"{NAMES[seer_claimer]}さんの占いで人狼と出ているから" in line[0][1]


def test_issue24_without_the_claim_the_same_computer_votes_at_random():
    game, roles = _day2()
    villager, wolf = roles[Role.VILLAGER][1], roles[Role.WEREWOLF][0]
    votes = {
        cpu.turn(view_of(game, villager, {}, VOTE_TIME, START), random.Random(n)).choices["vote"]
        for n in range(30)
    }
    assert votes != {wolf}


def test_issue24_the_seer_votes_a_fake_seer_claimer_and_a_wolf_answers_its_accuser():
    game, roles = _day2()
    seer, wolf = roles[Role.SEER][0], roles[Role.WEREWOLF][0]
    fake = roles[Role.MADMAN][0]
    lie = _said(fake, f"占い師です。{NAMES[roles[Role.VILLAGER][0]]}さんは人狼でした。")
    assert (
        cpu.turn(view_of(game, seer, {}, VOTE_TIME, START, [lie]), random.Random(2)).choices["vote"]
        == fake
    )
    accusation = _said(seer, f"占い師です。{NAMES[wolf]}さんを占った結果は人狼でした。")
    reply_time = START + timedelta(minutes=8)  # a sixth of the day: its answer's moment
    plan = cpu.turn(view_of(game, wolf, {}, reply_time, START, [accusation]), random.Random(3))
    assert plan.posts == [
        ("public", f"占い師です。{NAMES[seer]}さんを占った結果は人狼でした。対抗します。")
    ]
    later = cpu.turn(view_of(game, wolf, {}, VOTE_TIME, reply_time, [accusation]), random.Random(3))
    assert later.choices["vote"] == seer


def test_issue24_a_computer_answers_a_question_naming_it_once_and_truly():
    game, roles = _day2()
    villager, asker = roles[Role.VILLAGER][0], roles[Role.VILLAGER][1]
    question = _said(asker, f"{NAMES[villager]}さん、役職は何ですか？", minute=3)
    now = START + timedelta(minutes=5)
    plan = cpu.turn(view_of(game, villager, {}, now, START, [question]), random.Random(4))
    said_as = {
        a.format(who=f"{NAMES[asker]}さん") + line
        for a in cpu.ADDRESSES
        for line in cpu.VILLAGER_LINES
    }
    assert [text for _, text in plan.posts] in [[line] for line in said_as]
    again = cpu.turn(
        view_of(game, villager, {}, now + timedelta(minutes=1), now, [question]), random.Random(4)
    )
    assert again.posts == []  # answered already
    wolf = roles[Role.WEREWOLF][0]
    asked = _said(asker, f"{NAMES[wolf]}さん怪しくない？", minute=3)
    said = cpu.turn(view_of(game, wolf, {}, now, START, [asked]), random.Random(4)).posts
    assert said and "人狼" not in said[0][1] and "狼" not in said[0][1]  # never tells its role


def test_issue24_the_hunter_guards_a_lone_seer_claimer():
    game, roles = _day2(players=11)
    hunter, claimer = roles[Role.HUNTER][0], roles[Role.VILLAGER][0]
    claim = _said(claimer, f"占い師です。{NAMES[roles[Role.VILLAGER][1]]}さんは人間でした。")
    seen = view_of(game, hunter, {}, START + timedelta(minutes=3), START, [claim])
    assert cpu.turn(seen, random.Random(5)).choices["guard"] == claimer


def test_issue24_a_computer_wolf_follows_the_attack_its_partner_calls_on_the_wolves_board():
    game, roles = _day2(players=9)
    wolf, partner = roles[Role.WEREWOLF]
    target = roles[Role.VILLAGER][2]
    call = _said(partner, f"今夜は{NAMES[target]}さんを襲撃しよう", board="wolves")
    seen = view_of(game, wolf, {}, START + timedelta(minutes=3), START, [call])
    assert cpu.turn(seen, random.Random(6)).choices["attack"] == target
    villager = roles[Role.VILLAGER][0]  # the villager never reads it (§6)
    assert view_of(game, villager, {}, START, None, [call])["heard"] == []


def test_issue24_a_wolf_votes_the_human_a_fake_seer_calls_a_wolf():
    """Decisions-classic 73: the wolves join the village's mistake."""
    game, roles = _day2()
    wolf, fake, human = roles[Role.WEREWOLF][0], roles[Role.MADMAN][0], roles[Role.VILLAGER][0]
    lie = _said(fake, f"占い師です。{NAMES[human]}さんは人狼でした。")
    for n in range(10):
        seen = view_of(game, wolf, {}, VOTE_TIME, START, [lie])
        assert cpu.turn(seen, random.Random(n)).choices["vote"] == human


def test_issue24_a_wolf_with_a_partner_now_and_then_counter_claims_a_lone_seer_claimer():
    """Decisions-classic 73: not named, one of a pair claims the seer against a lone claimer
    now and then (never against two claimers; three wolves stay hidden)."""
    game, roles = _day2()
    (wolf, partner), seer = roles[Role.WEREWOLF], roles[Role.SEER][0]
    claim = _said(seer, f"占い師です。{NAMES[roles[Role.VILLAGER][0]]}さんは人間でした。")
    reply_time = START + timedelta(minutes=8)
    said = [
        cpu.turn(view_of(game, wolf, {}, reply_time, START, [claim]), random.Random(n)).posts
        for n in range(200)
    ]
    counter = [("public", f"占い師です。{NAMES[seer]}さんを占った結果は人狼でした。対抗します。")]
    assert 0 < said.count(counter) < 200
    fake = _said(roles[Role.MADMAN][0], f"占い師です。{NAMES[partner]}さんは人間でした。")
    two = [claim, fake]
    for n in range(50):
        plan = cpu.turn(view_of(game, wolf, {}, reply_time, START, two), random.Random(n))
        assert plan.posts != counter
    game, roles = _day2(players=16)
    wolf, seer = roles[Role.WEREWOLF][0], roles[Role.SEER][0]
    claim = _said(seer, f"占い師です。{NAMES[roles[Role.VILLAGER][0]]}さんは人間でした。")
    for n in range(50):
        plan = cpu.turn(view_of(game, wolf, {}, reply_time, START, [claim]), random.Random(n))
        assert plan.posts == []


# ----- talking like players (issue 37; decisions 180–181) -----


def _morning_talk(game: ClassicGame, seed: int) -> list[dict]:
    """Every living member's morning post of day 2, one after another, each hearing those
    before it (as the platform's look does), numbered on the board."""
    heard: list[dict] = []
    rng = random.Random(seed)
    for slot in sorted(game.seats.values()):
        now = START + timedelta(seconds=len(heard))
        plan = cpu.turn(view_of(game, slot, {}, now, None, heard), random.Random(rng.random()))
        for board, text in plan.posts:
            said = _said(slot, text, board=board)
            heard.append({**said, "at": now.isoformat(), "n": len(heard) + 1})
    return heard


def test_decision180_no_two_computers_greet_the_same_morning_with_the_same_line():
    for seed in range(5):
        game, _ = _day2(seed, players=16)
        heard = _morning_talk(game, seed)
        texts = [post["text"] for post in heard]
        assert len(texts) >= 14 and len(set(texts)) == len(texts), texts


def test_decision181_a_question_without_a_mark_or_by_anchor_is_answered():
    game, roles = _day2()
    villager, asker = roles[Role.VILLAGER][0], roles[Role.VILLAGER][1]
    own = {**_said(villager, "よろしくお願いします。", minute=1), "n": 4}
    posted = START + timedelta(minutes=1)
    now = START + timedelta(minutes=5)
    for text in (f"{NAMES[villager]}さん、役職を教えてください。", ">>4 それはどうして？"):
        question = _said(asker, text, minute=3)
        plan = cpu.turn(view_of(game, villager, {}, now, posted, [own, question]), rng())
        assert [board for board, _ in plan.posts] == ["public"], text
        assert plan.posts[0][1].startswith(f"{NAMES[asker]}さん、")
    other = _said(asker, ">>5 それはどうして？", minute=3)  # another's post
    assert cpu.turn(view_of(game, villager, {}, now, posted, [own, other]), rng()).posts == []


def rng() -> random.Random:
    return random.Random(5)
