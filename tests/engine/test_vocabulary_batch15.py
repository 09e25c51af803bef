"""Load-time validation of the vocabulary added for the fifteenth M21 batch: a count of
permanents sharing a name (rule 201.2) and a filter's "nonland" (card types it must lack,
205.2a), ..."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import (
    Attackers,
    Cards,
    CardZone,
    Compare,
    EventAmount,
    Measure,
    ObjectValue,
    Of,
    Permanents,
    Trait,
)
from server.cards.model import (
    Condition,
    Controller,
    ObjectFilter,
    ReplacementKind,
    TargetedCost,
    TriggerEvent,
    TriggerSubject,
    Verb,
)
from server.cards.verbs import (
    Become,
    CreateToken,
    DealDamage,
    ExileLinked,
    ModifyPT,
    Pay,
    PermitCastLinked,
    PutCounters,
)
from tests.engine.helpers import load_one, narrow


def _load(behaviour: dict[str, Any]) -> None:
    kind = "Sorcery" if "effects" in behaviour else "Enchantment" if "replacements" in \
        behaviour else "Creature"
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    load_one(raw, behaviour)


_SHARING = {"kind": "permanents", "measure": "most_sharing_a_name"}


def _enters(condition: Any) -> dict[str, Any]:
    return {"triggers": [{"when": "zone_change", "to": "battlefield", "condition": condition,
                          "effects": [{"verb": "draw"}]}]}


@pytest.mark.parametrize(("behaviour", "message"), [
    # "two or more permanents with the same name": what is counted needs a filter
    (_enters({"amount": {"kind": "permanents", "measure": "most_sharing_a_name"},
              "at_least": 2}), "needs 'filter'"),
    (_enters({"amount": {"kind": "permanents", "filter": {}, "measure": "sharing_a_name"},
              "at_least": 2}), "unknown value 'sharing_a_name'"),
    # "nonland": card types, spelt right
    (_enters({"amount": {**_SHARING, "filter": {"not_types": ["Lands"]}}, "at_least": 2}),
     "unknown card type 'Lands'"),
    (_enters({"amount": {**_SHARING, "filter": {"not_types": "Land"}}, "at_least": 2}),
     "expected a list"),
    (_enters({"amount": {**_SHARING, "filter": {"non_types": ["Land"]}}, "at_least": 2}),
     "unknown field"),
    # "whenever you sacrifice a [filter] permanent": a filter, no count
    ({"triggers": [{"when": "sacrifice", "count": 2, "effects": [{"verb": "draw"}]}]},
     "'sacrifice' takes no 'count'"),
    ({"triggers": [{"when": "sacrifice", "filter": {"type": ["Creature"]},
                    "effects": [{"verb": "draw"}]}]}, "unknown field"),
    ({"triggers": [{"when": "you_sacrifices", "effects": [{"verb": "draw"}]}]},
     "unknown value 'you_sacrifices'"),
    # "have base power and toughness X/X" (613.4b): sets power and toughness only
    ({"effects": [{"verb": "modify_pt", "target": "creature", "set_base": "yes"}]},
     "expected true or false"),
    ({"effects": [{"verb": "modify_pt", "target": "creature", "set_base": True,
                   "switch": True}]}, "sets 'power' and 'toughness' only"),
    ({"effects": [{"verb": "modify_pt", "target": "creature", "set_base": True,
                   "gains": ["Flying"]}]}, "sets 'power' and 'toughness' only"),
    ({"effects": [{"verb": "draw", "set_base": True}]}, "unknown field"),
    ({"effects": [{"verb": "draw", "amount": {"kind": "cards_in_hand"}}]},
     "unknown amount kind 'cards_in_hand'"),
    # granted triggered abilities (613.1f): a list of triggered abilities on the battlefield
    ({"statics": [{"affects": "self", "triggers": {"when": "zone_change", "from": "battlefield",
                                                   "to": "graveyard",
                                                   "effects": [{"verb": "draw"}]}}]},
     "expected a list"),
    ({"statics": [{"affects": "self", "triggers": [{"when": "die",
                                                    "effects": [{"verb": "draw"}]}]}]},
     "unknown value 'die'"),
    ({"statics": [{"affects": "self", "triggers": [{"when": "step", "step": "upkeep",
                                                    "zone": "graveyard",
                                                    "effects": [{"verb": "draw"}]}]}]},
     "works from the battlefield"),
    ({"statics": [{"affects": "self", "triggers": [
        {"when": "state", "condition": {"amount": {"kind": "life"}, "at_most": 5},
         "effects": [{"verb": "draw"}]}]}]}, "isn't a state trigger"),
    # "whenever an opponent attacks": one or more creatures an opponent controls attack
    ({"triggers": [{"when": "attacks", "subject": "filter", "count": 0,
                    "filter": {"controller": "opponent"}, "effects": [{"verb": "draw"}]}]},
     "count: at least 1"),
    ({"triggers": [{"when": "attacks", "subject": "filter", "count": 1,
                    "effects": [{"verb": "draw"}]}]}, "subject 'filter' needs a 'filter'"),
    ({"triggers": [{"when": "attacks", "subject": "filter", "count": 1,
                    "filter": {"controller": "opponent"}, "condition": {
        "amount": {"kind": "attacking"}, "at_least": 2}, "effects": [{"verb": "draw"}]}]},
     "unknown amount kind 'attacking'"),
    ({"triggers": [{"when": "attacks", "subject": "filter", "count": 1,
                    "filter": {"controller": "opponent"}, "condition": {
        "amount": {"kind": "attackers", "whose": "you"}, "at_least": "two"},
        "effects": [{"verb": "draw"}]}]}, "at_least: expected a non-negative integer"),
    # "casts their second spell each turn": a count of a cast trigger, at least 1
    ({"triggers": [{"when": "cast", "filter": {"controller": "opponent"}, "count": -2,
                    "effects": [{"verb": "draw"}]}]}, "non-negative integer"),
    ({"triggers": [{"when": "cast", "count": 2, "effects": [{"verb": "draw"}]}]},
     "'filter'"),
    # "Spells your opponents cast that target [this] cost {3} more / an additional 3 life"
    ({"targeted_cost": {}}, "needs a positive 'generic' and/or 'life'"),
    ({"targeted_cost": {"generic": -3}}, "non-negative integer"),
    ({"targeted_cost": {"mana": "{3}"}}, "unknown field"),
    ({"targeted_cost": 3}, "expected an object"),
    # "damage equal to that creature's power": a word for the amount, spelt right
    ({"triggers": [{"when": "zone_change", "subject": "filter", "to": "battlefield",
                    "filter": {"types": ["Creature"]},
                    "effects": [{"verb": "deal_damage", "amount": "event_powr",
                                 "target": "any"}]}]}, "expected an amount"),
    # a token's static abilities are static abilities
    ({"effects": [{"verb": "create_token", "token": {"power": 1, "toughness": 1, "statics": [
        {"affects": "self", "restrictions": ["cant_blok"]}]}}]}, "unknown 'cant_blok'"),
    # "you may pay {1}. When you do, ...": a reflexive trigger of a payment is a trigger
    ({"effects": [{"verb": "pay", "cost": "{1}", "optional": True,
                   "reflexive": {"when": "zone_change", "to": "battlefield", "effects": []}}]},
     "non-empty list of effects"),
    ({"effects": [{"verb": "draw", "reflexive": {"when": "zone_change", "to": "battlefield",
                                                 "effects": [{"verb": "draw"}]}}]},
     "unknown field"),
    # "prevent that damage and put an incarnation counter on [this]": no filter, a counter
    ({"replacements": [{"kind": "prevent_damage_to_you"}]}, r"takes \['counter'\]"),
    ({"replacements": [{"kind": "prevent_damage_to_you", "counter": ""}]},
     "the kind of counter"),
    ({"replacements": [{"kind": "prevent_damage_to_you", "counter": "Incarnation"}]},
     "expected a counter kind"),
    ({"replacements": [{"kind": "prevent_damage_to_you", "counter": "incarnation",
                        "filter": {}}]}, "which takes none"),
    ({"replacements": [{"kind": "prevent_damage_to_you", "counter": "incarnation",
                        "extra": 1}]}, r"takes \['counter'\]"),
    # "you lose the game": players only
    ({"effects": [{"verb": "lose_game", "who": "self"}]},
     "lose_game acts on players; 'self' names an object"),
    ({"effects": [{"verb": "lose_game", "amount": 1}]}, "unknown field"),
    ({"triggers": [{"when": "leaves_the_battlefield", "effects": [{"verb": "lose_game"}]}]},
     "unknown value 'leaves_the_battlefield'"),
    # "becomes a 3/3 Sphinx creature ...": new base values and the types it gets
    ({"effects": [{"verb": "become", "target": "creature", "types": ["Creature"]}]},
     "become needs 'power', 'toughness'"),
    ({"effects": [{"verb": "become", "target": "creature", "power": 3, "toughness": 3}]},
     "become needs 'power', 'toughness'"),
    ({"effects": [{"verb": "become", "target": "creature", "power": 3, "toughness": 3,
                   "types": ["Creatures"]}]}, "expected card types"),
    ({"effects": [{"verb": "become", "target": "creature", "power": 3, "toughness": 3,
                   "subtypes": ["sphinx"]}]}, "expected subtype names"),
    ({"effects": [{"verb": "become", "target": "creature", "power": 3, "toughness": 3,
                   "types": ["Creature"], "amount": 2}]}, "unknown field"),
    # "from anywhere other than their hand": a zone a spell is cast from, or "not_hand"
    ({"triggers": [{"when": "cast", "filter": {"cast_from": "hands"},
                    "effects": [{"verb": "draw"}]}]}, "expected 'hand', 'graveyard'"),
    ({"triggers": [{"when": "becomes_tapped", "effects": [{"verb": "draw"}]}]},
     "unknown value 'becomes_tapped'"),
    ({"triggers": [{"when": "becomes_untapped", "filter": {},
                    "effects": [{"verb": "draw"}]}]}, "'filter'"),
    # "if it entered from your graveyard or you cast it from your graveyard"
    (_enters("came_from_graveyards"), "unknown value 'came_from_graveyards'"),
    # "have protection from Dogs": qualities
    ({"statics": [{"affects": "self", "protection": ["dog"]}]}, "expected colour letters"),
    ({"statics": [{"affects": "self", "protection": "Dog"}]}, "expected a list"),
    # "whenever one or more Cats you control deal combat damage to a player": a filter
    ({"triggers": [{"when": "deals_damage", "subject": "filter", "count": 1,
                    "damage": "combat", "recipient": "player",
                    "effects": [{"verb": "draw"}]}]}, "subject 'filter' needs a 'filter'"),
    # "... that player controls": a controller
    ({"triggers": [{"when": "deals_damage", "subject": "filter", "count": 1,
                    "damage": "combat", "recipient": "player", "filter": {},
                    "effects": [{"verb": "destroy", "target": {
                        "kind": "permanent", "filter": {"controller": True}}}]}]},
     "unknown value True"),
    # "exile that card until [this] leaves the battlefield" (610.3)
    ({"effects": [{"verb": "exile_linked", "target": "creature", "until_leaves": 1}]},
     "expected true or false"),
    ({"effects": [{"verb": "exile_linked", "target": "opponent", "find": "noncreature_nonland",
                   "until_leaves": True}]}, "a target player who reveals their hand"),
    ({"effects": [{"verb": "exile_linked", "target": "creature", "chooser": "you"}]},
     "a target player who reveals their hand"),
    ({"effects": [{"verb": "exile_linked", "target": "opponent", "chooser": "random",
                   "find": "noncreature_nonland"}]}, "'you' choose the card"),
    ({"effects": [{"verb": "exile", "target": "creature", "until_leaves": True}]},
     "unknown field"),
    # "exile all creature cards with mana value 3 or less from your graveyard"
    ({"effects": [{"verb": "exile_linked", "who": "you", "zones": ["graveyard"]}]},
     "'filter' is given exactly when"),
    ({"effects": [{"verb": "exile_linked", "who": "you", "zones": ["hand"],
                   "filter": {"types": ["Creature"]}}]}, "in your 'graveyard'"),
    ({"effects": [{"verb": "exile_linked", "who": "each_opponent", "zones": ["graveyard"],
                   "filter": {"types": ["Creature"]}}]}, "in your 'graveyard'"),
    ({"effects": [{"verb": "exile_linked", "who": "you", "zones": ["graveyard"],
                   "filter": {"max_mana_value": -1}}]}, "non-negative integer"),
    # "you may cast a creature spell from among cards exiled with [this]"
    ({"effects": [{"verb": "permit_cast_linked", "card_type": "creature"}]},
     "expected a card type"),
    ({"effects": [{"verb": "permit_cast_linked"}]}, "permit_cast_linked needs a 'card_type'"),
])
def test_rejected(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_chrome_replicator_is_data() -> None:
    (enters,) = card("Chrome Replicator").triggers
    condition = enters.condition
    assert isinstance(condition, Compare) and isinstance(condition.amount, Permanents)
    assert condition.amount.measure is Measure.MOST_SHARING_A_NAME
    assert condition.amount.filter.not_types == ("Land",)


def test_havoc_jester_is_data() -> None:
    (sacrificed,) = card("Havoc Jester").triggers
    assert (sacrificed.event, sacrificed.subject) == (TriggerEvent.SACRIFICE,
                                                      TriggerSubject.FILTER)
    assert sacrificed.filter == ObjectFilter()  # "a permanent" you control


def test_jolrael_is_data() -> None:
    jolrael = card("Jolrael, Mwonvuli Recluse")
    (second_draw,) = jolrael.triggers
    assert (second_draw.event, second_draw.count) == (TriggerEvent.DRAW, 2)
    base = narrow(ModifyPT, jolrael.abilities[0].effects[0])
    assert (base.verb, base.set_base, base.amount) == (Verb.MODIFY_PT, True,
                                                       Cards(CardZone.HAND))


def test_granted_triggers_are_data() -> None:
    (scarring,) = card("Infernal Scarring").statics
    assert scarring.power == 2 and scarring.triggers[0].event is TriggerEvent.ZONE_CHANGE
    (promise,) = card("Light of Promise").statics
    (gain,) = promise.triggers
    assert gain.event is TriggerEvent.GAIN_LIFE
    assert narrow(PutCounters, gain.effects[0]).amount == EventAmount()


def test_nth_spell_triggers_are_data() -> None:
    attacks, second = card("Mangara, the Diplomat").triggers
    assert attacks.event is TriggerEvent.ATTACKS
    assert attacks.condition == Compare(Attackers(), at_least=2)
    assert (second.event, second.count) == (TriggerEvent.CAST, 2)
    (first,) = card("Double Vision").triggers
    assert (first.event, first.count) == (TriggerEvent.CAST, 1)
    assert first.effects[0].verb is Verb.COPY_SPELL


def test_targeted_costs_are_data() -> None:
    terror = card("Terror of the Peaks")
    assert terror.targeted_cost == TargetedCost(life=3)
    assert narrow(DealDamage, terror.triggers[0].effects[0]).amount == \
        ObjectValue(Of.EVENT_OBJECT, Trait.POWER)
    whale = card("Pursued Whale")
    assert whale.targeted_cost == TargetedCost(generic=3)
    token = narrow(CreateToken, whale.triggers[0].effects[0]).token
    assert token is not None and [s.restrictions for s in token.statics] == [
        ("cant_block",), ("attacks_each_combat",)]


def test_tolarian_kraken_is_data() -> None:
    (drawn,) = card("Tolarian Kraken").triggers
    pay = narrow(Pay, drawn.effects[0])
    assert pay.verb is Verb.PAY and pay.reflexive is not None
    assert [m[0].verb for m in pay.reflexive.modes] == [Verb.TAP, Verb.UNTAP]


def test_nine_lives_is_data() -> None:
    nine = card("Nine Lives")
    (shield,) = nine.replacements
    assert (shield.kind, shield.counter) == (ReplacementKind.PREVENT_DAMAGE_TO_YOU,
                                             "incarnation")
    state, leaves = nine.triggers
    assert (state.event, leaves.event) == (TriggerEvent.STATE, TriggerEvent.ZONE_CHANGE)
    assert (leaves.subject, leaves.from_zone, leaves.to_zone) == (
        TriggerSubject.THIS, "battlefield", "")
    assert leaves.effects[0].verb is Verb.LOSE_GAME


def test_riddleform_is_data() -> None:
    (cast,) = card("Riddleform").triggers
    become = narrow(Become, cast.effects[0])
    assert (become.verb, become.power, become.toughness, become.add_types,
            become.add_subtypes, become.gains) == (Verb.BECOME, 3, 3, ("Creature",),
                                                   ("Sphinx",), ("Flying",))


def test_ghostly_pilferer_is_data() -> None:
    untapped, cast = card("Ghostly Pilferer").triggers
    assert untapped.event is TriggerEvent.BECOMES_UNTAPPED
    assert cast.filter is not None and cast.filter.cast_from == "not_hand"


def test_archfiends_vessel_is_data() -> None:
    (enters,) = card("Archfiend's Vessel").triggers
    assert enters.condition is Condition.CAME_FROM_GRAVEYARD
    exile, demon = enters.effects
    assert (exile.verb, demon.condition) == (Verb.EXILE, Condition.YOU_DID)


def test_feline_sovereign_is_data() -> None:
    sovereign = card("Feline Sovereign")
    (anthem,) = sovereign.statics
    assert isinstance(anthem.affects, ObjectFilter)
    assert (anthem.affects.subtypes, anthem.affects.other) == (("Cat",), True)
    assert (anthem.power, anthem.protection) == (1, ("Dog",))
    (damage,) = sovereign.triggers
    assert (damage.event, damage.subject, damage.count) == (
        TriggerEvent.DEALS_DAMAGE, TriggerSubject.FILTER, 1)  # "one or more" (510.2)
    target = damage.effects[0].target_req
    assert target is not None and target.up_to
    assert target.filter.controller is Controller.THAT_PLAYER


def test_kitesail_freebooter_is_data() -> None:
    (enters,) = card("Kitesail Freebooter").triggers
    exile = narrow(ExileLinked, enters.effects[0])
    assert (exile.verb, exile.chooser, exile.find, exile.until_leaves) == (
        Verb.EXILE_LINKED, "you", "noncreature_nonland", True)


def test_idol_of_endurance_is_data() -> None:
    idol = card("Idol of Endurance")
    exile = narrow(ExileLinked, idol.triggers[0].effects[0])
    assert exile.zones == ("graveyard",) and exile.until_leaves
    assert exile.filter is not None and exile.filter.max_mana_value == 3
    permit = narrow(PermitCastLinked, idol.abilities[0].effects[0])
    assert (permit.verb, permit.card_type) == (Verb.PERMIT_CAST_LINKED, "Creature")
