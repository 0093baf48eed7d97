"""The state of one classic village and the rules that move it (RULES-CLASSIC §1–§5).

Pure: no I/O, no clock, no global random. Every draw takes the caller's RNG and walks the
characters in seat order (p1…pn, then npc), so the same seed always gives the same game.

A village moves through: day 1 (only with ``opening``: talk, no vote) → night 1 → day 2 (vote
rounds) → night 2 → … → the epilogue. The platform calls :meth:`Village.sunset` (day 1 only),
:meth:`Village.close_round` and :meth:`Village.resolve_night` when their deadlines pass (see
``pace``) or when :meth:`Village.round_may_close_early` / :meth:`Village.night_may_close_early`
say so.
"""

import random
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from msgspec import Struct, field

from .abilities import Ability, NightChoices, abilities_of, refusal
from .cast import (
    NPC,
    Cause,
    Role,
    Team,
    check_players,
    checked_roles,
    deal,
    partners,
    public_cast,
)
from .errors import PhaseError, RuleError, UnknownCharacterError, VoteError
from .night import Morning, counting, counting_attack, counting_attacker, holder, resolve
from .options import Options, TieRule
from .votes import Next, Outcome, RoundResult, after_tie, most_voted


class Phase(StrEnum):
    DAY = "day"  # talk; from day 2 a vote round is open
    NIGHT = "night"
    EPILOGUE = "epilogue"


class Winner(StrEnum):
    VILLAGE = "village"
    WOLVES = "wolves"
    FOX = "fox"
    DRAW = "draw"  # nobody alive, or a draw by the tie rule: nobody wins


class Ending(Struct, frozen=True):
    winner: Winner
    day: int  # the day on which it was decided (a night's: the next day's number)

    def to_json(self) -> dict[str, Any]:
        return {"winner": str(self.winner), "day": self.day}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Ending":
        return cls(Winner(data["winner"]), data["day"])

    def won(self, team: Team) -> bool:
        """§5: a team wins or loses as a whole, dead members included."""
        return self.winner.value == team.value


class Death(Struct, frozen=True):
    day: int  # the day of the event; a night's deaths count as that night's day number
    cause: Cause


class Village(Struct):
    """One classic village's game state, from the start (§2.2) to the epilogue."""

    roles: dict[str, Role]  # every character, seat order: p1…pn, npc
    options: Options
    day: int = 1
    phase: Phase = Phase.NIGHT
    round: int = 0  # the counted vote round open now; 0 when no vote is open
    candidates: list[str] | None = None  # the run-off's candidates, when round is a run-off
    executed: str | None = None  # executed today: the medium's subject tonight
    deaths: dict[str, Death] = field(default_factory=dict)
    rounds: list[RoundResult] = field(default_factory=list)
    mornings: list[Morning] = field(default_factory=list)
    ending: Ending | None = None

    # ----- the start (§1, §2.2) -----

    @classmethod
    def create(
        cls,
        players: int,
        rng: random.Random,
        options: Options | None = None,
        roles: Mapping[str, object] | None = None,
    ) -> "Village":
        """Deals the roles (unless given) and starts: day 1 with ``opening``, else night 1."""
        options = options or Options()
        check_players(players)
        dealt = (
            deal(players, rng, npc_villager=options.npc_villager)
            if roles is None
            else checked_roles(roles, players, npc_villager=options.npc_villager)
        )
        phase = Phase.DAY if options.opening else Phase.NIGHT
        return cls(roles=dealt, options=options, phase=phase)

    # ----- reading the state -----

    @property
    def players(self) -> list[str]:
        return [c for c in self.roles if c != NPC]

    @property
    def alive(self) -> frozenset[str]:
        return frozenset(c for c in self.roles if c not in self.deaths)

    def living(self, *roles: Role) -> list[str]:
        """Living characters (of ``roles``, if given) in seat order."""
        return [
            c for c, r in self.roles.items() if c not in self.deaths and (not roles or r in roles)
        ]

    @property
    def running(self) -> bool:
        return self.ending is None

    def public_cast(self) -> dict[str, int]:
        """The public cast list (配役, §1)."""
        return public_cast(self.roles)

    def partners(self) -> dict[str, list[str]]:
        """Each werewolf and mason player's partners (§1), the scapegoat included."""
        return partners(self.roles)

    def start_info(self, player: str) -> dict[str, Any]:
        """What ``player`` learns at the start (§1): their role, and their partners if any."""
        if player not in self.roles or player == NPC:
            raise UnknownCharacterError(player)
        return {"role": str(self.roles[player]), "partners": self.partners().get(player, [])}

    def winner(self) -> Winner | None:
        """§5 on the living characters; None while the game goes on."""
        living = self.living()
        if not living:
            return Winner.DRAW
        wolves = sum(1 for c in living if self.roles[c] is Role.WEREWOLF)
        fox = any(self.roles[c] is Role.FOX for c in living)
        others = sum(1 for c in living if self.roles[c] not in (Role.WEREWOLF, Role.FOX))
        if wolves == 0:
            return Winner.FOX if fox else Winner.VILLAGE
        if wolves >= others:
            return Winner.FOX if fox else Winner.WOLVES
        return None

    # ----- day 1 with the opening (§2.2) -----

    def sunset(self) -> None:
        """The sunset of day 1 (with ``opening``): night 1 begins. Later days end by their vote."""
        if self.phase is not Phase.DAY or self.day != 1:
            raise PhaseError("投票のない日没は1日目だけです")
        self.phase = Phase.NIGHT

    # ----- the execution vote (§2.3) -----

    @property
    def voting(self) -> bool:
        return self.phase is Phase.DAY and self.round > 0

    def voters(self) -> list[str]:
        """Who must vote in the open round (seat order): the living players, except a run-off
        candidate with no other living candidate to vote for."""
        if not self.voting:
            return []
        return [p for p in self.living() if p != NPC and not self._candidate_without_choice(p)]

    def _candidate_without_choice(self, voter: str) -> bool:
        if self.candidates is None or voter not in self.candidates:
            return False
        return not any(c != voter and c not in self.deaths for c in self.candidates)

    def vote_refusal(self, voter: str, target: str) -> RuleError | None:
        """Why ``voter`` may not vote for ``target`` in the open round, or None."""
        if not self.voting:
            return PhaseError("いまは投票できません")
        for character in (voter, target):
            if character not in self.roles:
                return UnknownCharacterError(character)
        if voter == NPC:
            return VoteError("身代わり君は投票しません")
        if voter in self.deaths:
            return VoteError("死んだ人は投票できません")
        if self._candidate_without_choice(voter):
            return VoteError("ほかに投票できる候補者がいないため、あなたは投票しません")
        if target == voter:
            return VoteError("自分自身には投票できません")
        if target in self.deaths:
            return VoteError("死んだ人には投票できません")
        if self.candidates is not None and target not in self.candidates:
            names = "・".join(self.candidates)
            return VoteError(f"決選投票では候補者（{names}）にしか投票できません")
        return None

    def vote_targets(self, voter: str) -> list[str]:
        """Whom ``voter`` may vote for now, in seat order (for forms)."""
        return [t for t in self.roles if self.vote_refusal(voter, t) is None]

    def validate_vote(self, voter: str, target: str, *, previous: str | None = None) -> None:
        """Raises when ``voter`` may not cast (or, with ``previous``, change to) this vote now."""
        error = self.vote_refusal(voter, target)
        if error is not None:
            raise error
        if previous is not None and previous != target and not self.options.votes_changeable:
            raise VoteError("この村では一度投じた票は変えられません")

    def round_may_close_early(self, votes: Mapping[str, str]) -> bool:
        """§2.3.4, §7 ``early_close``: every living member who must vote has voted."""
        return (
            self.voting
            and self.options.early_close
            and all(voter in votes for voter in self.voters())
        )

    def close_round(self, votes: Mapping[str, str], rng: random.Random) -> list[RoundResult]:
        """Closes the open round with the votes cast in it (§2.3.4).

        Returns the closed round, followed by the at-once execution of a run-off that reopened
        with a single living candidate, when that happens. Draws from ``rng`` only for the
        ``random`` tie rule.
        """
        if not self.voting:
            raise PhaseError("いまは投票を締め切れません")
        for voter, target in votes.items():
            self.validate_vote(voter, target)
        must_vote = self.voters()
        cast = {v: votes[v] for v in self.roles if v in votes}
        sudden = [p for p in must_vote if p not in votes]
        if sudden:
            for player in sudden:
                self.deaths[player] = Death(self.day, Cause.SUDDEN)
            result = self._record(cast, sudden, Outcome.SUDDEN)
            if self._check_victory():
                return [result]
            return [result, *self._reopen()]
        top = most_voted(cast, self.roles)
        if len(top) == 1:
            return [self._execute(top[0], cast)]
        if self.options.tie is TieRule.RANDOM:
            return [self._execute(rng.choice(top), cast)]
        following = after_tie(self.options.tie, self.round)
        if following is Next.DRAW:
            result = self._record(cast, [], Outcome.DRAW)
            self._end(Winner.DRAW)
            return [result]
        result = self._record(cast, [], Outcome.TIE)
        self.round += 1
        self.candidates = list(top) if following is Next.RUNOFF else None
        return [result]

    def _reopen(self) -> list[RoundResult]:
        """After sudden deaths the same counted round reopens, with the same candidates."""
        if self.candidates is None:
            return []
        living = [c for c in self.candidates if c not in self.deaths]
        # No living candidate: a full vote with the same number [decided].
        self.candidates = living or None
        if len(living) == 1:
            return [self._execute(living[0], {})]
        return []

    def _record(self, votes: dict[str, str], sudden: list[str], outcome: Outcome) -> RoundResult:
        result = RoundResult(
            day=self.day,
            round=self.round,
            votes=votes,
            sudden=sudden,
            outcome=outcome,
            executed=None,
            candidates=list(self.candidates) if self.candidates is not None else None,
        )
        self.rounds.append(result)
        return result

    def _execute(self, target: str, votes: dict[str, str]) -> RoundResult:
        result = RoundResult(
            day=self.day,
            round=self.round,
            votes=votes,
            sudden=[],
            outcome=Outcome.EXECUTED,
            executed=target,
            candidates=list(self.candidates) if self.candidates is not None else None,
        )
        self.rounds.append(result)
        self.deaths[target] = Death(self.day, Cause.EXECUTION)
        self.executed = target
        if not self._check_victory():
            self.phase = Phase.NIGHT
            self.round = 0
            self.candidates = None
        return result

    def _check_victory(self) -> bool:
        winner = self.winner()
        if winner is None:
            return False
        self._end(winner)
        return True

    def _end(self, winner: Winner) -> None:
        self.ending = Ending(winner, self.day)
        self.phase = Phase.EPILOGUE
        self.round = 0
        self.candidates = None

    # ----- night choices (§2.4) -----

    @property
    def coming_night(self) -> int | None:
        """The night whose choices may be set now: tonight's, from the start of the day before."""
        return self.day if self.phase in (Phase.DAY, Phase.NIGHT) else None

    def choice_keys(self, actor: str) -> list[Ability]:
        """The night choices ``actor`` may set now (none for the dead and the scapegoat)."""
        night = self.coming_night
        if night is None or actor not in self.roles or actor == NPC or actor in self.deaths:
            return []
        return abilities_of(self.roles[actor], night)

    def choice_refusal(self, actor: str, ability: Ability, target: str) -> RuleError | None:
        night = self.coming_night
        if night is None:
            return PhaseError("いまは行動を決められません")
        return refusal(actor, ability, target, roles=self.roles, alive=self.alive, night=night)

    def choice_targets(self, actor: str, ability: Ability) -> list[str]:
        """Whom ``actor`` may choose for ``ability`` now, seat order (for forms)."""
        return [t for t in self.roles if self.choice_refusal(actor, ability, t) is None]

    def current_attack(self, saved: Mapping[str, NightChoices]) -> tuple[str, str] | None:
        """§3: the attack that counts as things stand, as ``(werewolf who set it, target)``; every
        living wolf sees it and may override it. None: the §3 default would apply."""
        night = self.coming_night
        if night is None:
            return None
        return counting_attacker(saved, roles=self.roles, alive=self.alive, night=night)

    def night_may_close_early(self, saved: Mapping[str, NightChoices]) -> bool:
        """§2.4, §7 ``early_close``: night N ≥ 2, every ability of a living player counting."""
        if self.phase is not Phase.NIGHT or not self.options.early_close or self.day < 2:
            return False
        roles, alive, night = self.roles, self.alive, self.day
        if self.living(Role.WEREWOLF) and (
            counting_attack(saved, roles=roles, alive=alive, night=night) is None
        ):
            return False
        for role, ability in ((Role.SEER, Ability.DIVINE), (Role.HUNTER, Ability.GUARD)):
            actor = holder(roles, role)
            if (
                actor is not None
                and actor in alive
                and counting(saved, actor, ability, roles=roles, alive=alive, night=night) is None
            ):
                return False
        return True

    # ----- the night (§3, §4) -----

    def resolve_night(self, saved: Mapping[str, NightChoices], rng: random.Random) -> Morning:
        """Closes tonight and opens the next day's morning; checks victory (§4.7).

        ``saved`` maps each actor to their choices as they stand, **in the order they were last
        saved** (the most recent last): of the werewolves' attacks, the last that counts is it.
        """
        if self.phase is not Phase.NIGHT:
            raise PhaseError("いまは夜ではありません")
        morning = resolve(
            roles=self.roles,
            alive=self.alive,
            night=self.day,
            saved=saved,
            executed=self.executed,
            rng=rng,
        )
        for character, cause in morning.deaths.items():
            self.deaths[character] = Death(self.day, cause)
        self.mornings.append(morning)
        self.day = morning.day
        self.executed = None
        self.phase = Phase.DAY
        self.round = 1
        self.candidates = None
        self._check_victory()
        return morning

    # ----- serialization -----

    def to_json(self) -> dict[str, Any]:
        return {
            "roles": {c: str(r) for c, r in self.roles.items()},
            "options": self.options.to_json(),
            "day": self.day,
            "phase": str(self.phase),
            "round": self.round,
            "candidates": list(self.candidates) if self.candidates is not None else None,
            "executed": self.executed,
            "deaths": {c: {"day": d.day, "cause": str(d.cause)} for c, d in self.deaths.items()},
            "rounds": [r.to_json() for r in self.rounds],
            "mornings": [m.to_json() for m in self.mornings],
            "ending": self.ending.to_json() if self.ending else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Village":
        candidates = data["candidates"]
        return cls(
            roles={c: Role(r) for c, r in data["roles"].items()},
            options=Options.from_json(data["options"]),
            day=data["day"],
            phase=Phase(data["phase"]),
            round=data["round"],
            candidates=list(candidates) if candidates is not None else None,
            executed=data["executed"],
            deaths={c: Death(d["day"], Cause(d["cause"])) for c, d in data["deaths"].items()},
            rounds=[RoundResult.from_json(r) for r in data["rounds"]],
            mornings=[Morning.from_json(m) for m in data["mornings"]],
            ending=Ending.from_json(data["ending"]) if data["ending"] else None,
        )
