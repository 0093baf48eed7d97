"""A correspondence duel's moves in reply mail (issue 27, decision duel 93): the lines a mail
writes read back as the same legal move (round trip, every turn of random games of every
preset), the examples a turn's mail gives are legal moves, and the reader's refusals.
Pure: no moto."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.rules.duel import PRESETS, Duel, preset
from chalicelib.rules.duel.cpu import random_player
from chalicelib.rules.duel.draws import Draws
from chalicelib.rules.duel.legal import legal_moves
from chalicelib.rulesets.duel import mail
from chalicelib.rulesets.duel.ruleset import DUEL

MOST_MOVES = 600


def in_form_order(move: dict) -> dict:
    """A move as a phone's form sends it (and a mail reads): each candidate list in card
    order, every weight written (1 where none was given)."""
    move = dict(move)

    def ordered(entry: dict) -> dict:
        weights = entry.get("weights") or [1] * len(entry["to"])
        pairs = sorted(zip(entry["to"], weights, strict=True))
        return {**entry, "to": [t for t, _ in pairs], "weights": [w for _, w in pairs]}

    if move.get("do") == "night" and "attack" not in move:
        move["divine"] = [{**d, "to": sorted(d["to"])} for d in move["divine"]]
        move["guard"] = [ordered(g) for g in move["guard"]]
        if move.get("latent_divine"):
            move["latent_divine"] = sorted(move["latent_divine"])
        if isinstance(move.get("latent_guard"), dict):
            move["latent_guard"] = ordered(move["latent_guard"])
    return move


def played(duel: Duel, side: str, move: dict) -> dict:
    """The game after ``move`` (same chance each time): two moves that give the same game are
    the same move."""
    return DUEL.play(duel, side, move, random.Random(7)).game.to_json()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(PRESETS)))
def test_property_every_move_written_as_mail_lines_reads_back_as_the_same_legal_move(seed, name):
    rng = random.Random(seed)
    duel = Duel.setup(preset(name), Draws(random.Random(seed)))
    for _ in range(MOST_MOVES):
        side = DUEL.to_move(duel)
        if side is None:
            break
        legal = legal_moves(duel, side)
        move = in_form_order(random_player({}, legal, rng))
        assert legal.turn is not None
        lines = mail.write(legal.turn, move)
        reading = mail.read(duel, side, "\n".join(lines))
        assert reading.form is not None, (lines, reading)
        assert [line.status for line in reading.lines] == ["read"] * len(lines)
        back = DUEL.move_from_form(duel, side, reading.form)
        assert played(duel, side, back) == played(duel, side, move), (lines, move, back)
        for example in mail.examples(duel, side):  # what the turn's mail offers: legal
            offered = mail.read(duel, side, "\n".join(example))
            assert offered.form is not None, example
            DUEL.play(duel, side, DUEL.move_from_form(duel, side, offered.form), rng)
        duel = DUEL.play(duel, side, move, rng).game
    assert duel.phase == "end"


def day_one() -> Duel:
    return Duel.setup(preset("std9"), Draws(random.Random(3)))


def test_japanese_and_english_full_width_and_colons_read_alike():
    duel = day_one()
    written = (
        "CO要請 占い師 霊能者",
        "co seer medium",
        "ＣＯ要請：占い師　霊能者",
        "Co: Seer, Medium",
    )
    for text in written:
        reading = mail.read(duel, "A", text)
        assert DUEL.move_from_form(duel, "A", reading.form) == {
            "do": "co",
            "roles": ["seer", "medium"],
        }, text
    reading = mail.read(duel, "A", "CO要請 占い師 範囲 #3 4番 5")
    assert DUEL.move_from_form(duel, "A", reading.form) == {
        "do": "co",
        "roles": ["seer"],
        "cards": [3, 4, 5],
    }
    assert DUEL.move_from_form(duel, "A", mail.read(duel, "A", "execute 4").form) == {
        "do": "execute",
        "card": 4,
    }


def test_a_line_without_a_command_of_the_turn_is_listed_and_ignored_nothing_is_guessed():
    duel = day_one()
    reading = mail.read(duel, "A", "よろしく\n処刑 2\n襲撃 3")
    assert [line.status for line in reading.lines] == ["unknown", "read", "unknown"]
    assert reading.form == {"do": "execute", "card": "2"}
    assert mail.read(duel, "A", "よろしくお願いします").form is None


def test_a_command_whose_arguments_do_not_read_refuses_the_whole_reply():
    duel = day_one()
    reading = mail.read(duel, "A", "処刑 二番\nよろしく")
    assert reading.form is None
    assert reading.problems == ["処刑するカードはカードの番号で書いてください(例: 3)"]
    assert mail.read(duel, "A", "CO要請 占い師\n処刑 3").problems == [
        "1通で送れる手は1つです。1つだけ書いて返信してください"
    ]


def test_the_board_in_text_tells_each_side_only_its_own_secrets():
    duel = Duel.setup(preset("17A"), Draws(random.Random(5)))
    a, b = mail.board_text(duel, "A"), mail.board_text(duel, "B")
    assert any(line.startswith("共有者") for line in a) and not any("人狼(" in x for x in a)
    assert any(line.startswith("人狼") for line in b) and not any("共有者" in x for x in b)


TOKENS = [w for words in mail.WORDS.values() for w in words] + [
    *("#", ":", "→", "3:x", "99", "0", "3:0", "x", "お告げ", "1夜", "白", "黒", "狂人"),
    *("占い師", "範囲", "同じ", "なし", "おまかせ", "3", "5"),
]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
    lines=st.lists(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=6), max_size=4),
)
def test_property_any_reply_is_read_or_refused_with_a_sentence_never_a_crash(seed, steps, lines):
    """Whatever a reply says at any turn, reading it gives each line's fate, and the form it
    makes is a move the engine plays or refuses with its sentence (a ``ValueError``)."""
    rng = random.Random(seed)
    duel = Duel.setup(preset(sorted(PRESETS)[seed % len(PRESETS)]), Draws(rng))
    for _ in range(steps):
        side = DUEL.to_move(duel)
        if side is None:
            break
        duel = DUEL.play(duel, side, random_player({}, legal_moves(duel, side), rng), rng).game
    side = DUEL.to_move(duel) or "A"
    reading = mail.read(duel, side, "\n".join(" ".join(line) for line in lines))
    assert len(reading.lines) == len([line for line in lines if " ".join(line).strip()])
    if reading.form is not None:
        try:
            DUEL.play(duel, side, DUEL.move_from_form(duel, side, reading.form), rng)
        except ValueError as refusal:
            assert str(refusal)


def test_an_order_word_alone_is_refused_with_how_to_write_it():
    duel = Duel.setup(preset("std9"), Draws(random.Random(3)))
    duel = DUEL.play(duel, "A", {"do": "execute", "card": 1}, random.Random(0)).game
    duel = DUEL.play(duel, "B", {"do": "pp", "guess": None}, random.Random(0)).game
    assert DUEL.to_move(duel) == "A"
    assert mail.read(duel, "A", "占い").problems == [
        "占いは「占い 占い師のカード→候補」で書いてください(例: 占い 4→5 7)"
    ]
