"""The rules of classic werewolf (人狼BBS style), RULES-CLASSIC §1–§5, as a pure library.

Typical use::

    rng = random.Random(seed)
    village = Village.create(9, rng, Options.create("short", tie="runoff"))
    village.resolve_night({"p1": NightChoices(divine="p3")}, rng)  # night 1
    village.voters(), village.vote_targets("p1")  # day 2's first round
    village.close_round({"p1": "p6", ...}, rng)
    village.choice_keys("p4"), village.choice_targets("p4", Ability.ATTACK)
    village.ending  # None while the game goes on

Deadlines come from :mod:`.pace`, the prologue from :mod:`.prologue`, who reads and writes which
board from :mod:`.visibility`; the scenario runner and the simulator are :mod:`.scenario` and
:mod:`.simulate`.
"""

from .abilities import ABILITY_IDS, UNSET, Ability, NightChoices
from .cast import (
    NPC,
    Cause,
    Judgment,
    Role,
    Team,
    characters,
    deal,
    deck,
    judgment_of,
    players,
)
from .errors import (
    ChoiceError,
    PhaseError,
    PrologueError,
    RuleError,
    SetupError,
    UnknownCharacterError,
    UnknownChoiceError,
    VoteError,
)
from .night import Morning, News, Result
from .options import Options, Pace, TieRule
from .village import Death, Ending, Phase, Village, Winner
from .votes import Outcome, RoundResult

__all__ = [
    "ABILITY_IDS",
    "NPC",
    "UNSET",
    "Ability",
    "Cause",
    "ChoiceError",
    "Death",
    "Ending",
    "Judgment",
    "Morning",
    "News",
    "NightChoices",
    "Options",
    "Outcome",
    "Pace",
    "Phase",
    "PhaseError",
    "PrologueError",
    "Result",
    "Role",
    "RoundResult",
    "RuleError",
    "SetupError",
    "Team",
    "TieRule",
    "UnknownCharacterError",
    "UnknownChoiceError",
    "Village",
    "VoteError",
    "Winner",
    "characters",
    "deal",
    "deck",
    "judgment_of",
    "players",
]
