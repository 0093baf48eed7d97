"""A unit of work: one request's (or one scheduled job's) view of the table.

Each village is loaded at most once and its game parsed once (``VillageRecord.game``);
a use case that wrote, or lost a race, reloads on purpose through ``reload``. Writes
themselves go through storage's intention-named, conditioned writes, each one
DynamoDB request or transaction.

What the games it saw owe once their writes are committed (a clock watch, mail to hand
over: ``services/owed.py``), and what its use cases owe besides (``owe``: a village to
advance, a look's mail), it collects for the entrypoint, which sends them after the use case
returns (``collect_owed``; cosmicpython's ``collect_new_events``, decisions 225, 245).
"""

from collections import deque
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from ..storage.repository import VillageRecord, load_village
from . import sessions
from .errors import NotFound

if TYPE_CHECKING:  # only a request that acts in a game loads the games' modules (decision 241)
    from ..storage.matches import MatchRecord
    from .matches import Match
    from .owed import Owed


class Unit:
    def __init__(self) -> None:
        self._villages: dict[str, VillageRecord | None] = {}
        self._matches: dict[str, Match] = {}
        # Every game this unit handed out, a reloaded one's earlier copy too: what each owes.
        self._seen: list[Match] = []
        self._owed: deque[Owed] = deque()  # what no game carries (a tick's: thousands)

    def match(self, match_id: str) -> "Match":
        """A game played move by move, loaded once (``reload_match`` after a write)."""
        from . import matches

        if match_id not in self._matches:
            self._keep(matches.load(match_id))
        return self._matches[match_id]

    def known_match(self, record: "MatchRecord | None") -> "Match":
        """Adopts a game read elsewhere (with its reply's owner): ``NotFound`` as ``match``."""
        from . import matches

        return self._keep(matches.loaded(record))

    def created(self, match: "Match") -> "Match":
        """A game this unit's use case just made: what it owes is collected with the rest
        (read again, it is loaded as any other)."""
        self._seen.append(match)
        return match

    def _keep(self, match: "Match") -> "Match":
        self._matches[match.match_id] = match
        self._seen.append(match)
        return match

    def owe(self, effect: "Owed") -> None:
        """What a use case's committed writes owe that no game of this unit carries."""
        self._owed.append(effect)

    def collect_owed(self) -> Iterator["Owed"]:
        """What the committed writes owe, each once: the unit's own in the order owed, then
        a game's in the order it owed them, the games in the order this unit handed them out."""
        while self._owed:
            yield self._owed.popleft()
        for match in self._seen:
            while match.owed:
                yield match.owed.pop(0)

    def match_and_session(
        self, match_id: str, account_id: str, session_id: str, now: datetime
    ) -> tuple["Match", sessions.Grant | None]:
        """A game and the session a cookie names, in one read (decision duel 102): a
        signed-in move is that read and its transaction, and the read of the records when
        it ends the game. The session is read consistently, as a write's must be."""
        from ..storage import matches as match_store
        from . import matches

        if match_id in self._matches or not sessions.well_formed(session_id):
            return self.match(match_id), sessions.check(account_id, session_id, now)
        record, session = match_store.load_match_and_session(match_id, account_id, session_id)
        grant = sessions.grant_of(session, account_id, session_id, now)
        return self._keep(matches.loaded(record)), grant

    def reload_match(self, match_id: str) -> "Match":
        self._matches.pop(match_id, None)
        return self.match(match_id)

    def village(self, village_id: str) -> VillageRecord | None:
        """The village as this unit knows it: loaded on first need, then kept."""
        if village_id not in self._villages:
            self._villages[village_id] = load_village(village_id)
        return self._villages[village_id]

    def require(self, village_id: str) -> VillageRecord:
        record = self.village(village_id)
        if record is None:
            raise NotFound("その村は見つかりません")
        return record

    def reload(self, village_id: str) -> VillageRecord | None:
        """The village as it is now: after this unit wrote it, or lost a race to another."""
        self._villages.pop(village_id, None)
        return self.village(village_id)

    def known(self, record: VillageRecord) -> None:
        """Adopts a village loaded elsewhere (a caller that already holds it)."""
        self._villages[record.village_id] = record
