"""The seam of games played move by move (RULES-DUEL: two sides, turns of seconds to days).

The platform keeps a game's stored state, its numbered append-only moves, the sides' players
and clocks; a rule set (``rulesets/duel/`` is one) decides what a move is, whose move it is,
what each side sees (its own visibility module) and how the computer answers. What the
platform asks of it comes in parts, each a ``Protocol`` generic over the game's type ``G``
(boardgame.io's ``Game<G>``): the engine seam, the computer, the pages, the mail and the
review of an ended game; ``MatchRules`` is all of them, the one object the registry hands out
(``rulesets.match_rules``), and a caller that needs one part names that part (two: the pair
named below, ``MatchComputerPlay`` or ``MatchReplyMail``).

Two ways to end a game are no move of it but the platform's verbs: 投了 (``RESIGN``, at any
time of a game not ended, by either side) and 中止 (a ranked game ended before both sides
moved, decision 150). The rule set describes them (``Verbs``: their words and questions;
``forfeit``: what 投了 does to the game) and the platform plays them.
"""

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any, Generic, Protocol, TypeVar

from msgspec import Struct, field

from .base import NoticeText

G = TypeVar("G")
G_contra = TypeVar("G_contra", contravariant=True)  # a part that only reads the game

# The platform's verb 投了: the move ``{"do": RESIGN}``, its side loses. A rule set's forms and
# replies spell it so, and its ``forfeit`` is what it does to the game.
RESIGN = "resign"


class Verbs(Struct, frozen=True):
    """How a rule set words the platform's verbs: 投了 and 中止."""

    resign: str  # 投了's name, in pages and mail
    resign_question: str  # asked before 投了 is sent: it cannot be undone
    abort_question: str  # asked instead when 投了 would abort a ranked game (中止)


class Offer(Struct, frozen=True):
    """What the top page offers for a new game against the computer: the rule set's name and
    label, its presets, the sides a person may take and the computer's strengths, each as
    ``(value, words)`` in order."""

    rules: str
    label: str
    presets: tuple[tuple[str, str], ...]
    sides: tuple[tuple[str, str], ...]
    strengths: tuple[tuple[str, str], ...]
    # The game's own further choices: (form name, words, ((value, words), …)), first the default.
    choices: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()
    # The game's own achievements (実績), each (key, title, what earns it), in order.
    feats: tuple[tuple[str, str, str], ...] = ()


class Played(Struct, Generic[G], frozen=True):
    """One move as a rule set played it: the new game, and the move as stored (normalised)."""

    game: G
    side: str
    move: dict[str, Any]


class MailLine(Struct, frozen=True):
    """One line of a reply to a game's mail: ``read`` (part of the move), ``unknown`` (no
    command of the turn: ignored) or ``bad`` (a command that does not read: nothing played)."""

    text: str
    status: str
    why: str = ""


class MailReading(Struct, frozen=True):
    """A reply to a game's mail as its rule set reads it for one side's turn: each line's
    fate, and the fields of the phone's form that plays the same move (None: nothing to play)."""

    lines: list[MailLine]
    form: dict[str, str] | None = None
    problems: list[str] = field(default_factory=list)


class MatchEngine(Protocol[G]):
    """The engine seam: a game set up, stored, played and ended, and each side's view."""

    name: str  # stored on the game item
    sides: tuple[str, ...]  # in the order the game names them
    verbs: Verbs

    # The setup as picked, checked; its ``private`` entry (a side's secret choice, e.g. the
    # duel's hand placement) reaches ``create`` and ``further_setup`` only, never stored.
    def check_setup(self, given: Mapping[str, str]) -> dict[str, Any]: ...
    def create(self, setup: Mapping[str, Any], rng: Random) -> G: ...
    def parse(self, data: Any) -> G: ...
    def dump(self, game: G) -> Any: ...
    def to_move(self, game: G) -> str | None: ...  # the side to move; None once it has ended
    # A move of the game (never 投了, the platform's): a refusal is a ``ValueError``.
    def play(self, game: G, side: str, move: Any, rng: Random) -> Played[G]: ...
    # The game, ended by the platform: ``side`` lost on ``how`` (``RESIGN``; "time": its flag
    # fell; "gone": its page was away a minute in a live game between people, decision 82).
    def forfeit(self, game: G, side: str, how: str) -> G: ...
    def outcome(self, game: G, side: str) -> str | None: ...  # "win" | "loss" | None
    def seen(self, game: G, side: str) -> dict[str, Any]: ...  # the side's JSON view
    # In a ranked game, seconds the answer due now is held from the side that asked (its
    # answerer's clock stopped meanwhile); 0: shown at once.
    def hold(self, game: G) -> int: ...


class MatchComputer(Protocol[G_contra]):
    """The computer's move, from its side's view only."""

    def computer_move(
        self, game: G_contra, side: str, strength: str, rng: Random
    ) -> dict[str, Any]: ...


class MatchPages(Protocol[G_contra]):
    """What a side's pages show and send: the offer, the set-up page, the game's page, forms."""

    label: str  # how pages name the game (and, after the site's name, its mail)
    page_template: str
    setup_template: str  # the page of ``further_setup``

    def offer(self) -> Offer: ...
    # What the person taking ``side`` still has to choose before the game exists (the page
    # ``setup_template`` shows, with a refusal's ``message``), or None: the game can start.
    def further_setup(self, setup: Mapping[str, Any], side: str) -> dict[str, Any] | None: ...
    def page(self, game: G_contra, side: str) -> dict[str, Any]: ...  # the template context
    def move_from_form(
        self, game: G_contra, side: str, form: Mapping[str, str]
    ) -> dict[str, Any]: ...
    # The question a form's move is confirmed with before it is played (None: played at once).
    def confirmation(self, game: G_contra, side: str, form: Mapping[str, str]) -> str | None: ...


class MatchMail(Protocol[G_contra]):
    """A player's mail and play by reply mail (issue 27), from the side's view only."""

    notice_templates: tuple[str, str]  # a player's mail: text, HTML

    # A player's mail of ``kind`` ("start", "turn", "reminder", "end").
    def notice(self, game: G_contra, side: str, kind: str) -> NoticeText: ...
    # A reply's new text read for ``side``'s turn now; replies valid now (each a list of
    # lines, for the turn's mail); the board as ``side`` sees it, in lines of text; one of
    # ``side``'s moves in a line (what a confirmation says was played).
    def read_reply(self, game: G_contra, side: str, text: str) -> MailReading: ...
    def reply_examples(self, game: G_contra, side: str) -> list[list[str]]: ...
    def board_lines(self, game: G_contra, side: str) -> list[str]: ...
    def move_line(self, side: str, move: Any) -> str: ...


class MatchReview(Protocol[G]):
    """An ended game: its shared record, its review (感想戦) and the achievements it earned."""

    record_template: str  # an ended game's shared record (``record``)
    review_template: str  # an ended game's review (感想戦, ``review``)

    # An ended game's public record (棋譜を共有): nothing of the players, no side's secrets.
    def record(self, game: G) -> dict[str, Any]: ...
    # The game's start (move 0) again from its stored setup and the chance of its move 0,
    # checked against the ended ``game`` (what its end reveals: a secret choice of setup).
    def recreate(self, setup: Mapping[str, Any], game: G, rng: Random) -> G: ...
    # The review of the ended game ``final`` at ``position``, the game after the first
    # ``number`` of its ``steps`` (side, move), every side's view then: the template context.
    def review(
        self, position: G, final: G, steps: Sequence[tuple[str, Any]], number: int
    ) -> dict[str, Any]: ...
    # The game's own achievements ``side`` earned in this ended game (``Offer.feats`` keys).
    def feats(self, game: G, side: str) -> tuple[str, ...]: ...


class MatchComputerPlay(MatchEngine[G], MatchComputer[G], Protocol[G]):
    """The engine and the computer: what plays the computer's moves until a person is to move."""


class MatchReplyMail(MatchEngine[G], MatchMail[G], Protocol[G]):
    """The engine and the mail: whose move it is, and what a reply to a side's mail may say."""


class MatchRules(
    MatchEngine[G], MatchComputer[G], MatchPages[G], MatchMail[G], MatchReview[G], Protocol[G]
):
    """A game of two sides played move by move (a duel): every part, behind one object per
    game (docs/architecture.md: "How to add a rule set")."""
