"""What a classic village shows one viewer, on its page and in its mail (RULES-CLASSIC §6).

Every secret goes through the engine's ``visibility`` module (who reads which board, who sees
roles, whose will is published); this module only gathers what it allows, keyed by seat.
"""

from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from msgspec import Struct

from ...rules.classic import NPC, Ability, Cause, Morning, Role, RoundResult, Village
from ...rules.classic import visibility as secrecy
from ...rules.classic.cast import DECK_ORDER, MIN_PLAYERS, TEAM
from ...rules.classic.night import counting, counting_attack, holder
from ...rules.classic.village import Ending
from ...rules.classic.visibility import Board, Moment
from ..base import Seat, State, Viewer, VillageView, is_computer
from . import labels, report, seats, timeline
from .game import ClassicGame
from .timeline import Event

DEADLINE_LABELS = {
    Event.ABANDON: "廃村になる時刻",
    Event.SUNSET: "日没",
    Event.ROUND: "投票の締め切り",
    Event.NIGHT: "夜明け",
    Event.CLOSE: "村が閉じる時刻",
}


def times(game: ClassicGame, created_at: datetime) -> list[tuple[str, datetime]]:
    """The times that matter now, each named (§7: pages and mail state the next deadline): the
    next event, and while a vote round is open the day's sunset (日没, the end of talk) before
    the round's own deadline."""
    due = timeline.next_event(game, created_at)
    if due is None:
        return []
    engine = game.village
    sunset = timeline.sunset_at(game)
    if due.event is Event.ROUND and engine is not None and sunset is not None:
        return [
            ("日没（話し合いの終わり）", sunset),
            (f"第{engine.round}回投票の締め切り", due.at),
        ]
    if due.event is Event.SUNSET:
        return [("日没（話し合いの終わり・夜になります）", due.at)]
    return [(DEADLINE_LABELS[due.event], due.at)]


def viewer_of(game: ClassicGame, viewer: Viewer) -> secrecy.Viewer:
    """The engine's viewer: a character with its role and life, a prologue member (its seat,
    no role), or a visitor."""
    if viewer.slot is None:
        return secrecy.VISITOR
    engine = game.village
    character = seats.character(game, viewer.slot)
    if engine is None or character is None:
        return secrecy.Viewer(character=viewer.slot)
    return secrecy.Viewer(character, engine.roles[character], character not in engine.deaths)


def cast_counts(engine: Village) -> dict[Role, int]:
    """The public cast list (配役), the scapegoat's card included, in deck-table order."""
    counts = Counter(engine.roles.values())
    return {role: counts[role] for role in DECK_ORDER if counts[role]}


def sees_roles(game: ClassicGame, who: secrecy.Viewer, moment: Moment) -> bool:
    return secrecy.sees_roles(who, moment, heaven_sees_all=game.options.heaven_sees_all)


def _night(engine: Village) -> int | None:
    return engine.coming_night


def choices_shown(
    game: ClassicGame, saved: Mapping[str, Mapping[str, str]], slot: str
) -> dict[str, dict[str, str]]:
    """The member's own choices today (its vote of the open round under ``vote``) and, for a
    living werewolf, every living wolf's attack."""
    engine = game.village
    if engine is None:
        return {}
    key = f"vote@{len(engine.rounds)}"
    own = dict(saved.get(slot, {}))
    shown: dict[str, dict[str, str]] = {}
    mine = {k: v for k, v in own.items() if k in ("attack", "divine", "guard")}
    if key in own and engine.voting:
        mine["vote"] = own[key]
    if mine:
        shown[slot] = mine
    actor = seats.character(game, slot)
    if actor is not None and engine.roles[actor] is Role.WEREWOLF and actor not in engine.deaths:
        for wolf in engine.living(Role.WEREWOLF):
            other = seats.seat(game, wolf)
            if other is None or other == slot:
                continue
            attack = saved.get(other, {}).get("attack")
            if attack is not None:
                shown[other] = {"attack": attack}
    return shown


def wolf_attacks(
    game: ClassicGame,
    saved: Mapping[str, Mapping[str, str]],
    saved_at: Mapping[str, str],
    names: Mapping[str, str],
) -> dict[str, Any]:
    """§3: every living wolf's attack choice and which one counts (the latest saved)."""
    engine = game.village
    assert engine is not None
    night = _night(engine)
    choices = seats.night_choices(game, saved, saved_at)
    rows = []
    for wolf in engine.living(Role.WEREWOLF):
        target = choices.get(wolf)
        if target is not None and target.attack is not None:
            rows.append(
                {
                    "wolf": names[seats.seat(game, wolf) or wolf],
                    "target": names[seats.seat(game, target.attack) or target.attack],
                }
            )
    counts = None
    if night is not None and night >= 2:
        found = engine.current_attack(choices)
        if found is not None:
            counts = {
                "wolf": names[seats.seat(game, found[0]) or found[0]],
                "target": names[seats.seat(game, found[1]) or found[1]],
            }
    return {"rows": rows, "counts": counts, "first_night": night == 1}


def unset_abilities(
    game: ClassicGame, saved: Mapping[str, Mapping[str, str]], saved_at: Mapping[str, str]
) -> list[str]:
    """Seats of the living ability holders whose choice for tonight does not count."""
    engine = game.village
    assert engine is not None
    night = _night(engine)
    if night is None:
        return []
    choices = seats.night_choices(game, saved, saved_at)
    roles, alive = engine.roles, engine.alive
    out: list[str] = []
    if night >= 2 and counting_attack(choices, roles=roles, alive=alive, night=night) is None:
        out += [game.seats[w] for w in engine.living(Role.WEREWOLF)]
    for role, ability, first in ((Role.SEER, Ability.DIVINE, 1), (Role.HUNTER, Ability.GUARD, 2)):
        actor = holder(roles, role)
        if actor is None or actor not in alive or night < first:
            continue
        if counting(choices, actor, ability, roles=roles, alive=alive, night=night) is None:
            out.append(game.seats[actor])
    return [s for s in game.seats.values() if s in out]


def write_refusal_text(board: Board, who: secrecy.Viewer, moment: Moment) -> str:
    if who.visitor:
        return "村の参加者だけが書き込めます"
    if moment is Moment.OVERTIME and who.alive:
        return "超過時間中は独り言にしか書き込めません"
    if who.dead:
        return "亡くなった人は墓下にだけ書き込めます"
    if board is Board.HEAVEN:
        return "墓下には亡くなった人だけが書き込めます"
    if board in (Board.WOLVES, Board.MASONS):
        return "この掲示板には書き込めません"
    return "いまは書き込めません"


class Member(Struct, frozen=True):
    seat: str
    name: str
    alive: bool
    death: str | None  # when (and, where the viewer may know it, how) the member died
    role: str | None  # only when the viewer may know it
    start_voted: bool
    kicks: int


def _private(
    game: ClassicGame, character: str | None, names: Mapping[str, str]
) -> dict[str, Any] | None:
    """§6: the viewer's own role, partners and results (never anyone else's)."""
    engine = game.village
    if engine is None or character is None:
        return None
    info = engine.start_info(character)
    partners = [names[seats.seat(game, p) or p] for p in info["partners"]]

    def name(c: str) -> str:
        return names[seats.seat(game, c) or c]

    news = []
    for morning in engine.mornings:
        item = morning.news.get(character)
        if item is None:
            continue
        news.append({"day": morning.day, "lines": report.news_lines(item, name)})
    death = engine.deaths.get(character)
    return {
        "role": info["role"],
        "role_label": labels.ROLE_LABELS[Role(info["role"])],
        "partners": partners,
        "news": news,
        "alive": death is None,
        "sudden": death is not None and death.cause is Cause.SUDDEN,
    }


class CastRow(Struct, frozen=True):
    """One character of the ending's cast table (§2.5): every role and fate revealed."""

    seat: str
    account: str | None  # the player's ID (None: the scapegoat)
    role: str
    fate: str  # 生存, or when and how they died
    alive: bool
    won: bool


def _player_id(account: str | None) -> str | None:
    """How the ending names who played a seat: the player's ID, or 「CPU」 for a computer."""
    return "CPU" if is_computer(account) else account


def cast_table(game: ClassicGame, accounts: Mapping[str, str | None]) -> list[CastRow]:
    """Every character in seat order, the scapegoat last, once every role is open."""
    engine = game.village
    assert engine is not None and engine.ending is not None
    rows = []
    for character, role in engine.roles.items():
        seat_ = seats.seat(game, character) or character
        death = engine.deaths.get(character)
        rows.append(
            CastRow(
                seat=seat_,
                account=None if character == NPC else _player_id(accounts.get(seat_)),
                role=labels.ROLE_LABELS[role],
                fate="生存" if death is None else labels.death_text(death.day, death.cause, True),
                alive=death is None,
                won=engine.ending.won(TEAM[role]),
            )
        )
    return rows


def names_of(village: VillageView[ClassicGame], game: ClassicGame) -> dict[str, str]:
    return seats.names(game, {s: seat.name for s, seat in village.seats().items()})


def page(
    village: VillageView[ClassicGame], game: ClassicGame, viewer: Viewer, now: datetime, day: int
) -> dict[str, Any]:
    """The classic part of the village page for ``viewer``."""
    engine = game.village
    moment = _moment(village, game, now)
    who = viewer_of(game, viewer)
    names = names_of(village, game)
    seat_map = village.seats()
    reveal = engine is not None and sees_roles(game, who, moment)
    context: dict[str, Any] = {
        "phase": moment.value,
        "moment_word": labels.MOMENT_LABELS[moment],
        **_deadlines(village, game),
        "members": _members(game, seat_map, names, who, moment, reveal),
        "names": names,
        "options": game.options,
        "tie_label": labels.TIE_LABELS[game.options.tie],
        "conduct": labels.CONDUCT,
        "private": None,
        "vote_form": None,
        "night_form": None,
        "wolves": None,
        "will": None,
        "ending": None,
        "npc_role": None,
        "rounds": [],
        "record": None,
        "records": None,  # every day's, for the combined log
        "record_template": "_classic_record.html",
        "cast_table": None,
        "epilogue_day": None,
        **labels_context(),
    }
    if engine is None:
        context["prologue"] = _prologue(game, viewer)
        return context
    context["prologue"] = None
    context["cast"] = [
        {"role": labels.ROLE_LABELS[r], "count": n} for r, n in cast_counts(engine).items()
    ]
    if reveal:
        context["npc_role"] = labels.ROLE_LABELS[engine.roles[NPC]]
    context["rounds"] = _rounds(game, engine, names)
    if engine.ending is not None:
        context["ending"] = {"winner": labels.WINNER_LABELS[engine.ending.winner]}
        context["epilogue_day"] = _epilogue_day(engine)
    if secrecy.full_record_open(moment):
        context.update(_full_record(village, game, names, day))
    character = who.character if engine is not None and who.character in engine.roles else None
    context["private"] = _private(game, character, names)
    if character is None or viewer.slot is None or village.state is not State.RUNNING:
        return context
    seat_ = viewer.slot
    context["will"] = seat_map[seat_].will if seat_ in seat_map else None
    if character not in engine.deaths:
        context.update(_forms(village, game, engine, character, seat_, names, moment))
    return context


def _full_record(
    village: VillageView[ClassicGame], game: ClassicGame, names: Mapping[str, str], day: int
) -> dict[str, Any]:
    """The full record, open in the epilogue: ``day``'s, every day's, and who played whom."""
    from . import chronicle  # the full record: only an ended game's pages show it

    seat_map = village.seats()
    wills = {s: m.will or "" for s, m in seat_map.items()}
    record = chronicle.build(game, village.saved_days(), wills, names)
    return {
        "record": record[max(0, min(day, len(record) - 1))],
        "records": record,
        "cast_table": cast_table(game, {s: m.account_id for s, m in seat_map.items()}),
    }


def _forms(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    engine: Village,
    character: str,
    seat_: str,
    names: Mapping[str, str],
    moment: Moment,
) -> dict[str, Any]:
    """A living member's forms today, filled with what they saved, and a werewolf's view of
    the pack's attack."""
    saved = village.saved(engine.day)
    own = choices_shown(game, saved, seat_).get(seat_, {})
    forms: dict[str, Any] = {"night_form": _night_form(game, engine, character, own)}
    if engine.voting and character in engine.voters():
        forms["vote_form"] = _vote_form(game, engine, character, own, names, moment)
    if engine.roles[character] is Role.WEREWOLF:
        forms["wolves"] = wolf_attacks(game, saved, village.saved_at(engine.day), names)
    return forms


def _moment(village: VillageView[ClassicGame], game: ClassicGame, now: datetime) -> Moment:
    """Where the village is now: its epilogue once ended, else its timeline's moment."""
    if village.state in (State.ENDING, State.ENDED):
        return Moment.EPILOGUE
    return timeline.moment(game, now)


def _deadlines(village: VillageView[ClassicGame], game: ClassicGame) -> dict[str, Any]:
    """The next deadline and its words, and the day's times, as a page and a mail say them."""
    due = timeline.next_event(game, village.created_at)
    return {
        "deadline": due.at if due else None,
        "deadline_label": DEADLINE_LABELS[due.event] if due else None,
        "times": times(game, village.created_at),
    }


def _epilogue_day(engine: Village) -> int | None:
    """The day tabs' エピローグ: the last day, when the game ended at its dawn (a day that
    ended at its vote keeps its number: its talk came before the epilogue)."""
    if not any(r.day == engine.day for r in engine.rounds) and engine.mornings:
        return engine.day
    return None


def _members(
    game: ClassicGame,
    seat_map: Mapping[str, Seat],
    names: Mapping[str, str],
    who: secrecy.Viewer,
    moment: Moment,
    reveal: bool,
) -> list[Member]:
    """The member list: each seat played (in the prologue, each taken), its death as the
    viewer may know its cause, its role when the viewer may know it."""
    engine = game.village
    members = []
    for seat_ in seats.order(game):
        if seat_ not in seat_map or (seat_map[seat_].account_id is None and engine is None):
            continue
        character = seats.character(game, seat_)
        if engine is not None and character is None:
            continue  # a seat nobody played
        death = engine.deaths.get(character) if engine is not None and character else None
        role = None
        if engine is not None and character is not None and (reveal or character == who.character):
            role = labels.ROLE_LABELS[engine.roles[character]]
        members.append(
            Member(
                seat=seat_,
                name=names[seat_],
                alive=death is None,
                death=labels.death_text(
                    death.day,
                    death.cause,
                    secrecy.cause_shown(
                        death.cause, who, moment, heaven_sees_all=game.options.heaven_sees_all
                    ),
                )
                if death
                else None,
                role=role,
                start_voted=seat_ in game.prologue.start_votes,
                kicks=len(game.prologue.kicks.get(seat_, ())),
            )
        )
    return members


def _prologue(game: ClassicGame, viewer: Viewer) -> dict[str, Any]:
    """The prologue's count, start votes and the viewer's own start and kick votes."""
    count = len(game.prologue.members)
    return {
        "count": count,
        "min_members": game.options.min_members,
        "cast_line": labels.cast_line(count),
        "start_votes": len(game.prologue.start_votes),
        "mine": viewer.slot in game.prologue.start_votes if viewer.slot else False,
        "my_kicks": sorted(t for t, voters in game.prologue.kicks.items() if viewer.slot in voters),
        "minimum": MIN_PLAYERS,
    }


def _rounds(game: ClassicGame, engine: Village, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every published vote round's votes, voter and target by name."""
    return [
        {
            "day": r.day,
            "round": r.round,
            "votes": [
                (names[seats.seat(game, v) or v], names[seats.seat(game, t) or t])
                for v, t in r.votes.items()
            ],
        }
        for r in engine.rounds
        if r.published and r.votes
    ]


def _vote_form(
    game: ClassicGame,
    engine: Village,
    character: str,
    own: Mapping[str, str],
    names: Mapping[str, str],
    moment: Moment,
) -> dict[str, Any]:
    """The open round's vote form of a living voter: its targets, its vote as saved."""
    return {
        "targets": [seats.seat(game, t) or t for t in engine.vote_targets(character)],
        "current": own.get("vote"),
        "final": not engine.options.votes_changeable,
        "round": engine.round,
        "candidates": [names[seats.seat(game, c) or c] for c in engine.candidates]
        if engine.candidates
        else None,
        "overtime": moment is Moment.OVERTIME,
    }


def _night_form(
    game: ClassicGame, engine: Village, character: str, own: Mapping[str, str]
) -> dict[str, Any] | None:
    """The coming night's abilities of ``character``, one row each (None: it has none)."""
    rows = [
        {
            "key": ability.value,
            "label": {"attack": "襲撃", "divine": "占い", "guard": "護衛"}[ability.value],
            "targets": [
                seats.seat(game, t) or t for t in engine.choice_targets(character, ability)
            ],
            "selected": own.get(ability.value),
        }
        for ability in engine.choice_keys(character)
    ]
    return {"rows": rows, "night": engine.coming_night} if rows else None


def labels_context() -> dict[str, Any]:
    return {
        "board_label": {str(k): v for k, v in labels.BOARD_LABELS.items()},
        "role_label": {str(k): v for k, v in labels.ROLE_LABELS.items()},
    }


def notice(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    slot: str,
    kind: str,
    day: int,
    now: datetime,
    closed_today: int = 0,
) -> dict[str, Any] | None:
    """What one member's mail says: only their own news (RULES-CLASSIC §6). ``day``: the game
    day the mail is about; its morning is that day's, even when the mail goes out (or is
    retried) after a later morning. ``closed_today``: the rounds of that day closed when the
    mail was owed (a re-vote mail's reason is the last of them)."""
    engine = game.village
    names = names_of(village, game)
    character = seats.character(game, slot)
    context: dict[str, Any] = {
        "name": names.get(slot, ""),
        "names": names,
        **_deadlines(village, game),
        "conduct": labels.CONDUCT,
        "private": None,
        "morning": None,
        "round": None,
        "ending": None,
        "cast": None,
    }
    if engine is None:
        return context if kind == "abandoned" else None
    if character is None:
        return None
    context["private"] = _private(game, character, names)
    context["alive"] = character not in engine.deaths
    context["cast"] = "、".join(
        f"{labels.ROLE_LABELS[r]}{n}" for r, n in cast_counts(engine).items()
    )
    morning = next((m for m in engine.mornings if m.day == day), None)
    if kind in ("morning", "ending") and morning is not None:
        context["morning"] = _morning(village, game, morning, names, context["private"])
    today = [r for r in engine.rounds if r.day == day]
    cause = today[closed_today - 1] if 0 < closed_today <= len(today) else None
    if kind == "round" and (cause is None or character not in cause.sudden):
        # A re-vote is news only to the living while it is open: a round closed since (its
        # mail sent late, after a later round or the ending) or a dead member's call is not
        # sent, so one event is one mail that says what happened.
        still_open = engine.voting and engine.day == day and len(today) == closed_today
        if character in engine.deaths or not still_open:
            return None
    context["round"] = _round(village, game, engine, character, kind, cause, names)
    if kind == "reminder":
        context["reminder"] = "vote" if engine.voting else "night"
    if kind == "ending" and engine.ending is not None:
        context["ending"] = _ending(engine.ending, engine.roles[character])
    return context


def _round(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    engine: Village,
    character: str,
    kind: str,
    cause: RoundResult | None,
    names: Mapping[str, str],
) -> dict[str, Any] | None:
    """The vote a round's or a reminder's mail tells of: the open round (for a re-vote, why
    the round ``cause`` closed without a verdict), or the member's own sudden death in it."""
    character_names = seats.character_names(
        game, {s: seat.name for s, seat in village.seats().items()}
    )
    if kind == "round" and cause is not None and character in cause.sudden:
        # Died for not voting (§2.3.4, public news): told so, never called to vote.
        return {"reason": report.revote_reason(cause, character_names), "died": True}
    if kind not in ("round", "reminder") or not engine.voting:
        return None
    return {
        "reason": report.revote_reason(cause, character_names)
        if kind == "round" and cause is not None
        else None,
        "number": engine.round,
        "candidates": [names[seats.seat(game, c) or c] for c in engine.candidates]
        if engine.candidates
        else None,
    }


def _morning(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    morning: Morning,
    names: Mapping[str, str],
    private: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """A morning as one member's mail tells it: who was found dead, whose wills were read,
    and the member's own news of that day."""
    seat_map = village.seats()
    return {
        "day": morning.day,
        "dead": [names[seats.seat(game, c) or c] for c in morning.found_dead],
        "wills": [
            names[seats.seat(game, c) or c]
            for c in morning.wills
            if seat_map.get(game.seats.get(c, ""), None) is not None
            and seat_map[game.seats[c]].will
        ],
        "news": next(
            (n["lines"] for n in (private or {}).get("news", []) if n["day"] == morning.day),
            [],
        ),
    }


def _ending(ending: Ending, role: Role) -> dict[str, Any]:
    """The winner, and whether the team of the member's ``role`` won."""
    team = {Role.WEREWOLF: "wolves", Role.MADMAN: "wolves", Role.FOX: "fox"}.get(role, "village")
    return {"winner": labels.WINNER_LABELS[ending.winner], "won": ending.winner.value == team}
