"""A hostile look at what counts as one source for the login and mail limits."""

import pytest

from chalicelib.services import accounts
from chalicelib.services.errors import RateLimited, Unauthorized
from chalicelib.web.http import client_ip
from tests.support.accounts import make_account


def source(ip: str) -> str:
    return client_ip({"identity": {"sourceIp": ip}})


def test_the_addresses_of_one_ipv6_network_are_one_source(clock):
    """One home or phone holds a whole /64: its 2**64 addresses must not be as many
    sources, each with its own free failures against an account."""
    make_account("alice", clock())
    for n in range(accounts.LOGIN_FREE_FAILURES):
        with pytest.raises(Unauthorized):
            accounts.login("alice", "wrong guess", source(f"2001:db8:1:2::{n + 1:x}"), clock())
    with pytest.raises(RateLimited):
        accounts.login("alice", "wrong guess", source("2001:db8:1:2:dead:beef:0:1"), clock())


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("2001:db8:1:2::1", "2001:DB8:1:2:0:0:0:ffff"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("192.0.2.7", "192.0.2.7"),
    ],
)
def test_one_source_whatever_its_spelling(one, other):
    assert source(one) == source(other)


@pytest.mark.parametrize(
    ("one", "other"), [("192.0.2.7", "192.0.2.8"), ("2001:db8:1:2::1", "2001:db8:1:3::1")]
)
def test_distinct_sources_stay_distinct(one, other):
    assert source(one) != source(other)
