"""Load-time validation of the vocabulary added for the sixteenth M21 batch: "as long as it's
your turn" (rule 102.1), looking at the top card of your library any time and playing lands
from there (401.5, 305.2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.cards import CardDataError, load_pool
from server.cards.model import Condition


def _load(behaviour: dict[str, Any], *, kind: str = "Creature") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{U}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    load_pool(json.dumps({"data": {"cards": [raw]}}), json.dumps({"T": behaviour}))


def _static(**spec: Any) -> dict[str, Any]:
    return {"statics": [{"text": "Something.", "affects": "self", **spec}]}


@pytest.mark.parametrize(("behaviour", "message"), [
    (_static(keywords=["First strike"], condition="your_turns"), "unknown value 'your_turns'"),
    (_static(restrictions=["look_at_the_top"]), "unknown 'look_at_the_top'"),
    (_static(restrictions=["play_land_from_top"]), "unknown 'play_land_from_top'"),
])
def test_rejects(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_accepts_your_turn_and_top_permissions() -> None:
    _load(_static(keywords=["First strike"], condition="your_turn"))
    _load(_static(restrictions=["look_at_top", "play_lands_from_top"]))
    assert Condition("your_turn") is Condition.YOUR_TURN
