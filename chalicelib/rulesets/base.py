"""The rule-set seam of villages: what the platform asks of a game, whatever the game. Pure.

Storage, services, web, mail and the scheduler know villages only through this
interface; each game (``mobius``, ``classic``) is one object implementing it,
found by name in ``chalicelib.rulesets``. Nothing outside a rule set branches on
which game a village plays. What the platform asks comes in parts, each a ``Protocol``
generic over the game's type ``G`` (as boardgame.io's ``Game<G>``), like the village it reads
and the step it makes (``VillageView[G]``, ``Step[G]``):
``VillageEngine``, ``VillageMembership``, ``VillageTimeline``, ``VillageChoices``,
``VillageBoards``, ``VillagePages``, ``VillageMail`` and ``VillageComputers``;
``RuleSet`` is all of them, the one object the registry hands out, and a caller that needs
one part names that part. Games played move by move have their own seam (``match``).

A rule set reads a village as the platform loaded it (``VillageView``: the stored
village, its members, their saved choices) and answers with plain data: the game's
state, the forms a viewer may fill now, who reads and writes which board, what a
page or a mail shows a viewer, and the ``Step`` an update makes, which storage
commits in one version-checked transaction with the mail it owes.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from enum import StrEnum
from random import Random
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from msgspec import Struct, field

from .options import Option

if TYPE_CHECKING:  # a computer member's turn only: never loaded for a page (decision 241)
    from .turns import ComputerTurn, Heard

G = TypeVar("G")  # a game's own type, as its engine stores it
G_co = TypeVar("G_co", covariant=True)  # a loaded village's game: rule sets only read it
G_contra = TypeVar("G_contra", contravariant=True)  # a part that only reads the game


class NotNow(ValueError):
    """A refusal because of the moment (the village is not running, …): a Japanese sentence.

    Any other ``ValueError`` a rule set raises is a refusal of the input itself."""


class State(StrEnum):
    """A village's stored state, the same lifecycle for every game (classic's prologue is
    ``opening``, its epilogue ``ending``)."""

    OPENING = "opening"
    RUNNING = "running"
    ENDING = "ending"
    ENDED = "ended"
    ABANDONED = "abandoned"


ACTIVE_STATES = (State.OPENING, State.RUNNING, State.ENDING)
CLOSED_STATES = (State.ENDED, State.ABANDONED)


class Pace(StrEnum):
    """Long or short: an account holds one village of each at a time (RULES §9)."""

    LONG = "long"
    SHORT = "short"


class Viewer(Struct, frozen=True):
    """Who is looking: a member playing ``slot``, or a visitor (観光客) when ``slot`` is None."""

    account_id: str | None = None
    slot: str | None = None

    @property
    def visitor(self) -> bool:
        return self.slot is None


VISITOR = Viewer()


class Bans(Struct, frozen=True):
    """A member's speech bans (RULES §8)."""

    speech_until: datetime | None = None  # every board: joined in the opening
    public_until: datetime | None = None  # public board: took over a vacant slot


# A computer member (CPU) holds its seat under this pseudo account, never a real one (a real
# account ID is letters, digits and "_"): no mail, no hold, no ID lock, no idle departure.
COMPUTER_PREFIX = "cpu:"


def computer_account(slot: str) -> str:
    """The pseudo account a computer member holds ``slot`` under."""
    return f"{COMPUTER_PREFIX}{slot}"


def is_computer(account_id: str | None) -> bool:
    return account_id is not None and account_id.startswith(COMPUTER_PREFIX)


class Seat(Struct, frozen=True):
    """One member item as a rule set reads it."""

    slot: str
    account_id: str | None  # None: vacant
    persona: str | None
    name: str  # how pages, mail and reports name the character
    last_access: datetime | None = None  # the last recorded visit
    last_post_at: datetime | None = None
    bans: Bans = Bans()
    will: str | None = None  # a classic member's will (遺書), as last written

    @property
    def computer(self) -> bool:
        """Held by a computer member (CPU)."""
        return is_computer(self.account_id)


class VillageView(Protocol[G_co]):
    """A loaded village, as rule sets read it (``storage.VillageRecord`` is one), its game
    parsed as its rule set's ``G``."""

    @property
    def village_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def pace(self) -> Pace: ...
    @property
    def state(self) -> State: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def day_started_at(self) -> datetime | None: ...
    @property
    def next_update(self) -> datetime | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def game(self) -> G_co: ...
    def seats(self) -> dict[str, Seat]: ...
    def saved(self, day: int) -> dict[str, dict[str, str]]: ...
    def recorded(self, day: int) -> dict[str, dict[str, str]]: ...
    def saved_days(self) -> dict[int, dict[str, dict[str, str]]]: ...
    def saved_at(self, day: int) -> dict[str, str]: ...


class SystemPost(Struct, frozen=True):
    """A post the village itself writes (day starts, deaths, the ending) on ``board``."""

    board: str
    day: int
    text: str
    at: datetime


class NewGame(Struct, Generic[G], frozen=True):
    """A game as created: its state, its seats in order, and the posts it starts with."""

    game: G
    seats: tuple[str, ...]
    posts: tuple[SystemPost, ...] = ()


class Step(Struct, Generic[G], frozen=True):
    """One transition of a village, decided by its rule set and committed by storage at once.

    ``seal_day``: the day whose saved choices the step consumed (sealed, and the commit
    fails if a save slipped in after the read); ``open_day``: a new day to save choices
    for. ``mail``: the notice owed to every member. ``release``: the slots whose holds on
    the pace end (RULES §9: death or the game's end).
    """

    state: State
    game: G
    day: int
    at: datetime
    next_update: datetime | None
    day_started_at: datetime | None = None
    seal_day: int | None = None
    open_day: int | None = None
    check_day: int | None = None  # a day whose saves must be unchanged (read, not sealed)
    posts: tuple[SystemPost, ...] = ()
    mail: str | None = None
    release: frozenset[str] = frozenset()
    locks: frozenset[str] = frozenset()  # slots whose accounts get an ID lock (sudden death)
    happenings: tuple[str, ...] = ()  # kinds of what happened, in order (a step may end a game)
    detail: Any = None  # e.g. Mobius's Morning
    gm_reason: str | None = None  # a GM's 廃村: its reason, kept on the village for the mail
    # The seats computer members take with this step, slot -> persona: the platform's, for
    # a village that starts with the computer members it waited for (decision 125).
    computers: Mapping[str, str] = field(default_factory=dict)


class SeatRules(Struct, frozen=True):
    """The timers of membership (RULES §8, §9) a rule set gives the platform's pure module."""

    first_update: timedelta  # after creation, unless the GM says when
    opening_speech_ban: timedelta
    opening_idle_limit: timedelta
    idle_limit: timedelta
    public_ban_on_takeover: timedelta
    first_access_limit: timedelta | None  # short villages: back within this of day 1's start
    takeovers: bool = True  # a newcomer may take a vacant living seat of a running game
    leaving_in_game: bool = True  # a member may leave after the start (with an ID lock)


class QuickChoice(Struct, frozen=True):
    """One action a mail offers as one-tap links: its key, its targets, its value now."""

    key: str
    targets: tuple[str, ...]
    was: str | None


class NoticeText(Struct, frozen=True):
    """What a rule set says in one member's mail: its subject and the templates' context."""

    subject: str
    context: dict[str, Any] = field(default_factory=dict)
    # Whether this mail concerns the member (docs/playing.md, "Mail a member wants"): one who
    # wants only their own mail and the deadlines is not sent the others.
    concerns: bool = True


class Ahead(Struct, frozen=True):
    """A moment ahead of a village (the local clock page): what happens then, and when."""

    label: str  # the clock page's button, e.g. 「日没へ（超過時間に入ります）」
    at: datetime


# ----- the village seam, in parts: what the platform asks of a game of villages -----


class VillageEngine(Protocol[G]):
    """The engine seam: a game set up, stored and read."""

    name: str  # stored on the village item

    def check_setup(self, pace: Pace, given: Mapping[str, Any]) -> dict[str, Any]: ...
    def create(
        self, rng: Random, pace: Pace, at: datetime, given: Mapping[str, Any] | None = None
    ) -> NewGame[G]: ...
    def parse(self, data: Any) -> G: ...
    def dump(self, game: G) -> Any: ...
    def day(self, game: G) -> int: ...
    def dead(self, game: G) -> frozenset[str]: ...
    def seat_order(self, game: G) -> Sequence[str]: ...
    def engine_choices(self, saved: Mapping[str, Mapping[str, str]]) -> Any: ...


class VillageMembership(Protocol[G]):
    """The game's side of seats: its timers, a join, a departure, the prologue's votes."""

    def seat_rules(self, pace: Pace) -> SeatRules: ...
    # The game as a join or a departure changes it (None: unchanged), and a departure's note.
    def on_join(self, village: VillageView[G], slot: str, now: datetime) -> G | None: ...
    def on_departure(
        self, village: VillageView[G], slot: str, now: datetime
    ) -> tuple[G | None, str]: ...
    def prologue_step(
        self, village: VillageView[G], slot: str, action: str, target: str | None, now: datetime
    ) -> Step[G]: ...


class VillageTimeline(Protocol[G]):
    """The village's moments: its phase, its deadline, each update as a ``Step``."""

    def phase(self, village: VillageView[G], now: datetime) -> str: ...
    def deadline(self, village: VillageView[G]) -> datetime | None: ...
    def moments(self, village: VillageView[G], now: datetime) -> dict[str, Ahead]: ...
    def step(self, village: VillageView[G], at: datetime) -> Step[G]: ...
    def abandon(self, village: VillageView[G], at: datetime, text: str) -> Step[G]: ...
    # A GM moves the pending update to ``to`` (a ``ValueError``: the GM's sentence), telling
    # the members with ``notice`` on the public board.
    def reschedule(
        self, village: VillageView[G], to: datetime, at: datetime, notice: str
    ) -> Step[G]: ...
    def reminder(
        self, village: VillageView[G], now: datetime
    ) -> tuple[datetime | None, list[str] | None]: ...
    def reminder_key(self, village: VillageView[G]) -> int: ...


class VillageChoices(Protocol[G]):
    """A member's saved choices: checked, taking effect, shown."""

    choice_labels: Mapping[str, str]  # the action form's keys, in order, and their words

    def check_choices(
        self,
        village: VillageView[G],
        slot: str,
        data: Mapping[str, str | None],
        now: datetime,
        checked: VillageView[G] | None = None,
    ) -> dict[str, str]: ...
    def after_save(
        self, village: VillageView[G], saved: Mapping[str, Mapping[str, str]], now: datetime
    ) -> Step[G] | None: ...
    def visible_choices(
        self, village: VillageView[G], viewer: Viewer, day: int
    ) -> dict[str, dict[str, str]]: ...


class VillageBoards(Protocol[G_contra]):
    """Who reads and writes which board (the game's own visibility module decides)."""

    public_board: str  # where the village's own notices go, and the board a page opens on
    wills: bool  # whether members write a will (classic 遺書)
    will_length: int

    def boards(self) -> Sequence[str]: ...
    def personal_board(self, board: str) -> bool: ...
    def shadow_board(self, board: str) -> tuple[str, str] | None: ...
    def readable_boards(
        self, village: VillageView[G_contra], viewer: Viewer, now: datetime
    ) -> list[str]: ...
    def others_personal_boards_open(
        self, village: VillageView[G_contra], viewer: Viewer, now: datetime
    ) -> bool: ...
    def write_refusal(
        self, village: VillageView[G_contra], viewer: Viewer, board: str, now: datetime
    ) -> str | None: ...


class VillagePages(Protocol[G_contra]):
    """What the lounge, the 村建て page and a village's page show of the game."""

    label: str  # how the lounge names the game
    # How the lounge names a village's ``next_update`` in each state (absent: 次の更新).
    next_update_words: Mapping[str, str]
    page_template: str  # the village page
    # The GM's options, declared once for the lambda, the command line and the 村建て page.
    options: Sequence[Option]

    def page(
        self, village: VillageView[G_contra], viewer: Viewer, now: datetime, day: int
    ) -> dict[str, Any]: ...
    def labels(self) -> dict[str, Any]: ...
    def seat_label(self, slot: str) -> str: ...


class VillageMail(Protocol[G_contra]):
    """A member's mail: its notices, one-tap choices, and what a reply may say."""

    notice_templates: tuple[str, str]  # a member's mail: text, HTML
    # A reply mail's words for each choice (the first is how mail writes it), besides its key.
    reply_words: Mapping[str, tuple[str, ...]]

    def notice(
        self, village: VillageView[G_contra], slot: str, kind: str, day: int, now: datetime
    ) -> NoticeText | None: ...
    def quick_choices(self, village: VillageView[G_contra], slot: str) -> list[QuickChoice]: ...
    # What else a reply mail may call each target, besides its slot and its name.
    def reply_names(self, village: VillageView[G_contra]) -> dict[str, tuple[str, ...]]: ...


class VillageComputers(Protocol[G_contra]):
    """A computer member's turn (``turns``): the rule set builds the seat's view through its
    visibility module only (plain data, what that seat may see) and hands it, with the
    computer's own secret ``rng``, to a pure strategy; the strategy never sees the village or
    its seed. ``heard``: today's posts read for the village's computers (decision 126),
    oldest first."""

    def computer_turn(
        self,
        village: VillageView[G_contra],
        slot: str,
        now: datetime,
        rng: Random,
        heard: "Sequence[Heard]" = (),
    ) -> "ComputerTurn": ...


class RuleSet(
    VillageEngine[G],
    VillageMembership[G],
    VillageTimeline[G],
    VillageChoices[G],
    VillageBoards[G],
    VillagePages[G],
    VillageMail[G],
    VillageComputers[G],
    Protocol[G],
):
    """Everything game-specific of a village, behind one object per game, every part
    (docs/architecture.md: "How to add a rule set")."""
