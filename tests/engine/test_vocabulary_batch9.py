"""Load-time validation of the vocabulary added for the ninth M21 batch: trigger events as
general kinds -- an object of a kind changing zones (603.6, 603.10a), attacking with N or more
creatures of a kind and "this and at least N other creatures attack" (508.3a), each attacking
creature of a kind, "becomes blocked by a creature" (509.3d), "becomes the target" (603.2e),
the Nth card drawn each turn (121.1) -- the event's object ("that planeswalker"), abilities
that trigger from the graveyard (113.6k), filters on attacking and counters, and searching
for "a card named A and/or a card named B" (201.2, 701.23)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Compare, TurnFact, TurnFactKind
from server.cards.model import Controller, Count, TriggerEvent, Verb, Who
from server.cards.verbs import ModifyPT, Search, who_of
from tests.engine.helpers import load_one, narrow

_DRAW = [{"verb": "draw"}]


def _load(trigger: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{2}{U}",
                           "text": "Whenever something happens, do something.",
                           "power": "1", "toughness": "1"}
    load_one(raw, {"triggers": [{"effects": _DRAW, **trigger}]})


@pytest.mark.parametrize(("trigger", "message"), [
    # changes_zone: a filter and at least one named zone, spelled right
    ({"when": "changes_zone", "from": "battlefield"}, "'filter'"),
    ({"when": "changes_zone", "filter": {"types": ["Creature"]}}, "needs 'from' and/or 'to'"),
    ({"when": "changes_zone", "from": "battlefeld", "filter": {}}, "unknown zone 'battlefeld'"),
    ({"when": "dies", "from": "battlefield"}, "only for 'changes_zone'"),
    # attack counts
    ({"when": "you_attack_with", "filter": {"has": "Flying"}}, "needs a 'count'"),
    ({"when": "you_attack_with", "count": 2}, "'filter'"),
    ({"when": "attacks", "count": 2}, "needs both 'filter'"),
    ({"when": "creature_attacks"}, "'filter'"),
    ({"when": "creature_attacks", "filter": {"has": "Deathtuch"}}, "keyword 'Deathtuch'"),
    # counts belong to counted events only
    ({"when": "enters", "count": 2}, "'count' is only for"),
    ({"when": "becomes_blocked_by", "count": 1}, "'count' is only for"),
    # becomes_target: the filter describes the spell or ability
    ({"when": "becomes_target"}, "'filter'"),
    ({"when": "becomes_target", "filter": {"controller": "opponents"}},
     "unknown value 'opponents'"),
    # the zone it triggers from
    ({"when": "your_end_step", "zone": "library"}, "unknown zone 'library'"),
    # filters
    ({"when": "changes_zone", "to": "graveyard", "filter": {"with_counter": "+2/+2"}},
     "with_counter"),
    ({"when": "creature_attacks", "filter": {"attacking": "yes"}},
     "attacking: expected true or false"),
])
def test_mistakes_are_load_errors(trigger: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(trigger)


def test_effect_mistakes_are_load_errors() -> None:
    with pytest.raises(CardDataError, match="unknown value 'event_objct'"):
        _load({"when": "becomes_blocked_by",
               "effects": [{"verb": "destroy", "who": "event_objct"}]})
    with pytest.raises(CardDataError, match="zones"):
        _load({"when": "your_end_step", "zone": "graveyard", "effects": [
            {"verb": "move_found", "who": "self", "destination": "battlefield",
             "zones": ["library_top"]}]})
    with pytest.raises(CardDataError, match="unknown value"):
        _load({"when": "your_end_step", "condition": {"amount": {
            "kind": "turn", "fact": "permanents_to_your_hand"}, "at_least": 1}})


@pytest.mark.parametrize(("search", "message"), [
    ({"name": ["Igneous Cur", "Igneous Cur"], "amount": 2}, "list of different names"),
    ({"name": ["Igneous Cur", "Alpine Watchdog"], "amount": 1}, "one card of each name"),
    ({"name": ["Igneous Cur", 3], "amount": 2}, "list of different names"),
    ({"name": [], "amount": 1}, "'name' is given exactly when find is 'named'"),
])
def test_named_search_mistakes_are_load_errors(search: dict[str, Any], message: str) -> None:
    effect = {"verb": "search", "zones": ["library"], "find": "named", "destination": "hand",
              **search}
    with pytest.raises(CardDataError, match=message):
        _load({"when": "enters", "effects": [effect]})


def test_well_formed_data_loads() -> None:
    _load({"when": "changes_zone", "from": "battlefield", "to": "graveyard",
           "filter": {"types": ["Creature"], "with_counter": "+1/+1"}})
    _load({"when": "changes_zone", "to": "exile", "filter": {"controller": "any"}})
    _load({"when": "you_attack_with", "count": 2, "filter": {"has": "Flying"}})
    _load({"when": "attacks", "count": 2, "filter": {"other": True, "controller": "any"}})
    _load({"when": "creature_attacks", "filter": {"has": "Deathtouch", "attacking": True}})
    _load({"when": "becomes_blocked_by", "effects": [{"verb": "destroy",
                                                      "who": "event_object"}]})
    _load({"when": "becomes_target", "filter": {"controller": "opponent"}})
    _load({"when": "you_draw", "count": 2})
    _load({"when": "your_end_step", "zone": "graveyard", "effects": [
        {"verb": "move_found", "who": "self", "destination": "battlefield",
         "zones": ["graveyard"], "tapped": True}]})


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    skyfish = card("Mystic Skyfish").triggers[0]
    assert skyfish.event is TriggerEvent.YOU_DRAW and skyfish.count == 2
    skimmer = card("Tide Skimmer").triggers[0]
    assert skimmer.event is TriggerEvent.YOU_ATTACK_WITH and skimmer.count == 2
    assert skimmer.filter is not None and skimmer.filter.has == "Flying"
    battalion = card("Makeshift Battalion").triggers[0]
    assert battalion.event is TriggerEvent.ATTACKS and battalion.filter is not None
    assert battalion.filter.other and battalion.filter.controller is Controller.ANY
    assert card("Gloom Sower").triggers[0].event is TriggerEvent.BECOMES_BLOCKED_BY
    blightfang = card("Hooded Blightfang").triggers
    assert blightfang[0].event is TriggerEvent.CREATURE_ATTACKS
    assert who_of(blightfang[1].effects[0]) is Who.EVENT_OBJECT
    lieutenant = card("Basri's Lieutenant")
    dies = lieutenant.triggers[1]
    assert (dies.event, dies.from_zone, dies.to_zone) == (TriggerEvent.CHANGES_ZONE,
                                                          "battlefield", "graveyard")
    assert dies.filter is not None and dies.filter.with_counter == "+1/+1"
    assert lieutenant.protection == ("multicolored",)
    barrin = card("Barrin, Tolarian Archmage").triggers[1].condition
    assert barrin == Compare(TurnFact(TurnFactKind.PERMANENTS_TO_HAND), at_least=1)
    ghoul = card("Silversmote Ghoul")
    assert ghoul.triggers_from_graveyard and ghoul.triggers[0].zone == "graveyard"
    assert ghoul.triggers[0].effects[0].verb is Verb.MOVE_FOUND
    houndmaster = card("Alpine Houndmaster").triggers
    assert narrow(Search, houndmaster[0].effects[0]).names == ("Alpine Watchdog",
                                                               "Igneous Cur")
    bonus = narrow(ModifyPT, houndmaster[1].effects[0])
    assert bonus.count is Count.PERMANENTS and bonus.filter is not None
    assert bonus.filter.attacking and bonus.filter.other
    assert narrow(Search, card("Chandra's Firemaw").triggers[0].effects[0]).names == \
        ("Chandra, Flame's Catalyst",)
    warden = card("Warden of the Woods").triggers[0]
    assert warden.event is TriggerEvent.BECOMES_TARGET and warden.effects[0].optional
