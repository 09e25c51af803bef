"""Load-time validation of the vocabulary added for the eleventh M21 batch (activated
abilities): costs as data -- paying life (119.4), discarding your hand (701.9a), discarding a
card of a stated quality (601.2f, 602.2b) -- an ability's own cost reduction (118.7a),
"activate only if" about the game (602.5b), "with power N or less" targets and filters,
"put on the bottom of your library", coin flips (705) and "that land" after a search."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Compare, Life, ObjectValue, Of, Permanents, Trait
from server.cards.mana import ManaCost
from server.cards.model import (
    Condition,
    CostKind,
    ObjectRef,
    Verb,
)
from server.cards.verbs import CreateDelayedTrigger, who_of
from server.engine import Zone
from server.engine.casting import ability_cost, can_activate, cost_choices
from server.engine.counting import evaluate
from tests.engine.helpers import demo_game, load_one, narrow, put


def _load(behaviour: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{2}{U}",
                           "text": "{1}: Something.", "power": "1", "toughness": "1"}
    load_one(raw, behaviour)


def _ability(**fields: Any) -> dict[str, Any]:
    return {"abilities": [{"cost": "{1}", "effects": [{"verb": "draw"}], **fields}]}


@pytest.mark.parametrize(("behaviour", "message"), [
    # paying life and discarding your hand as costs
    (_ability(life="3"), "life: expected a non-negative integer"),
    (_ability(life=-3), "life: expected a non-negative integer"),
    (_ability(discard_hand="yes"), "discard_hand: expected true or false"),
    (_ability(pay_life=3), "unknown field"),
    # discarding a card of a stated quality
    (_ability(additional_cost={"kind": "sacrifice_creature", "cards": [{"types": ["Land"]}]}),
     "describes a discarded card only"),
    (_ability(additional_cost={"kind": "discard_card", "cards": [{"types": ["Lnd"]}]}),
     "unknown card type 'Lnd'"),
    (_ability(additional_cost={"kind": "discard_card", "cards": [{"subtypes": ["shrine"]}]}),
     "capitalised subtypes"),
    (_ability(additional_cost={"kind": "discard_card", "cards": {"types": ["Land"]}}),
     "expected a list"),
    # an ability's own cost reduction
    (_ability(cost_reduction={"amount": {"kind": "permanents"}}), "'filter'"),
    (_ability(cost_reduction={"amount": {"kind": "permanets", "filter": {}}}),
     "unknown amount kind 'permanets'"),
    (_ability(cost_reduction={"amount": {"kind": "permanents", "filter": {}},
                              "count": "permanents"}), "unknown field"),
    (_ability(cost_reduction={"mana": "{U}"}), "an 'amount' of generic mana"),
    (_ability(cost="{W}", cost_reduction={"amount": 1}), "no generic mana to reduce"),
    (_ability(cost_reduction={"amount": 0}), "at least 1"),
    # "activate only if": about the game, not a resolution
    (_ability(condition="won_flip"), "not the game as it is"),
    (_ability(condition="target_was_creature_card"), "not the game as it is"),
    (_ability(condition={"amount": {"kind": "life", "above_startng": True}, "at_least": 7}),
     "takes no \\['above_startng'\\]"),
    (_ability(condition={"amount": {"kind": "life", "above_starting": "yes"},
                         "at_least": 7}), "above_starting: expected true or false"),
    # "with power N or less"
    (_ability(effects=[{"verb": "tap", "target": {"kind": "permanent",
                                                        "filter": {"max_power": "2"}}}]),
     "max_power: expected a non-negative integer"),
    (_ability(effects=[{"verb": "draw", "amount": {"kind": "permanents",
                                                   "filter": {"max_power": -1}}}]), "max_power"),
    # new verbs take only their own fields
    (_ability(effects=[{"verb": "flip_coin", "amount": 2}]), "unknown field"),
    (_ability(effects=[{"verb": "put_on_bottom"}]), "'target' is required"),
    (_ability(effects=[{"verb": "put_on_botom", "target": "card_in_graveyard"}]),
     "unknown value 'put_on_botom'"),
    (_ability(effects=[{"verb": "untap", "who": "fund"}]), "unknown value 'fund'"),
    # a counter put on the source as a cost; state triggers (603.8) and their condition
    (_ability(self_counter="Page"), "counter kind"),
    ({"triggers": [{"when": "state", "effects": [{"verb": "draw"}]}]}, "'state' needs 'condition'"),
    ({"triggers": [{"when": "state", "condition": {"amount": {
        "kind": "object", "of": "source", "trait": "counters"}, "at_least": 4},
                    "effects": [{"verb": "draw"}]}]}, "kind of counter"),
    ({"triggers": [{"when": "state", "condition": {"amount": {
        "kind": "party", "counter": "page"}, "at_least": 4},
                    "effects": [{"verb": "draw"}]}]}, "takes no \\['counter'\\]"),
])
def test_mistakes_are_load_errors(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_cards_load_into_the_general_vocabulary() -> None:
    golem = card("Epitaph Golem").abilities[0]
    assert golem.effects[0].verb is Verb.PUT_ON_BOTTOM and golem.cost == ManaCost.parse("{2}")
    ooze = card("Scavenging Ooze").abilities[0].effects
    assert [e.condition for e in ooze[1:]] == [Condition.TARGET_WAS_CREATURE_CARD] * 2
    speaker = card("Speaker of the Heavens").abilities[0]
    assert speaker.sorcery_speed and speaker.tap
    assert speaker.condition == Compare(Life(above_starting=True), at_least=7)
    heights = card("Sanctum of Shattered Heights").abilities[0]
    assert heights.additional_cost is not None
    assert heights.additional_cost.kind is CostKind.DISCARD_CARD
    assert [f.card_types or f.subtypes for f in heights.additional_cost.cards] == \
        [("Land",), ("Shrine",)]
    swindler = card("Tavern Swindler").abilities[0]
    assert swindler.life == 3 and swindler.effects[0].verb is Verb.FLIP_COIN
    assert swindler.effects[1].condition is Condition.WON_FLIP
    passage = card("Fabled Passage").abilities[0]
    assert passage.sacrifice_self and who_of(passage.effects[1]) is ObjectRef.FOUND
    light = card("Sanctum of Tranquil Light").abilities[0]
    assert light.cost_reduction is not None
    assert isinstance(light.cost_reduction.amount, Permanents)


def test_shrines_reduce_only_generic_mana_of_the_ability() -> None:
    game = demo_game()
    seat = game.active
    light = put(game, seat, "Sanctum of Tranquil Light", Zone.BATTLEFIELD)
    assert ability_cost(game, light, 0, seat) == ManaCost.parse("{4}{W}")
    for name in ("Sanctum of Calm Waters", "Sanctum of Stone Fangs",
                 "Sanctum of Shattered Heights", "Sanctum of Calm Waters",
                 "Sanctum of Stone Fangs"):
        put(game, seat, name, Zone.BATTLEFIELD)
    assert ability_cost(game, light, 0, seat) == ManaCost.parse("{W}")  # never below {W}
    # An opponent's Shrines aren't "Shrines you control".
    other = put(game, 1 - seat, "Sanctum of Tranquil Light", Zone.BATTLEFIELD)
    assert ability_cost(game, other, 0, 1 - seat) == ManaCost.parse("{4}{W}")


def test_discard_cost_of_a_stated_quality_and_life_payment() -> None:
    game = demo_game()
    seat = game.active
    game.player(seat).hand.clear()
    heights = put(game, seat, "Sanctum of Shattered Heights", Zone.BATTLEFIELD)
    shock = put(game, seat, "Shock", Zone.HAND)
    forest = put(game, seat, "Forest", Zone.HAND)
    cost = card("Sanctum of Shattered Heights").abilities[0].additional_cost
    assert cost is not None
    assert cost_choices(game, seat, cost, heights.id, None) == [forest.id]
    assert shock.id not in cost_choices(game, seat, cost, heights.id, None)
    swindler = put(game, seat, "Tavern Swindler", Zone.BATTLEFIELD)
    game.player(seat).life = 3
    assert can_activate(game, seat, swindler, 0)  # rule 119.4: exactly 3 is enough
    game.player(seat).life = 2
    assert not can_activate(game, seat, swindler, 0)


def test_life_above_the_starting_life_total() -> None:
    game = demo_game()
    seat = game.active
    above = Life(above_starting=True)  # rule 103.4
    assert evaluate(game, above, seat, "") == 0
    game.player(seat).life = 27
    assert evaluate(game, above, seat, "") == 7
    game.player(seat).life = 12
    assert evaluate(game, above, seat, "") == -8


def test_subira_loads_its_costs_and_delayed_trigger() -> None:
    first, second = card("Subira, Tulzidi Caravanner").abilities
    target = first.targets[0]
    assert target.filter.other and target.filter.max_power == 2
    assert second.tap and second.discard_hand and second.cost == ManaCost.parse("{1}{R}")
    delayed_trigger = narrow(CreateDelayedTrigger, second.effects[0])
    delayed = delayed_trigger.delayed
    assert delayed is not None and delayed_trigger.this_turn
    assert delayed.filter is not None and delayed.filter.max_power == 2


def test_mazemind_tome_state_trigger_and_counter_cost() -> None:
    tome = card("Mazemind Tome")
    assert [a.self_counter for a in tome.abilities] == ["page", "page"]
    state = tome.triggers[0]
    assert state.condition == Compare(ObjectValue(Of.SOURCE, Trait.COUNTERS, "page"),
                                      at_least=4)
    assert [e.verb for e in state.effects] == [Verb.EXILE, Verb.GAIN_LIFE]
