"""Load-time validation of player sets as their own concept (issue 13): an effect's ``who`` is
read by what its verb acts on -- a player set (:class:`Players`: you, each opponent, target
player, that player of the event 603.2, defending player 506.2/508.5, ...) for a player verb,
an object reference (:class:`ObjectRef`) or "each" permanent for an object verb, either for
deal_damage -- taken from the effect class's annotation, not from hand-kept tables."""

from __future__ import annotations

from typing import Any, get_type_hints

import pytest

from server.cards import CardDataError, card
from server.cards.model import Each, ObjectRef, Objects, Players
from server.cards.verbs import (
    DealDamage,
    Destroy,
    Draw,
    ExchangeZones,
    LoseLife,
    Mill,
    ModifyPT,
    who_of,
)
from tests.engine.helpers import load_one, narrow


def _load(behaviour: dict[str, Any]) -> Any:
    kind = "Sorcery" if "effects" in behaviour else "Creature"
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    return load_one(raw, behaviour)["T"]


def _spell(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"effects": list(effects)}


def _attack_trigger(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"triggers": [{"when": "attacks", "effects": list(effects)}]}


_CREATURE = {"types": ["Creature"]}


@pytest.mark.parametrize(("behaviour", "message"), [
    # a player verb with an object reference: permanents don't draw or mill (121.1, 701.17a)
    (_spell({"verb": "draw", "who": "self"}),
     r"effects\[0\]\.who: draw acts on players; 'self' names an object"),
    (_spell({"verb": "lose_life", "who": "event_object"}),
     "lose_life acts on players; 'event_object' names an object"),
    (_spell({"verb": "mill", "who": {"each": _CREATURE}}),
     "mill acts on players; 'each' names permanents"),
    # a player verb's target is a player (115.1)
    (_spell({"verb": "draw", "target": "creature"}),
     "draw is performed by a player; 'permanent' is never one"),
    # an object verb with a player set: players aren't destroyed or tapped (701.8a)
    (_spell({"verb": "destroy", "who": "each_opponent"}),
     "destroy acts on objects; 'each_opponent' names a player set"),
    (_spell({"verb": "tap", "who": "defending_player"}),
     "tap acts on objects; 'defending_player' names a player set"),
    (_spell({"verb": "exile", "target": "player"}),
     "exile acts on objects; a 'player' target is never one"),
    # an unknown name, for each kind of verb
    (_spell({"verb": "lose_life", "who": "defending"}),
     r"unknown value 'defending'; expected one of \['chooser', 'defending_player'"),
    (_spell({"verb": "destroy", "who": "it"}), "unknown value 'it'; expected one of"),
    (_spell({"verb": "deal_damage", "who": "everybody"}), "unknown value 'everybody'"),
    # "by" names the creature that deals damage or fights: an object (701.14a)
    (_spell({"verb": "deal_damage", "by": "you", "amount": "power", "target": "any"}),
     r"\.by: unknown value 'you'"),
    # "that player" of a triggered ability's event (603.2): nowhere else
    (_spell({"verb": "lose_life", "who": "that_player"}),
     "'that_player' is the player or object of a triggered ability's event"),
    # "each creature [player set] controls": the filter's point of view (you, chooser, target)
    (_spell({"verb": "modify_pt", "power": 1, "who": {"each": _CREATURE,
                                                      "of": "defending_player"}}),
     r"who\.of: expected 'you', 'chooser' or 'target'"),
    # exchange_zones: a player's zones, or an Aura on the battlefield (701.12d-e)
    (_spell({"verb": "exchange_zones", "destination": "battlefield", "exchange_with": "hand"}),
     "exchange_zones of a player's zones names players"),
])
def test_rejected(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_each_verb_s_who_is_typed_by_what_it_acts_on() -> None:
    """The loader reads ``who`` from the class's annotation: there is no table of player
    verbs to keep in step with the classes."""
    assert get_type_hints(Draw)["who"] is Players
    assert get_type_hints(Mill)["who"] is Players
    assert get_type_hints(Destroy)["who"] == Objects
    assert get_type_hints(ModifyPT)["who"] == Objects
    assert get_type_hints(DealDamage)["who"] == Players | ObjectRef | Each


def test_506_2_defending_player_loads_in_an_attack_trigger_and_an_activated_ability() -> None:
    raider = _load(_attack_trigger({"verb": "lose_life", "who": "defending_player"}))
    assert narrow(LoseLife, raider.triggers[0].effects[0]).who is Players.DEFENDING_PLAYER
    # Rule 508.5: an ability of an attacking creature may name it outside a trigger too.
    ability = _load({"abilities": [{"cost": "{1}", "effects": [
        {"verb": "discard", "who": "defending_player"}]}]})
    assert who_of(ability.abilities[0].effects[0]) is Players.DEFENDING_PLAYER


def test_target_and_that_name_players_or_objects_by_the_verb_and_the_target() -> None:
    """"target" is a target player for a player verb, the target object for an object verb;
    deal_damage takes either, as its target's kind says (115.1, 115.4)."""
    spell = _load(_spell(
        {"verb": "deal_damage", "amount": 2, "target": "any"},
        {"verb": "deal_damage", "amount": 2, "target": "opponent"},
        {"verb": "deal_damage", "amount": 1, "who": "each_opponent"},
        {"verb": "deal_damage", "amount": 1, "who": "attached"},
        {"verb": "draw", "target": "player"},
        {"verb": "lose_life", "who": "that"},
        {"verb": "destroy", "target": "creature"},
        {"verb": "modify_pt", "power": 1, "who": "that"},
    ))
    assert [who_of(e) for e in spell.effects] == [
        ObjectRef.TARGET, Players.TARGET, Players.EACH_OPPONENT, ObjectRef.ATTACHED,
        Players.TARGET, Players.THAT, ObjectRef.TARGET, ObjectRef.THAT]


def test_603_2_that_player_and_608_2h_the_target_s_controller_are_two_player_sets() -> None:
    """Howling Mine's "that player" is the event's (the active player, 603.2); Liliana, Death
    Mage's "Its controller" is the target's controller as it last existed (608.2h)."""
    mine = card("Howling Mine").triggers[0].effects[0]
    assert narrow(Draw, mine).who is Players.THAT_PLAYER
    liliana = card("Liliana, Death Mage").abilities[1].effects
    assert [who_of(e) for e in liliana] == [ObjectRef.TARGET, Players.TARGET_CONTROLLER]
    wurm = card("Massacre Wurm").triggers[1].effects[0]
    assert narrow(LoseLife, wurm).who is Players.THAT_PLAYER


def test_exchange_zones_names_players_or_an_aura() -> None:
    spell = _load(_spell({"verb": "exchange_zones", "destination": "hand",
                          "exchange_with": "graveyard"}))
    assert narrow(ExchangeZones, spell.effects[0]).who is Players.YOU
