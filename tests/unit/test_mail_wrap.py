"""The text part's line cutting (chalicelib/notify/text.py): 78 octets a line, Japanese cut
between phrases, a URL alone on its line and never cut."""

from chalicelib.notify.text import LIMIT, octets, wrap

URL = "https://mobius.example/m/" + "a" * 120


def test_a_short_line_is_left_as_it_is():
    text = "hanako さん\n\n  名前（鬼）\n"
    assert wrap(text) == text


def test_a_long_japanese_line_is_cut_between_phrases_within_78_octets():
    line = (
        "このメールアドレスで新規登録（またはアドレスの変更）が申し込まれましたが、"
        "このアドレスはすでに別のアカウントで使われています。"
    )
    lines = wrap(line).split("\n")
    assert len(lines) > 1
    assert all(octets(part) <= LIMIT for part in lines)
    assert "".join(lines) == line  # nothing lost, nothing added
    # Between phrases: never inside 「メールアドレス」 or 「アカウント」.
    assert any("メールアドレス" in part for part in lines)
    assert any("アカウント" in part for part in lines)


def test_a_long_line_is_cut_after_each_sentence_first():
    line = "あなたは亡くなりました。実行犯として自分自身を襲撃しました。「そうです。」と。"
    assert wrap(line).split("\n") == [
        "あなたは亡くなりました。",
        "実行犯として自分自身を襲撃しました。",
        "「そうです。」と。",
    ]


def test_a_long_url_stands_alone_on_its_line_and_is_not_cut():
    assert wrap(f"村を開く: {URL} （ログイン不要）") == f"村を開く:\n{URL}\n（ログイン不要）"


def test_continuation_lines_keep_the_indent():
    line = "  " + "とても長い名前のひとびとがここにいます" * 3
    lines = wrap(line).split("\n")
    assert len(lines) > 1 and all(part.startswith("  ") for part in lines)
    assert all(octets(part) <= LIMIT for part in lines)


def test_words_are_cut_at_spaces_and_an_overlong_word_between_characters():
    words = " ".join(["abcdefghij"] * 12)
    assert all(octets(part) <= LIMIT for part in wrap(words).split("\n"))
    assert wrap(words).replace("\n", " ") == words
    long_word = "x" * 100
    assert wrap(long_word) == "x" * 78 + "\n" + "x" * 22
