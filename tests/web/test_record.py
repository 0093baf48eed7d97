"""The full record (全記録): every choice, draw, result and death of every day, open to
everyone in the ending and the log, to nobody before (RULES §2.5, §8)."""

import re
from datetime import timedelta
from html import unescape

from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, posts, update
from chalicelib.storage.repository import load_village
from tests.support.clients import session_cookie, text

VERDICT = {"human": "人", "oni": "鬼", "unknown": "不明"}


def page(client, clock, vid, account=None, **query) -> str:
    headers = {"cookie": session_cookie(account, clock())} if account else {}
    path = f"/villages/{vid}"
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    response = client.http.get(path, headers=headers)
    assert response.status_code == 200, text(response)[:300]
    return text(response)


def record_of(html: str) -> str:
    found = re.search(r'<section id="record".*?</section>', html, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(0))) if found else ""


def test_the_full_record_tells_every_choice_result_and_death_once_the_game_is_over(
    client, clock, game
):
    vid, seated = game
    record = load_village(vid)
    g = record.game
    names = posts.names_of(record)
    oni = [s for s in SLOTS if g.sides[s] == "oni"]
    oni_side = [s for s in SLOTS if g.sides[s] != "human"]
    humans = [s for s in SLOTS if g.sides[s] == "human"]
    guard = "guard_a" if g.sides["guard_a"] == "human" else "guard_b"
    seer = "seer_a" if g.sides["seer_a"] == "human" else "seer_b"
    spared = (guard, seer, "guard_a", "guard_b", "medium_a", "medium_b")
    victim = next(s for s in humans if s not in spared)
    judged = next(s for s in humans if s not in (*spared, victim))
    clock.advance(timedelta(minutes=1))
    # Night 1: everyone prays for ``judged``; the oni side sends oni[0] at ``victim``;
    # a seer divines oni[1]; the guard watches someone else.
    choices = {s: {"pray": judged} for s in SLOTS if s != judged}
    choices[judged] = {"pray": victim}
    for s in oni_side:
        choices[s].update(attack=victim, attacker=oni[0])
    choices[seer]["divine"] = oni[1] if oni[1] != seer else oni[2]
    choices[guard]["guard"] = seer
    for slot, made in choices.items():
        actions.save_actions(vid, seated[slot], made, clock())
    before = page(client, clock, vid, seated[oni[0]])
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    # Day 2, during the day: secrets stay secret, for everyone, on every day.
    clock.advance(timedelta(minutes=1))
    for account in (None, seated[oni[0]], seated[seer], seated[victim]):
        for day in (0, 1, 2):
            html = page(client, clock, vid, account, day=day)
            assert 'id="record"' not in html and "全記録" not in html
    assert 'id="record"' not in before
    # The oni side resigns: the ending opens the record to everyone, visitors included.
    for slot in oni_side[:3]:
        actions.save_actions(vid, seated[slot], {"resign": slot}, clock())
    assert load_village(vid)._meta.state == "ending"
    g = load_village(vid).game

    day0 = record_of(page(client, clock, vid, day=0))
    for s, target in g.random_targets.items():
        verdict = "鬼" if g.sides[target] == "oni" else "人"
        assert f"{names[s]}の初日ランダム占い先: {names[target]}（{verdict}）" in day0

    day1 = record_of(page(client, clock, vid, day=1))
    assert f"{names[seer]}へ（初日ランダム占い）" in day1
    for slot, made in choices.items():
        assert f"{names[slot]}: " in day1
        assert f"祈り→{names[made['pray']]}" in day1
    assert f"襲撃先→{names[victim]}、実行犯→{names[oni[0]]}" in day1
    assert f"警備→{names[seer]}" in day1

    day2 = record_of(page(client, clock, vid, seated[victim], day=2))
    assert f"裁き: {names[judged]}" in day2
    assert f"襲撃: 実行犯 {names[oni[0]]} → {names[victim]}" in day2
    assert "暗殺: なし" in day2
    assert f"{names[judged]}: 灰（裁き）" in day2
    assert (
        f"{names[victim]}: 遺体（{names[oni[0]]}の襲撃）。本人に伝わった相手: {names[oni[0]]}"
        in day2
    )
    target = choices[seer]["divine"]
    assert f"{names[seer]}へ（占い）: {names[target]}は鬼" in day2
    for medium in ("medium_a", "medium_b"):
        verdict = VERDICT["oni" if g.sides[judged] == "oni" else "human"]
        assert f"{names[medium]}へ（霊能）: {names[judged]}は{verdict}" in day2
    # Day 2's own choices: the resignations that ended the game.
    for slot in oni_side[:3]:
        assert f"投了→{names[slot]}" in day2
    # The log after the close: still open to all.
    clock.now = load_village(vid)._meta.next_update
    update.advance(vid, clock())
    assert load_village(vid)._meta.state == "ended"
    assert f"{names[judged]}: 灰（裁き）" in record_of(page(client, clock, vid, day=2))
