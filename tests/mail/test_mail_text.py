"""How game mail reads: the self-attacked oni's wording, and (issue 9 item 12) text parts
that are short, with one or a few links, lines of at most 78 characters where possible and
no runs of blank lines; one-tap links grouped by action in the HTML part."""

import re
from datetime import timedelta

from chalicelib.rulesets.mobius.labels import SLOT_LABELS
from chalicelib.rulesets.mobius.timeline import TIMINGS, Pace
from chalicelib.services import actions
from chalicelib.storage.repository import load_village
from tests.support.mailbox import (
    MailBox,
    account_of,
    links_in,
    names_of,
    seat,
    split_idle_warnings,
    tick,
    tick_until,
    touch_all,
)
from tests.support.villages import at, cast_of

SHORT = TIMINGS[Pace.SHORT]


def started(village, players, clock, rng) -> tuple[dict[str, str], MailBox]:
    seated = seat(village, players, clock)
    box = MailBox()
    clock.advance(SHORT.first_update)
    tick(clock, rng)
    return seated, box


def test_a_self_attacked_oni_is_told_it_struck_itself(players, clock, rng, village):
    seated, box = started(village, players, clock, rng)
    cast = cast_of(village)
    oni = cast.oni[0]
    clock.advance(timedelta(minutes=1))
    # Every oni-side vote: this oni attacks itself (nobody guards: the guards stay undecided).
    for slot in cast.oni_side:
        actions.save_actions(village, seated[slot], {"attack": oni, "attacker": oni}, clock())
    box.new()
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)
    record = load_village(village)
    morning = record.game.mornings[-1]
    assert morning.killers.get(oni) == oni
    mails = {account_of(m): m for m in box.new()}
    mine = mails[seated[oni]]
    for body in (mine.text, mine.html):
        assert "実行犯として自分自身を襲撃しました。" in body
        assert f"相手は {names_of(record)[oni]}" not in body


def assert_short_and_tidy(mail) -> None:
    """The text part: one link in (and the unsubscribe link), lines of at most 78 characters
    but for a lone URL (998 at most, RFC 5322), never two blank lines in a row."""
    text = mail.text
    assert len(links_in(text)) <= 2, text
    assert "\n\n\n" not in text, text
    assert not text.startswith("\n") and text.endswith("\n") and not text.endswith("\n\n")
    for line in text.split("\n"):
        assert line == line.rstrip(), line
        assert len(line) <= 998
        if links_in(line) != [line]:
            assert len(line) <= 78, line
    assert len(text.splitlines()) <= 40, text


def quick_lines(mail) -> dict[str, list[str]]:
    """The HTML part's one-tap links: per action, the short labels of its one line."""
    found = {}
    for action, line in re.findall(r"<p><strong>(.+?):</strong>\n?(.*?)</p>", mail.html, re.S):
        assert action not in found, "one line per action"
        found[action] = re.findall(
            r'<a href="https://mobius\.example/m/[^"]+"[^>]*>(.+?)</a>', line
        )
    return found


def test_game_mail_is_short_readable_and_grouped(players, clock, rng, village):
    seated, box = started(village, players, clock, rng)
    record = load_village(village)
    start = box.new()
    assert len(start) == 13
    for mail in start:
        assert_short_and_tidy(mail)
    # Everyone looks in but nobody acts on day 1: everyone is reminded before the deadline.
    day_start = record._meta.day_started_at
    clock.now = day_start + timedelta(minutes=1)
    touch_all(village, seated, clock)
    tick_until(clock, rng, day_start + SHORT.day - timedelta(minutes=1))
    reminders = box.new()
    assert len(reminders) == 13
    for mail in reminders:
        assert_short_and_tidy(mail)
    seer = next(s for s in ("seer_a", "seer_b") if record.game.sides[s] == "human")
    seer_mail = next(m for m in reminders if account_of(m) == seated[seer])
    # A seer's one-tap links: one line for prayers, one for divinations, 12 targets each.
    lines = quick_lines(seer_mail)
    assert list(lines) == ["祈り", "占い"]
    assert all(len(targets) == 12 for targets in lines.values())
    assert SLOT_LABELS["assassin"] in lines["占い"]
    assert "ワンタップ" not in seer_mail.joined

    # Three nights: each judges an oni and a human dies; the third ends the game.
    cast = cast_of(village)
    victims = [s for s in cast.humans if s not in (seer, "medium_a", "medium_b")][:3]
    prayers = [s for s in cast.humans if s not in victims][:2]
    alive = set(seated)
    for oni, victim in zip(cast.oni, victims, strict=True):
        at(village, clock, 1)
        touch_all(village, {s: a for s, a in seated.items() if s in alive}, clock)
        for slot in prayers:
            actions.save_actions(village, seated[slot], {"pray": oni}, clock())
        # The madman's is the only vote: this oni strikes this victim for sure.
        votes = {"attack": victim, "attacker": oni}
        actions.save_actions(village, seated[cast.madman], votes, clock())
        clock.now = load_village(village)._meta.next_update
        tick(clock, rng)
        assert dict(load_village(village).game.mornings[-1].deaths) == {
            oni: "ash",
            victim: "corpse",
        }
        alive -= {oni, victim}
        mails, warned = split_idle_warnings(box.new())  # the warnings: decision 140
        assert len(mails) == 13
        for mail in mails + warned:
            assert_short_and_tidy(mail)
    assert load_village(village)._meta.state == "ending"
    ending = next(m for m in mails if account_of(m) == seated[seer])
    assert "人間サイドの勝利です（決着）" in ending.text
    assert "日目の朝になりました。" in ending.text
    assert quick_lines(ending) == {}
