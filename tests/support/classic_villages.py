"""Classic villages built through the services: a short classic village joined, started, played."""

from datetime import timedelta

from chalicelib.personas import YAMAZATO
from chalicelib.rules.classic import NPC, Role
from chalicelib.rulesets.classic.game import ClassicGame
from chalicelib.services import actions, update, villages
from chalicelib.storage.repository import load_village


def create(clock, rng, **given) -> str:
    pace = given.pop("pace", "short")
    return villages.create_village(
        villages.AskedVillage(pace=pace, name="人狼BBS村", rules="classic", given=given),
        now=clock(),
        rng=rng,
    )


def join_all(village_id: str, accounts: list[str], clock) -> dict[str, str]:
    """Each account joins (the first free seat, its own persona); returns account -> seat."""
    seated = {}
    for n, account in enumerate(accounts):
        record = load_village(village_id)
        seat = next(s for s, m in record.seats().items() if m.account_id is None)
        villages.join(village_id, account, seat, YAMAZATO[n].key, clock())
        seated[account] = seat
    return seated


def start(village_id: str, accounts: list[str], clock) -> list[str]:
    """Everyone start-votes; returns what each vote did (the last: ``started``)."""
    return [actions.prologue(village_id, a, "start", None, clock()) for a in accounts]


def game(village_id: str) -> ClassicGame:
    record = load_village(village_id)
    assert record is not None and isinstance(record.game, ClassicGame)
    return record.game


def seat_of_role(village_id: str, role: Role) -> str:
    g = game(village_id)
    assert g.village is not None
    return next(g.seats[c] for c, r in g.village.roles.items() if r is role and c != NPC)


def account_of(village_id: str, seat: str) -> str:
    record = load_village(village_id)
    account = record.seats()[seat].account_id
    assert account is not None
    return account


def living_seats(village_id: str) -> list[str]:
    g = game(village_id)
    assert g.village is not None
    return [g.seats[c] for c in g.village.living() if c != NPC]


def to_due(village_id: str, clock, extra: timedelta = timedelta(0)) -> list:
    """Moves the clock to the village's next event and runs it."""
    clock.now = load_village(village_id)._meta.next_update + extra
    return update.advance(village_id, clock())
