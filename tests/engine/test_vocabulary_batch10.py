"""Load-time validation of the vocabulary added for the tenth M21 batch (static abilities):
power/toughness by a count (613.4c, 107.3), spells costing more or less by a permanent's static
(601.2f, 118.7a) or by coloured mana (118.7b-c), replacement effects on damage and counters
(614.1a, 614.1c), "counters are put" triggers (122.1), prevention of combat damage to what a
filter describes (615.1), and filters excluding subtypes (205.3)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import (
    Cards,
    CardZone,
    Compare,
    Measure,
    ObjectValue,
    Of,
    Trait,
    TurnFact,
    TurnFactKind,
    Whose,
)
from server.cards.mana import ManaCost
from server.cards.model import (
    Affects,
    ObjectFilter,
    ReplacementKind,
    TriggerEvent,
)
from server.cards.verbs import CreateToken, GainLife, Pay, PreventCombatDamage, PutCounters
from server.engine import Zone
from server.engine.state import Step
from server.engine.triggers import collect_triggers
from server.engine.zones import put_into_graveyards
from tests.engine.helpers import demo_game, load_one, narrow, pass_until, put


def _load(behaviour: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{2}{U}",
                           "text": "Something static.", "power": "1", "toughness": "1"}
    # A trigger explains the text, so a cost reduction alone is checked too.
    explained = {"triggers": [{"when": "zone_change", "to": "battlefield",
                               "effects": [{"verb": "draw"}]}]}
    load_one(raw, {**explained, **behaviour})


_PUMP = {"affects": "self", "power": 1}


@pytest.mark.parametrize(("behaviour", "message"), [
    # statics by an amount
    ({"statics": [{**_PUMP, "amount": {"kind": "cards", "zone": "graveyard",
                                       "measure": "greatest_powr"}}]},
     "unknown value 'greatest_powr'"),
    ({"statics": [{**_PUMP, "amount": {"kind": "object", "of": "source",
                                       "trait": "counters"}}]}, "kind of counter"),
    ({"statics": [{**_PUMP, "amount": {"kind": "object", "of": "source", "trait": "power",
                                       "counter": "soul"}}]}, "kind of counter"),
    ({"statics": [{**_PUMP, "amount": {"kind": "object", "of": "source",
                                       "trait": "counters", "counter": "Soul Counter"}}]},
     "counter kind"),
    ({"statics": [{"affects": "self", "keywords": ["Flying"], "amount": {"kind": "party"}}]},
     "multiplies 'power'/'toughness'"),
    ({"statics": [{**_PUMP, "amount": {"kind": "permanents"}}]}, "needs 'filter'"),
    ({"statics": [{**_PUMP, "count": "party"}]}, "unknown field"),
    # amounts known only while something resolves are no static's or cost reduction's
    ({"cost_reduction": {"amount": "X"}}, "'X' is known only while"),
    ({"cost_reduction": {"amount": {"kind": "event"}}}, "'event' is known only while"),
    ({"statics": [{**_PUMP, "amount": {"kind": "object", "of": "target",
                                       "trait": "power"}}]}, "known only while"),
    ({"statics": [{**_PUMP, "condition": {"amount": {"kind": "this_way", "fact": "chosen"},
                                          "at_least": 1}}]}, "known only while"),
    ({"statics": [{**_PUMP, "amount": {"kind": "scaled", "amount": {"kind": "party"}}}]},
     "a 'factor' of 2 or more"),
    # spell cost changes
    ({"spell_costs": [{"generic": -1}]}, "'filter'"),
    ({"spell_costs": [{"generic": 0, "filter": {}}]}, "non-zero 'generic'"),
    ({"spell_costs": [{"generic": -1, "filter": {"attacking": True}}]}, "describes a spell"),
    ({"spell_costs": [{"generic": -1, "filter": {"has": "Flyng"}}]}, "keyword 'Flyng'"),
    # coloured cost reductions
    ({"cost_reduction": {"mana": "{2}{U}", "amount": 1}}, "either 'amount'"),
    ({"cost_reduction": {"mana": "{2}"}}, "coloured or colourless"),
    ({"cost_reduction": {"mana": "{X}{U}"}}, "coloured or colourless"),
    ({"cost_reduction": {"amount": {"kind": "turn", "fact": "spells_cast", "filter": {}}},
      "condition": "x"}, "unknown field"),
    ({"cost_reduction": {"mana": "{U}", "condition": {"amount": {
        "kind": "turn", "fact": "spells_cast", "filter": {"has": "flash"}},
        "at_least": 1}}}, "keyword 'flash'"),
    # replacements
    ({"replacements": [{"kind": "damage_multiplied", "factor": 3}]}, "'filter'"),
    ({"replacements": [{"kind": "damage_tripled", "factor": 3, "filter": {}}]},
     "unknown value 'damage_tripled'"),
    ({"replacements": [{"kind": "damage_multiplied", "filter": {}}]}, "takes \\['factor'\\]"),
    ({"replacements": [{"kind": "damage_multiplied", "factor": 1, "filter": {}}]},
     "at least 2"),
    ({"replacements": [{"kind": "extra_counters", "counter": "+1/+1", "filter": {}}]},
     "takes \\['counter', 'extra'\\]"),
    ({"replacements": [{"kind": "extra_counters", "counter": "+1/+1", "extra": 1,
                        "factor": 2, "filter": {}}]}, "takes"),
    # counters_put triggers
    ({"triggers": [{"when": "counters_put", "filter": {}, "effects": [{"verb": "draw"}]}]},
     "'counters_put' needs 'counter'"),
    ({"triggers": [{"when": "counters_put", "counter": "+2/+2", "filter": {},
                    "effects": [{"verb": "draw"}]}]}, "counter: expected"),
    ({"triggers": [{"when": "counters_put", "counter": "+1/+1",
                    "effects": [{"verb": "draw"}]}]}, "'filter'"),
    # block requirements (509.1c)
    ({"statics": [{"affects": "self", "restrictions": ["must_be_blockd"]}]},
     "unknown 'must_be_blockd'"),
    ({"triggers": [{"when": "zone_change", "from": "battlefield", "to": "graveyard", "effects": [
        {"verb": "gain_life", "amount": {"kind": "turn", "fact": "creatures_died"},
         "filter": {}}]}]},
     "'filter' is given exactly"),
    # "you may pay": a cost, optional, no condition of its own
    ({"triggers": [{"when": "zone_change", "to": "battlefield", "effects": [
        {"verb": "pay", "optional": True}]}]},
     "needs a 'cost'"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield", "effects": [
        {"verb": "pay", "cost": "{1}{B}"}]}]},
     "'optional': true"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield", "effects": [
        {"verb": "pay", "cost": "{1}{B}", "optional": True, "condition": "you_did"}]}]},
     "no condition"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield", "effects": [
        {"verb": "draw", "cost": "{1}"}]}]},
     "unknown field"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield", "effects": [
        {"verb": "pay", "cost": "{1}{Q}", "optional": True}]}]}, "cost"),
    # tokens with a mana ability that sacrifices them (a Treasure)
    ({"triggers": [{"when": "zone_change", "to": "battlefield",
                    "effects": [{"verb": "create_token", "token": {
        "types": ["Artifact"], "subtypes": ["Treasure"], "mana_sacrifice": True}}]}]},
     "mana_sacrifice"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield",
                    "effects": [{"verb": "create_token", "token": {
        "types": ["Artifact"], "subtypes": ["Treasure"], "mana": ["W|Q"]}}]}]},
     "mana letters"),
    ({"triggers": [{"when": "zone_change", "to": "battlefield",
                    "effects": [{"verb": "create_token",
                                                   "amount": {"kind": "turn", "fact":
                                                              "nontoken_creatures_died"},
                                                   "token": {"subtypes": ["Zombie"]}}]}]},
     "unknown value 'nontoken_creatures_died'"),
    # exiled unless cast: nothing but its filter
    ({"replacements": [{"kind": "exiled_unless_cast", "filter": {}, "extra": 1}]},
     "takes \\[\\]"),
    ({"replacements": [{"kind": "exiled_unless_cast", "filter": {"nontoken": "yes"}}]},
     "nontoken: expected true or false"),
    # filters excluding subtypes; prevention to a filter
    ({"triggers": [{"when": "counters_put", "counter": "+1/+1",
                    "filter": {"not_subtypes": ["hydra"]}, "effects": [{"verb": "draw"}]}]},
     "capitalised"),
    ({"triggers": [{"when": "attacks", "effects": [
        {"verb": "prevent_combat_damage", "prevent_to": {"subtype": ["Dog"]}}]}]},
     "unknown field"),
    ({"triggers": [{"when": "attacks", "effects": [
        {"verb": "draw", "prevent_to": {"subtypes": ["Dog"]}}]}]}, "unknown field"),
])
def test_mistakes_are_load_errors(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_cards_load_into_the_general_vocabulary() -> None:
    grub = card("Carrion Grub").statics[0]
    assert (grub.affects, grub.amount, grub.power) == (Affects.SELF, Cards(
        CardZone.GRAVEYARD, filter=ObjectFilter(card_types=("Creature",)),
        measure=Measure.GREATEST_POWER), 1)
    scythe = card("Malefic Scythe")
    assert scythe.statics[0].amount == ObjectValue(Of.SOURCE, Trait.COUNTERS, "soul")
    assert scythe.enters_with_counters == (("soul", 1),)
    assert narrow(PutCounters, scythe.triggers[0].effects[0]).counter == "soul"
    watcher = card("Watcher of the Spheres").spell_costs[0]
    assert watcher.generic == -1 and watcher.filter.has == "Flying"
    stormwing = card("Stormwing Entity").cost_reduction
    assert stormwing is not None and stormwing.mana == ManaCost.parse("{2}{U}")
    assert isinstance(stormwing.condition, Compare)
    assert isinstance(stormwing.condition.amount, TurnFact)
    assert stormwing.condition.amount.fact is TurnFactKind.SPELLS_CAST
    fiery = card("Fiery Emancipation").replacements[0]
    assert (fiery.kind, fiery.factor) == (ReplacementKind.DAMAGE_MULTIPLIED, 3)
    mentor = card("Conclave Mentor").replacements[0]
    assert (mentor.kind, mentor.counter, mentor.extra) == (
        ReplacementKind.EXTRA_COUNTERS, "+1/+1", 1)
    leader = card("Pack Leader").triggers[0].effects[0]
    assert isinstance(leader, PreventCombatDamage) and leader.prevent_to is not None
    assert leader.prevent_to.subtypes == ("Dog",)
    stalker = card("Canopy Stalker")
    assert stalker.statics[0].restrictions == ("must_be_blocked",)
    assert narrow(GainLife, stalker.triggers[0].effects[0]).amount == TurnFact(
        TurnFactKind.CREATURES_DIED, Whose.ALL_PLAYERS)
    devotee = card("Liliana's Devotee").triggers[0].effects
    assert narrow(Pay, devotee[0]).cost == ManaCost.parse("{1}{B}")
    gadrak = card("Gadrak, the Crown-Scourge")
    treasure = narrow(CreateToken, gadrak.triggers[0].effects[0]).token
    assert treasure is not None and treasure.mana_sacrifice
    assert treasure.mana_abilities == ("W|U|B|R|G",)
    assert narrow(CreateToken, gadrak.triggers[0].effects[0]).amount == TurnFact(
        TurnFactKind.CREATURES_DIED, Whose.ALL_PLAYERS, ObjectFilter(nontoken=True))
    assert gadrak.statics[0].restrictions == ("cant_attack",)
    priest = card("Containment Priest").replacements[0]
    assert priest.kind is ReplacementKind.EXILED_UNLESS_CAST and priest.filter.nontoken
    scourge = card("Wildwood Scourge").triggers[0]
    assert scourge.event is TriggerEvent.COUNTERS_PUT and scourge.counter == "+1/+1"
    assert scourge.filter is not None and scourge.filter.not_subtypes == ("Hydra",)


def test_equipment_leaving_with_its_creature_still_sees_it_die() -> None:
    """Rule 603.10a: "whenever equipped creature dies" looks back in time -- a Malefic Scythe
    destroyed at the same time as its creature still triggers (its counter then has nowhere to
    go, 400.7); one still on the battlefield triggers as usual."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN)
    seat = game.active
    for together in (True, False):
        game.pending_triggers.clear()
        scythe = put(game, seat, "Malefic Scythe", Zone.BATTLEFIELD)
        corpse = put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
        scythe.attached_to = corpse.id
        events: list[Any] = []
        put_into_graveyards(game, [scythe.id, corpse.id] if together else [corpse.id], events)
        collect_triggers(game, events, 0)
        found = [t for t in game.pending_triggers
                 if t.definition.event is TriggerEvent.ZONE_CHANGE]
        assert [t.source_id for t in found] == [scythe.id], together
