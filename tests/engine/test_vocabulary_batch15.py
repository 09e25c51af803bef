"""Load-time validation of the vocabulary added for the fifteenth M21 batch: a count of
permanents sharing a name (rule 201.2) and a filter's "nonland" (card types it must lack,
205.2a), ..."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.cards import CardDataError, card, load_pool
from server.cards.model import Count, CountCondition, TriggerEvent


def _load(behaviour: dict[str, Any], kind: str = "Creature") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    load_pool(json.dumps({"data": {"cards": [raw]}}), json.dumps({"T": behaviour}))


def _enters(condition: Any) -> dict[str, Any]:
    return {"triggers": [{"when": "enters", "condition": condition,
                          "effects": [{"verb": "draw"}]}]}


@pytest.mark.parametrize(("behaviour", "message"), [
    # "two or more permanents with the same name": what is counted needs a filter
    (_enters({"count": "permanents_sharing_a_name", "at_least": 2}), "'filter' is given"),
    (_enters({"count": "permanents_sharing_name", "filter": {}, "at_least": 2}),
     "unknown value 'permanents_sharing_name'"),
    # "nonland": card types, spelt right
    (_enters({"count": "permanents_sharing_a_name", "filter": {"not_types": ["Lands"]},
              "at_least": 2}), "unknown card type 'Lands'"),
    (_enters({"count": "permanents_sharing_a_name", "filter": {"not_types": "Land"},
              "at_least": 2}), "expected a list"),
    (_enters({"count": "permanents_sharing_a_name", "filter": {"non_types": ["Land"]},
              "at_least": 2}), "unknown field"),
    # "whenever you sacrifice a [filter] permanent": a filter is optional, a count isn't taken
    ({"triggers": [{"when": "you_sacrifice", "count": 2, "effects": [{"verb": "draw"}]}]},
     "'count' is only for"),
    ({"triggers": [{"when": "you_sacrifice", "filter": {"type": ["Creature"]},
                    "effects": [{"verb": "draw"}]}]}, "unknown field"),
    ({"triggers": [{"when": "you_sacrifices", "effects": [{"verb": "draw"}]}]},
     "unknown value 'you_sacrifices'"),
])
def test_rejected(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_chrome_replicator_is_data() -> None:
    (enters,) = card("Chrome Replicator").triggers
    condition = enters.condition
    assert isinstance(condition, CountCondition)
    assert condition.count is Count.PERMANENTS_SHARING_A_NAME
    assert condition.filter is not None and condition.filter.not_types == ("Land",)


def test_havoc_jester_is_data() -> None:
    (sacrificed,) = card("Havoc Jester").triggers
    assert (sacrificed.event, sacrificed.filter) == (TriggerEvent.YOU_SACRIFICE, None)
