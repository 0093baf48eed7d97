"""A unit of work: one request's (or one scheduled job's) view of the table.

Each village is loaded at most once and its game parsed once (``VillageRecord.game``);
a use case that wrote, or lost a race, reloads on purpose through ``reload``. Writes
themselves go through storage's intention-named, conditioned writes, each one
DynamoDB request or transaction.
"""

from datetime import datetime

from ..storage import matches as match_store
from ..storage.repository import VillageRecord, load_village
from . import matches, sessions
from .errors import NotFound


class Unit:
    def __init__(self) -> None:
        self._villages: dict[str, VillageRecord | None] = {}
        self._matches: dict[str, matches.Match] = {}

    def match(self, match_id: str) -> matches.Match:
        """A game played move by move, loaded once (``reload_match`` after a write)."""
        if match_id not in self._matches:
            self._matches[match_id] = matches.load(match_id)
        return self._matches[match_id]

    def match_and_session(
        self, match_id: str, account_id: str, session_id: str, now: datetime
    ) -> tuple[matches.Match, sessions.Grant | None]:
        """A game and the session a cookie names, in one read (decision duel 102): a
        signed-in move is that read and its transaction, and the read of the records when
        it ends the game. The session is read consistently, as a write's must be."""
        if match_id in self._matches or not sessions.well_formed(session_id):
            return self.match(match_id), sessions.check(account_id, session_id, now)
        item, session = match_store.load_match_and_session(match_id, account_id, session_id)
        grant = sessions.grant_of(session, account_id, session_id, now)
        self._matches[match_id] = matches.loaded(item)
        return self._matches[match_id], grant

    def reload_match(self, match_id: str) -> matches.Match:
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
