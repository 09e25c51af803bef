"""Load-time validation of the vocabulary added for the thirteenth M21 batch: choices made
while a spell or ability resolves (rules 608.2c-608.2e), filters on supertypes (205.4a) and
the mana value of a target as it last existed (608.2h)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], kind: str = "Sorcery") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something."}
    load_one(raw, behaviour)


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
    (_effects({"verb": "gain_life", "amount": {"kind": "object", "of": "target",
                                               "trait": "manavalue"}}), "Sorcery",
     "unknown value 'manavalue'"),
    # objects chosen as the effect is performed (608.2d): a filter, an object verb
    (_effects({"verb": "untap", "who": "chosen", "amount": 4}), "Sorcery",
     "'filter' is given exactly when"),
    (_effects({"verb": "destroy", "who": "chosen", "filter": {"types": ["Land"]}}), "Sorcery",
     "'chosen' objects are acted on by one of"),
    (_effects({"verb": "draw", "who": "chosen", "filter": {}}), "Sorcery",
     "draw acts on players; 'chosen' names an object"),
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
    (_effects({"verb": "create_token", "amount": {"kind": "party"},
               "token": {"power": "X", "toughness": 1}}), "Sorcery", "an X/X token needs"),
    (_effects({"verb": "create_token", "amount": 2,
               "token": {"power": "X", "toughness": "X"}}), "Sorcery", "an X/X token needs"),
    (_effects({"verb": "create_token", "amount": {"kind": "party"},
               "token": {"power": "Y", "toughness": "Y"}}), "Sorcery", "expected"),
    # "put one onto the battlefield and the other into your hand": a second destination
    (_effects({"verb": "search", "zones": ["library"], "find": "basic_land", "amount": 2,
               "destination": "battlefield", "rest_to": "hand_"}), "Sorcery",
     "unknown zone 'hand_'"),
    (_effects({"verb": "search", "zones": ["library"], "find": "basic_land", "amount": 2,
               "destination": "hand", "rest_to": "hand"}), "Sorcery", "another destination"),
    (_effects({"verb": "search", "zones": ["library"], "find": "basic_land",
               "destination": "battlefield", "rest_to": "hand"}), "Sorcery",
     "up to two or more"),
    (_effects({"verb": "draw", "rest_to": "hand"}), "Sorcery", "unknown field"),
    # "sacrifice a creature or discard a creature card": of objects chosen as it resolves
    (_effects({"verb": "sacrifice_or_discard", "who": "self", "amount": 1}), "Sorcery",
     "sacrifice_or_discard acts on who 'chosen'"),
    (_effects({"verb": "sacrifice_or_discard", "who": "chosen", "zones": ["exile"],
               "filter": {}}), "Sorcery", "chosen objects are in"),
    # "the color of your choice" (105.4): a choice, then what uses it
    (_effects({"verb": "choose_color", "colors": ["R"], "amount": 1}), "Sorcery",
     "unknown field"),
    (_effects({"verb": "choose_colour"}), "Sorcery", "unknown value 'choose_colour'"),
    (_effects({"verb": "modify_pt", "target": "creature", "protection": "chosen_colour"}),
     "Sorcery", "expected a color letter"),
    (_effects({"verb": "modify_pt", "target": "creature", "protection": "r"}), "Sorcery",
     "expected a color letter"),
    (_effects({"verb": "draw", "protection": "R"}), "Sorcery", "unknown field"),
    (_effects({"verb": "add_mana", "amount": 2}), "Sorcery", "add_mana needs a 'mana'"),
    (_effects({"verb": "add_mana", "mana": "any"}), "Sorcery", "add_mana needs mana letters"),
    (_effects({"verb": "add_mana", "mana": "RX"}), "Sorcery", "add_mana needs mana letters"),
    (_effects({"verb": "draw", "mana": "R"}), "Sorcery", "unknown field"),
    (_effects({"verb": "gain_control", "target": "creature", "amount": 1}), "Sorcery",
     "unknown field"),
    # "your choice of deathtouch or lifelink" (608.2d): two or more keywords to choose from
    (_effects({"verb": "choose_keyword", "gains": ["Deathtouch"]}), "Sorcery",
     "two or more 'gains'"),
    (_effects({"verb": "choose_keyword", "gains": ["Deathtouch", "Lifelinks"]}), "Sorcery",
     "not supported"),
    (_effects({"verb": "choose_keyword", "gains": ["Deathtouch", "Lifelink"], "power": 1}),
     "Sorcery", "unknown field"),
    (_effects({"verb": "modify_pt", "target": "creature", "gains_chosen": "yes"}), "Sorcery",
     "gains_chosen: expected true or false"),
    (_effects({"verb": "draw", "gains_chosen": True}), "Sorcery", "unknown field"),
    # "As [this] enters, choose a card name" / "You have protection from the chosen name"
    ({"enters_naming": "yes"}, "Enchantment", "enters_naming: expected true or false"),
    ({"player_protection": "chosen_name"}, "Enchantment", "with enters_naming"),
    ({"enters_naming": True, "player_protection": "name"}, "Enchantment",
     "player_protection: 'chosen_name'"),
    # "spend mana as though it were mana of any color" (609.4b): a flag, spelt right
    ({"spend_as_any_color": "yes"}, "Artifact", "spend_as_any_color: expected true or false"),
    ({"spend_as_any_colour": True}, "Artifact", "unknown field"),
    # "for each color among permanents you control": of the permanents a filter describes
    (_effects({"verb": "draw", "amount": {"kind": "permanents", "measure": "colours"}}),
     "Sorcery", "needs 'filter'"),
    # what an amount counts is its own filter, not the effect's
    (_effects({"verb": "draw", "amount": {"kind": "cards", "zone": "graveyard"},
               "filter": {"types": ["Instant"]}}), "Sorcery", "'filter' is given exactly when"),
])
def test_rejected(behaviour: dict[str, Any], kind: str, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour, kind)


@pytest.mark.parametrize(("behaviour", "kind"), [
    (_discard_cost({"supertypes": ["Legendary"]}), "Artifact"),
    (_effects({"verb": "gain_life", "amount": {"kind": "object", "of": "target",
                                               "trait": "mana_value"}}), "Sorcery"),
    (_effects({"verb": "untap", "who": "chosen", "amount": 4,
               "filter": {"types": ["Land"], "controller": "any"}}), "Sorcery"),
    (_effects({"verb": "return_to_hand", "who": "chosen", "zones": ["graveyard"],
               "filter": {"types": ["Instant", "Sorcery"]}}), "Sorcery"),
    (_effects({"verb": "search", "zones": ["library"], "find": "basic_land", "amount": 2,
               "destination": "battlefield", "rest_to": "hand"}), "Sorcery"),
    (_effects({"verb": "sacrifice_or_discard", "who": "chosen", "zones": ["battlefield", "hand"],
               "filter": {"types": ["Creature"]}}, {"verb": "draw", "condition": "you_did"}),
     "Sorcery"),
    (_effects({"verb": "put_counters", "counter": "+1/+1", "target": "creature"},
              {"verb": "choose_color"},
              {"verb": "modify_pt", "who": "that", "protection": "chosen_color"}), "Instant"),
    (_effects({"verb": "gain_control", "target": "creature", "this_turn": True},
              {"verb": "choose_color"}, {"verb": "add_mana", "amount": 2,
                                         "mana": "chosen_color"},
              {"verb": "add_mana", "mana": "CC"}), "Sorcery"),
    ({"spend_as_any_color": True}, "Artifact"),
    ({"enters_naming": True, "player_protection": "chosen_name"}, "Enchantment"),
    (_effects({"verb": "choose_keyword", "gains": ["Deathtouch", "Lifelink"]},
              {"verb": "modify_pt", "target": "creature", "power": 1, "toughness": 1,
               "gains_chosen": True}), "Instant"),
    (_effects({"verb": "draw", "amount": {"kind": "permanents", "filter": {},
                                          "measure": "colors"}}), "Sorcery"),
    (_effects({"verb": "discard", "amount": 2, "up_to": True},
              {"verb": "draw", "amount": {"kind": "this_way", "fact": "chosen"}}), "Sorcery"),
    (_effects({"verb": "create_token", "amount": {"kind": "cards", "zone": "graveyard",
                                                  "filter": {"types": ["Instant"]}},
               "token": {"power": "X", "toughness": "X"}}), "Sorcery"),
])
def test_accepted(behaviour: dict[str, Any], kind: str) -> None:
    _load(behaviour, kind)
