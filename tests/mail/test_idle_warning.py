"""The idle warning (issue 27's last gap, decisions 140 and 141): a member who plays a Mobius
village by replying to its mail alone is warned before an auto-departure (RULES §9) and keeps
the seat by answering; the 24 h / 60 min rule itself stays exact."""

import re
from datetime import datetime, timedelta

from chalicelib.clock import jst
from chalicelib.inbound import message
from chalicelib.rules.mobius import SLOTS
from chalicelib.rulesets.base import Pace
from chalicelib.rulesets.mobius.timeline import TIMINGS
from chalicelib.services import accounts, replies, villages
from chalicelib.services.unit import Unit
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.mailbox import MailBox, tick
from tests.support.villages import fill

EXAMPLE_LINE = "「例:」の後ろの形で書いてください。"
MORNING = re.compile("日目が始まりました|日目の朝になりました")
WARNING = "まもなく自動で村から退出になります"
TURN = TIMINGS[Pace.SHORT].turn


def reply(mail, text: str, clock) -> replies.Received:
    raw = message.as_sent_by(mail.to, mail.message["Reply-To"], text, clock())
    return replies.receive(raw, clock(), Unit())


def example_of(mail) -> str | None:
    lines = mail.text.split("\n")
    if EXAMPLE_LINE not in lines:
        return None
    return lines[lines.index(EXAMPLE_LINE) + 1].removeprefix("例: ")


def seated_village(village, clock) -> dict[str, str]:
    players = [make_account(f"pm{n:02d}", clock()) for n in range(13)]
    return fill(village, players, clock)


def start(village, clock, rng, box: MailBox) -> list:
    clock.now = load_village(village)._meta.next_update
    tick(clock, rng)
    return box.new()


def started(
    village, clock, rng, level: str | None = None
) -> tuple[dict[str, str], MailBox, datetime]:
    """Thirteen members (at ``level`` of mail), day 1 begun: (slot -> account, the mail box
    past the start's mail, day 1's start)."""
    seated = seated_village(village, clock)
    for account in seated.values() if level else ():
        accounts.set_mail_level(account, level)
    box = MailBox()
    box.new()
    start(village, clock, rng, box)
    return seated, box, load_village(village)._meta.day_started_at


def everyone_visits(village, seated: dict[str, str], clock, at) -> None:
    clock.now = at
    for account in seated.values():
        villages.touch(village, account, clock())


def warnings_in(mails) -> list:
    return [m for m in mails if WARNING in m.subject]


def test_rules_9_a_whole_short_village_played_by_replies_alone_departs_nobody(village, clock, rng):
    """Every member only ever answers the mail it gets: its start or morning mail with the
    command that mail suggests, each day later in the day than the day before (so that each
    day's reply comes after the previous one's 60 min are up), and an idle warning with
    「了解」 12 minutes after it arrives (some after the update: still access, decision 141).
    The village plays to its end; nobody departs. The scheduler ticks when it is due to look
    (and when a reply is sent), as deployed."""
    seated = seated_village(village, clock)
    box = MailBox()
    box.new()
    mails = start(village, clock, rng, box)
    pending: list[tuple] = []  # (when, mail, text)
    warned = stale = 0
    for _ in range(2000):
        record = load_village(village)
        if record.state.value != "running":
            break
        day_start = record._meta.day_started_at
        for mail in mails:
            if WARNING in mail.subject:
                warned += 1
                pending.append((clock() + timedelta(minutes=12), mail, "了解"))
            elif MORNING.search(mail.subject) and (text := example_of(mail)) is not None:
                later = timedelta(minutes=min(4 + 3 * record.day, 44))
                pending.append((day_start + later, mail, text))
        for item in sorted((p for p in pending if p[0] <= clock()), key=lambda p: p[0]):
            pending.remove(item)
            outcome = reply(item[1], item[2], clock).outcome
            assert outcome in ("applied", "refused")
            stale += outcome == "refused"
        moments = [p[0] for p in pending] + ([record.look_at] if record.look_at else [])
        soonest = min(moments, default=clock())
        clock.now = soonest if soonest > clock() else clock() + timedelta(minutes=1)
        tick(clock, rng)
        mails = box.new()
    record = load_village(village)
    assert {slot: record._members[slot].account_id for slot in SLOTS} == seated
    assert record.state.value in ("ending", "ended")
    assert record.day >= 3
    assert warned and stale  # some warnings were answered only after the update


def test_the_warning_is_owed_once_under_duplicate_ticks_and_names_the_jst_time(village, clock, rng):
    seated, box, begin = started(village, clock, rng)
    # Everyone but commoner_a opens the page at 1 min; commoner_a at 2 min (due at 62 min).
    clock.now = begin + timedelta(minutes=1)
    for slot, account in seated.items():
        if slot != "commoner_a":
            villages.touch(village, account, clock())
    clock.now = begin + timedelta(minutes=2)
    villages.touch(village, seated["commoner_a"], clock())
    # The warning of the others is due at 46 min, commoner_a's at 47 min (15 min before).
    clock.now = begin + timedelta(minutes=46, seconds=30)
    tick(clock, rng)
    tick(clock, rng)  # a duplicate tick
    first = warnings_in(box.new())
    assert sorted(m.to for m in first) == sorted(
        f"{a}@example.jp" for s, a in seated.items() if s != "commoner_a"
    )
    clock.now = begin + timedelta(minutes=47)
    tick(clock, rng)
    tick(clock, rng)
    second = warnings_in(box.new())
    assert [m.to for m in second] == [f"{seated['commoner_a']}@example.jp"]
    due = begin + timedelta(minutes=62)
    assert jst(due) in second[0].joined
    assert jst(due) in second[0].html
    assert second[0].message["Reply-To"]


def test_a_member_who_opens_the_page_after_the_warning_stays_and_is_not_warned_again(
    village, clock, rng
):
    seated, box, begin = started(village, clock, rng)
    everyone_visits(village, seated, clock, begin + timedelta(minutes=1))
    clock.now = begin + timedelta(minutes=46)
    tick(clock, rng)
    assert len(warnings_in(box.new())) == 13
    # Everyone visits at 50 min; they stay past 61 min, and the next warning is for the visit.
    everyone_visits(village, seated, clock, begin + timedelta(minutes=50))
    for minute in range(51, 95):
        clock.now = begin + timedelta(minutes=minute)
        tick(clock, rng)
        assert not warnings_in(box.new())
    record = load_village(village)
    assert {slot: record._members[slot].account_id for slot in SLOTS} == seated
    # The next warning counts from the visit (due at 110 min): once, to the living only.
    clock.now = begin + timedelta(minutes=95)
    tick(clock, rng)
    tick(clock, rng)
    living = [a for s, a in seated.items() if s not in load_village(village).dead()]
    assert sorted(m.to for m in warnings_in(box.new())) == sorted(f"{a}@example.jp" for a in living)


def test_rules_9_a_member_who_ignores_the_warning_is_departed_at_60_minutes(village, clock, rng):
    seated, box, begin = started(village, clock, rng)
    everyone_visits(village, seated, clock, begin + timedelta(minutes=1))
    clock.now = begin + timedelta(minutes=46)
    tick(clock, rng)
    warned = warnings_in(box.new())
    # All but commoner_a answer the warning with no command at all.
    for mail in warned:
        if mail.to != f"{seated['commoner_a']}@example.jp":
            assert reply(mail, "了解", clock).outcome == "applied"
    receipts = [m for m in box.new() if "返信" in m.subject]
    assert len(receipts) == 12
    assert all("アクセスとして記録しました" in m.joined for m in receipts)
    assert all("いまの行動" in m.joined for m in receipts)
    clock.now = begin + timedelta(minutes=61) - timedelta(seconds=1)
    tick(clock, rng)
    assert load_village(village)._members["commoner_a"].account_id == seated["commoner_a"]
    clock.now = begin + timedelta(minutes=61)
    tick(clock, rng)
    record = load_village(village)
    assert record._members["commoner_a"].account_id is None
    assert {s: record._members[s].account_id for s in SLOTS if s != "commoner_a"} == {
        s: a for s, a in seated.items() if s != "commoner_a"
    }


def test_the_warning_goes_whatever_the_mail_level(village, clock, rng):
    seated, box, begin = started(village, clock, rng, level="none")
    everyone_visits(village, seated, clock, begin + timedelta(minutes=1))
    clock.now = begin + timedelta(minutes=46)
    tick(clock, rng)
    assert len(warnings_in(box.new())) == 13
