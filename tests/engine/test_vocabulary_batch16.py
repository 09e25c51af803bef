"""Load-time validation of the vocabulary added for the sixteenth M21 batch: "as long as it's
your turn" (rule 102.1), looking at the top card of your library any time and playing lands
from there (401.5, 305.2)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError
from server.cards.model import Condition
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], *, kind: str = "Creature") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{U}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    load_one(raw, behaviour)


def _ability(cost: dict[str, Any]) -> dict[str, Any]:
    return {"abilities": [{"text": "Something.", "cost": "", "additional_cost": cost,
                           "effects": [{"verb": "draw"}]}]}


def _look(**extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"verb": "look_and_pick", "amount": 3, "destination": "hand",
                            "rest": "library_bottom"}
    spec.update(extra)
    return {"effects": [{k: v for k, v in spec.items() if v is not None}]}


def _static(**spec: Any) -> dict[str, Any]:
    return {"statics": [{"text": "Something.", "affects": "self", **spec}]}


@pytest.mark.parametrize(("behaviour", "message"), [
    (_static(keywords=["First strike"], condition="your_turns"), "unknown value 'your_turns'"),
    (_static(restrictions=["look_at_the_top"]), "unknown 'look_at_the_top'"),
    (_static(restrictions=["play_land_from_top"]), "unknown 'play_land_from_top'"),
    (_static(restrictions=["blocks_only_flyers"]), "unknown 'blocks_only_flyers'"),
    # "Tap two untapped Spirits you control": a count and a filter, for tapping only
    (_ability({"kind": "tap_permanents", "count": 2}), "needs 'count' and 'filter'"),
    (_ability({"kind": "tap_permanents", "filter": {"subtypes": ["Spirit"]}}),
     "needs 'count' and 'filter'"),
    (_ability({"kind": "sacrifice_creature", "count": 2, "filter": {}}),
     "needs 'count' and 'filter'"),
    (_ability({"kind": "tap_permanents", "count": 0, "filter": {}}), "count: at least 1"),
    (_ability({"kind": "tap_permanents", "count": 2,
               "filter": {"subtypes": ["Spirit"], "controller": "opponent"}}),
     "taps or sacrifices permanents you control"),
    # "Sacrifice another creature with defender": a filter (601.2f)
    (_ability({"kind": "sacrifice_creature", "has": "Defender"}), "unknown field"),
    (_ability({"kind": "sacrifice_creature", "filter": {"has": "Defendr"}}),
     "keyword 'Defendr' is not supported"),
    (_ability({"kind": "sacrifice_creature", "count": 2, "filter": {}}),
     "'sacrifice_creature' may take a 'filter'"),
    (_ability({"kind": "discard_card", "filter": {}}), "'discard_card' neither"),
    (_ability({"kind": "tap_permanent", "count": 2, "filter": {}}),
     "unknown value 'tap_permanent'"),
    # "Look at the top N ... put one into your hand and the rest ...": both places said
    (_look(rest="exile"), "look_and_pick needs 'destination': 'hand' and 'rest'"),
    (_look(destination="graveyard"), "look_and_pick needs 'destination': 'hand'"),
    (_look(rest=None), "look_and_pick needs"),
    (_look(pick=0), "pick: from 1 to the number of cards looked at"),
    (_look(pick=4), "pick: from 1 to the number of cards looked at"),
    (_look(all_if="not_cast_from_hands"), "unknown value 'not_cast_from_hands'"),
    (_look(rests="graveyard"), "unknown field"),
    # "If this spell was cast from anywhere other than your hand" is about a resolving spell
    (_static(keywords=["Flying"], condition="not_cast_from_hand"), "about a resolving spell"),
    # "Discard [this]" works from the hand only: no {T}, sacrifice or counters on it there
    ({"abilities": [{"text": "S.", "cost": "{1}", "discard_self": True, "tap": True,
                     "effects": [{"verb": "draw"}]}]}, "discard_self: an ability of a card"),
    ({"abilities": [{"text": "S.", "cost": "{1}", "discard_self": True,
                     "sacrifice_self": True, "effects": [{"verb": "draw"}]}]},
     "discard_self: an ability of a card"),
    # "Add {G} for each [permanent]": a filter, for a card with one mana ability
    ({"mana_for_each": {"types": ["Creature"]}, "statics": [{"text": "S.", "affects": "self",
      "keywords": ["Flying"]}]}, "mana_for_each: for a card with one mana"),
    ({"mana": ["G", "R"], "mana_for_each": {"types": ["Creature"]}},
     "mana_for_each: for a card with one mana"),
    ({"mana": ["G"], "mana_for_each": {"typs": ["Creature"]}}, "unknown field"),
    # "Exile the top card ... you may play that card until ...": one card, a duration only
    ({"effects": [{"verb": "exile_top_playable", "amount": 2}]}, "unknown field"),
    ({"effects": [{"verb": "exile_top_playable", "until": "next"}]}, "unknown field"),
    # "You may cast [this] from your graveyard by paying ...": what it adds, spelt right
    ({"statics": [{"text": "S.", "affects": "self", "keywords": ["Flying"]}],
      "graveyard_cast": {}}, "give the 'life' and/or 'additional_cost'"),
    ({"statics": [{"text": "S.", "affects": "self", "keywords": ["Flying"]}],
      "graveyard_cast": {"lif": 3}}, "unknown field"),
    ({"statics": [{"text": "S.", "affects": "self", "keywords": ["Flying"]}],
      "graveyard_cast": {"life": 3, "additional_cost": "discard_cards"}},
     "unknown value 'discard_cards'"),
    ({"statics": [{"text": "S.", "affects": "self", "keywords": ["Flying"]}],
      "additional_cost": "sacrifice_creature",
      "graveyard_cast": {"additional_cost": "discard_card"}}, "one additional cost per spell"),
    # "{2}: Add one mana of any color": a mana cost, for a card with one mana ability
    ({"mana": ["W|U|B|R|G"], "mana_cost": "{X}"}, "mana_cost: a mana cost such as"),
    ({"mana": ["W|U|B|R|G"], "mana_cost": "{0}"}, "mana_cost: a mana cost such as"),
    ({"mana": ["W|U|B|R|G"], "mana_cost": "2"}, "mana_cost"),
    ({"mana": ["G", "R"], "mana_cost": "{2}"}, "mana_cost: for a card with one mana ability"),
    # "End the turn" takes nothing more
    ({"effects": [{"verb": "end_turn", "amount": 1}]}, "unknown field"),
    ({"effects": [{"verb": "end_the_turn"}]}, "unknown value 'end_the_turn'"),
    ({"abilities": [{"text": "S.", "cost": "{1}", "discard_self": "yes",
                     "effects": [{"verb": "draw"}]}]}, "discard_self: expected true or false"),
])
def test_rejects(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_accepts_your_turn_and_top_permissions() -> None:
    _load(_static(keywords=["First strike"], condition="your_turn"))
    _load(_static(restrictions=["look_at_top", "play_lands_from_top"]))
    assert Condition("your_turn") is Condition.YOUR_TURN
    _load(_static(restrictions=["blocks_only_flying"]))
    _load(_ability({"kind": "tap_permanents", "count": 2, "filter": {"subtypes": ["Spirit"]}}))
    _load(_look(all_if="not_cast_from_hand", pick=3), kind="Sorcery")
    _load({"mana": ["G"], "mana_for_each": {"types": ["Creature"], "min_power": 4}})
    _load({"effects": [{"verb": "exile_top_playable", "this_turn": True}]}, kind="Sorcery")
    _load({"statics": [{"text": "S.", "affects": "self", "keywords": ["Flying"]}],
           "graveyard_cast": {"life": 3, "additional_cost": "discard_card"}})
    _load({"mana": ["W|U|B|R|G"], "mana_cost": "{2}"})
    _load({"effects": [{"verb": "end_turn"}],
           "cost_reduction": {"mana": "{2}{U}{U}", "condition": "your_turn"}}, kind="Instant")
    _load({"abilities": [{"text": "S.", "cost": "{1}{U}", "discard_self": True,
                          "effects": [{"verb": "draw"}]}]})
