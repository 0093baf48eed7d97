"""A game's seats: a new game (against the computer, or its seat open to an invited person or
to the public rooms' list), the invited person sitting, the invitation taken back, the rooms
waiting and a player's latest games, and a guest's games adopted by the account it logs in
to (decision 192)."""

import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from ... import rulesets, runtime, timecontrol
from ...rulesets.match import MatchComputerPlay, MatchRules
from ...storage import matches as store
from ...storage.errors import Refused
from ..errors import Conflict, Forbidden, InvalidInput, NotFound
from .clock import Clock, clock_after, watched
from .ending import ending_records
from .game import (
    COMPUTER,
    OPEN,
    Match,
    chance_of,
    expired,
    kept,
    loaded,
    mail_owed,
    owe_mail,
    owe_watch,
)
from .play import computer_replies

if TYPE_CHECKING:  # the unit loads games through this package
    from ..unit import Unit

# A new game's other side: the computer, a person invited by the link, or anyone taking the
# seat from the public rooms' list (「ルームに参加」).
OPPONENTS = ("cpu", "invite", "room")
ROOMS_LISTED = 20  # the top page lists the latest rooms waiting
ROOM_WAITS = timedelta(hours=24)  # a room nobody took in this long leaves the list


class MoreSetup(Exception):
    """The person must choose more before the game exists (the rule set's ``further_setup``):
    its page's template and context, and the choices made so far (the side drawn fixed)."""

    def __init__(self, template: str, context: dict[str, Any], given: dict[str, str]) -> None:
        super().__init__(template)
        self.template, self.context, self.given = template, context, given


def start(
    rules_name: str,
    given: Mapping[str, str],
    player: str,
    now: datetime,
    unit: "Unit",
) -> str:
    """A new game (against the computer, or its seat open to an invited person or the rooms'
    list); the computer's opening moves are played at once. Its clock's watch is owed on
    ``unit``."""
    rules, setup, control_key = _chosen(rules_name, given)
    control = timecontrol.CONTROLS[control_key]
    chance = random.SystemRandom()
    side = setup["side"] if setup["side"] in rules.sides else chance.choice(rules.sides)
    opponent = given.get("opponent", "cpu")
    if opponent not in OPPONENTS:
        raise InvalidInput("相手を CPU・招待する人・ルームに公開から選んでください")
    ranked = given.get("ranked") == "1"
    if ranked:
        _check_ranked(player, opponent, control)
    further = rules.further_setup(setup, side)
    if further is not None:
        raise MoreSetup(rules.setup_template, further, {**given, "side": side})
    other = COMPUTER if opponent == "cpu" else OPEN
    players = {s: (player if s == side else other) for s in rules.sides}
    kept_setup = {
        **{k: v for k, v in setup.items() if k != "private"},
        "side": side,
        "clock": control_key,
        "opponent": opponent,
        **({"ranked": True} if ranked else {}),
    }
    new, opening, clock = _dealt(rules, setup, players, control, kept_setup, now)
    meta = store.create_match(
        new, opening, {side: player}, kept(players, now), room=opponent == "room"
    )
    created = unit.created(Match(meta))
    owe_watch(created, len(opening), clock.flag)
    return created.match_id


def _chosen(
    rules_name: str, given: Mapping[str, str]
) -> tuple[MatchRules[Any], dict[str, Any], str]:
    """The rule set ``given`` names, its setup as that rule set checked it, and the time
    control's key."""
    try:
        rules = rulesets.match_rules(rules_name)
    except ValueError:
        raise InvalidInput("そのゲームはありません") from None
    try:
        setup = rules.check_setup(given)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    control_key = given.get("clock", "none")
    if control_key not in timecontrol.CONTROLS:
        raise InvalidInput("持ち時間を選んでください")
    return rules, setup, control_key


def _dealt(
    rules: MatchComputerPlay[Any],
    setup: dict[str, Any],
    players: dict[str, str],
    control: timecontrol.TimeControl | None,
    kept_setup: dict[str, Any],
    now: datetime,
) -> tuple[store.NewMatch, list[store.NewMove], Clock]:
    """The new game, not yet written: its own seed's deal, the computer's opening
    moves (also stored), the clocks of the side to move."""
    strength = setup["strength"] if COMPUTER in players.values() else None
    seed = secrets.randbits(62)
    game = rules.create(setup, chance_of(seed, 0))
    game, opening = computer_replies(rules, game, players, strength or "", seed, 0, now)
    banks = {s: float(control.bank) for s in rules.sides} if control else {}
    byoyomi = control.byoyomi if control else 0
    clock = clock_after(rules, game, players, banks, byoyomi, now)
    new = store.NewMatch(
        secrets.token_urlsafe(12),
        rules.name,
        seed=seed,
        game=rules.dump(game),
        players=players,
        setup=kept_setup,
        strength=strength,
        now=now,
        banks=banks,
        byoyomi=byoyomi,
        turn_since=clock.since,
        flag_at=clock.flag,
        ended=rules.to_move(game) is None,
    )
    return new, opening, clock


def _check_ranked(player: str, opponent: str, control: timecontrol.TimeControl | None) -> None:
    """A ranked game is between two accounts with a clock (decision 64): its ratings must
    mean something, and a game without a clock could wait for ever."""
    from .. import records  # only what involves an account's records (cold start)

    if records.account_of(player) is None:
        raise InvalidInput("ランク戦はログインしてから作成してください")
    if opponent == "cpu":
        raise InvalidInput(
            "ランク戦は人どうしの対局です。相手を「招待する人」か「ルームに公開」にしてください"
        )
    if control is None:
        raise InvalidInput("ランク戦には持ち時間を選んでください(持ち時間なしでは作れません)")


def join(
    match: Match,
    player: str,
    now: datetime,
    identities: Sequence[str] = (),
) -> str:
    """The invited person takes the open seat (once: the seat must still be open); the
    clocks start now. Returns the side taken. ``identities``: every identity the joining
    browser holds besides ``player`` (its account, the guest id still in its cookie): none
    of them may hold the other seat, or one person would play both sides."""
    from .. import records  # only what involves an account's records (cold start)

    side = match.open_side
    if side is None:
        raise Conflict("この対局にはもう空いている席がありません")
    if match.side_of([player, *identities]) is not None:
        raise Conflict("自分の対局には参加できません。相手に招待リンクを送ってください")
    if match.ranked and records.account_of(player) is None:
        raise Forbidden("ランク戦です。参加するにはログインしてください")
    players = {**match.players, side: player}
    clock = clock_after(
        match.rules,
        match.game,
        players,
        match.banks,
        match.record.byoyomi,
        now,
        match.ranked,
    )
    mail = mail_owed(match, players, match.game, side, match.moves, now, turn="start")
    presence = match.presence_after(players, match.game, now)
    try:
        store.take_seat(
            match.record,
            side,
            player,
            turn_since=clock.since,
            flag_at=clock.flag,
            kept=kept(players, now),
            mail=mail,
            presence=presence,
        )
    except Refused:
        raise Conflict("この対局にはもう空いている席がありません") from None
    owe_mail(match, mail)
    owe_watch(match, match.moves, watched(clock.flag, presence))
    return side


MOST_MOVES_CANCELLED = 90  # a transaction writes at most 100 items


def cancel(match: Match, who: list[str]) -> None:
    """The person who made an invitation (or a room) takes it back while its seat waits: the
    game is gone and its link leads nowhere (decision 63)."""
    side = match.side_of(who)
    if side is None:
        raise Forbidden("この対局の対局者ではありません")
    waiting = match.open_side
    if waiting is None or match.ended:
        raise Conflict("相手がもう席に着いたので、招待は取り消せません")
    if match.moves > MOST_MOVES_CANCELLED:
        raise Conflict("この対局は手が進んでいるため取り消せません。投了してください")
    try:
        store.cancel(match.record, match.players[side], waiting)
    except Refused:
        raise Conflict("相手がもう席に着いたので、招待は取り消せません") from None


class Room(Struct, frozen=True):
    """A public room on the top page: the game, the seat it offers, its clock, since when."""

    match_id: str
    title: str
    side: str  # the open seat, in its rule set's words
    clock: str
    created_at: datetime
    ranked: bool


def rooms(players: list[str], now: datetime) -> list[Room]:
    """Public rooms still waiting for an opponent (not this browser's own), newest first."""
    found = []
    for record in store.rooms(now - ROOM_WAITS, ROOMS_LISTED):
        match = Match(record)
        side = match.open_side
        if match.ended or side is None or match.side_of(players) or expired(record.expires_at, now):
            continue
        offer = match.rules.offer()
        setup = record.setup
        preset = dict(offer.presets).get(str(setup.get("preset", "")), "")
        found.append(
            Room(
                match.match_id,
                f"{offer.label}・{preset}" if preset else offer.label,
                dict(offer.sides).get(side, side),
                timecontrol.LABELS.get(str(setup.get("clock", "none")), ""),
                record.created_at,
                match.ranked,
            )
        )
    return found


class Listed(Struct, frozen=True):
    """A game on its player's list: where it is, what it is, which side."""

    match_id: str
    title: str  # the game and its preset, in its rule set's words
    side: str  # the side, in its rule set's words
    created_at: datetime


MY_GAMES = 10  # the top page lists a player's latest games


def games_of(players: list[str]) -> list[Listed]:
    """The latest games of this browser's identities (its account, its guest id)."""
    now = runtime.now()
    found = [
        entry
        for player in players
        for entry in store.matches_of(player, MY_GAMES)
        if not expired(entry.expires_at, now)
    ]
    found.sort(key=lambda entry: entry.created_at, reverse=True)
    listed = []
    for entry in found[:MY_GAMES]:
        offer = rulesets.match_rules(entry.rules).offer()
        preset = dict(offer.presets).get(entry.setup.get("preset", ""), "")
        title = f"{offer.label}・{preset}" if preset else offer.label
        side = dict(offer.sides).get(entry.side, entry.side)
        listed.append(Listed(entry.match_id, title, side, entry.created_at))
    return listed


# The guest games a login takes over, newest first: a guest's list is what its cookie kept.
ADOPTED_AT_MOST = 100


def adopt(guest: str, account_id: str, now: datetime) -> int:
    """The browser's guest games become the account's when it logs in or signs up there
    (decision 192): each seat the guest holds, unless the account holds the game's other
    seat (no game against itself: that game stays the guest's, still open to this browser);
    an ended game enters the account's records then. A game whose write comes first (a move,
    a second login) is left to the next login. Returns how many were adopted."""
    player, account = f"g:{guest}", f"a:{account_id}"
    adopted = 0
    for listed in store.matches_of(player, ADOPTED_AT_MOST):
        try:
            match = loaded(store.load_match(listed.match_id))
        except NotFound:
            continue  # past its TTL
        side = listed.side
        if match.players.get(side) != player or account in match.players.values():
            continue
        players = {**match.players, side: account}
        at = match.record.updated_at or now
        counted = ending_records(match, match.game, at, match.aborted, players, {side})
        try:
            store.adopt_seat(match.record, side, player, account, counted)
        except Refused:
            continue
        adopted += 1
    return adopted
