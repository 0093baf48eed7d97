"""A guest's games become the account's when that browser logs in (issue 37, decision 192):
on the account's list and in its records, kept as an account's games are, open from any of
its browsers; never a game against itself."""

from chalicelib.storage import matches as store
from chalicelib.storage import records as stored_records
from chalicelib.storage.keys import match_pk
from chalicelib.storage.models import Item
from tests.support.accounts import make_account
from tests.web.test_match_records import bob_joins_a_guest, resign
from tests.web.test_matches import start, stored


def listed(player: str) -> list[str]:
    return [str(item.match_id) for item in store.matches_of(player, 10)]


def test_a_login_takes_over_the_browsers_guest_games_and_their_records(browser, new_browser, clock):
    ended = start(browser)  # a guest against the CPU, resigned
    resign(browser, ended)
    playing = start(browser)
    guest = stored(playing).players.as_dict()["A"]
    assert guest.startswith("g:") and stored(playing).expires_at is not None
    make_account("alice", clock())
    browser.login("alice")
    for match_id in (ended, playing):
        assert stored(match_id).players.as_dict()["A"] == "a:alice"
        # kept as an account's game: no item of it expires any more
        assert all(i.expires_at is None for i in Item.query(match_pk(match_id)))
    assert sorted(listed("a:alice")) == sorted([ended, playing]) and listed(guest) == []
    record = stored_records.load("alice", "duel").data
    assert record["sides"] == {"A": {"games": 1, "losses": 1}}
    phone = new_browser()  # another browser of alice's, with no guest cookie
    phone.login("alice")
    assert phone.get(f"/matches/{playing}").status_code == 200


def test_a_game_against_the_account_itself_is_never_adopted(browser, new_browser, clock):
    """The guest invited bob; bob then logs in on the guest's browser: the guest's seat is
    not bob's (he holds the other one), so the game stays the guest's."""
    match_id = bob_joins_a_guest(browser, new_browser, clock)
    guest = stored(match_id).players.as_dict()["A"]
    browser.login("bob")
    assert stored(match_id).players.as_dict() == {"A": guest, "B": "a:bob"}
    assert listed(guest) == [match_id] and listed("a:bob") == [match_id]


def test_a_move_between_the_read_and_the_adoption_leaves_it_to_the_next_login(
    browser, clock, monkeypatch
):
    """The adoption is conditioned on the game as read: a move in between (here, the guest's
    own resignation from another tab) refuses it, and the next login adopts the game, now
    ended, records and all."""
    from chalicelib.services import matches
    from tests.web.test_match_records import resign as resign_in

    match_id = start(browser)
    real = store.load_match

    def read_then_move(wanted: str):
        item = real(wanted)
        if wanted == match_id and item is not None and item.state != "ended":
            monkeypatch.setattr(store, "load_match", real)
            resign_in(browser, match_id)  # the write that comes first
        return item

    make_account("alice", clock())
    monkeypatch.setattr(store, "load_match", read_then_move)
    browser.login("alice")
    assert stored(match_id).players.as_dict()["A"].startswith("g:")
    assert stored(match_id).state == "ended"
    guest = stored(match_id).players.as_dict()["A"].removeprefix("g:")
    assert matches.adopt(guest, "alice", clock()) == 1
    assert stored_records.load("alice", "duel").data["sides"] == {"A": {"games": 1, "losses": 1}}
