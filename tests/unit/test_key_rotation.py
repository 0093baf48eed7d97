"""The link-signing key rotates without ending every session (decision 206): while the
parameter holds the new key and the old, everything is signed with the new and both are
accepted; once it holds the new one alone, the old key's tokens are refused."""

from datetime import UTC, datetime, timedelta

import pytest

from chalicelib import runtime, signing
from chalicelib.inbound import address

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=30)
REPLY = address.ReplyTo(rules="mobius", village_id="12", slot="s3", day=2)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch):
    def use(value: str) -> None:
        monkeypatch.setenv("MOBIUS_SECRET", value)

    return use


def test_a_session_signed_with_the_old_key_lasts_through_the_rotation_window(keys):
    keys("old-key")
    old_token = signing.sign("session", {"a": "1"}, LATER)
    keys("new-key old-key")  # the rotation: the new key first, the old still accepted
    assert signing.unsign("session", old_token, NOW) == {"a": "1"}
    new_token = signing.sign("session", {"a": "2"}, LATER)
    keys("new-key")  # the window is over
    assert signing.unsign("session", new_token, NOW) == {"a": "2"}  # signed with the new key
    assert signing.unsign("session", old_token, NOW) is None


def test_a_reply_address_made_with_the_old_key_is_read_through_the_window(keys):
    keys("old-key")
    old_address = address.address(REPLY)
    keys("new-key old-key")
    assert address.read(old_address) == REPLY
    new_address = address.address(REPLY)
    assert new_address != old_address
    keys("new-key")
    assert address.read(new_address) == REPLY
    assert address.read(old_address) is None


def test_deployed_the_keys_are_read_again_after_a_while_so_a_rotation_reaches_warm_containers(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.delenv("MOBIUS_SECRET", raising=False)
    monkeypatch.setenv("MOBIUS_SECRET_PARAMETER", "/mobius/link-signing-key")
    monkeypatch.setattr(runtime, "_keys", None)
    stored = {"/mobius/link-signing-key": "old-key"}
    reads = []

    def parameter(name: str) -> str:
        reads.append(name)
        return stored[name]

    clock = [1000.0]
    monkeypatch.setattr(runtime, "_parameter", parameter)
    monkeypatch.setattr(runtime.time, "monotonic", lambda: clock[0])
    assert runtime.secrets() == ["old-key"]
    stored["/mobius/link-signing-key"] = "new-key\nold-key"
    clock[0] += runtime.KEYS_FOR - 1
    assert runtime.secrets() == ["old-key"] and len(reads) == 1  # one read a while
    clock[0] += 1
    assert runtime.secrets() == ["new-key", "old-key"] and len(reads) == 2
