"""The duel's public log in words (issue 37): a night nobody gave orders for says nothing,
and its day is not headed by an empty 「N日目の夜の指示」."""

from chalicelib.rulesets.duel import labels
from chalicelib.rulesets.duel.ruleset import _log

SILENT_NIGHT = {
    "type": "orders",
    "day": 3,
    "divine": [],
    "guard": [],
    "latent_divine": [],
    "latent_guard": None,
    "gj_co": None,
}


def test_a_night_without_orders_has_no_lines_and_no_heading():
    assert labels.event_lines(SILENT_NIGHT) == []
    assert _log({"events": [SILENT_NIGHT]}) == []


def test_a_night_with_orders_keeps_its_heading():
    ordered = {**SILENT_NIGHT, "divine": [{"card": 2, "to": [5]}]}
    assert labels.event_lines(ordered) == ["3日目の夜の指示", "占い: #2 → #5"]
    assert _log({"events": [SILENT_NIGHT, ordered]}) == [(3, [labels.event_lines(ordered)])]
