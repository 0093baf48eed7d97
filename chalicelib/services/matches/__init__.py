"""Games played move by move (a duel, against the computer or a person): start, move, look, poll.

A game is one META item (its state, players, clocks) and its append-only moves. A move is
checked by the game's rule set (against the engine's legal moves), then the computer's
replies are computed at once, in the same request, and everything is written in one
transaction conditioned on the number of moves the player's page showed: a double tap or
a stale page is refused, never applied twice or out of turn.

By concern: ``game`` (the game as a request sees it, and what every use case shares),
``clock`` (time and presence), ``play`` (moves, the computer's replies, what time decides),
``ending`` (the write of a game and its end, with the records), ``rooms`` (seats:
starting, invitations, rooms, lists, adoption), ``chat`` and ``sharing``. The names the
other layers use are these."""

from .chat import chat, chats
from .clock import gone_at, seen_here
from .ending import end_if_due
from .game import (
    COMPUTER,
    STALE,
    Match,
    Stale,
    chance_of,
    kept,
    load,
    loaded,
    move_of_form,
    play_move,
    progress,
)
from .play import computer_replies, look, move, question, settle
from .rooms import MoreSetup, adopt, cancel, games_of, join, rooms, start
from .sharing import share, shared, withdraw_share

__all__ = [
    "COMPUTER",
    "STALE",
    "Match",
    "MoreSetup",
    "Stale",
    "adopt",
    "cancel",
    "chance_of",
    "chat",
    "chats",
    "computer_replies",
    "end_if_due",
    "games_of",
    "gone_at",
    "join",
    "kept",
    "load",
    "loaded",
    "look",
    "move",
    "move_of_form",
    "play_move",
    "progress",
    "question",
    "rooms",
    "seen_here",
    "settle",
    "share",
    "shared",
    "start",
    "withdraw_share",
]
