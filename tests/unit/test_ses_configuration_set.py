"""Deployed, every mail names the configuration set whose event destination reports its
bounces and complaints (decision 204); locally none is named."""

import pytest

from chalicelib.notify import ses


class Client:
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def send_raw_email(self, **kwargs):
        self.calls.append(kwargs)
        return {"MessageId": "1"}


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Client:
    fake = Client()
    monkeypatch.setattr(ses, "ses", lambda: fake)
    return fake


def test_a_deployed_send_names_the_configuration_set(client, monkeypatch):
    monkeypatch.setenv("MOBIUS_MAIL_CONFIGURATION_SET", "mobius-mail")
    ses.send("a@example.jp", "件名", "本文", "<p>本文</p>")
    assert client.calls[0]["ConfigurationSetName"] == "mobius-mail"


def test_a_local_send_names_none(client, monkeypatch):
    monkeypatch.delenv("MOBIUS_MAIL_CONFIGURATION_SET", raising=False)
    ses.send("a@example.jp", "件名", "本文", "<p>本文</p>")
    assert "ConfigurationSetName" not in client.calls[0]
