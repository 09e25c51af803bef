"""Load-time validation of the vocabulary added for the thirteenth M21 batch: choices made
while a spell or ability resolves (rules 608.2c-608.2e), filters on supertypes (205.4a) and
the mana value of a target as it last existed (608.2h)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.cards import CardDataError, load_pool


def _load(behaviour: dict[str, Any], kind: str = "Sorcery") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something."}
    load_pool(json.dumps({"data": {"cards": [raw]}}), json.dumps({"T": behaviour}))


def _effects(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"effects": list(effects)}


def _discard_cost(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"abilities": [{"text": "x", "cost": "{1}", "additional_cost": {
        "kind": "discard_card", "cards": list(cards)}, "effects": [{"verb": "draw"}]}]}


@pytest.mark.parametrize(("behaviour", "kind", "message"), [
    # "a legendary card": supertypes are the rule's own words (205.4a)
    (_discard_cost({"supertypes": ["Legend"]}), "Artifact", "expected some of"),
    (_discard_cost({"supertypes": "Legendary"}), "Artifact", "expected a list"),
    (_discard_cost({"supertype": ["Legendary"]}), "Artifact", "unknown field"),
    # "that creature's mana value" is a count, spelt right
    (_effects({"verb": "gain_life", "count": "target_manavalue"}), "Sorcery",
     "unknown value 'target_manavalue'"),
    # objects chosen as the effect is performed (608.2d): a filter, an object verb
    (_effects({"verb": "untap", "who": "chosen", "amount": 4}), "Sorcery",
     "'filter' is given exactly when"),
    (_effects({"verb": "destroy", "who": "chosen", "filter": {"types": ["Land"]}}), "Sorcery",
     "'chosen' objects are acted on by one of"),
    (_effects({"verb": "draw", "who": "chosen", "filter": {}}), "Sorcery",
     "'chosen' objects are acted on by one of"),
    (_effects({"verb": "untap", "target": "permanent", "amount": 4}), "Sorcery",
     "'amount' and 'zones' are for who 'chosen'"),
    (_effects({"verb": "return_to_hand", "who": "chosen", "zones": ["library"],
               "filter": {}}), "Sorcery", "chosen objects are in"),
    (_effects({"verb": "untap", "who": "choosen", "filter": {}}), "Sorcery",
     "unknown value 'choosen'"),
    (_effects({"verb": "tap", "who": "chosen", "filter": {"untapped": "yes"}}), "Sorcery",
     "untapped: expected true or false"),
    (_effects({"verb": "tap", "who": "chosen", "filter": {"untaped": True}}), "Sorcery",
     "unknown field"),
    # "discard up to N" only
    (_effects({"verb": "draw", "up_to": True}), "Sorcery", "unknown field"),
    (_effects({"verb": "discard", "up_to": 2}), "Sorcery", "up_to: expected true or false"),
    # an X/X token needs the count X is, and is X/X
    (_effects({"verb": "create_token", "token": {"power": "X", "toughness": "X"}}), "Sorcery",
     "an X/X token needs"),
    (_effects({"verb": "create_token", "count": "party",
               "token": {"power": "X", "toughness": 1}}), "Sorcery", "an X/X token needs"),
    (_effects({"verb": "create_token", "count": "party",
               "token": {"power": "Y", "toughness": "Y"}}), "Sorcery", "expected"),
    # "[filter] cards in your graveyard" needs the filter
    (_effects({"verb": "draw", "count": "cards_in_your_graveyard"}), "Sorcery",
     "'filter' is given exactly when"),
])
def test_rejected(behaviour: dict[str, Any], kind: str, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour, kind)


@pytest.mark.parametrize(("behaviour", "kind"), [
    (_discard_cost({"supertypes": ["Legendary"]}), "Artifact"),
    (_effects({"verb": "gain_life", "count": "target_mana_value"}), "Sorcery"),
    (_effects({"verb": "untap", "who": "chosen", "amount": 4,
               "filter": {"types": ["Land"], "controller": "any"}}), "Sorcery"),
    (_effects({"verb": "return_to_hand", "who": "chosen", "zones": ["graveyard"],
               "filter": {"types": ["Instant", "Sorcery"]}}), "Sorcery"),
    (_effects({"verb": "discard", "amount": 2, "up_to": True},
              {"verb": "draw", "count": "chosen_this_way"}), "Sorcery"),
    (_effects({"verb": "create_token", "count": "cards_in_your_graveyard",
               "filter": {"types": ["Instant"]}, "token": {"power": "X", "toughness": "X"}}),
     "Sorcery"),
])
def test_accepted(behaviour: dict[str, Any], kind: str) -> None:
    _load(behaviour, kind)
