"""Secrecy (RULES §8) as a property over random games.

For several seeded games played for a few nights with random legal choices, marker texts
written on every board by every member who may write there, a departure and a takeover,
every viewer — each member alive or dead, oni side or not, the player who left, a logged-in
outsider and an anonymous visitor — opens the village page for every board, and the HTML
must show exactly what RULES §8 lets that viewer see: the boards it may read (and nothing of
the others), its own side (all of the oni side's for an oni-side member), its own results,
DMs and choices, and nobody else's. In the ending every board and side is open to everyone.

The expectations below are written from the rules, not from chalicelib.visibility.
"""

import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import unescape

from chalicelib.personas import YAMAZATO
from chalicelib.rules.mobius import SLOTS
from chalicelib.services import actions, posts, update, villages
from chalicelib.storage.repository import load_village
from tests.support.accounts import make_account
from tests.support.clients import session_cookie, text
from tests.support.moto_tables import fresh_table

SEEDS = (11, 2027, 90210)
DAYS = 3  # running days played; the oni side resigns on the last one
SIDE_LABEL = {"human": "人", "madman": "狂人", "oni": "鬼"}
VERDICT_LABEL = {"human": "人", "oni": "鬼", "unknown": "不明"}
BOARD_LABEL = {"public": "表", "oni": "鬼の世界", "grave": "墓の下", "inner": "心の中"}
ONI_SHARED = {  # the choices the oni side shares, as the page names them
    "attack": "襲撃",
    "attacker": "実行犯",
    "victory": "勝利宣言",
    "resign": "投了",
    "force": "強制裁き",
}
CHOICE_LABEL = {
    "pray": "祈り",
    "divine": "占い",
    "guard": "警備",
    "assassinate": "暗殺",
    "attack": "襲撃先",
    "attacker": "実行犯",
    "dm": "偽のDM",
    "victory": "勝利宣言",
    "resign": "投了",
    "force": "強制裁き",
}
MARKER = re.compile(r"MK:[a-z]+:[a-z_]+:[a-z0-9]+:d\d+:END")


@dataclass(frozen=True)
class Marker:
    board: str
    slot: str
    account: str
    day: int

    @property
    def text(self) -> str:
        return f"MK:{self.board}:{self.slot}:{self.account}:d{self.day}:END"


@dataclass
class Play:
    """One game as the test drives it, and what it wrote."""

    vid: str
    rng: random.Random
    seats: dict[str, str]  # slot -> account, now
    departed: list[str] = field(default_factory=list)
    takeover: str | None = None
    takeover_until: datetime | None = None  # the takeover's public-board ban (RULES §8)
    markers: list[Marker] = field(default_factory=list)
    saved: dict[str, dict[str, str]] = field(default_factory=dict)  # this day's choices
    saved_by_day: dict[int, dict[str, dict[str, str]]] = field(default_factory=dict)
    seen: set = field(default_factory=set)  # kinds of viewers and facts the run exercised


def oni_side(side: str) -> bool:
    return side in ("oni", "madman")


# ----- what the rules let a viewer see -----


def slot_of(play: Play, account: str | None) -> str | None:
    return next((s for s, a in play.seats.items() if a == account), None)


def may_read(game, ending: bool, viewer_slot, viewer_account, marker: Marker, shown) -> bool:
    """Whether the page showing board ``shown`` (board, inner slot) should hold ``marker``."""
    board, inner_slot = shown
    if marker.board != board:
        return False
    if ending:
        return board != "inner" or marker.slot == inner_slot
    if board == "public":
        return True
    if viewer_slot is None:
        return False
    side = game.sides[viewer_slot]
    if board == "oni":
        return oni_side(side)
    if board == "grave":
        return viewer_slot in game.deaths and not oni_side(side)
    return marker.account == viewer_account  # inner: the writer only


def readable(game, ending: bool, viewer_slot) -> list[str]:
    if ending:
        return ["public", "oni", "grave", "inner"]
    if viewer_slot is None:
        return ["public"]
    boards = ["public"]
    if oni_side(game.sides[viewer_slot]):
        boards.append("oni")
    elif viewer_slot in game.deaths:
        boards.append("grave")
    return [*boards, "inner"]


def writable(game, phase: str, viewer_slot, public_banned: bool) -> list[str]:
    """RULES §8's write column, for a member (in the opening: just joined, so none yet)."""
    if phase in ("ended", "opening"):
        return []
    side = game.sides[viewer_slot]
    dead = viewer_slot in game.deaths
    if phase == "ending":
        return ["public", "inner"]
    boards = []
    if phase == "day" and not dead and not public_banned:
        boards.append("public")
    if oni_side(side) and phase in ("day", "loss_time"):
        boards.append("oni")
    if dead and not oni_side(side) and phase in ("day", "loss_time"):
        boards.append("grave")
    return [*boards, "inner"]


def private_lines(game, names, slot) -> dict[str, set]:
    """The private facts of ``slot``, as the page words them."""
    lines = {"result": set(), "dm": set(), "attack": set(), "random": set(), "empathy": set()}
    for m in game.mornings:
        if slot in m.results:
            r = m.results[slot]
            lines["result"].add((m.day, names[r.target], VERDICT_LABEL[str(r.verdict)]))
        if slot in m.dms:
            dm = m.dms[slot]
            lines["dm"].add((m.day, names[dm.writer], names[dm.names]))
        if oni_side(game.sides[slot]) and m.attack is not None:
            lines["attack"].add((m.day, names[m.attack.attacker], names[m.attack.target]))
    if game.day >= 1 and slot in game.random_targets:
        target = game.random_targets[slot]
        verdict = "鬼" if game.sides[target] == "oni" else "人"
        lines["random"].add((names[target], verdict))
    partner = {"empath_a": "empath_b", "empath_b": "empath_a"}.get(slot)
    if (
        game.day >= 1
        and partner
        and not any(d.day <= 1 for s, d in game.deaths.items() if s == slot)
    ):
        verdict = "鬼" if game.sides[partner] == "oni" else "人"
        lines["empathy"].add((names[partner], verdict))
    return lines


def shown_private_lines(html: str) -> dict[str, set]:
    return {
        "result": set(
            (int(d), who, v)
            for d, who, v in re.findall(r"(\d+)日目の朝の結果: (.+?)は(人|鬼|不明)</p>", html)
        ),
        "dm": set(
            (int(d), w, n)
            for d, w, n in re.findall(
                r"(\d+)日目の朝、(.+?)のダイイングメッセージ: 「(.+?)」", html
            )
        ),
        "attack": set(
            (int(d), a, t)
            for d, a, t in re.findall(r"(\d+)日目の朝の襲撃: (.+?)が(.+?)を襲撃", html)
        ),
        "random": set(re.findall(r"<p>初日ランダム占い: (.+?)は(人|鬼)</p>", html)),
        "empathy": set(re.findall(r"<p>共感: (.+?)は(人|鬼)</p>", html)),
    }


# ----- reading pages -----


def members_table(html: str, slot_by_name: dict[str, str]) -> dict[str, str | None]:
    section = re.search(r'<section id="members">(.*?)</section>', html, re.S).group(1)
    rows = re.findall(r'<td class="[^"]*">(.*?)</td>\s*<td>(.*?)</td>', section, re.S)
    assert len(rows) == 13
    shown = {}
    for name, cell in rows:
        side = re.search(r"（(人|狂人|鬼)）", cell)
        shown[slot_by_name[unescape(name)]] = side.group(1) if side else None
    return shown


def current(html: str, label: str) -> str | None:
    nav = re.search(rf'<nav class="tabs" aria-label="{label}">(.*?)</nav>', html, re.S)
    if nav is None:
        return None
    found = re.search(r'aria-current="page">([^<]+)</a>', nav.group(1))
    return unescape(found.group(1)) if found else None


def board_options(html: str) -> list[str]:
    found = re.search(r'<select id="board" name="board">(.*?)</select>', html, re.S)
    return re.findall(r'<option value="([a-z]+)"', found.group(1)) if found else []


def selected_choices(html: str) -> dict[str, str]:
    form = re.search(r'<section id="actions".*?</form>', html, re.S)
    if form is None:
        return {}
    chosen = {}
    for key, options in re.findall(
        r'<select id="c-[a-z]+" name="([a-z]+)">(.*?)</select>', form.group(0), re.S
    ):
        found = re.findall(r'<option value="([a-z_]*)" selected', options)
        assert len(found) <= 1
        if found:
            chosen[key] = found[0]
    return chosen


def oni_votes(html: str, slot_by_name) -> dict[str, set]:
    found = re.search(r"<h3>鬼サイドの投票</h3>(.*?)</ul>", html, re.S)
    if found is None:
        return {}
    votes = {}
    for name, items in re.findall(r"<li>(.+?): (.*?)</li>", found.group(1)):
        votes[slot_by_name[unescape(name)]] = set(unescape(items).split("、"))
    return votes


def render(client, clock, account, **query):
    headers = {"cookie": session_cookie(account, clock())} if account else {}
    path = "/villages/" + query.pop("vid")
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    response = client.http.get(path, headers=headers)
    assert response.status_code == 200, (path, account, text(response)[:300])
    return text(response)


# ----- the property -----


def check_viewer(client, clock, play: Play, record, account, boards=None, days=None) -> None:
    """Renders the village page for ``account`` (None: anonymous) on each board and day."""
    game = record.game
    state = record._meta.state
    ending = state in ("ending", "ended")
    phase = state if ending else record.rules.phase(record, clock()).value
    names = record.names()
    slot_by_name = {n: s for s, n in names.items()}
    slot = slot_of(play, account)
    side = game.sides[slot] if slot else None
    kind = (
        "visitor"
        if slot is None
        else f"{'dead' if slot in game.deaths else 'alive'} {'oni' if oni_side(side) else 'human'}"
    )
    play.seen.add((state, kind))
    may = readable(game, ending, slot)
    for board in boards or ["public", "oni", "grave", "inner"]:
        for day in days or [game.day]:
            inner_slots = [None]
            if ending and board == "inner" and account is None:
                inner_slots = list(SLOTS)  # everyone's inner board, one by one
            for inner_slot in inner_slots:
                query = {"vid": play.vid, "board": board, "day": day}
                if inner_slot:
                    query["of"] = inner_slot
                html = render(client, clock, account, **query)
                where = (account, board, day, inner_slot, state, phase)
                shown_board = board if board in may else "public"
                assert current(html, "掲示板") == BOARD_LABEL[shown_board], where
                shown_inner = None
                if ending and shown_board == "inner":
                    shown_inner = inner_slot or slot or SLOTS[0]
                    assert current(html, "だれの心の中") == names[shown_inner], where
                # Boards: exactly the markers this viewer may read on the board shown.
                expected = {
                    m.text
                    for m in play.markers
                    if m.day == day
                    and may_read(game, ending, slot, account, m, (shown_board, shown_inner))
                }
                assert set(MARKER.findall(html)) == expected, where
                if expected:
                    play.seen.add(("markers shown", shown_board))
                assert ("の初日ランダム占い先は" in html) == (shown_board == "oni" and day == 0), (
                    where
                )
                facts = (game, ending, phase, clock(), names, slot_by_name, slot)
                check_page_facts(play, facts, html, where)
                check_full_record(play, game, ending, names, slot_by_name, day, html, where)


def check_page_facts(play: Play, facts, html: str, where) -> None:
    """Sides, private panel, choices and forms: the same on every board of one viewer."""
    game, ending, phase, now, names, slot_by_name, slot = facts
    side = game.sides[slot] if slot else None
    # Sides: all in the ending; else the oni side's for an oni-side member, else its own.
    if ending:
        known = set(SLOTS)
    elif slot is None:
        known = set()
    elif oni_side(side):
        known = {s for s in SLOTS if oni_side(game.sides[s])}
    else:
        known = {slot}
    expected_sides = {s: SIDE_LABEL[game.sides[s]] if s in known else None for s in SLOTS}
    assert members_table(html, slot_by_name) == expected_sides, where
    for other in set(SLOTS) - known:
        assert f"{names[other]}（" not in html, where
    if ending:
        assert ("人間サイドの勝利" in html) != ("鬼サイドの勝利" in html), where

    # The private panel: only a member's own facts.
    if slot is None:
        assert "あなたの情報" not in html, where
        assert "役割:" not in html, where
        assert shown_private_lines(html) == {k: set() for k in shown_private_lines("")}, where
    else:
        assert re.findall(r"役割: <strong>(.+?)</strong>", html) == [SIDE_LABEL[side]], where
        assert ("鬼サイドの配置" in html) == oni_side(side), where
        assert ("占い師の初日ランダム占い先" in html) == oni_side(side), where
        expected = private_lines(game, names, slot)
        assert shown_private_lines(html) == expected, where
        for kind, lines in expected.items():
            if lines:
                play.seen.add(("private", kind))
        killer = re.findall(
            r"あなたは(\d+)日目の朝に(?:亡くなりました|裁かれ、灰になりました)。"
            r"(?:相手は(.+?)です|(実行犯として自分自身)を襲撃しました)。",
            html,
        )
        struck = [(m.day, m.killers[slot]) for m in game.mornings if slot in m.killers]
        told = []
        if struck:
            day, striker = struck[-1]
            told = [
                (str(day), "", "実行犯として自分自身")
                if striker == slot
                else (str(day), names[striker], "")
            ]
        assert killer == told, where
        if struck:
            play.seen.add(("private", "killer"))
        # Every dead member reads its own death, the judged (ash) too.
        deaths = re.findall(
            r"あなたは(\d+)日目の朝に(亡くなりました|裁かれ、灰になりました)。", html
        )
        died = [(m.day, str(m.deaths[slot])) for m in game.mornings if slot in m.deaths]
        ways = {"ash": "裁かれ、灰になりました", "corpse": "亡くなりました"}
        assert deaths == [(str(day), ways[kind]) for day, kind in died], where

    # Choices: one's own preselected; the oni side's shared votes to the oni side only.
    if slot is not None and not ending:
        form_keys = {k for k in re.findall(r'<select id="c-[a-z]+" name="([a-z]+)">', html)}
        own = {k: v for k, v in play.saved.get(slot, {}).items() if k in form_keys}
        assert selected_choices(html) == own, where
        if own:
            play.seen.add(("choices", "own"))
    votes = oni_votes(html, slot_by_name)
    if slot is not None and oni_side(side) and not ending:
        expected_votes = {
            s: {f"{ONI_SHARED[k]}→{names[v]}" for k, v in choices.items() if k in ONI_SHARED}
            for s, choices in play.saved.items()
            if s != slot and oni_side(game.sides[s])
        }
        assert votes == {s: v for s, v in expected_votes.items() if v}, where
        if votes:
            play.seen.add(("choices", "oni votes"))
    else:
        assert votes == {}, where
        assert "鬼サイドの投票" not in html, where

    # The post form offers exactly the boards the rules let this member write on now.
    if slot is not None:
        banned = slot == slot_of(play, play.takeover) and now < play.takeover_until
        assert board_options(html) == writable(game, phase, slot, banned), where


def check_full_record(play: Play, game, ending, names, slot_by_name, day, html, where) -> None:
    """The full record (全記録): nobody's before the ending, everyone's in it, and all of it:
    the day's draws at creation, deaths with kind and killer, every result and DM with its
    receiver, every member's saved choices."""
    section = re.search(r'<section id="record".*?</section>', html, re.S)
    if not ending:
        assert section is None and "全記録" not in html, where
        return
    assert section is not None, where
    play.seen.add(("full record", "shown"))
    shown = unescape(re.sub(r"<[^>]+>", "", section.group(0)))
    if day == 0:
        for seer, target in game.random_targets.items():
            verdict = "鬼" if game.sides[target] == "oni" else "人"
            assert f"{names[seer]}の初日ランダム占い先: {names[target]}（{verdict}）" in shown, (
                where
            )
    for m in (m for m in game.mornings if m.day == day):
        assert f"裁き: {names[m.judged]}" in shown, where
        for dead, kind in m.deaths.items():
            line = re.search(rf"{re.escape(names[dead])}: (灰|遺体)（(.*?)）(.*)", shown)
            assert line and line.group(1) == ("灰" if kind == "ash" else "遺体"), where
            killer = m.killers.get(dead)
            told = f"。本人に伝わった相手: {names[killer]}" if killer else ""
            assert line.group(3) == told, where
            play.seen.add(("full record", "death"))
        for reader, r in m.results.items():
            verdict = VERDICT_LABEL[str(r.verdict)]
            assert re.search(
                rf"{re.escape(names[reader])}へ（.+?）: {re.escape(names[r.target])}は{verdict}",
                shown,
            ), where
            play.seen.add(("full record", "result"))
        for reader, dm in m.dms.items():
            dm_line = f"{names[dm.writer]}から「{names[dm.names]}」"
            assert f"{names[reader]}へ（ダイイングメッセージ）: {dm_line}" in shown, where
    # Each day's choices, but for the last day of an ending by the update: it had no night.
    acted = day >= 1 and (day < game.day or game.ending.by != "elimination")
    assert ("日目の行動</h3>" in section.group(0)) == acted, where
    if acted:
        rows = re.findall(
            r'<li><span class="who">(.+?)</span>: (.*?)</li>',
            section.group(0).split("日目の行動</h3>", 1)[1],
        )
        listed = {slot_by_name[unescape(n)]: unescape(re.sub(r"<[^>]+>", "", c)) for n, c in rows}
        assert set(listed) == set(SLOTS), where
        for s in SLOTS:
            made = play.saved_by_day.get(day, {}).get(s, {})
            expected = {f"{CHOICE_LABEL[k]}→{names[v]}" for k, v in made.items()}
            assert set(listed[s].split("、")) == (expected or {"なし"}), (where, s)
            if made:
                play.seen.add(("full record", "choices"))


def write_markers(play: Play, clock) -> None:
    """Every member writes a marker on every board the rules open to it now (a day phase)."""
    game = load_village(play.vid).game
    for board in ("public", "oni", "grave", "inner"):
        for slot, account in play.seats.items():
            if account is None:
                continue
            side = game.sides[slot]
            dead = slot in game.deaths
            banned = account == play.takeover and clock() < play.takeover_until
            allowed = {
                "public": not dead and not banned,
                "oni": oni_side(side),
                "grave": dead and not oni_side(side),
                "inner": True,
            }[board]
            if allowed:
                marker = Marker(board, slot, account, game.day)
                posts.post(play.vid, account, board, marker.text, clock())
                play.markers.append(marker)
        clock.advance(timedelta(seconds=6))  # one post per member per 5 s


def save_random_choices(play: Play, clock) -> None:
    """Random legal choices for every member; commands rarely, never both at once."""
    game = load_village(play.vid).game
    play.saved = play.saved_by_day[game.day] = {}
    for slot, account in play.seats.items():
        if account is None:
            continue
        choices = {}
        for key in ("pray", "divine", "guard", "assassinate", "attack", "attacker", "dm", "force"):
            targets = game.legal_targets(slot, key)
            if targets and play.rng.random() < 0.8:
                choices[key] = play.rng.choice(targets)
        command = play.rng.choice(["victory", "resign"])
        targets = game.legal_targets(slot, command)
        if targets and play.rng.random() < 0.1:
            choices[command] = play.rng.choice(targets)
        if choices:
            actions.save_actions(play.vid, account, choices, clock())
            play.saved[slot] = choices
            if load_village(play.vid)._meta.state != "running":
                return  # a command took effect during the day: the ending began


def check_everyone(client, clock, play: Play, outsider: str, days=None) -> None:
    """Every viewer on every board: each member, the one who left, an outsider, anonymous."""
    record = load_village(play.vid)
    for account in play.seats.values():
        check_viewer(client, clock, play, record, account, days=days)
    for account in play.departed:
        check_viewer(client, clock, play, record, account, boards=["public", "oni", "inner"])
    check_viewer(client, clock, play, record, outsider, boards=["public", "grave"])
    check_viewer(client, clock, play, record, None, days=days)
    lounge = text(client.http.get("/"))
    assert not MARKER.search(lounge)
    assert not re.search(r"（(人|狂人|鬼)）", lounge)


def play_game(client, clock, seed: int) -> Play:
    rng = random.Random(seed)
    tag = f"s{seed}"
    players = [make_account(f"{tag}p{n:02d}", clock()) for n in range(13)]
    outsider = make_account(f"{tag}out", clock())
    newcomer = make_account(f"{tag}new", clock())
    vid = villages.create_village(
        villages.AskedVillage(pace="short", name="秘密の村"), now=clock(), rng=rng
    )
    seats = {}
    for n, (account, slot) in enumerate(zip(players, SLOTS, strict=True)):
        villages.join(vid, account, slot, YAMAZATO[n].key, clock())
        seats[slot] = account
    play = Play(vid, rng, seats)
    record = load_village(vid)
    game = record.game
    # The prologue: the oni world already holds the seers' random targets.
    first_oni = next(s for s in SLOTS if oni_side(game.sides[s]))
    first_human = next(s for s in SLOTS if not oni_side(game.sides[s]))
    check_viewer(client, clock, play, record, None, boards=["public", "oni"], days=[0])
    for slot in (first_oni, first_human):
        check_viewer(client, clock, play, record, seats[slot], days=[0])
    clock.advance(timedelta(hours=6))
    assert [h.kind for h in update.advance(vid, clock())] == ["started"]

    # Day 1 checked in the day, day 2 in loss time, day 3 at night; day 4 the oni side resigns.
    checkpoints = {1: timedelta(minutes=5), 2: timedelta(minutes=50), 3: timedelta(minutes=57)}
    for day in range(1, DAYS + 2):
        record = load_village(vid)
        if record._meta.state != "running":
            break  # the game ended at the update
        game = record.game
        start = record._meta.day_started_at
        clock.now = start + timedelta(minutes=1)
        if day > DAYS:
            # Three of the oni side resign during the day: the ending starts at once.
            for slot in [s for s in SLOTS if oni_side(game.sides[s])][:3]:
                actions.save_actions(vid, seats[slot], {"resign": slot}, clock())
                play.saved_by_day.setdefault(day, {})[slot] = {"resign": slot}
            break
        if day == 2:
            # A living member leaves (ID lock); a newcomer takes the vacant seat over.
            slot = rng.choice(sorted(game.alive))
            villages.leave(vid, seats[slot], clock())
            play.departed.append(seats[slot])
            villages.join(vid, newcomer, slot, "", clock())
            seats[slot] = newcomer
            play.takeover = newcomer
            play.takeover_until = clock() + timedelta(minutes=10)
        write_markers(play, clock)
        save_random_choices(play, clock)
        if load_village(vid)._meta.state != "running":
            break  # a random command took effect during the day
        clock.now = start + checkpoints[day]
        if day == 1:
            # Nobody is dead yet: a few viewers suffice.
            record = load_village(vid)
            for slot in (first_oni, first_human, rng.choice(SLOTS)):
                check_viewer(client, clock, play, record, seats[slot])
            check_viewer(client, clock, play, record, None)
        else:
            # On day 3, an earlier day too: secrets of the past stay secret.
            days = [day] if day == 2 else [day, rng.randrange(day)]
            check_everyone(client, clock, play, outsider, days=days)
        clock.now = load_village(vid)._meta.next_update
        update.advance(vid, clock())

    # The ending: every board and side open to everyone.
    record = load_village(vid)
    assert record._meta.state == "ending", record._meta.state
    clock.advance(timedelta(minutes=1))
    some_day = [rng.randrange(record.game.day + 1)]
    for account in [*seats.values(), *play.departed, outsider]:
        check_viewer(client, clock, play, record, account, boards=["public"], days=some_day)
    for account in (None, *rng.sample(list(seats.values()), 2)):
        check_viewer(client, clock, play, record, account, days=some_day)
    # The full record of every day, as a visitor reads it.
    check_viewer(
        client, clock, play, record, None, boards=["public"], days=range(record.game.day + 1)
    )
    # Ended: a read-only log, still all open.
    clock.now = record._meta.next_update
    update.advance(vid, clock())
    record = load_village(vid)
    assert record._meta.state == "ended"
    check_viewer(client, clock, play, record, None, boards=["oni", "grave"], days=[1])
    check_viewer(client, clock, play, record, seats["seer_a"], boards=["inner"], days=[1])
    return play


def test_no_page_shows_a_viewer_what_the_rules_keep_from_it(client, clock):
    """Every viewer, board and phase; the full record (全記録) too: nobody's before the ending."""
    seen = set()
    for seed in SEEDS:
        fresh_table()
        # A worker thread starts from a shallow stack: under pytest's deep one, CPython 3.11
        # kept freeing and remapping a frame-stack chunk in the requests' hot recursion, and
        # the run spent as long in mmap/munmap as in Python.
        with ThreadPoolExecutor(max_workers=1) as worker:
            play = worker.submit(play_game, client, clock, seed).result()
        # Each run exercised what it claims to: each kind of viewer and of secret.
        assert {
            ("opening", "visitor"),
            ("running", "visitor"),
            ("running", "alive human"),
            ("running", "alive oni"),
            ("running", "dead human"),
            ("ending", "visitor"),
            ("ending", "dead human"),
            ("ended", "visitor"),
        } <= play.seen, seed
        assert {("private", "result"), ("private", "random"), ("choices", "own")} <= play.seen
        assert ("choices", "oni votes") in play.seen, seed
        assert {
            ("full record", "shown"),
            ("full record", "death"),
            ("full record", "result"),
            ("full record", "choices"),
        } <= play.seen, seed
        for board in ("public", "oni", "grave", "inner"):
            assert ("markers shown", board) in play.seen, seed
        seen |= play.seen
    # Over the seeds, the rarer cases come up too.
    assert ("running", "dead oni") in seen
    assert ("private", "killer") in seen
    assert ("private", "empathy") in seen
