"""An account's records of games played move by move (戦績・実績, decisions 66–68): what a
game's end adds to each account's aggregate (counts by side, preset and opponent; the
achievements; for a ranked game, the ratings through openskill), written in the end's own
transaction, and what the records page shows.

Ratings: openskill's Plackett–Luce model on a scale centred at 1500 (its defaults × 60),
one rating per account overall and one per side; a ranked game rates the two players'
overall ratings against each other and the A player's A rating against the B player's B
rating. A win for neither side (a third party's, the duel's fox) is a draw between them.
"""

import copy
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from .. import rulesets
from ..rulesets.match import MatchRules, Offer
from ..storage import records as store
from ..storage.keys import key_time, time_key

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

MU, SIGMA = 1500.0, 500.0  # a new account's rating
ALL = "all"  # the overall rating's key beside the sides'
HISTORY_SHOWN = 30  # the records page lists the latest ranked games
CORRESPONDENCE_FEAT = 10  # 「通信対局10局」
# The same two accounts' ranked games are rated at most this many times in any day.
PAIR_RATED_A_DAY = 2
PAIR_WINDOW = timedelta(days=1)


class Ended(Struct, frozen=True):
    """A game at its end, as the records read it."""

    rules: MatchRules[Any]
    match_id: str
    players: Mapping[str, str]  # side -> "a:<account>", "g:<guest>" or "cpu"
    preset: str | None
    strength: str | None  # the computer's, when it played
    ranked: bool
    correspondence: bool
    game: Any  # ended
    at: datetime


def account_of(player: str) -> str | None:
    """The account a seat's player is (``a:<account>``), or None (a guest, the computer)."""
    return player.removeprefix("a:") if player.startswith("a:") else None


def opponent_key(player: str, strength: str | None) -> str:
    """How the records file an opponent: an account, any guest, or the computer's strength."""
    if player == "cpu":
        return f"cpu:{strength or ''}"
    return player if account_of(player) else "guest"


def ending(ended: Ended, sides: Collection[str] | None = None) -> list[store.RecordWrite]:
    """What the end writes for each seat an account plays (every account's record read
    consistently in one request: the write is conditioned on these versions, so a concurrent
    end of the same account's other game refuses it and it is made again from fresh reads).
    ``sides``: only these seats' (a guest's seat its account adopts after the end)."""
    rules = ended.rules
    accounts = {
        s: a
        for s, p in ended.players.items()
        if (a := account_of(p)) is not None and (sides is None or s in sides)
    }
    stored = store.load_all(list(accounts.values()), rules.name)
    read = {s: stored[a] for s, a in accounts.items()}
    results = {s: rules.outcome(ended.game, s) or "loss" for s in rules.sides}
    both = ended.ranked and len(read) == len(rules.sides)
    rated = _ratings(ended, read, results) if both and _pair_rated(ended, read) else {}
    writes = []
    for side, account in accounts.items():
        data = _counted(copy.deepcopy(read[side].data), ended, side, results[side])
        entry = None
        if side in rated:
            before = data.get("ratings", {})
            data["ratings"] = {**before, **rated[side]}
            data["rated_with"] = _rated_with(data, _other_player(ended, side), ended.at)
            entry = store.Rated(
                ended.match_id,
                side,
                _result(results, side),
                _other_player(ended, side),
                {**rated[side], "before": {k: _mu(before.get(k)) for k in rated[side]}},
                ended.at,
            )
        writes.append(store.RecordWrite(account, rules.name, data, read[side].version, entry))
    return writes


def _pair_rated(ended: Ended, read: Mapping[str, store.Record]) -> bool:
    """Whether a ranked game between two accounts moves their ratings: only the first
    ``PAIR_RATED_A_DAY`` of the pair's games ending within a day do (decision 150), so that
    two accounts playing each other over and over cannot pump one rating up. Read from the
    record the end has read already (and is conditioned on), not from the history."""
    side = ended.rules.sides[0]
    opponent = _other_player(ended, side)
    return len(_rated_with(read[side].data, opponent, ended.at)[opponent]) <= PAIR_RATED_A_DAY


def _rated_with(data: Mapping[str, Any], opponent: str, at: datetime) -> dict[str, list[str]]:
    """The account's rated games of the last day by opponent, this one (at ``at``) with
    them: {opponent: [time keys]}, older entries dropped."""
    since = time_key(at - PAIR_WINDOW)
    kept = {
        who: recent
        for who, times in data.get("rated_with", {}).items()
        if (recent := [t for t in times if t > since])
    }
    kept[opponent] = [*kept.get(opponent, []), time_key(at)]
    return kept


def _mu(rating: list[float] | None) -> float | None:
    return rating[0] if rating else None


def _other_player(ended: Ended, side: str) -> str:
    return next(p for s, p in ended.players.items() if s != side)


def _result(results: Mapping[str, str], side: str) -> str:
    """win, loss, or draw when nobody won (a third party's win is a loss for both)."""
    if "win" not in results.values():
        return "draw"
    return results[side]


def _bump(bucket: dict[str, int], result: str) -> None:
    bucket["games"] = bucket.get("games", 0) + 1
    key = "wins" if result == "win" else "losses"
    bucket[key] = bucket.get(key, 0) + 1


def _counted(data: dict[str, Any], ended: Ended, side: str, result: str) -> dict[str, Any]:
    """The aggregate with this game counted, and the achievements it earned."""
    offer = ended.rules.offer()
    opponent = opponent_key(_other_player(ended, side), ended.strength)
    _bump(data.setdefault(ALL, {}), result)
    _bump(data.setdefault("sides", {}).setdefault(side, {}), result)
    if ended.preset:
        _bump(data.setdefault("presets", {}).setdefault(ended.preset, {}), result)
    _bump(data.setdefault("opponents", {}).setdefault(opponent, {}), result)
    if ended.ranked:
        _bump(data.setdefault("ranked", {}), result)
    if ended.correspondence:
        data["correspondence"] = data.get("correspondence", 0) + 1
    earned = set(ended.rules.feats(ended.game, side))
    if result == "win":
        earned.add(f"win:{side}")
        if ended.ranked:
            earned.add("ranked_win")
        strongest = offer.strengths[-1][0] if offer.strengths else None
        if opponent == f"cpu:{strongest}":
            earned.add("strongest_cpu")
    if data.get("correspondence", 0) >= CORRESPONDENCE_FEAT:
        earned.add("correspondence_10")
    presets = data.get("presets", {})
    if all(presets.get(p, {}).get("wins", 0) for p, _ in offer.presets):
        earned.add("every_preset")
    achievements = data.setdefault("achievements", {})
    for key in sorted(earned):
        achievements.setdefault(key, time_key(ended.at))
    return data


@cache
def model() -> "PlackettLuce":
    """The rating model, made at the first ranked end: no other request rates anyone."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=250.0, tau=5.0)


def _rating(data: Mapping[str, Any], key: str) -> Any:
    mu, sigma = data.get("ratings", {}).get(key) or (MU, SIGMA)
    return model().create_rating([float(mu), float(sigma)])


def _ratings(
    ended: Ended, read: Mapping[str, store.Record], results: Mapping[str, str]
) -> dict[str, dict[str, list[float]]]:
    """Each side's overall and side ratings after the game, [mu, sigma]."""
    sides = list(ended.rules.sides)
    ranks = [1.0 if _result(results, s) in ("win", "draw") else 2.0 for s in sides]
    after: dict[str, dict[str, list[float]]] = {s: {} for s in sides}
    for key_of in (lambda s: ALL, lambda s: s):
        teams = [[_rating(read[s].data, key_of(s))] for s in sides]
        for side, [new] in zip(sides, model().rate(teams, ranks=ranks), strict=True):
            after[side][key_of(side)] = [new.mu, new.sigma]
    return after


# ----- the records page -----


class Line(Struct, frozen=True):
    """One row of a table of counts."""

    label: str
    games: int
    wins: int
    losses: int


class Feat(Struct, frozen=True):
    title: str
    how: str
    earned: datetime | None


class Rating(Struct, frozen=True):
    label: str
    value: int  # mu, rounded
    spread: int  # ±2 sigma, rounded


class HistoryRow(Struct, frozen=True):
    match_id: str
    side: str
    result: str
    opponent: str
    overall: int
    overall_change: int
    at: datetime


class Records(Struct, frozen=True):
    """One rule set's records of an account, in words."""

    label: str
    total: Line
    sides: list[Line]
    presets: list[Line]
    opponents: list[Line]
    correspondence: int
    ranked: Line
    ratings: list[Rating]
    history: list[HistoryRow]
    feats: list[Feat]


def _line(label: str, bucket: Mapping[str, int] | None) -> Line:
    b = bucket or {}
    return Line(label, b.get("games", 0), b.get("wins", 0), b.get("losses", 0))


def _opponent_label(key: str, strengths: Mapping[str, str]) -> str:
    if key.startswith("cpu:"):
        return f"CPU({strengths.get(key[4:], key[4:])})"
    return "ゲスト" if key == "guest" else key.removeprefix("a:")


def feats_of(offer: Offer, sides: Sequence[str]) -> list[tuple[str, str, str]]:
    """Every achievement, (key, title, what earns it): the platform's, then the game's
    (``offer``: the game's, for its sides' words, its strengths and feats)."""
    strongest = offer.strengths[-1][1] if offer.strengths else ""
    words = dict(offer.sides)
    return [
        *((f"win:{s}", f"はじめての勝利・{words[s]}", f"{words[s]}で1勝する") for s in sides),
        ("ranked_win", "ランク戦はじめての勝利", "ランク戦で1勝する"),
        ("strongest_cpu", f"CPU「{strongest}」に勝利", f"強さ「{strongest}」のCPUに勝つ"),
        ("every_preset", "全配役制覇", "すべての配役で1勝ずつする"),
        ("correspondence_10", "通信対局10局", "1手1日の対局を10局終える"),
        *offer.feats,
    ]


def records_of(account_id: str, rules_name: str) -> Records:
    """The account's records in one rule set: one GetItem and one query."""
    rules = rulesets.match_rules(rules_name)
    offer = rules.offer()
    data = store.load(account_id, rules_name).data
    sides = dict(offer.sides)
    strengths = dict(offer.strengths)
    ratings = data.get("ratings", {})
    sides_played = data.get("sides", {})
    shown = [(ALL, "総合"), *((s, sides[s]) for s in rules.sides)]
    rows = []
    history = store.history(account_id, rules_name, HISTORY_SHOWN)
    for rated in history:
        was = rated.ratings.get("before", {}).get(ALL) or MU  # None: the first
        now = rated.ratings[ALL][0]
        rows.append(
            HistoryRow(
                rated.match_id,
                sides.get(rated.side, rated.side),
                {"win": "勝ち", "loss": "負け", "draw": "引き分け(第三陣営の勝ち)"}[rated.result],
                _opponent_label(rated.opponent, strengths),
                round(now),
                round(now) - round(float(was)),
                rated.at,
            )
        )
    earned = data.get("achievements", {})
    return Records(
        label=offer.label,
        total=_line("すべて", data.get(ALL)),
        sides=[_line(sides[s], sides_played.get(s)) for s in rules.sides],
        presets=[_line(w, data.get("presets", {}).get(p)) for p, w in offer.presets],
        opponents=sorted(
            (_line(_opponent_label(k, strengths), b) for k, b in data.get("opponents", {}).items()),
            key=lambda line: -line.games,
        ),
        correspondence=int(data.get("correspondence", 0)),
        ranked=_line("ランク戦", data.get("ranked")),
        ratings=[
            Rating(
                label,
                round((ratings.get(key) or [MU])[0]),
                round(2 * (ratings.get(key) or [0, SIGMA])[1]),
            )
            for key, label in shown
        ],
        history=rows,
        feats=[
            Feat(title, how, _when(earned.get(key)))
            for key, title, how in feats_of(offer, rules.sides)
        ],
    )


def _when(value: str | None) -> datetime | None:
    return key_time(value) if value else None
