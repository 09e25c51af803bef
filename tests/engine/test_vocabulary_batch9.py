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
from server.cards.amounts import Compare, Permanents, TurnFact, TurnFactKind
from server.cards.model import Controller, ObjectRef, TriggerEvent, Verb
from server.cards.verbs import ModifyPT, Search, who_of
from tests.engine.helpers import load_one, narrow

_DRAW = [{"verb": "draw"}]


def _load(trigger: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{2}{U}",
                           "text": "Whenever something happens, do something.",
                           "power": "1", "toughness": "1"}
    load_one(raw, {"triggers": [{"effects": _DRAW, **trigger}]})


@pytest.mark.parametrize(("trigger", "message"), [
    # zone_change: a subject, at least one named zone, spelled right
    ({"when": "zone_change", "subject": "filter", "from": "battlefield"}, "'filter'"),
    ({"when": "zone_change", "subject": "filter", "filter": {"types": ["Creature"]}},
     "needs 'from' and/or 'to'"),
    ({"when": "zone_change", "subject": "filter", "from": "battlefeld", "filter": {}},
     "unknown zone 'battlefeld'"),
    ({"when": "step", "step": "end", "from": "battlefield"}, "'step' takes no 'from'"),
    ({"when": "step", "step": "second_main"}, "unknown value 'second_main'"),
    ({"when": "step"}, "'step' needs 'step'"),
    ({"when": "zone_change", "subject": "attached", "to": "graveyard"},
     "'from' must be 'battlefield'"),
    ({"when": "zone_change", "to": "battlefield", "filter": {}}, "a 'filter' is for subject"),
    ({"when": "cast", "subject": "this", "filter": {}}, "'cast' takes no 'subject'"),
    ({"when": "becomes_blocked", "subject": "filter"}, "takes no 'subject'"),
    ({"when": "draw", "whose": "each"}, "unknown value 'each'"),
    ({"when": "sacrifice"}, "'sacrifice' needs a 'filter'"),
    ({"when": "exiled_with_madness"}, "madness keyword's own trigger"),
    # attack counts
    ({"when": "attacks", "subject": "filtr", "filter": {}}, "unknown value 'filtr'"),
    ({"when": "attacks", "subject": "filter", "count": 2}, "'filter'"),
    ({"when": "attacks", "count": 2}, "needs both 'filter'"),
    ({"when": "attacks", "subject": "filter"}, "'filter'"),
    ({"when": "attacks", "subject": "filter", "filter": {"has": "Deathtuch"}},
     "keyword 'Deathtuch'"),
    # counts belong to counted kinds only
    ({"when": "zone_change", "to": "battlefield", "count": 2}, "'zone_change' takes no 'count'"),
    ({"when": "becomes_blocked", "count": 1}, "'becomes_blocked' takes no 'count'"),
    ({"when": "deals_damage", "subject": "filter", "filter": {}, "count": 2},
     "counts only \"one or more"),
    ({"when": "deals_damage", "subject": "filter", "filter": {}, "count": 1},
     "counts only \"one or more"),
    # becomes_target: the filter describes the spell or ability
    ({"when": "becomes_target"}, "'filter'"),
    ({"when": "becomes_target", "filter": {"controller": "opponents"}},
     "unknown value 'opponents'"),
    # the zone it triggers from
    ({"when": "step", "step": "end", "zone": "library"}, "unknown zone 'library'"),
    # filters
    ({"when": "zone_change", "subject": "filter", "to": "graveyard",
      "filter": {"with_counter": "+2/+2"}},
     "with_counter"),
    ({"when": "attacks", "subject": "filter", "filter": {"attacking": "yes"}},
     "attacking: expected true or false"),
])
def test_mistakes_are_load_errors(trigger: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(trigger)


def test_effect_mistakes_are_load_errors() -> None:
    with pytest.raises(CardDataError, match="unknown value 'event_objct'"):
        _load({"when": "becomes_blocked",
               "effects": [{"verb": "destroy", "who": "event_objct"}]})
    with pytest.raises(CardDataError, match="zones"):
        _load({"when": "step", "step": "end", "zone": "graveyard", "effects": [
            {"verb": "move_found", "who": "self", "destination": "battlefield",
             "zones": ["library_top"]}]})
    with pytest.raises(CardDataError, match="unknown value"):
        _load({"when": "step", "step": "end", "condition": {"amount": {
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
        _load({"when": "zone_change", "to": "battlefield", "effects": [effect]})


def test_well_formed_data_loads() -> None:
    _load({"when": "zone_change", "subject": "filter", "from": "battlefield", "to": "graveyard",
           "filter": {"types": ["Creature"], "with_counter": "+1/+1"}})
    _load({"when": "zone_change", "subject": "filter", "to": "exile",
           "filter": {"controller": "any"}})
    _load({"when": "attacks", "subject": "filter", "count": 2, "filter": {"has": "Flying"}})
    _load({"when": "attacks", "count": 2, "filter": {"other": True, "controller": "any"}})
    _load({"when": "attacks", "subject": "filter", "filter": {"has": "Deathtouch",
                                                              "attacking": True}})
    _load({"when": "becomes_blocked", "effects": [{"verb": "destroy",
                                                      "who": "event_object"}]})
    _load({"when": "becomes_target", "filter": {"controller": "opponent"}})
    _load({"when": "draw", "count": 2})
    _load({"when": "step", "step": "end", "zone": "graveyard", "effects": [
        {"verb": "move_found", "who": "self", "destination": "battlefield",
         "zones": ["graveyard"], "tapped": True}]})


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    skyfish = card("Mystic Skyfish").triggers[0]
    assert skyfish.event is TriggerEvent.DRAW and skyfish.count == 2
    skimmer = card("Tide Skimmer").triggers[0]
    assert skimmer.event is TriggerEvent.ATTACKS and skimmer.count == 2
    assert skimmer.filter is not None and skimmer.filter.has == "Flying"
    battalion = card("Makeshift Battalion").triggers[0]
    assert battalion.event is TriggerEvent.ATTACKS and battalion.filter is not None
    assert battalion.filter.other and battalion.filter.controller is Controller.ANY
    assert card("Gloom Sower").triggers[0].event is TriggerEvent.BECOMES_BLOCKED
    blightfang = card("Hooded Blightfang").triggers
    assert blightfang[0].event is TriggerEvent.ATTACKS
    assert who_of(blightfang[1].effects[0]) is ObjectRef.EVENT_OBJECT
    lieutenant = card("Basri's Lieutenant")
    dies = lieutenant.triggers[1]
    assert (dies.event, dies.from_zone, dies.to_zone) == (TriggerEvent.ZONE_CHANGE,
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
    assert isinstance(bonus.amount, Permanents)
    assert bonus.amount.filter.attacking and bonus.amount.filter.other
    assert narrow(Search, card("Chandra's Firemaw").triggers[0].effects[0]).names == \
        ("Chandra, Flame's Catalyst",)
    warden = card("Warden of the Woods").triggers[0]
    assert warden.event is TriggerEvent.BECOMES_TARGET and warden.effects[0].optional
