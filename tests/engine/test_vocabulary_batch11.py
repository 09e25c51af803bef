"""Load-time validation of the vocabulary added for the eleventh M21 batch (activated
abilities): costs as data -- paying life (119.4), discarding your hand (701.9a), discarding a
card of a stated quality (601.2f, 602.2b) -- an ability's own cost reduction (118.7a),
"activate only if" about the game (602.5b), "with power N or less" targets and filters,
"put on the bottom of your library", coin flips (705) and "that land" after a search."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.mana import ManaCost
from server.cards.model import (
    Condition,
    CostKind,
    Count,
    CountCondition,
    Verb,
    Who,
)
from server.engine import Zone
from server.engine.casting import ability_cost, can_activate, cost_choices
from server.engine.counting import count
from tests.engine.helpers import demo_game, load_one, put


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
    (_ability(cost_reduction={"count": "permanents"}), "'filter'"),
    (_ability(cost_reduction={"count": "permanets", "filter": {}}), "unknown value 'permanets'"),
    (_ability(cost_reduction={"mana": "{U}"}), "'generic' or a 'count'"),
    (_ability(cost="{W}", cost_reduction={"generic": 1}), "no generic mana to reduce"),
    # "activate only if": about the game, not a resolution
    (_ability(condition="won_flip"), "not one being activated"),
    (_ability(condition="target_was_creature_card"), "not one being activated"),
    (_ability(condition={"count": "life_above_startng", "at_least": 7}),
     "unknown value 'life_above_startng'"),
    # "with power N or less"
    (_ability(effects=[{"verb": "tap", "target": {"kind": "creature", "max_power": "2"}}]),
     "max_power: expected a non-negative integer"),
    (_ability(effects=[{"verb": "draw", "count": "permanents",
                        "filter": {"max_power": -1}}]), "max_power"),
    # new verbs take only their own fields
    (_ability(effects=[{"verb": "flip_coin", "amount": 2}]), "unknown field"),
    (_ability(effects=[{"verb": "put_on_bottom"}]), "'target' is required"),
    (_ability(effects=[{"verb": "put_on_botom", "target": "card_in_your_graveyard"}]),
     "unknown value 'put_on_botom'"),
    (_ability(effects=[{"verb": "untap", "who": "fund"}]), "unknown value 'fund'"),
    # a counter put on the source as a cost; state triggers (603.8) and their condition
    (_ability(self_counter="Page"), "counter kind"),
    ({"triggers": [{"when": "state", "effects": [{"verb": "draw"}]}]}, "'state' needs 'condition'"),
    ({"triggers": [{"when": "state", "condition": {"count": "counters_on_source",
                                                   "at_least": 4},
                    "effects": [{"verb": "draw"}]}]}, "counters_on_source"),
    ({"triggers": [{"when": "state", "condition": {"count": "party", "counter": "page",
                                                   "at_least": 4},
                    "effects": [{"verb": "draw"}]}]}, "only for the count 'counters_on_source'"),
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
    assert speaker.condition == CountCondition(Count.LIFE_ABOVE_STARTING, at_least=7)
    heights = card("Sanctum of Shattered Heights").abilities[0]
    assert heights.additional_cost is not None
    assert heights.additional_cost.kind is CostKind.DISCARD_CARD
    assert [f.card_types or f.subtypes for f in heights.additional_cost.cards] == \
        [("Land",), ("Shrine",)]
    swindler = card("Tavern Swindler").abilities[0]
    assert swindler.life == 3 and swindler.effects[0].verb is Verb.FLIP_COIN
    assert swindler.effects[1].condition is Condition.WON_FLIP
    passage = card("Fabled Passage").abilities[0]
    assert passage.sacrifice_self and passage.effects[1].who is Who.FOUND
    light = card("Sanctum of Tranquil Light").abilities[0]
    assert light.cost_reduction is not None and light.cost_reduction.count is Count.PERMANENTS


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
    assert count(game, seat, "", Count.LIFE_ABOVE_STARTING) == 0
    game.player(seat).life = 27
    assert count(game, seat, "", Count.LIFE_ABOVE_STARTING) == 7
    game.player(seat).life = 12
    assert count(game, seat, "", Count.LIFE_ABOVE_STARTING) == -8


def test_subira_loads_its_costs_and_delayed_trigger() -> None:
    first, second = card("Subira, Tulzidi Caravanner").abilities
    target = first.targets[0]
    assert target.other and target.max_power == 2
    assert second.tap and second.discard_hand and second.cost == ManaCost.parse("{1}{R}")
    delayed = second.effects[0].delayed
    assert delayed is not None and second.effects[0].this_turn
    assert delayed.filter is not None and delayed.filter.max_power == 2


def test_mazemind_tome_state_trigger_and_counter_cost() -> None:
    tome = card("Mazemind Tome")
    assert [a.self_counter for a in tome.abilities] == ["page", "page"]
    state = tome.triggers[0]
    assert state.condition == CountCondition(Count.COUNTERS_ON_SOURCE, at_least=4,
                                             counter="page")
    assert [e.verb for e in state.effects] == [Verb.EXILE, Verb.GAIN_LIFE]
