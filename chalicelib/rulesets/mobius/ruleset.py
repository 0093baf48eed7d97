"""The Mobius rule set (RULES.md): the pure engine of ``chalicelib.rules.mobius`` behind the seam.

Thirteen fixed characters, one update a day that resolves the night; the oni side's
declaration or resignation may end the game during the day. Who sees what is
``visibility``; the times of a day are ``timeline``.
"""

import random
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from ...rules.mobius import (
    CHOICE_KEYS,
    JOBS,
    SLOTS,
    Choices,
    EndedBy,
    Job,
    Morning,
    Village,
    Winner,
    is_oni_side,
)
from ..base import (
    Ahead,
    Bans,
    NewGame,
    NoticeText,
    NotNow,
    Pace,
    QuickChoice,
    RuleSet,
    SeatRules,
    State,
    Step,
    SystemPost,
    Viewer,
    VillageView,
)
from ..options import Option
from ..options import read as read_options
from . import LABEL, NEXT_UPDATE_WORDS, labels, visibility
from .timeline import (
    EXTENSION,
    MIN_PLAYERS,
    OPENING_IDLE_LIMIT,
    OPENING_SPEECH_BAN,
    SHORT_FIRST_ACCESS_LIMIT,
    TIMINGS,
    Phase,
    deadline_of,
    phase_at,
)
from .visibility import Board

if TYPE_CHECKING:  # a computer member's turn only: never loaded for a page (decision 241)
    from ..turns import ComputerTurn, Heard

# The order and wording of the action form (この内容で行動).
CHOICE_LABELS = {
    "pray": "祈り",
    "divine": "占い",
    "guard": "警備",
    "assassinate": "暗殺（一度きり）",
    "attack": "襲撃先",
    "attacker": "実行犯",
    "dm": "偽のダイイングメッセージ",
    "victory": "勝利宣言（安全策の指名）",
    "resign": "投了（安全策の指名）",
    "force": "強制裁き",
}
# A reply mail's words (issue 27); the first is the one mail writes.
REPLY_WORDS = {
    "pray": ("祈り", "祈る"),
    "divine": ("占い", "占う"),
    "guard": ("警備", "護衛"),
    "assassinate": ("暗殺",),
    "attack": ("襲撃", "襲撃先"),
    "attacker": ("実行犯",),
    "dm": ("偽のDM", "DM", "偽のダイイングメッセージ", "ダイイングメッセージ"),
    "victory": ("勝利宣言",),
    "resign": ("投了",),
    "force": ("強制裁き",),
}
# The ability a quick link may set, by job (prayer links go to every living member).
ABILITY = {Job.SEER: "divine", Job.GUARD: "guard", Job.ASSASSIN: "assassinate"}
SUBJECTS = {
    "start": "{day}日目が始まりました",
    "morning": "{day}日目の朝になりました",
    "ending": "決着がつきました（{day}日目）",
    "abandoned": "廃村になりました",
    "reminder": "〆切が近づいています（{day}日目）",
}
REMINDER_LEAD = {Pace.LONG: timedelta(hours=3), Pace.SHORT: timedelta(minutes=15)}


class Member(Struct, frozen=True):
    """One line of the member list as a viewer may see it."""

    slot: str
    label: str
    name: str
    vacant: bool
    death: str | None  # ash | corpse (public)
    death_day: int | None
    side: str | None  # only when the viewer may know it


def _phase(village: VillageView[Village], now: datetime) -> Phase:
    return phase_at(village.state, village.pace, village.day_started_at, now)


def _names(village: VillageView[Village]) -> dict[str, str]:
    return {slot: seat.name for slot, seat in village.seats().items()}


def morning_report(names: Mapping[str, str], morning: Morning) -> str:
    """The public report: ash and corpses only, no causes, no killers (RULES §4.3)."""
    ash = [names[s] for s, kind in morning.deaths.items() if kind == "ash"]
    corpses = [names[s] for s, kind in morning.deaths.items() if kind == "corpse"]
    lines = [f"{morning.day}日目の朝になりました。"]
    lines.append("灰になったのは " + "、".join(ash) + " です。" if ash else "灰はありません。")
    if corpses:
        lines.append("遺体で見つかったのは " + "、".join(corpses) + " です。")
    else:
        lines.append("遺体はありません。")
    return "\n".join(lines)


def ending_report(names: Mapping[str, str], game: Village) -> str:
    """The public report of the ending: the winner, then every oni and the madman, named as
    the member list names them (job and persona)."""
    ending = game.ending
    assert ending is not None
    side = "人間サイド" if ending.winner is Winner.HUMAN else "鬼サイド"
    how = {
        EndedBy.ELIMINATION: "決着がつきました",
        EndedBy.VICTORY_DECLARATION: "鬼サイドが勝利宣言をしました",
        EndedBy.RESIGNATION: "鬼サイドが投了しました",
    }[ending.by]
    oni = "、".join(names[s] for s in SLOTS if game.sides[s] == "oni")
    madman = "、".join(names[s] for s in SLOTS if game.sides[s] == "madman")
    return f"{how}。{side}の勝利です。\n鬼は {oni} の3人でした。狂人は {madman} でした。"


class Mobius:
    """The Mobius game behind the rule-set interface (``rulesets.base.RuleSet``)."""

    name = "mobius"
    label = LABEL
    next_update_words = NEXT_UPDATE_WORDS
    page_template = "village.html"
    notice_templates = ("mail/notice.txt", "mail/notice.html")
    choice_labels: Mapping[str, str] = CHOICE_LABELS
    reply_words: Mapping[str, tuple[str, ...]] = REPLY_WORDS
    public_board = Board.PUBLIC.value
    wills = False
    will_length = 0
    options: Sequence[Option] = ()  # RULES §2 fixes everything but the pace and the first update

    # ----- the game's state -----

    def check_setup(self, pace: Pace, given: Mapping[str, Any]) -> dict[str, Any]:
        """The GM's options, checked: a key this rule set does not declare is refused."""
        return read_options(self.label, self.options, pace.value, given)

    def create(
        self,
        rng: random.Random,
        pace: Pace,
        at: datetime,
        given: Mapping[str, Any] | None = None,
    ) -> NewGame[Village]:
        self.check_setup(pace, given or {})
        game = Village.create(rng)
        lines = [
            f"{labels.SLOT_LABELS[seer]}の初日ランダム占い先は{labels.SLOT_LABELS[target]}です。"
            for seer, target in game.random_targets.items()
        ]
        # The seers' day-0 random targets, shown in the oni world from creation (RULES §2.1).
        post = SystemPost(Board.ONI.value, 0, "\n".join(lines), at)
        return NewGame(game, SLOTS, (post,))

    def parse(self, data: Any) -> Village:
        return Village.from_json(data)

    def dump(self, game: Village) -> Any:
        return game.to_json()

    def day(self, game: Village) -> int:
        return game.day

    def dead(self, game: Village) -> frozenset[str]:
        return frozenset(game.deaths)

    def seat_order(self, game: Village) -> Sequence[str]:
        return SLOTS

    def engine_choices(self, saved: Mapping[str, Mapping[str, str]]) -> dict[str, Choices]:
        return {slot: Choices.from_dict(c) for slot, c in saved.items()}

    # ----- membership -----

    def on_join(self, village: VillageView[Village], slot: str, now: datetime) -> None:
        return None  # the seat is the character: nothing in the game changes

    def on_departure(
        self, village: VillageView[Village], slot: str, now: datetime
    ) -> tuple[None, str]:
        return None, ""

    def prologue_step(
        self,
        village: VillageView[Village],
        slot: str,
        action: str,
        target: str | None,
        now: datetime,
    ) -> Step[Village]:
        raise NotNow("この村に開始投票やキックはありません")

    # ----- the timeline -----

    def seat_rules(self, pace: Pace) -> SeatRules:
        timing = TIMINGS[pace]
        return SeatRules(
            first_update=timing.first_update,
            opening_speech_ban=OPENING_SPEECH_BAN,
            opening_idle_limit=OPENING_IDLE_LIMIT,
            idle_limit=timing.idle_limit,
            public_ban_on_takeover=timing.public_ban_on_takeover,
            first_access_limit=SHORT_FIRST_ACCESS_LIMIT if pace is Pace.SHORT else None,
        )

    def phase(self, village: VillageView[Village], now: datetime) -> Phase:
        return _phase(village, now)

    def deadline(self, village: VillageView[Village]) -> datetime | None:
        if village.state is not State.RUNNING or village.day_started_at is None:
            return None
        return deadline_of(village.pace, village.day_started_at)

    def moments(self, village: VillageView[Village], now: datetime) -> dict[str, Ahead]:
        """The moments ahead of the village, in a day's order (the local clock page)."""
        ahead: dict[str, Ahead] = {}
        deadline = self.deadline(village)
        if deadline is not None:
            ahead["loss_time"] = Ahead("ロスタイムへ", deadline)
            ahead["night"] = Ahead("夜へ", deadline + TIMINGS[village.pace].loss_time)
        if village.next_update is not None:
            ahead["update"] = Ahead("次の更新へ", village.next_update)
        return {step: moment for step, moment in ahead.items() if moment.at > now}

    def step(self, village: VillageView[Village], at: datetime) -> Step[Village]:
        """The update due at ``at`` (RULES §2): start or extend the opening, resolve a night,
        or close the ending. Works on its own copy of the game."""
        game = self.parse(self.dump(village.game))
        if village.state is State.OPENING:
            return self._opening_update(village, game, at)
        if village.state is State.RUNNING:
            return self._night_update(village, game, at)
        return Step(
            State.ENDED,
            game,
            game.day,
            at,
            None,
            posts=(SystemPost(Board.PUBLIC.value, game.day, "この村は終了しました。", at),),
            happenings=("closed",),
        )

    def _opening_update(
        self, village: VillageView[Village], game: Village, at: datetime
    ) -> Step[Village]:
        timing = TIMINGS[village.pace]
        seats = village.seats()
        public = Board.PUBLIC.value
        if sum(1 for s in seats.values() if s.account_id is not None) >= MIN_PLAYERS:
            game.start()
            return Step(
                State.RUNNING,
                game,
                1,
                at,
                at + timing.turn,
                day_started_at=at,
                open_day=1,
                posts=(SystemPost(public, 1, "1日目が始まりました。", at),),
                mail="start",
                happenings=("started",),
            )
        if at - village.created_at >= timing.abandon_age:
            return Step(
                State.ABANDONED,
                game,
                0,
                at,
                None,
                posts=(SystemPost(public, 0, "人数が集まらなかったため、廃村になりました。", at),),
                mail="abandoned",
                release=frozenset(seats),
                happenings=("abandoned",),
            )
        return Step(
            State.OPENING,
            game,
            0,
            at,
            at + EXTENSION,
            posts=(SystemPost(public, 0, "人数が足りないため、開始を24時間延長します。", at),),
            happenings=("extended",),
        )

    def _night_update(
        self, village: VillageView[Village], game: Village, at: datetime
    ) -> Step[Village]:
        day = game.day
        choices = self.engine_choices(village.saved(day))
        command = game.command(choices)
        morning = None
        if command is not None:
            # Set in loss time or at night: the ending starts now, the night is not resolved.
            game.end_by_command(command, at_night=True)
        else:
            morning = game.resolve_night(choices, random.Random(f"{village.seed}:{day}"))
        names = _names(village)
        public = Board.PUBLIC.value
        posts: list[SystemPost] = []
        if morning is not None:
            posts.append(SystemPost(public, game.day, morning_report(names, morning), at))
        happenings = ["morning"] if morning is not None else []
        ended = game.ending is not None
        if ended:
            # Just after the morning report of the same update, so that it reads first.
            text = ending_report(names, game)
            posts.append(SystemPost(public, game.day, text, at + timedelta(microseconds=1)))
            happenings.append("ending")
        turn = TIMINGS[village.pace].turn
        return Step(
            State.ENDING if ended else State.RUNNING,
            game,
            game.day,
            at,
            at + turn,
            day_started_at=None if ended else at,
            seal_day=day,
            open_day=None if ended else game.day,
            posts=tuple(posts),
            mail="ending" if ended else "morning",
            release=frozenset(village.seats())
            if ended
            else frozenset(morning.deaths if morning else ()),
            happenings=tuple(happenings),
            detail=morning,
        )

    def abandon(self, village: VillageView[Village], at: datetime, text: str) -> Step[Village]:
        game = village.game
        post = SystemPost(Board.PUBLIC.value, game.day, text, at)
        return Step(
            State.ABANDONED,
            game,
            game.day,
            at,
            None,
            posts=(post,),
            mail="abandoned",
            release=frozenset(village.seats()),
            happenings=("abandoned",),
        )

    def reschedule(
        self, village: VillageView[Village], to: datetime, at: datetime, notice: str
    ) -> Step[Village]:
        """The GM moves the next update to ``to``: the opening's start check (its recruiting
        time), a day's update (never into the day or its loss time: the day's deadline and
        the loss time stay whole, RULES §2), the ending's close."""
        game = village.game
        deadline = self.deadline(village)
        if deadline is not None and to < deadline + TIMINGS[village.pace].loss_time:
            raise ValueError("更新は今日の〆切とロスタイムより後の時刻にしてください")
        post = SystemPost(Board.PUBLIC.value, game.day, notice, at)
        return Step(village.state, game, game.day, at, to, posts=(post,))

    def reminder(
        self, village: VillageView[Village], now: datetime
    ) -> tuple[datetime | None, list[str] | None]:
        """When the day's reminder is due (decision 22: 3 h / 15 min before the deadline), and
        to whom now: the living members with nothing saved that day (None: not due now)."""
        deadline = self.deadline(village)
        if deadline is None:
            return None, None
        at = deadline - REMINDER_LEAD[village.pace]
        if now < at or _phase(village, now) is not Phase.DAY:
            return at, None
        game = village.game
        saved = village.saved_at(game.day)
        return at, [
            slot
            for slot, seat in village.seats().items()
            if seat.account_id is not None and slot not in game.deaths and slot not in saved
        ]

    def reminder_key(self, village: VillageView[Village]) -> int:
        """One reminder a day."""
        return village.game.day

    # ----- choices -----

    def check_choices(
        self,
        village: VillageView[Village],
        slot: str,
        data: Mapping[str, str | None],
        now: datetime,
        checked: VillageView[Village] | None = None,
    ) -> dict[str, str]:
        """The choices given merged into the member's saved ones (a key left out keeps its
        value, None makes it undecided) and checked all together, until the update (RULES
        §2.3): a save after the update's time is refused even before the tick runs it. A
        save that met a change is checked again as any other (``checked`` is not needed: the
        one change that matters, a new day, is the platform's to refuse)."""
        if village.state is not State.RUNNING:
            raise NotNow("いまは行動を決められません")
        if village.next_update is not None and now >= village.next_update:
            raise NotNow("この日の行動は締め切られました。更新をお待ちください")
        game = village.game
        merged = {**village.saved(game.day).get(slot, {}), **data}
        choices = Choices.from_dict({k: v for k, v in merged.items() if v is not None})
        game.validate(slot, choices)
        return choices.to_dict()

    def after_save(
        self, village: VillageView[Village], saved: Mapping[str, Mapping[str, str]], now: datetime
    ) -> Step[Village] | None:
        """A declaration or resignation set during the day: the ending starts at once
        (in loss time or at night a command waits for the update, RULES §7)."""
        if _phase(village, now) is not Phase.DAY:
            return None
        game = self.parse(self.dump(village.game))
        command = game.command({s: Choices.from_dict(c) for s, c in saved.items()})
        if command is None:
            return None
        game.end_by_command(command, at_night=False)
        text = ending_report(_names(village), game)
        return Step(
            State.ENDING,
            game,
            game.day,
            now,
            village.next_update,
            posts=(SystemPost(Board.PUBLIC.value, game.day, text, now),),
            mail="ending",
            release=frozenset(village.seats()),
            happenings=("ending",),
            detail=command,
        )

    def visible_choices(
        self, village: VillageView[Village], viewer: Viewer, day: int
    ) -> dict[str, dict[str, str]]:
        """The saved choices of ``day`` the viewer may read: its own, and oni-side votes."""
        if viewer.slot is None:
            return {}
        game = village.game
        shown = {}
        for slot, data in village.recorded(day).items():
            keys = visibility.choices_shown(game, viewer, slot)
            visible = {k: v for k, v in data.items() if k in keys}
            if visible:
                shown[slot] = visible
        return shown

    def quick_choices(self, village: VillageView[Village], slot: str) -> list[QuickChoice]:
        """The prayer and the job's ability of the living; the attack of the oni side, alive
        or dead (RULES §3: the dead oni side still votes it; decision 83)."""
        game = village.game
        if village.state is not State.RUNNING:
            return []
        keys = []
        if slot not in game.deaths:
            keys = ["pray"] + ([ABILITY[JOBS[slot]]] if JOBS[slot] in ABILITY else [])
        if is_oni_side(game.sides[slot]):
            keys.append("attack")
        saved = village.saved(game.day).get(slot, {})
        quick = []
        for key in keys:
            targets = tuple(game.legal_targets(slot, key))
            if targets:
                quick.append(QuickChoice(key, targets, saved.get(key)))
        return quick

    def computer_turn(
        self,
        village: VillageView[Village],
        slot: str,
        now: datetime,
        rng: random.Random,
        heard: "Sequence[Heard]" = (),
    ) -> "ComputerTurn":
        """A computer member's choices and posts now, played from its seat's view alone
        (``visibility.seat_view``: of ``heard``, only the posts the seat may read) and its own
        ``rng``; nothing once the day is closed."""
        from ..turns import ComputerTurn, SeatClock  # only a computer member's turns need them
        from . import computer

        if village.state is not State.RUNNING or (
            village.next_update is not None and now >= village.next_update
        ):
            return ComputerTurn({}, ())
        game = village.game
        seats = village.seats()
        seat = seats[slot]
        view = visibility.seat_view(
            game,
            _phase(village, now),
            slot,
            names=_names(village),
            computers=[s for s, held in seats.items() if held.computer],
            saved=village.saved(game.day),
            bans=seat.bans,
            clock=SeatClock(
                now, village.day_started_at, TIMINGS[village.pace].day, seat.last_post_at
            ),
            heard=[
                {"board": h.board, "slot": h.slot, "text": h.text, "at": h.at, "n": h.n}
                for h in heard
            ],
        )
        return computer.turn(view, rng)

    def reply_names(self, village: VillageView[Village]) -> dict[str, tuple[str, ...]]:
        """A slot is also called by its job's label (霊能者A)."""
        return {slot: (label,) for slot, label in labels.SLOT_LABELS.items()}

    # ----- boards -----

    def boards(self) -> Sequence[str]:
        return [b.value for b in Board]

    def personal_board(self, board: str) -> bool:
        return board == Board.INNER.value

    def shadow_board(self, board: str) -> tuple[str, str] | None:
        return None  # no board leaves a trace on another

    def readable_boards(
        self, village: VillageView[Village], viewer: Viewer, now: datetime
    ) -> list[str]:
        boards = visibility.readable_boards(village.game, _phase(village, now), viewer)
        return [b.value for b in boards]

    def others_personal_boards_open(
        self, village: VillageView[Village], viewer: Viewer, now: datetime
    ) -> bool:
        """Another member's inner board: only once every log is open (the ending)."""
        return village.state in (State.ENDING, State.ENDED)

    def write_refusal(
        self, village: VillageView[Village], viewer: Viewer, board: str, now: datetime
    ) -> str | None:
        try:
            board_ = Board(board)
        except ValueError:
            return "その掲示板はありません"
        bans = village.seats()[viewer.slot].bans if viewer.slot else Bans()
        return visibility.write_refusal(
            village.game, _phase(village, now), viewer, board_, bans, now
        )

    # ----- what a viewer is shown -----

    def page(
        self, village: VillageView[Village], viewer: Viewer, now: datetime, day: int
    ) -> dict[str, Any]:
        """The game's part of the village page for ``viewer`` (``day``: the day shown)."""
        game = village.game
        phase = _phase(village, now)
        seats = village.seats()
        sides = visibility.sides_shown(game, phase, viewer)
        deaths = {
            slot: (kind, morning_day)
            for morning_day, dead in visibility.public_deaths(game).items()
            for slot, kind in dead.items()
        }
        members = [
            Member(
                slot=slot,
                label=labels.SLOT_LABELS[slot],
                name=seats[slot].name,
                vacant=seats[slot].account_id is None,
                death=deaths.get(slot, (None, None))[0],
                death_day=deaths.get(slot, (None, None))[1],
                side=sides.get(slot),
            )
            for slot in SLOTS
        ]
        deadline = self.deadline(village)
        chronicle = visibility.full_record(game, phase, village.saved_days)
        context: dict[str, Any] = {
            "phase": phase.value,
            "deadline": deadline,
            "loss_time_end": deadline + TIMINGS[village.pace].loss_time if deadline else None,
            "members": members,
            "names": _names(village),
            "private": visibility.private(game, viewer),
            "ending": game.ending,
            "form": None,
            # The full record (全記録) of the day shown; None until every log is open.
            "record": chronicle[day] if chronicle is not None else None,
            **self.labels(),
        }
        if viewer.slot is not None and village.state is State.RUNNING:
            choices = self.visible_choices(village, viewer, game.day)
            context["form"] = self._form(game, viewer.slot, choices.get(viewer.slot, {}))
            context["oni_votes"] = {s: v for s, v in choices.items() if s != viewer.slot}
        return context

    def _form(self, game: Village, slot: str, saved: Mapping[str, str]) -> list[dict[str, Any]]:
        """Each choice the member has now, its legal targets, and the saved value preselected."""
        rows = []
        for key in CHOICE_KEYS:
            targets = game.legal_targets(slot, key)
            if targets:
                rows.append(
                    {
                        "key": key,
                        "label": CHOICE_LABELS[key],
                        "targets": targets,
                        "selected": saved.get(key),
                    }
                )
        return rows

    def notice(
        self, village: VillageView[Village], slot: str, kind: str, day: int, now: datetime
    ) -> NoticeText | None:
        """What one member's mail of ``kind`` (about ``day``) says, from what visibility allows."""
        game = village.game
        viewer = Viewer(account_id=village.seats()[slot].account_id, slot=slot)
        # The notice of ``day`` tells that morning's news, even when sent after later ones.
        # A declaration or resignation ends the game without a new morning: its mail does
        # not repeat the morning the members were already told.
        morning = next((m for m in game.mornings if m.day == day), None)
        if kind == "ending" and game.ending is not None and game.ending.by != EndedBy.ELIMINATION:
            morning = None
        names = _names(village)
        context = {
            "name": names[slot],
            "names": names,
            "private": visibility.private(game, viewer),
            "alive": slot not in game.deaths,
            "deaths": visibility.public_deaths(game).get(morning.day, {}) if morning else {},
            "morning_day": morning.day if morning else None,
            "sides": visibility.sides_shown(game, Phase.ENDING, viewer) if kind == "ending" else {},
            "ending": game.ending,
            "deadline": self.deadline(village),
            "loss_time": TIMINGS[village.pace].loss_time,
            **self.labels(),
        }
        return NoticeText(SUBJECTS[kind].format(day=day), context, _concerns(kind, morning, slot))

    def labels(self) -> dict[str, Any]:
        return {
            "slot_label": labels.SLOT_LABELS,
            "side_label": labels.SIDE_LABELS,
            "verdict_label": labels.VERDICT_LABELS,
            "board_label": labels.BOARD_LABELS,
            "choice_label": labels.CHOICE_LABELS_SHORT,
            "ability_label": labels.ABILITY_LABELS,
            "phase_label": labels.PHASE_LABELS,
        }

    def seat_label(self, slot: str) -> str:
        return labels.SLOT_LABELS[slot]


def _concerns(kind: str, morning: Any, slot: str) -> bool:
    """Every mail but a morning's concerns each member; a morning concerns those it killed
    and those it brings private news (a result, a DM, their killer, their side's attack)."""
    if kind != "morning":
        return True
    if morning is None:
        return False
    attack = morning.attack
    return (
        slot in morning.deaths
        or slot in morning.results
        or slot in morning.dms
        or slot in morning.killers
        or (attack is not None and slot in (attack.target, attack.attacker))
    )


MOBIUS: RuleSet[Village] = Mobius()
