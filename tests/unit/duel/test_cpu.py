"""The computer opponents: legal and deterministic, and blind to what their side cannot see.

Their strength is a benchmark (``make bench``, benchmarks/duel.py), never a timed test.
"""

import io
import json
import random
from contextlib import redirect_stdout
from typing import Any

import pytest

from chalicelib.rules.duel import PRESETS, Draws, Duel, play, preset, view
from chalicelib.rules.duel.cpu import STRENGTHS, choose, player, random_player, secret_rng
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rules.duel.simulate import head_to_head, main, play_game
from chalicelib.rules.duel.worlds import after_execution, beliefs, fox_odds
from tests.support.duels import B12, STD9, twin

deducer = deceiver = player("strong")
MATCHUPS = [(deducer, deceiver), (deducer, random_player), (random_player, deceiver)]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_cpus_only_pick_legal_moves_and_every_game_ends(name: str) -> None:
    for seed in range(6):
        for a, b in MATCHUPS:
            ending = play_game(name, a, b, seed)  # play() refuses any illegal move
            assert ending["winner"] in ("village", "wolves", "fox")


@pytest.mark.parametrize("name", ["std9", "12A", "17A"])
def test_cpus_are_deterministic_given_the_seed(name: str) -> None:
    assert play_game(name, deducer, deceiver, 7) == play_game(name, deducer, deceiver, 7)

    def moves(seed: int) -> list[str]:
        rng = random.Random(seed)
        duel = Duel.setup(preset(name), Draws(rng))
        made = []
        while duel.phase != "end":
            side = duel.phase[0]
            cpu = deducer if side == "A" else deceiver
            move = cpu(view(duel, side), legal_moves(duel, side), random.Random(len(made)))
            made.append(json.dumps(move, sort_keys=True))
            play(duel, side, move, rng)
        return made

    assert moves(3) == moves(3)


@pytest.mark.parametrize("strength", list(STRENGTHS))
def test_cpus_choose_alike_in_twin_games_that_differ_only_in_what_they_cannot_see(
    strength: str,
) -> None:
    # Each twin redraws every field its side may not see (helpers.twin): for A the deal, B's
    # madman instruction and its effects, the fox's mode, the real divinations and guards,
    # B's attacks, PP offers and guesses; for B the deal of the non-werewolves, the fox's
    # mode, the real divinations and guards. Same RNG seed, same choice, both sides.
    pairs = {"A": 0, "B": 0}
    names = sorted(PRESETS)
    n = 0
    while min(pairs.values()) < 500:  # a thousand pairs or more per strength
        name, n = names[n % len(names)], n + 1
        rng = random.Random(n)
        duel = Duel.setup(preset(name), Draws(rng))
        while duel.phase != "end":
            side = duel.phase[0]
            double = twin(duel, side, random.Random(rng.random()))
            seed = rng.random()
            move = choose(view(duel, side), legal_moves(duel, side), random.Random(seed), strength)
            again = choose(
                view(double, side), legal_moves(double, side), random.Random(seed), strength
            )
            assert again == move
            pairs[side] += 1
            play(duel, side, move, rng)


def test_choose_knows_three_strengths_and_refuses_any_other() -> None:
    assert list(STRENGTHS.values()) == ["入門", "普通", "強い"]
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)))
    with pytest.raises(ValueError, match="CPUの強さ"):
        choose(view(duel, "A"), legal_moves(duel, "A"), random.Random(0), "expert")


def test_the_product_cpu_draws_its_own_secret_randomness_not_the_game_seed() -> None:
    rng = secret_rng()
    assert isinstance(rng, random.SystemRandom)
    engine = random.Random(5)
    duel = Duel.setup(preset("12B"), Draws(engine))
    while duel.phase != "end":
        side = duel.phase[0]
        play(duel, side, choose(view(duel, side), legal_moves(duel, side), rng), engine)
    assert duel.ending is not None


def test_a_cpu_refuses_to_move_out_of_turn() -> None:
    duel = Duel.setup(preset("std9"), Draws(random.Random(0)))
    with pytest.raises(ValueError):
        deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(0))


def test_simulator_prints_json_last() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--preset", "std9", "--games", "3"]) == 0
    report = json.loads(out.getvalue().splitlines()[-1])
    (std9,) = report["duel"]
    assert set(std9) >= {"cpu_vs_cpu", "cpu_vs_random", "random_vs_cpu", "cpu_move_ms"}
    assert std9["cpu_move_ms"]["max"] >= std9["cpu_move_ms"]["p95"] >= 0
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--preset", "12B", "--games", "1", "--levels"]) == 0
    (table,) = json.loads(out.getvalue().splitlines()[-1])["duel_levels"]
    assert {f"{a}/{b}" for a in STRENGTHS for b in STRENGTHS} <= set(table)
    assert set(table["head_to_head"]) == {"normal>beginner", "strong>beginner", "strong>normal"}


def test_a_pair_of_strengths_is_scored_over_both_sides_a_fox_win_being_neither_s() -> None:
    def cell(village: float, wolves: float) -> dict[str, float]:
        return {"village": village, "wolves": wolves, "fox": round(1 - village - wolves, 4)}

    # docs/duel.md's pooled 12B table (decision 99): rows A's level, columns B's.
    rows = {
        "beginner": [cell(0.167, 0.27), cell(0.057, 0.268), cell(0.085, 0.322)],
        "normal": [cell(0.587, 0.27), cell(0.403, 0.372), cell(0.302, 0.455)],
        "strong": [cell(0.79, 0.088), cell(0.565, 0.193), cell(0.452, 0.353)],
    }
    table = {f"{a}/{b}": rows[a][j] for a in rows for j, b in enumerate(STRENGTHS)}
    pairs = head_to_head(table)
    # 強い as A wins 56.5 against 普通's B, as B 45.5 against 普通's A; 普通 19.3 and 30.2.
    assert pairs["strong>normal"] == {"strong": 0.51, "normal": 0.2475, "lead_pp": 26.2}
    assert pairs["normal>beginner"] == {"normal": 0.4275, "beginner": 0.1635, "lead_pp": 26.4}
    assert pairs["strong>beginner"]["strong"] == 0.556
    assert pairs["strong>beginner"]["beginner"] == 0.0865


def _b12(moves: list[tuple[str, dict[str, object]]]) -> Duel:
    rng = random.Random(0)
    duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["latent"]}), cards=B12)
    for side, move in moves:
        play(duel, side, move, rng)
    return duel


def test_the_deducer_reads_a_night_death_nobody_divined_as_no_fox() -> None:
    # B12: seer 1, werewolves 4 5, fox 7. The seer divines 7 while B attacks 9: two dead.
    duel = _b12(
        [
            ("A", {"do": "co", "roles": ["seer"]}),
            ("B", {"do": "answer", "claims": []}),
            ("A", {"do": "execute", "card": 8}),
            ("A", {"do": "night", "divine": [{"card": 1, "to": [7]}], "guard": []}),
            ("B", {"do": "night", "attack": 9, "divine": [], "medium": [], "guard": []}),
        ]
    )
    assert sorted(duel.events[-1]["dead"]) == [7, 9]
    known = beliefs(view(duel, "A"))
    assert known.fox[9] == 0  # after a whole seer request only the claimed seer can curse
    assert known.fox[7] == pytest.approx(1.0)


def test_the_deducer_values_an_execution_by_the_days_left() -> None:
    # The game over: won only with neither werewolf nor fox alive (§7).
    assert after_execution(0, False, 3) == 1.0
    assert after_execution(0, True, 3) == 0.0  # the last werewolf executed before the fox
    assert after_execution(1, False, 1) == 0.0  # a human executed at parity
    # The fox executed first keeps the game winnable; the last werewolf first does not.
    assert after_execution(1, False, 4) > after_execution(0, True, 5)
    # The same werewolf is worth more with more humans left to spend.
    assert after_execution(1, False, 6) > after_execution(1, False, 3) > 0.0


def test_the_deducer_sends_the_seer_to_the_likely_fox() -> None:
    # B12: seer 1, medium 2, werewolves 4 5, fox 7 (medium mode). Medium 2 and the fox 7
    # both claim medium, with no madman claim: one of them is likely the fox.
    rng = random.Random(0)
    duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["medium"]}), cards=B12)
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer", "medium"]}),
        ("B", {"do": "answer", "claims": []}),
        ("A", {"do": "execute", "card": 8}),
    ]
    for side, move in moves:
        play(duel, side, move, rng)
    known = beliefs(view(duel, "A"))
    assert min(known.fox[2], known.fox[7]) > max(known.fox[c] for c in (3, 6, 9, 10, 11))
    for seed in range(5):
        move = deducer(view(duel, "A"), legal_moves(duel, "A"), random.Random(seed))
        (order,) = move["divine"]
        # The real seer curses a fox: both likely foxes among its three candidates.
        assert order["card"] == 1 and len(order["to"]) == 3 and {2, 7} <= set(order["to"])


def test_the_deceiver_frames_the_card_that_survived_its_attack() -> None:
    # B12: werewolves 4 5, fox 7. B's attack on the fox leaves a peaceful morning; werewolf
    # 4, a fake seer, then calls the fox black when A's candidates allow it.
    rng = random.Random(0)
    duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["latent"]}), cards=B12)
    fake = {"card": 4, "role": "seer", "oracle": {"target": 9, "result": "human"}}
    lie = {"card": 4, "target": 9, "result": "human"}
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer"]}),
        ("B", {"do": "answer", "claims": [fake]}),
        ("A", {"do": "execute", "card": 8}),
        ("A", {"do": "night", "divine": [{"card": 1, "to": [9]}, {"card": 4, "to": [9]}]}),
        ("B", {"do": "night", "attack": 7, "divine": [lie]}),
        ("A", {"do": "execute", "card": 10}),
        ("A", {"do": "night", "divine": [{"card": 1, "to": [11]}, {"card": 4, "to": [7, 11]}]}),
    ]
    for side, move in moves:
        extra: dict[str, Any] = {"guard": []} if side == "A" else {"guard": [], "medium": []}
        play(duel, side, {**extra, **move} if move["do"] == "night" else move, rng)
    (morning,) = [e for e in duel.events if e["type"] == "morning"]
    assert morning["dead"] == []  # the fox survived the attack
    for seed in range(8):
        move = deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move["divine"] == [{"card": 4, "target": 7, "result": "wolf"}]


def _day1_scripts(seeds: range) -> list[tuple[str, ...]]:
    """CPU-A's questions until its first execution in 12B games against CPU-B, per seed;
    and, in every game, every card nobody claimed for is named once by day 2."""
    scripts = []
    for seed in seeds:
        rng = random.Random(seed)
        duel = Duel.setup(preset("12B"), Draws(rng), cards=B12)
        cpu_rng = {"A": random.Random(seed + 100), "B": random.Random(seed + 200)}
        script: list[str] = []
        while duel.phase != "end" and duel.day <= 2:
            side = duel.phase[0]
            move = deducer(view(duel, side), legal_moves(duel, side), cpu_rng[side])
            if side == "A" and move["do"] != "execute" and duel.day == 1:
                script.append(json.dumps(move, sort_keys=True))
            play(duel, side, move, rng)
        scripts.append(tuple(script))
        if duel.phase != "end":
            named = [a["card"] for e in duel.events if e["type"] == "named" for a in e["answers"]]
            assert len(named) == len(set(named))
            assert not [c for c in duel.unclaimed() if duel.cards[c] != "mason"]
    return scripts


def test_the_deducer_names_every_card_by_day_2_and_varies_its_day_1_plan() -> None:
    # Named, a werewolf of an incoherent deceiver claims a role and gives itself away; one of
    # a careful deceiver answers none, which binds it as no real role holder either way.
    # After the black seer alone (skipping it costs the village, decision 23), the order
    # varies where it is near-equal in value: the seer and medium together or one by one, the
    # names on day 1 or 2, at once or in halves.
    scripts = _day1_scripts(range(16))
    assert len(set(scripts)) >= 4
    assert {script[0] for script in scripts} == {'{"do": "black_seer_co"}'}


def test_the_deducer_reads_a_role_named_after_its_co_request_as_a_fake() -> None:
    # B12: seer 1, medium 2, werewolves 4 5. Werewolf 4 stayed silent when the medium was
    # asked out, then claims medium when named: the real medium (or the fox in medium mode)
    # would have come out then, so 4 is a fake: a werewolf, or the madman (A cannot know
    # whether B's one madman claim is spent).
    rng = random.Random(0)
    duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["latent"]}), cards=B12)
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer", "medium"]}),
        ("B", {"do": "answer", "claims": []}),
        ("A", {"do": "named", "cards": [3, 4, 5, 6, 7, 8, 9, 10, 11]}),
        (
            "B",
            {
                "do": "answer",
                "claims": [{"card": 4, "role": "medium"}, {"card": 5, "role": "none"}],
            },
        ),
    ]
    for side, move in moves:
        play(duel, side, move, rng)
    known = beliefs(view(duel, "A"))
    assert known.real[4] == 0
    unclaimed = (3, 6, 7, 8, 9, 10, 11)
    assert known.wolf[4] > max(known.wolf[c] for c in unclaimed)
    # A fake is a werewolf or the madman (a human), and this B needed no werewolf to explain
    # its claims (decision 88: it is read as hiding them), so 4 is the madman about as often:
    # executing it is worth less than an unclaimed card, which may be a werewolf or the fox.
    assert known.wolf[4] < 0.5
    assert known.execute[4] < max(known.execute[c] for c in unclaimed)


def test_the_deceiver_neither_bites_nor_frames_the_claimer_it_reads_as_its_madman() -> None:
    # std9 by hand: seer 1, werewolves 4 5, madman 6, villagers 7–9. The madman (6) and
    # werewolf 5 fake the seer; 6 calls villager 9 black, which the real seer never does: B,
    # knowing its werewolves, reads 6 as its madman. With the real seer bitten, 6 is the
    # only other seer claimer left: B neither bites it nor has werewolf 5 call it black.
    rng = random.Random(0)
    draws = Draws(rng, {"guard": [2]})  # the latent hunter guards 2 on night 1
    duel = Duel.setup(preset("std9"), draws, cards=STD9)
    fake = {"card": 5, "role": "seer", "oracle": {"target": 8, "result": "human"}}
    madman = {"card": "madman", "role": "seer", "oracle": "human"}
    lie = {"card": 5, "target": 8, "result": "human"}
    divine = [{"card": 1, "to": [4]}, {"card": 5, "to": [8]}, {"card": 6, "to": [9]}]
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer"]}),
        ("B", {"do": "answer", "claims": [fake, madman]}),
        ("A", {"do": "execute", "card": 7}),
        ("B", {"do": "pp", "guess": None}),
        ("A", {"do": "night", "divine": divine, "guard": []}),
        ("B", {"do": "night", "attack": 1, "divine": [lie], "madman": {"divine": "wolf"}}),
        ("A", {"do": "execute", "card": 8}),
        ("B", {"do": "pp", "guess": None}),
        ("A", {"do": "night", "divine": [{"card": 5, "to": [6, 2]}, {"card": 6, "to": [2]}]}),
    ]
    for side, move in moves:
        extra = {"guard": [], "medium": []} if side == "B" and move["do"] == "night" else {}
        play(duel, side, {**extra, **move}, draws)
    assert duel.claims[6]["nights"] == [{"night": 1, "target": 9, "result": "wolf"}]
    for seed in range(12):
        move = deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move["attack"] != 6
        assert move["divine"] != [{"card": 5, "target": 6, "result": "wolf"}]


def _night4_parity() -> Duel:
    """B12 (werewolves 4 5, fox 7, latent): B bit the fox on nights 1 and 2 (peaceful
    mornings) and villager 10 on night 3; A executed 8, 9, 11 and the madman 6. Night 4:
    two werewolves against the fox and three humans."""
    pins = {"oracle": [2], "fox_mode": ["latent"], "seer": [3, 6, 10], "guard": [1, 1, 1]}
    draws = Draws(random.Random(0), pins)
    duel = Duel.setup(preset("12B"), draws, cards=B12)
    quiet = {"do": "night", "divine": [], "guard": []}
    for day, (executed, bitten) in enumerate(((8, 7), (9, 7), (11, 10), (6, None)), start=1):
        play(duel, "A", {"do": "execute", "card": executed}, draws)
        if bitten is not None:
            play(duel, "A", quiet, draws)
            bite = {"do": "night", "attack": bitten, "divine": [], "medium": [], "guard": []}
            play(duel, "B", bite, draws)
        assert duel.day == day + (bitten is not None)
    play(duel, "A", quiet, draws)
    return duel


def test_the_deceiver_bites_the_likely_fox_when_a_human_bitten_would_hand_the_fox_parity() -> None:
    # A human bitten tonight leaves two werewolves against two humans: parity, which the
    # living fox wins (§7), a loss for B. The card that survived two bites is likely the fox:
    # biting it again keeps the game going (and a human bitten by mistake is still a kill).
    duel = _night4_parity()
    assert duel.phase == "B:night" and sorted(duel.alive) == [1, 2, 3, 4, 5, 7]
    for seed in range(8):
        move = deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move["attack"] == 7


def test_the_deceiver_reads_a_lying_seer_claimer_as_the_fox_if_its_madman_never_claimed() -> None:
    # B12 with the fox (7) in seer mode: it comes out at the seer request with its drawn
    # first-day result; B never sent its madman. A seer claimer B can prove a liar (a black on
    # a non-werewolf or a white on a werewolf) can then only be the fox.
    rng = random.Random(0)
    draws = Draws(rng, {"fox_mode": ["seer"], "fox": [9, "wolf"]})
    duel = Duel.setup(preset("12B"), draws, cards=B12)
    play(duel, "A", {"do": "co", "roles": ["seer", "medium"]}, draws)
    play(duel, "B", {"do": "answer", "claims": []}, draws)
    assert duel.claims[7]["oracle"] == {"target": 9, "result": "wolf"}
    odds = fox_odds(view(duel, "B"))
    assert odds[7] > 0.9


def test_the_deceiver_adds_no_werewolf_seer_once_its_madman_claimed() -> None:
    # 12B: the madman's blind black answered the black-seer request. A werewolf claiming the
    # seer as well would make three seer claimers for one real seer and the madman, so one of
    # them a werewolf for A to find: 「強い」 keeps its werewolves hidden.
    for seed in range(8):
        rng = random.Random(seed)
        duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["latent"]}), cards=B12)
        play(duel, "A", {"do": "black_seer_co"}, rng)
        move = deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move["claims"] == [{"card": "madman", "role": "seer", "oracle": "wolf"}]
        play(duel, "B", move, rng)
        play(duel, "A", {"do": "co", "roles": ["seer", "medium"]}, rng)
        move = deceiver(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move == {"do": "answer", "claims": []}


def test_the_normal_deceiver_takes_a_guard_order_at_its_word_the_strong_one_weighs_it() -> None:
    # std9 by hand: the real seer 1 alone claims; A sends the latent hunter to guard it. 「普通」
    # never bites a card A says it guards (as if every order held); 「強い」 weighs whether the
    # order can hold (the latent hunter may be missing, dead or out) and still bites the only
    # seer claimer, worth far more than any unclaimed card.
    rng = random.Random(0)
    duel = Duel.setup(preset("std9"), Draws(rng), cards=STD9)
    play(duel, "A", {"do": "co", "roles": ["seer"]}, rng)
    play(duel, "B", {"do": "answer", "claims": []}, rng)
    play(duel, "A", {"do": "execute", "card": 7}, rng)
    play(duel, "B", {"do": "pp", "guess": None}, rng)
    orders = {"do": "night", "divine": [{"card": 1, "to": [8]}], "guard": []}
    play(duel, "A", {**orders, "latent_guard": {"to": [1]}}, rng)
    assert duel.phase == "B:night" and list(duel.claims) == [1]
    normal, strong = player("normal"), player("strong")
    for seed in range(12):
        seen, legal = view(duel, "B"), legal_moves(duel, "B")
        assert normal(seen, legal, random.Random(seed))["attack"] != 1
        assert strong(seen, legal, random.Random(seed))["attack"] == 1


def _second_seer(claims: list[dict[str, Any]]) -> Duel:
    rng = random.Random(0)
    duel = Duel.setup(preset("12B"), Draws(rng, {"fox_mode": ["latent"]}), cards=B12)
    play(duel, "A", {"do": "co", "roles": ["seer"]}, rng)
    play(duel, "B", {"do": "answer", "claims": claims}, rng)
    return duel


def test_the_deducer_reads_a_deceiver_whose_claims_need_no_werewolf_as_hiding_them() -> None:
    # B12: seer 1, werewolves 4 5, madman 6. Werewolf 4 fakes the seer beside the real one:
    # the madman or the fox could have said it, so A takes B to keep its werewolves hidden
    # and 4 to be a werewolf only rarely. Three fakes (4, 5 and the madman 6) need a
    # werewolf in every world: this B fakes with its werewolves, and A reads them so.
    def seer(card: int | str) -> dict[str, Any]:
        oracle = "human" if card == "madman" else {"target": 8, "result": "human"}
        return {"card": card, "role": "seer", "oracle": oracle}

    hidden = beliefs(view(_second_seer([seer(4)]), "A"))
    assert hidden.wolf[4] < 0.07  # 0.11 read with the faking rate
    faking = beliefs(view(_second_seer([seer(4), seer(5), seer("madman")]), "A"))
    assert faking.wolf[4] > 0.2


def _seer_request(name: str, cards: list[str | None], seed: int) -> Duel:
    """A fresh game where A asks the seer and medium out at once (no black-seer request)."""
    rng = random.Random(seed)
    duel = Duel.setup(preset(name), Draws(rng, {"fox_mode": ["latent"]}), cards=cards)
    play(duel, "A", {"do": "co", "roles": ["seer", "medium"]}, rng)
    return duel


def test_the_normal_deceiver_opens_with_a_werewolf_black_beside_the_madman_in_black_games() -> None:
    # 12B (first day black), B12: werewolves 4 5. 「普通」's bold opener: most of the time a
    # werewolf joins the madman's seer claim with a black first-day call on a human (a
    # reading A then sees three seer claimers). 「強い」 never adds it, and in std9 (first day
    # white, nothing to frame with) 「普通」 sends the madman alone.
    madman = {"card": "madman", "role": "seer", "oracle": "human", "nights": []}
    openers = 0
    for seed in range(40):
        duel = _seer_request("12B", B12, seed)
        seen, legal = view(duel, "B"), legal_moves(duel, "B")
        move = player("normal")(seen, legal, random.Random(seed))
        assert move["claims"][0] == madman
        if len(move["claims"]) == 2:
            openers += 1
            fake = move["claims"][1]
            assert fake["card"] in (4, 5) and fake["role"] == "seer"
            assert fake["oracle"]["result"] == "wolf" and fake["oracle"]["target"] not in (4, 5)
        assert player("strong")(seen, legal, random.Random(seed))["claims"] == [madman]
        duel = _seer_request("std9", STD9, seed)
        move = player("normal")(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        assert move["claims"] == [madman]
    assert 20 <= openers < 40


def test_the_beginner_deceiver_seldom_dares_to_fake_the_seer() -> None:
    # A beginner's werewolves mostly stay quiet when the seer is asked for (about one time in
    # ten): a bold fake is a stronger deceiver's play.
    fakes = 0
    for seed in range(200):
        duel = _seer_request("std9", STD9, seed)
        move = player("beginner")(view(duel, "B"), legal_moves(duel, "B"), random.Random(seed))
        fakes += bool(move.get("claims"))
    assert 5 <= fakes <= 40


def _bitten_seer(bite: int) -> Duel:
    """std9 (STD9): the real seer 1 (white on 7) and the madman 6 claim; 9 executed; night 1
    B bites ``bite``."""
    rng = random.Random(0)
    duel = Duel.setup(preset("std9"), Draws(rng, {"oracle": [7]}), cards=STD9)
    orders = [{"card": 1, "to": [3]}, {"card": 6, "to": [8]}]
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer", "medium"]}),
        ("B", {"do": "answer", "claims": [{"card": "madman", "role": "seer", "oracle": "human"}]}),
        ("A", {"do": "execute", "card": 9}),
        ("B", {"do": "pp", "guess": None}),
        ("A", {"do": "night", "divine": orders, "guard": []}),
        ("B", {"do": "night", "attack": bite, "divine": [], "medium": [], "guard": []}),
    ]
    for side, move in moves:
        play(duel, side, move, rng)
    return duel


def test_the_deducer_reads_a_bitten_claimer_as_one_b_did_not_know_for_its_madman() -> None:
    # Seer claimer 1 said 7 is white. Were 7 a werewolf, 1 would be a fake B knew for its
    # madman (a white on its own werewolf), and B does not bite its madman: bitten, 1 is
    # likelier the real seer and 7 a human.
    bitten = beliefs(view(_bitten_seer(1), "A"))
    assert bitten.wolf[7] < 0.1  # 0.28 without reading the bite
    assert bitten.real[1] > 0.55  # 0.45 without it
    spared = beliefs(view(_bitten_seer(8), "A"))  # a villager bitten instead: 7 stays suspect
    assert spared.wolf[7] > bitten.wolf[7] + 0.1


def _spared_seer(latent_guard: dict[str, Any] | None) -> Duel:
    """std9 (STD9): seer 1 calls 4 black on night 1; night 2 A guards ``latent_guard`` and
    B bites the hunter 3, not seer claimer 1."""
    rng = random.Random(0)
    duel = Duel.setup(preset("std9"), Draws(rng, {"oracle": [7]}), cards=STD9)
    second: dict[str, Any] = {
        "do": "night",
        "divine": [{"card": 1, "to": [5]}, {"card": 6, "to": [5]}],
        "guard": [],
    }
    if latent_guard:
        second["latent_guard"] = latent_guard
    moves: list[tuple[str, dict[str, Any]]] = [
        ("A", {"do": "co", "roles": ["seer", "medium"]}),
        ("B", {"do": "answer", "claims": [{"card": "madman", "role": "seer", "oracle": "human"}]}),
        ("A", {"do": "execute", "card": 7}),
        ("B", {"do": "pp", "guess": None}),
        (
            "A",
            {
                "do": "night",
                "divine": [{"card": 1, "to": [4]}, {"card": 6, "to": [9]}],
                "guard": [],
            },
        ),
        ("B", {"do": "night", "attack": 8, "divine": [], "medium": [], "guard": []}),
        ("A", {"do": "execute", "card": 9}),
        ("B", {"do": "pp", "guess": None}),
        ("A", second),
        ("B", {"do": "night", "attack": 3, "divine": [], "medium": [], "guard": []}),
    ]
    for side, move in moves:
        play(duel, side, move, rng)
    return duel


def test_the_deducer_reads_a_seer_b_knew_real_and_left_unguarded_and_unbitten_as_less_likely() -> (
    None
):
    # Were 1 the real seer, its black on 4 would have told B so (4 its werewolf): left
    # unguarded on night 2, it would likely have been bitten, not the hunter. Guarded, its
    # survival tells nothing.
    unguarded = beliefs(view(_spared_seer(None), "A"))
    guarded = beliefs(view(_spared_seer({"to": [1]}), "A"))
    assert unguarded.real[1] < guarded.real[1] - 0.1  # 0.52 both without the reading
