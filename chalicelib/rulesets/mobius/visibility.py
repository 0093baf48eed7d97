"""The Mobius rule set's one place that decides who sees and writes what (RULES §8). Pure.

Every page, mail and API answer asks this module; nothing else decides secrecy.
"""

import copy
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field
from msgspec.structs import asdict

from ...clock import jst
from ...rules.mobius import CHOICE_KEYS, JOBS, PARTNERS, SLOTS, Village, is_oni_side
from ..base import Bans, Viewer
from .timeline import Phase

if TYPE_CHECKING:
    from ..turns import SeatClock
    from .chronicle import RecordDay


class Board(StrEnum):
    PUBLIC = "public"
    ONI = "oni"
    GRAVE = "grave"
    INNER = "inner"


# Choice keys of one oni-side member that the rest of the oni side may read.
ONI_SHARED_CHOICES = ("attack", "attacker", "victory", "resign", "force")

OPEN_PHASES = (Phase.ENDING, Phase.ENDED)  # every log is readable by everyone


def _oni_side(game: Village, viewer: Viewer) -> bool:
    return viewer.slot is not None and is_oni_side(game.sides[viewer.slot])


def _dead(game: Village, viewer: Viewer) -> bool:
    return viewer.slot is not None and viewer.slot in game.deaths


def readable_boards(game: Village, phase: Phase, viewer: Viewer) -> list[Board]:
    if phase in OPEN_PHASES:
        return list(Board)
    boards = [Board.PUBLIC]
    if viewer.visitor:
        return boards
    if _oni_side(game, viewer):
        boards.append(Board.ONI)
    elif _dead(game, viewer):
        boards.append(Board.GRAVE)
    boards.append(Board.INNER)
    return boards


def write_refusal(
    game: Village, phase: Phase, viewer: Viewer, board: Board, bans: Bans, now: datetime
) -> str | None:
    """Why ``viewer`` may not write on ``board`` now (a Japanese sentence), or None."""
    if phase in (Phase.ENDED, Phase.ABANDONED):
        return "この村は終わっています。書き込みはできません"
    if viewer.visitor:
        return "書き込むには村に参加してください"
    if bans.speech_until and now < bans.speech_until:
        return f"参加から10分間は発言できません（{jst(bans.speech_until)}まで）"
    if board is Board.INNER:
        return None
    if phase is Phase.ENDING:
        return None if board is Board.PUBLIC else "エンディングでは表に書き込んでください"
    if board is Board.PUBLIC:
        if _dead(game, viewer):
            return "死んだキャラクターは表に書き込めません"
        if phase not in (Phase.OPENING, Phase.DAY):
            return "〆切を過ぎたので表には書き込めません"
        if bans.public_until and now < bans.public_until:
            return f"途中参加のため、しばらく表には書き込めません（{jst(bans.public_until)}まで）"
        return None
    if board is Board.ONI:
        if not _oni_side(game, viewer):
            return "鬼の世界には鬼サイドだけが書き込めます"
        if phase not in (Phase.OPENING, Phase.DAY, Phase.LOSS_TIME):
            return "ロスタイムが終わったので鬼の世界には書き込めません"
        return None
    if _oni_side(game, viewer) or not _dead(game, viewer):
        return "墓の下には死んだ人間サイドだけが書き込めます"
    if phase not in (Phase.DAY, Phase.LOSS_TIME):
        return "ロスタイムが終わったので墓の下には書き込めません"
    return None


def sides_shown(game: Village, phase: Phase, viewer: Viewer) -> dict[str, str]:
    """The sides a viewer knows: all in the ending, the placement for the oni side, else its own."""
    if phase in OPEN_PHASES:
        return {slot: str(side) for slot, side in game.sides.items()}
    if viewer.visitor:
        return {}
    if _oni_side(game, viewer):
        return {s: str(game.sides[s]) for s in SLOTS if is_oni_side(game.sides[s])}
    assert viewer.slot is not None
    return {viewer.slot: str(game.sides[viewer.slot])}


class Private(Struct):
    """Everything a member alone may know (RULES §2, §5, §8), by the morning it arrived."""

    slot: str
    side: str
    placement: dict[str, str] = field(default_factory=dict)  # oni side: oni and madman slots
    random_targets: dict[str, str] = field(default_factory=dict)  # oni side: both seers'
    random_divination: dict[str, str] | None = None  # own day-0 result (a seer, from day 1)
    empathy: dict[str, str] | None = None  # own empathy (an empath alive at day 1)
    results: dict[int, dict[str, str]] = field(default_factory=dict)  # day -> target, verdict
    dms: dict[int, dict[str, str]] = field(default_factory=dict)  # day -> from, names
    killer: dict[str, str | int] | None = None  # who struck / whom intercepted, and the day
    # Own death: the morning and its kind (ash: judged, as the public report says; corpse).
    death: dict[str, str | int] | None = None
    attacks: dict[int, dict[str, str]] = field(default_factory=dict)  # oni side: each draw


def private(game: Village, viewer: Viewer) -> Private | None:
    """The private panel of a member; None for a visitor."""
    slot = viewer.slot
    if slot is None:
        return None
    info = Private(slot=slot, side=str(game.sides[slot]))
    if _oni_side(game, viewer):
        info.placement = {s: str(game.sides[s]) for s in SLOTS if is_oni_side(game.sides[s])}
        info.random_targets = dict(game.random_targets)
        info.attacks = {
            m.day: {"target": m.attack.target, "attacker": m.attack.attacker}
            for m in game.mornings
            if m.attack is not None
        }
    if game.day >= 1:
        if slot in game.random_targets:
            result = game.random_divination()[slot]
            info.random_divination = {"target": result.target, "verdict": result.verdict}
        empathy = game.empathy().get(slot)
        if empathy is not None:
            info.empathy = {"target": empathy.target, "verdict": empathy.verdict}
    for morning in game.mornings:
        if slot in morning.results:
            info.results[morning.day] = morning.results[slot].to_json()
        if slot in morning.dms:
            dm = morning.dms[slot]
            info.dms[morning.day] = {"from": dm.writer, "names": dm.names}
        if slot in morning.killers:
            info.killer = {"slot": morning.killers[slot], "day": morning.day}
        if slot in morning.deaths:
            info.death = {"kind": str(morning.deaths[slot]), "day": morning.day}
    return info


def choices_shown(game: Village, viewer: Viewer, owner: str) -> tuple[str, ...]:
    """Which of ``owner``'s choice keys ``viewer`` may read (before the update)."""
    if viewer.slot is None:
        return ()
    if viewer.slot == owner:
        return CHOICE_KEYS
    if _oni_side(game, viewer) and is_oni_side(game.sides[owner]):
        return ONI_SHARED_CHOICES
    return ()


def public_deaths(game: Village) -> dict[int, dict[str, str]]:
    """The public morning report: ash and corpses only, no causes, no killers (RULES §4.3)."""
    return {m.day: {slot: str(kind) for slot, kind in m.deaths.items()} for m in game.mornings}


def full_record(
    game: Village, phase: Phase, saved: Callable[[], Mapping[int, Mapping[str, Mapping[str, str]]]]
) -> list["RecordDay"] | None:
    """The full record (全記録): every member's choices, every draw, result and death, by day.

    Readable by everyone once every log is open (the ending and the log: RULES §2.5, §8),
    and by nobody before, not even its own parts: a member's own facts reach it only
    through ``private``. ``saved`` gives every day's choices; it is called only for an open
    record, since past days cost a read of their own.
    """
    if phase not in OPEN_PHASES:
        return None
    from . import chronicle  # the full record: only an ended game's pages show it

    return chronicle.build(game, saved())


def heard_by(
    game: Village, phase: Phase, viewer: Viewer, posts: Iterable[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Of ``posts``, those ``viewer`` may read now on the shared boards (RULES §8: the public
    board, the oni world for the oni side, the grave for the dead human side); an inner
    board is never read, not even its own (a computer reads the talk, not its notes)."""
    boards = {b.value for b in readable_boards(game, phase, viewer) if b is not Board.INNER}
    return [dict(post) for post in posts if post["board"] in boards]


def seat_view(
    game: Village,
    phase: Phase,
    slot: str,
    *,
    names: Mapping[str, str],
    computers: Iterable[str],
    saved: Mapping[str, Mapping[str, str]],
    bans: Bans,
    clock: "SeatClock",
    heard: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Everything the member in ``slot`` may know now, as plain data of its own (a deep copy):
    what a computer member plays from, and nothing more than that seat's page shows it.

    Its job and side, the public names and deaths, its private panel (the oni side's
    placement, random targets and attack draws; its own results, DMs and killer), the
    targets it may choose for each action now, its own choices of today and the oni side's
    shared votes (``choices_shown``), the boards it may write on now, today's posts it may
    read (``heard_by``), and its ``clock`` (``saved``: today's saved choices of every member;
    ``heard``: today's posts, ``{"board", "slot", "text", "at"}``, oldest first)."""
    viewer = Viewer(slot=slot)
    info = private(game, viewer)
    assert info is not None
    shown = {
        owner: {k: v for k, v in choices.items() if k in choices_shown(game, viewer, owner)}
        for owner, choices in saved.items()
    }
    view = {
        "slot": slot,
        "job": str(JOBS[slot]),
        "side": str(game.sides[slot]),
        "partner": PARTNERS.get(slot),  # public: the pairs are the cast's (RULES §1)
        "day": game.day,
        "phase": str(phase),
        "names": dict(names),
        "computers": sorted(computers),  # public: every page marks a computer member
        "deaths": public_deaths(game),
        "alive": [s for s in SLOTS if s not in game.deaths],
        "private": asdict(info),
        "legal": {key: game.legal_targets(slot, key) for key in CHOICE_KEYS},
        "own": shown.get(slot, {}),
        "team": {owner: votes for owner, votes in shown.items() if owner != slot and votes},
        "writable": [
            board.value
            for board in Board
            if write_refusal(game, phase, viewer, board, bans, clock.now) is None
        ],
        "heard": heard_by(game, phase, viewer, heard),
        "clock": asdict(clock),
    }
    return copy.deepcopy(view)
