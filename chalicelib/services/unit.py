"""A unit of work: one request's (or one scheduled job's) view of the table.

Each village is loaded at most once and its game parsed once (``VillageRecord.game``);
a use case that wrote, or lost a race, reloads on purpose through ``reload``. Writes
themselves go through storage's intention-named, conditioned writes, each one
DynamoDB request or transaction.
"""

from ..storage.repository import VillageRecord, load_village
from . import matches
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
