"""The classic rule set (RULES-CLASSIC, 人狼BBS式): the engine of ``chalicelib.rules.classic``
behind the seam.

A village is created in its prologue with the GM's options (§7) and template; members join any
free seat and the prologue keeps their order. Start votes and kicks are prologue steps, each a
version-checked write of the game, so that the last start vote starts the game exactly once.
From the start, one event is pending at a time (``timeline``): the platform stores its time as
``next_update`` and calls ``step`` when it is due; a save that completes a round or a night
closes it at once through ``after_save``. Who sees what is decided only by the engine's
``visibility`` module, through ``view``.
"""

import random
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ...rules.classic import NPC, Ability, Options, Outcome, Pace, Phase, Village
from ...rules.classic import visibility as secrecy
from ...rules.classic.errors import PrologueError, RuleError
from ...rules.classic.prologue import IDLE_AFTER
from ...rules.classic.visibility import Board
from ..base import (
    Ahead,
    NewGame,
    NoticeText,
    NotNow,
    QuickChoice,
    RuleSet,
    SeatRules,
    State,
    Step,
    SystemPost,
    Viewer,
    VillageView,
)
from ..base import Pace as PlatformPace
from ..options import Option
from . import LABEL, NEXT_UPDATE_WORDS, labels, report, seats, setup, timeline, view
from .game import ClassicGame, Kick
from .timeline import Advanced, Event

if TYPE_CHECKING:  # a computer member's turn only: never loaded for a page (decision 241)
    from ..turns import ComputerTurn, Heard

CHOICE_LABELS = {"vote": "処刑投票", "attack": "襲撃", "divine": "占い", "guard": "護衛"}
NIGHT_KEYS = ("attack", "divine", "guard")
# A reply mail's words (issue 27); the first is the one mail writes.
REPLY_WORDS = {
    "vote": ("投票", "処刑投票", "処刑"),
    "attack": ("襲撃",),
    "divine": ("占い", "占う"),
    "guard": ("護衛", "警備"),
}
VOTE_CLOSED = "この投票は締め切られました"
PUBLIC = Board.PUBLIC.value
SUBJECTS = {
    "start": "ゲームが始まりました",
    "morning": "{day}日目の朝になりました",
    "round": "{day}日目の投票をやり直します",
    "reminder": "〆切が近づいています（{day}日目）",
    "ending": "ゲームが終わりました",
    "abandoned": "廃村になりました",
}
# A re-vote's mail to the member whose sudden death opened it: their news, no call to vote.
SUDDEN_DEATH_SUBJECT = "投票しなかったため突然死しました（{day}日目）"
# Reminders (the issue): before sunset, 2 h (long) / 10 min (short); the same before a night closes.
REMINDER_LEAD = {Pace.LONG: timedelta(hours=2), Pace.SHORT: timedelta(minutes=10)}
FOREVER = timedelta(days=3650)


def _copy(game: ClassicGame) -> ClassicGame:
    return ClassicGame.from_json(game.to_json())


def vote_key(village: Village) -> str:
    """The saved-choice key of the open round's vote: one per round, so that a re-vote or a
    round reopened by sudden death starts empty while tonight's choices stay."""
    return f"vote@{len(village.rounds)}"


def mail_day(game: ClassicGame) -> int:
    """The outbox's day of a mail about the game as it is now: one number per event of a day
    (day × 100 + the rounds closed + 50 at night), so that each round's mail is owed once."""
    village = game.village
    if village is None:
        return 0
    today = sum(1 for r in village.rounds if r.day == village.day)
    return village.day * 100 + today + (50 if village.phase is Phase.NIGHT else 0)


def _told(
    village: VillageView[ClassicGame],
    game: ClassicGame,
    event: Event,
    done: Advanced,
    names: Mapping[str, str],
    at: datetime,
) -> tuple[tuple[SystemPost, ...], str | None, frozenset[str]]:
    """What an event tells: the village's posts in order (each round's result, the sunset,
    the morning, the ending, the epilogue's close), the mail kind owed to every member, and
    the seats whose accounts a sudden death locks."""
    engine = game.village
    assert engine is not None
    posts: list[SystemPost] = []

    def say(text: str, on: int | None = None) -> None:
        """A village post on the day ``on`` (a round's own day), else on the day the
        village is in after this step (a night's close: the morning's)."""
        day = engine.day if on is None else on
        posts.append(SystemPost(PUBLIC, day, text, at + timedelta(microseconds=len(posts))))

    mail: str | None = None
    locks: frozenset[str] = frozenset()
    for result in done.rounds:
        if result.outcome is Outcome.EXECUTED and not result.votes and result.candidates:
            say(report.single_candidate(result, names), result.day)
        else:
            say(report.round_report(result, names), result.day)
        if result.outcome is Outcome.SUDDEN:
            locks |= frozenset(game.seats[c] for c in result.sudden)
    if event is Event.SUNSET:
        say("日が暮れました。1日目の夜です。")
    if done.morning is not None:
        seat_map = village.seats()
        wills = {c: seat_map[s].will or "" for c, s in game.seats.items() if s in seat_map}
        say(report.morning_report(done.morning, names, wills))
        mail = "morning"
    elif event is Event.ROUND and not done.ended and engine.voting:
        mail = "round"
    if done.ended:
        say(report.ending_report(engine, names))
        mail = "ending"
    if event is Event.CLOSE:
        say("エピローグが終わりました。この村は過去ログとして読めます。")
    return tuple(posts), mail, locks


def _state(game: ClassicGame) -> State:
    if game.abandoned:
        return State.ABANDONED
    if game.closed:
        return State.ENDED
    if game.village is None:
        return State.OPENING
    return State.ENDING if game.village.ending is not None else State.RUNNING


class Classic:
    """The classic game behind the rule-set interface (``rulesets.base.RuleSet``)."""

    name = "classic"
    label = LABEL
    next_update_words = NEXT_UPDATE_WORDS
    page_template = "classic_village.html"
    notice_templates = ("mail/classic_notice.txt", "mail/classic_notice.html")
    choice_labels: Mapping[str, str] = CHOICE_LABELS
    reply_words: Mapping[str, tuple[str, ...]] = REPLY_WORDS
    public_board = PUBLIC
    wills = True
    will_length = secrecy.WILL_LENGTH
    options: Sequence[Option] = setup.OPTIONS

    # ----- the game's state -----

    def check_setup(self, pace: PlatformPace, given: Mapping[str, Any]) -> dict[str, Any]:
        """The GM's options and template, checked (``SetupError``: a Japanese sentence)."""
        options, template = setup.checked(pace.value, given)
        return {"options": options.to_json(), "template": template}

    def create(
        self,
        rng: random.Random,
        pace: PlatformPace,
        at: datetime,
        given: Mapping[str, Any] | None = None,
    ) -> NewGame[ClassicGame]:
        checked = self.check_setup(pace, given or {})
        game = ClassicGame(Options.from_json(checked["options"]), checked["template"])
        posts = []
        if game.template:
            posts.append(SystemPost(PUBLIC, 0, game.template, at))
        rule = labels.TIE_LABELS[game.options.tie]
        posts.append(
            SystemPost(
                PUBLIC,
                0,
                f"村が作られました（{LABEL}・{rule}）。参加者がそろったら全員で開始投票をしてください。",
                at + timedelta(microseconds=1),
            )
        )
        return NewGame(game, seats.SEATS, tuple(posts))

    def parse(self, data: Any) -> ClassicGame:
        return ClassicGame.from_json(data)

    def dump(self, game: ClassicGame) -> Any:
        return game.to_json()

    def day(self, game: ClassicGame) -> int:
        return game.village.day if game.village is not None else 0

    def dead(self, game: ClassicGame) -> frozenset[str]:
        if game.village is None:
            return frozenset()
        return frozenset(game.seats[c] for c in game.village.deaths if c != NPC)

    def seat_order(self, game: ClassicGame) -> Sequence[str]:
        return seats.order(game)

    def engine_choices(self, saved: Mapping[str, Mapping[str, str]]) -> Any:
        return {slot: dict(data) for slot, data in saved.items()}

    # ----- membership -----

    def seat_rules(self, pace: PlatformPace) -> SeatRules:
        """§2.1: no speech ban, 24 h idle removal and 72 h abandonment in the prologue; §8: no
        takeovers and no leaving after the start (a silent player dies by sudden death)."""
        from ...rules.classic.prologue import ABANDON_AFTER

        return SeatRules(
            first_update=ABANDON_AFTER,
            opening_speech_ban=timedelta(0),
            opening_idle_limit=IDLE_AFTER,
            idle_limit=FOREVER,
            public_ban_on_takeover=timedelta(0),
            first_access_limit=None,
            takeovers=False,
            leaving_in_game=False,
        )

    def on_join(self, village: VillageView[ClassicGame], slot: str, now: datetime) -> ClassicGame:
        """The prologue's member list in join order (RULES-CLASSIC §1 seat order)."""
        game = _copy(village.game)
        if not game.in_prologue:
            raise NotNow("この村はもう始まっています")
        try:
            game.prologue.join(slot)
        except PrologueError as error:
            raise NotNow(str(error)) from error
        return game

    def on_departure(
        self, village: VillageView[ClassicGame], slot: str, now: datetime
    ) -> tuple[ClassicGame | None, str]:
        """§2.1: every departure clears all start votes, and the board says so."""
        game = _copy(village.game)
        if not game.in_prologue or slot not in game.prologue.members:
            return None, ""
        had_votes = bool(game.prologue.start_votes)
        game.prologue.depart(slot)
        note = "開始投票はすべて取り消されました。" if had_votes else ""
        return game, note

    # ----- the timeline -----

    def phase(self, village: VillageView[ClassicGame], now: datetime) -> str:
        if village.state is State.ABANDONED:
            return "abandoned"
        return timeline.moment(village.game, now).value

    def deadline(self, village: VillageView[ClassicGame]) -> datetime | None:
        due = timeline.next_event(village.game, village.created_at)
        return due.at if due is not None else None

    def moments(self, village: VillageView[ClassicGame], now: datetime) -> dict[str, Ahead]:
        """The events ahead (the local clock page), each named for what it does: while a
        round is open, the sunset before it (the overtime begins) and the round's close."""
        game = village.game
        due = timeline.next_event(game, village.created_at)
        if due is None:
            return {}
        engine = game.village
        ahead: dict[str, Ahead] = {}
        sunset = timeline.sunset_at(game)
        if due.event is Event.ROUND and engine is not None and sunset is not None:
            ahead["sunset"] = Ahead("日没へ（超過時間に入ります）", sunset)
            ahead["round"] = Ahead(f"第{engine.round}回投票の締め切りへ", due.at)
        elif engine is not None and due.event is Event.NIGHT:
            ahead["night"] = Ahead(f"夜明けへ（{engine.day + 1}日目の朝）", due.at)
        else:
            ahead[due.event.value] = Ahead(labels.CLOCK_LABELS[due.event.value], due.at)
        return {key: moment for key, moment in ahead.items() if moment.at > now}

    def step(self, village: VillageView[ClassicGame], at: datetime) -> Step[ClassicGame]:
        """The event due at ``at``: the prologue's abandonment, a sunset, a round's or a night's
        close, or the end of the epilogue."""
        game = _copy(village.game)
        due = timeline.next_event(game, village.created_at)
        if due is None:
            raise NotNow("この村に予定はありません")
        if at < due.at:  # looked in early (a GM's first update): wait for the event
            return Step(village.state, game, self.day(game), at, due.at)
        if due.event is Event.ABANDON:
            return self.abandon(village, at, "期限までに始まらなかったため、廃村になりました。")
        game.moved = None  # the moved event happens now: what comes next is the rules' own
        return self._event(village, game, due.event, at)

    def reschedule(
        self, village: VillageView[ClassicGame], to: datetime, at: datetime, notice: str
    ) -> Step[ClassicGame]:
        """The GM moves the pending event (the prologue's abandon time: the recruiting time; a
        vote round's close, a night's close, the epilogue's end) to ``to``. A sunset is the
        village's daily rhythm and opens the overtime the round's deadline runs from: it
        stays (docs/decisions-classic.md 67)."""
        game = _copy(village.game)
        due = timeline.by_the_rules(game, village.created_at)
        if due is None:
            raise ValueError("この村に次の予定はありません")
        if due.event is Event.SUNSET:
            raise ValueError("日没の時刻は動かせません。日没のあとの投票の締め切りなら動かせます")
        game.moved = (due.at, to)
        day = self.day(game)
        return Step(village.state, game, day, at, to, posts=(SystemPost(PUBLIC, day, notice, at),))

    def _event(
        self, village: VillageView[ClassicGame], game: ClassicGame, event: Event, at: datetime
    ) -> Step[ClassicGame]:
        engine = game.village
        assert engine is not None
        day = engine.day
        saved = village.saved(day)
        names = seats.character_names(game, {s: seat.name for s, seat in village.seats().items()})
        before = set(engine.deaths)
        key = vote_key(engine)
        done = timeline.advance(
            game,
            event,
            at,
            seed=village.seed,
            votes=seats.votes(game, saved, key),
            night=seats.night_choices(game, saved, village.saved_at(day)),
        )
        posts, mail, locks = _told(village, game, event, done, names, at)
        died = set(engine.deaths) - before
        release = frozenset(game.seats[c] for c in died if c != NPC)
        if done.ended:
            release = frozenset(village.seats())
        due = timeline.next_event(game, village.created_at)
        dawn = done.morning is not None  # a round's close may close the night too (§2.4)
        happenings = (event.value,) + (
            (Event.NIGHT.value,) if dawn and event is not Event.NIGHT else ()
        )
        return Step(
            state=_state(game),
            game=game,
            day=mail_day(game),
            at=at,
            next_update=due.at if due is not None else None,
            day_started_at=game.day_began,
            seal_day=day if dawn else None,
            open_day=engine.day if dawn and not done.ended else None,
            check_day=day if event is Event.ROUND and not dawn else None,
            posts=posts,
            mail=mail,
            release=release,
            locks=locks,
            happenings=happenings + (("ending",) if done.ended else ()),
            detail=done,
        )

    def abandon(
        self, village: VillageView[ClassicGame], at: datetime, text: str
    ) -> Step[ClassicGame]:
        game = _copy(village.game)
        game.abandoned = True
        return Step(
            State.ABANDONED,
            game,
            self.day(game),
            at,
            None,
            posts=(SystemPost(PUBLIC, self.day(game), text, at),),
            mail="abandoned",
            release=frozenset(village.seats()),
            happenings=("abandoned",),
        )

    def reminder(
        self, village: VillageView[ClassicGame], now: datetime
    ) -> tuple[datetime | None, list[str] | None]:
        """Before the first round's sunset: the living who have not voted (not voting is
        sudden death); before a night closes: the living ability holders whose choice does
        not count. (None, None) when no reminder is pending."""
        game = village.game
        engine = game.village
        if village.state is not State.RUNNING or engine is None or engine.ending is not None:
            return None, None
        lead = REMINDER_LEAD[game.options.pace]
        saved = village.saved(engine.day)
        if engine.voting:
            sunset = timeline.sunset_at(game)
            if sunset is None or game.round_opened != game.day_began:
                return None, None  # a later round's mail is its reminder
            at = sunset - lead
            if now < at:
                return at, None
            key = vote_key(engine)
            voted = set(seats.votes(game, saved, key))
            return at, [game.seats[c] for c in engine.voters() if c not in voted]
        if engine.phase is not Phase.NIGHT or game.night_began is None:
            return None, None
        close = timeline.next_event(game, village.created_at)
        assert close is not None
        when = close.at - lead
        if now < when:
            return when, None
        return when, view.unset_abilities(game, saved, village.saved_at(engine.day))

    def reminder_key(self, village: VillageView[ClassicGame]) -> int:
        """Each round and each night has its own reminder (once each)."""
        return mail_day(village.game)

    # ----- the prologue -----

    def prologue_step(
        self,
        village: VillageView[ClassicGame],
        slot: str,
        action: str,
        target: str | None,
        now: datetime,
    ) -> Step[ClassicGame]:
        """A start vote or a kick vote set or withdrawn (§2.1): the game with it, and the start
        itself when it was the last start vote. ``detail``: the seat a kick removed, if any."""
        game = _copy(village.game)
        if not game.in_prologue or village.state is not State.OPENING:
            raise NotNow("プロローグは終わりました")
        prologue = game.prologue
        had_votes = bool(prologue.start_votes)
        kicked = None
        try:
            if action in ("start", "unstart"):
                prologue.vote_start(slot, action == "start")
            elif action in ("kick", "unkick"):
                if target is None or target not in prologue.members:
                    raise ValueError("キックする人を選んでください")
                voters = {*prologue.kicks.get(target, ()), slot}
                if prologue.kick(slot, target, action == "kick"):
                    kicked = target
            else:
                raise ValueError("その操作はありません")
        except PrologueError as error:
            raise ValueError(str(error)) from error
        posts: list[SystemPost] = []
        if kicked is not None:
            seats_ = village.seats()
            name = seats_[kicked].name
            game.kicks.append(
                Kick(
                    name,
                    seats_[kicked].account_id or "",
                    tuple(seats_[v].name for v in prologue.members if v in voters),  # join order
                    now,
                )
            )
            text = f"{name} はキックされました。"
            if had_votes:
                text += "開始投票はすべて取り消されました。"
            posts.append(SystemPost(PUBLIC, 0, text, now))
        if kicked is None and prologue.ready(game.options.min_members):
            return self._start(village, game, now)
        return Step(
            State.OPENING,
            game,
            0,
            now,
            village.next_update,
            posts=tuple(posts),
            happenings=(action,),
            detail=kicked,
        )

    def _start(
        self, village: VillageView[ClassicGame], game: ClassicGame, at: datetime
    ) -> Step[ClassicGame]:
        game.start(at, random.Random(f"{village.seed}:start"))
        engine = game.village
        assert engine is not None
        names = seats.character_names(game, {s: seat.name for s, seat in village.seats().items()})
        cast = "、".join(
            f"{labels.ROLE_LABELS[role]}{n}" for role, n in view.cast_counts(engine).items()
        )
        order = "、".join(names[c] for c in engine.players)
        first = "1日目の昼です（投票はありません）。" if game.options.opening else "1日目の夜です。"
        text = f"ゲームが始まりました。配役：{cast}（身代わり君を含む）。\n席順：{order}\n{first}"
        due = timeline.next_event(game, village.created_at)
        assert due is not None
        return Step(
            State.RUNNING,
            game,
            1,
            at,
            due.at,
            day_started_at=at,
            open_day=1,
            posts=(SystemPost(PUBLIC, 1, text, at),),
            mail="start",
            happenings=("started",),
        )

    # ----- choices -----

    def check_choices(
        self,
        village: VillageView[ClassicGame],
        slot: str,
        data: Mapping[str, str | None],
        now: datetime,
        checked: VillageView[ClassicGame] | None = None,
    ) -> dict[str, str]:
        """A vote and tonight's choices, merged into what the member saved today (a key left
        out keeps its value; an empty night choice is unset; a short village's vote is final).
        A vote counts in the round it was checked against (``checked``: a save whose write
        met a change) and a night choice until the night's close, even before the tick."""
        game = village.game
        engine = game.village
        if "vote" in data and checked is not None:
            before = checked.game.village
            if (
                before is not None
                and before.voting
                and (engine is None or vote_key(before) != vote_key(engine))
            ):
                raise NotNow(VOTE_CLOSED)
        if village.state is not State.RUNNING or engine is None or engine.ending is not None:
            raise NotNow("いまは投票も行動もできません")
        actor = seats.character(game, slot)
        if actor is None or actor in engine.deaths:
            raise NotNow("死んだ人は投票も行動もできません")
        if engine.phase is Phase.NIGHT and any(k in NIGHT_KEYS for k in data):
            close = timeline.next_event(game, village.created_at)
            if close is not None and now >= close.at:
                raise NotNow("今夜の行動は締め切られました")
        key = vote_key(engine)
        current = village.saved(engine.day).get(slot, {})
        out = {k: v for k, v in current.items() if k in (*NIGHT_KEYS, key, seats.ATTACK_AT)}
        try:
            for name, value in data.items():
                if name == "vote":
                    self._check_vote(game, engine, actor, out.get(key), value, now)
                    if value is None:
                        out.pop(key, None)
                    else:
                        out[key] = value
                elif name in NIGHT_KEYS:
                    if value is None:
                        out.pop(name, None)
                        if name == "attack":
                            out.pop(seats.ATTACK_AT, None)
                        continue
                    target = seats.character(game, value)
                    error = engine.choice_refusal(actor, Ability(name), target or value)
                    if target is None or error is not None:
                        raise error or RuleError("その人は選べません")
                    out[name] = value
                    if name == "attack":  # §3: a save naming the attack makes it the latest
                        out[seats.ATTACK_AT] = now.isoformat()
                else:
                    raise ValueError("その行動はありません")
        except RuleError as error:
            raise ValueError(str(error)) from error
        return out

    def _check_vote(
        self,
        game: ClassicGame,
        engine: Village,
        actor: str,
        previous: str | None,
        value: str | None,
        now: datetime,
    ) -> None:
        if not engine.voting:
            raise NotNow("いまは投票の時間ではありません")
        due = timeline.next_event(game, game.started_at or now)
        if due is not None and now >= due.at:
            raise NotNow(VOTE_CLOSED)
        if value is None:
            if previous is not None and not engine.options.votes_changeable:
                raise RuleError("この村では一度投じた票は取り消せません")
            return
        target = seats.character(game, value)
        if target is None:
            raise RuleError("その人には投票できません")
        engine.validate_vote(actor, target, previous=seats.character(game, previous or ""))

    def after_save(
        self,
        village: VillageView[ClassicGame],
        saved: Mapping[str, Mapping[str, str]],
        now: datetime,
    ) -> Step[ClassicGame] | None:
        """§7 ``early_close``: the save that completes a round or a night N ≥ 2 closes it now."""
        game = village.game
        engine = game.village
        if village.state is not State.RUNNING or engine is None:
            return None
        order = village.saved_at(engine.day)
        event = timeline.early_close(
            game,
            seats.votes(game, saved, vote_key(engine)),
            seats.night_choices(game, saved, order),
        )
        if event is None:
            return None
        return self._event(village, _copy(game), event, now)

    def visible_choices(
        self, village: VillageView[ClassicGame], viewer: Viewer, day: int
    ) -> dict[str, dict[str, str]]:
        """The viewer's own choices of today (its vote under ``vote``), and, for a werewolf,
        every living wolf's attack (§3: each wolf sees the others')."""
        game = village.game
        engine = game.village
        if viewer.slot is None or engine is None or day != engine.day:
            return {}
        return view.choices_shown(game, village.saved(day), viewer.slot)

    def quick_choices(self, village: VillageView[ClassicGame], slot: str) -> list[QuickChoice]:
        game = village.game
        engine = game.village
        if village.state is not State.RUNNING or engine is None:
            return []
        actor = seats.character(game, slot)
        if actor is None or actor in engine.deaths:
            return []
        own = view.choices_shown(game, village.saved(engine.day), slot).get(slot, {})
        quick = []
        if engine.voting and actor in engine.voters():
            was = own.get("vote")
            if was is None or engine.options.votes_changeable:
                targets = tuple(seats.seat(game, t) or t for t in engine.vote_targets(actor))
                quick.append(QuickChoice("vote", targets, was))
        for ability in engine.choice_keys(actor):
            targets = tuple(
                s
                for t in engine.choice_targets(actor, ability)
                if (s := seats.seat(game, t)) is not None and s != NPC
            )
            if targets:
                quick.append(QuickChoice(ability.value, targets, own.get(ability.value)))
        return quick

    def computer_turn(
        self,
        village: VillageView[ClassicGame],
        slot: str,
        now: datetime,
        rng: random.Random,
        heard: "Sequence[Heard]" = (),
    ) -> "ComputerTurn":
        """Only the seat's view (``computer.seat_view``, through the visibility module: of
        ``heard``, what the seat may read) and the computer's own ``rng`` reach the strategy."""
        from . import computer  # a computer member's play: only its turns need it

        return computer.turn(village, village.game, slot, now, rng, heard)

    def reply_names(self, village: VillageView[ClassicGame]) -> dict[str, tuple[str, ...]]:
        """A seat is also called by its character's number in the rule book (p3)."""
        game = village.game
        named: dict[str, tuple[str, ...]] = {s: (c,) for c, s in game.seats.items()}
        if game.village is not None:
            named[NPC] = (NPC, seats.NPC_NAME)
        return named

    # ----- boards -----

    def boards(self) -> Sequence[str]:
        return [b.value for b in Board]

    def personal_board(self, board: str) -> bool:
        return board == Board.MONOLOGUE.value

    def shadow_board(self, board: str) -> tuple[str, str] | None:
        """§6: a howl or a whisper shows on the public board as a nameless entry with its time."""
        try:
            board_ = Board(board)
        except ValueError:
            return None
        hidden = labels.HIDDEN_POST_LABELS.get(board_)
        return (PUBLIC, hidden) if hidden else None

    def readable_boards(
        self, village: VillageView[ClassicGame], viewer: Viewer, now: datetime
    ) -> list[str]:
        game = village.game
        who = view.viewer_of(game, viewer)
        moment = timeline.moment(game, now)
        roles = game.village.roles if game.village is not None else None
        return [
            b.value
            for b in Board
            if secrecy.board_exists(b, roles)
            and secrecy.can_read(
                b,
                who,
                moment,
                writer=who.character,
                heaven_sees_all=game.options.heaven_sees_all,
            )
        ]

    def others_personal_boards_open(
        self, village: VillageView[ClassicGame], viewer: Viewer, now: datetime
    ) -> bool:
        """Another member's monologue (§6): everyone's in the epilogue; during the game, the
        dead's when the heaven option lets them read every board."""
        if village.state in (State.ENDING, State.ENDED):
            return True
        if village.state is not State.RUNNING:
            return False
        game = village.game
        return secrecy.can_read(
            Board.MONOLOGUE,
            view.viewer_of(game, viewer),
            timeline.moment(game, now),
            writer=None,  # someone else's
            heaven_sees_all=game.options.heaven_sees_all,
        )

    def write_refusal(
        self, village: VillageView[ClassicGame], viewer: Viewer, board: str, now: datetime
    ) -> str | None:
        try:
            board_ = Board(board)
        except ValueError:
            return "その掲示板はありません"
        if village.state not in (State.OPENING, State.RUNNING, State.ENDING):
            return "この村はもう書き込めません"
        game = village.game
        who = view.viewer_of(game, viewer)
        moment = timeline.moment(game, now)
        if secrecy.can_write(board_, who, moment):
            return None
        return view.write_refusal_text(board_, who, moment)

    # ----- what a viewer is shown -----

    def page(
        self, village: VillageView[ClassicGame], viewer: Viewer, now: datetime, day: int
    ) -> dict[str, Any]:
        return view.page(village, village.game, viewer, now, day)

    def notice(
        self, village: VillageView[ClassicGame], slot: str, kind: str, day: int, now: datetime
    ) -> NoticeText | None:
        game = village.game
        game_day = day // 100 if day >= 100 else day
        closed_today = day % 100 if day >= 100 else 0  # mail_day: rounds closed that day
        context = view.notice(village, game, slot, kind, game_day, now, closed_today)
        if context is None:
            return None
        # A morning concerns a member it killed or brings private news; every other mail
        # (the start, a new vote round, a reminder, the ending) concerns every member.
        morning = context.get("morning")
        concerns = kind != "morning" or bool(
            morning and (morning["news"] or context["name"] in morning["dead"])
        )
        died = kind == "round" and (context.get("round") or {}).get("died")
        subject = SUDDEN_DEATH_SUBJECT if died else SUBJECTS[kind]
        return NoticeText(subject.format(day=game_day), context, concerns)

    def labels(self) -> dict[str, Any]:
        return {
            "role_label": {str(k): v for k, v in labels.ROLE_LABELS.items()},
            "board_label": {str(k): v for k, v in labels.BOARD_LABELS.items()},
            "moment_label": {str(k): v for k, v in labels.MOMENT_LABELS.items()},
            "winner_label": {str(k): v for k, v in labels.WINNER_LABELS.items()},
            "choice_label": dict(CHOICE_LABELS),
            "phase_label": {str(k): v for k, v in labels.MOMENT_LABELS.items()}
            | {"abandoned": "廃村"},
        }

    def seat_label(self, slot: str) -> str:
        return ""


CLASSIC: RuleSet[ClassicGame] = Classic()
