"""Load-time validation of the vocabulary added for the sixth M21 batch: "whenever [this or
another] [filter] enters" triggers (rule 603.6a), "whenever a [filter] source deals
[combat|noncombat] damage to [recipient]" triggers (rule 120.3), filters "with power N or
greater" and the count "cards in an opponent's graveyard"."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Cards, CardZone, Compare, Whose
from server.cards.model import DamageKind, Recipient, TriggerEvent, TriggerSubject
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{G}",
                           "power": "1", "toughness": "1", "text": "Whenever x, y."}
    load_one(raw, behaviour)


def _trigger(**fields: Any) -> dict[str, Any]:
    return {"triggers": [{"text": "x", "effects": [{"verb": "draw"}], **fields}]}


_ROGUE = {"subtypes": ["Rogue"]}


@pytest.mark.parametrize(("behaviour", "message"), [
    (_trigger(when="zone_change", subject="filter", to="battlefield"),
     "subject 'filter' needs a 'filter'"),
    (_trigger(when="deals_damage", subject="filter"), "subject 'filter' needs a 'filter'"),
    (_trigger(when="zone_change", to="battlefield", filter=_ROGUE),
     "subject 'this' is the object itself"),
    (_trigger(when="zone_change", subject="filter", to="battlefield",
              filter={"min_power": "four"}), "min_power"),
    (_trigger(when="zone_change", subject="filter", to="battlefield", filter={"power": 4}),
     "unknown field"),
    (_trigger(when="deals_damage", subject="filter", filter={}, damage="nonconbat"),
     "unknown value 'nonconbat'"),
    (_trigger(when="deals_damage", subject="filter", filter={}, recipient="each_opponent"),
     "unknown value 'each_opponent'"),
    (_trigger(when="dealt_damage", damage="combat"),
     "'dealt_damage' takes no 'damage'; only deals_damage do"),
    (_trigger(when="zone_change", subject="filter", to="battlefield", filter=_ROGUE,
              recipient="opponent"), "'zone_change' takes no 'recipient'"),
    # a filter on an amount that takes none
    ({"statics": [{"text": "x", "affects": "self", "power": 2, "condition": {
        "amount": {"kind": "life", "whose": "an_opponent", "filter": _ROGUE},
        "at_least": 8}}]}, "kind 'life' takes no \\['filter'\\]"),
    ({"statics": [{"text": "x", "affects": "self", "power": 2, "condition": {
        "amount": {"kind": "cards", "zone": "graveyard", "whose": "an_opponnent"},
        "at_least": 8}}]}, "unknown value 'an_opponnent'"),
])
def test_mistakes_are_load_errors(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_well_formed_data_loads() -> None:
    _load(_trigger(when="zone_change", subject="filter", to="battlefield",
                   filter={"types": ["Creature"], "min_power": 4}))
    _load(_trigger(when="deals_damage", subject="filter", filter={"controller": "any"},
                   damage="combat", recipient="planeswalker"))


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    enforcer = card("Thieves' Guild Enforcer")
    assert enforcer.triggers[0].event is TriggerEvent.ZONE_CHANGE
    assert enforcer.triggers[0].subject is TriggerSubject.FILTER
    assert enforcer.triggers[0].to_zone == "battlefield"
    assert enforcer.triggers[0].filter is not None
    assert not enforcer.triggers[0].filter.other  # "[this] or another Rogue"
    condition = enforcer.statics[0].condition
    assert condition == Compare(Cards(CardZone.GRAVEYARD, Whose.AN_OPPONENT), at_least=8)
    uprising = card("Garruk's Uprising").triggers[1]
    assert uprising.filter is not None and uprising.filter.min_power == 4
    pyreling = card("Chandra's Pyreling").triggers[0]
    assert pyreling.damage is DamageKind.NONCOMBAT
    assert pyreling.recipient is Recipient.OPPONENT
    assert card("Dire Fleet Warmonger").triggers[0].effects[0].optional
