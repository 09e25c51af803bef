"""One amount type (rule 107.1) and conditions as comparisons of amounts: the loader reads
every kind from its dataclass, rejects what means nothing, and one evaluator
(:func:`server.engine.counting.evaluate`) answers every kind."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from server.cards import CardDataError, amount_field_readers, card, card_pool
from server.cards.amounts import (
    AMOUNT_KINDS,
    Attackers,
    Cards,
    CardZone,
    Compare,
    Devotion,
    Difference,
    EventAmount,
    Fixed,
    Life,
    Measure,
    ObjectValue,
    Of,
    PartySize,
    Permanents,
    Scaled,
    ThisWay,
    Trait,
    TurnFact,
    TurnFactKind,
    Whose,
    X,
    resolution_only,
)
from server.cards.model import (
    CardDef,
    Condition,
    Controller,
    ObjectFilter,
    Rounding,
)
from server.cards.verbs import AMOUNTED, Draw, Effect, LoseLife
from server.engine import Zone
from server.engine.counting import condition_met, evaluate
from tests.engine.helpers import demo_game, load_one, narrow, put

_CREATURES = ObjectFilter(card_types=("Creature",))


def _load_condition(condition: Any) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{G}",
                           "power": "1", "toughness": "1", "text": "As long as x, y."}
    load_one(raw, {"statics": [{"text": "x", "affects": "self", "power": 1,
                                "condition": condition}]})


def test_every_field_of_every_amount_kind_has_a_reader() -> None:
    readers = amount_field_readers()
    for cls in AMOUNT_KINDS.values():
        for f in dataclasses.fields(cls):
            assert str(f.type) in readers, (cls.__name__, f.name, f.type)


@pytest.mark.parametrize(("condition", "message"), [
    ({"amount": {"kind": "creatures"}, "at_least": 1}, "unknown amount kind 'creatures'"),
    ({"amount": {"kind": "party", "filter": {}}, "at_least": 1}, "takes no \\['filter'\\]"),
    ({"amount": {"kind": "party"}}, "needs 'at_least' and/or 'at_most'"),
    ({"amount": {"kind": "cards"}, "at_least": 1}, "needs 'zone'"),
    ({"amount": {"kind": "cards", "zone": "battlefield"}, "at_least": 1},
     "unknown value 'battlefield'"),
    ({"amount": {"kind": "devotion", "colors": []}, "at_least": 1}, "one or more colors"),
    ({"amount": {"kind": "devotion", "colors": ["blue"]}, "at_least": 1}, "letters of WUBRG"),
    ({"amount": {"kind": "turn", "fact": "creatures_died", "filter": {"nontoken": True}},
      "at_least": 1}, "only {'nontoken': true}, for 'all_players'"),
    ({"amount": {"kind": "scaled", "amount": 2, "factor": 2, "half": "sideways"},
      "at_least": 1}, "unknown value 'sideways'"),
    ({"amount": True, "at_least": 1}, "expected an amount"),
    ({"amount": {"kind": "life", "whose": "their"}, "at_least": 1}, "known only while"),
    ({"amount": {"kind": "permanents", "filter": {"modified": 1}}, "at_least": 1},
     "modified: expected true or false"),
    ("control_flying_creature", "unknown value 'control_flying_creature'"),
])
def test_amount_mistakes_are_load_errors_naming_the_field(condition: Any,
                                                           message: str) -> None:
    with pytest.raises(CardDataError, match=message) as error:
        _load_condition(condition)
    assert "card 'T': statics[0].condition" in str(error.value)


def test_counts_in_disguise_are_comparisons() -> None:
    # Rule 603.4: "if a creature died this turn" -- a turn fact compared, not a named member.
    assert {c.value for c in Condition} == {
        "won_clash", "source_untapped", "revealed_creature_or_land", "you_did",
        "target_was_creature_card", "won_flip", "your_turn", "not_cast_from_hand",
        "came_from_graveyard"}
    ogre = card("Turret Ogre").triggers[0].condition
    assert ogre == Compare(Permanents(dataclasses.replace(
        _CREATURES, other=True, min_power=4)), at_least=1)
    assert card("Squad Commander").triggers[1].condition == Compare(PartySize(), at_least=4)


def test_permanents_and_their_measures_rule_107_1() -> None:
    game = demo_game()
    seat = game.active
    game.battlefield.clear()
    put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
    put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
    put(game, seat, "Skyway Sniper", Zone.BATTLEFIELD)
    put(game, 1 - seat, "Walking Corpse", Zone.BATTLEFIELD)
    assert evaluate(game, Permanents(_CREATURES), seat, "") == 3
    assert evaluate(game, Permanents(_CREATURES, Measure.TOTAL_POWER), seat, "") == 5
    assert evaluate(game, Permanents(_CREATURES, Measure.MOST_SHARING_A_NAME), seat, "") == 2
    assert evaluate(game, Permanents(_CREATURES, Measure.COLORS), seat, "") == 2  # B and G
    every = dataclasses.replace(_CREATURES, controller=Controller.ANY)
    assert evaluate(game, Permanents(every), seat, "") == 4
    # "an opponent controls more creatures than you" (102.2): 1 - 3.
    more = Difference(Permanents(_CREATURES, whose=Whose.AN_OPPONENT), Permanents(_CREATURES))
    assert evaluate(game, more, seat, "") == -2
    assert not condition_met(game, seat, "", Compare(more, at_least=1))
    assert condition_met(game, 1 - seat, "", Compare(more, at_least=1))


def test_scaled_halves_round_the_way_the_effect_says_rule_107_1a() -> None:
    game = demo_game()
    seat = game.active
    assert evaluate(game, Scaled(Fixed(7), half=Rounding.UP), seat, "") == 4
    assert evaluate(game, Scaled(Fixed(7), half=Rounding.DOWN), seat, "") == 3
    assert evaluate(game, Scaled(Fixed(3), factor=2), seat, "") == 6
    # Rule 107.3b: X is 0 when nothing resolving chose it.
    assert evaluate(game, X(), seat, "") == 0
    assert resolution_only(Scaled(X(), factor=2)) and not resolution_only(Fixed(1))


def test_cards_of_a_player_set_and_life_rules_404_1_and_119_1() -> None:
    game = demo_game()
    seat = game.active
    for other in game.opponents(seat):
        game.player(other).graveyard.clear()
    game.player(seat).graveyard.clear()
    opponent = game.opponents(seat)[0]
    put(game, opponent, "Walking Corpse", Zone.GRAVEYARD)
    put(game, opponent, "Shock", Zone.GRAVEYARD)
    graveyard = Cards(CardZone.GRAVEYARD, Whose.AN_OPPONENT)
    assert evaluate(game, graveyard, seat, "") == 2
    assert evaluate(game, Cards(CardZone.GRAVEYARD), seat, "") == 0
    creature_cards = Cards(CardZone.GRAVEYARD, Whose.AN_OPPONENT, _CREATURES)
    assert evaluate(game, creature_cards, seat, "") == 1
    greatest = Cards(CardZone.GRAVEYARD, Whose.OPPONENTS, measure=Measure.GREATEST_POWER)
    assert evaluate(game, greatest, seat, "") == 2
    # "their": the player an effect affects (608.2c).
    assert evaluate(game, Cards(CardZone.GRAVEYARD, Whose.THEIR), seat, "",
                    affected=opponent) == 2
    game.player(seat).life = 25
    assert evaluate(game, Life(above_starting=True), seat, "") == 5


def test_turn_facts_and_characteristics() -> None:
    game = demo_game()
    seat = game.active
    died_watcher = game.watchers.creatures_died  # as its events would have set it
    died_watcher.total, died_watcher.nontoken = 3, 1
    died_watcher.by_controller[seat] = 2
    died = TurnFact(TurnFactKind.CREATURES_DIED, Whose.ALL_PLAYERS)
    assert evaluate(game, died, seat, "") == 3  # rule 700.4
    nontoken = dataclasses.replace(died, filter=ObjectFilter(nontoken=True))
    assert evaluate(game, nontoken, seat, "") == 1
    assert evaluate(game, TurnFact(TurnFactKind.CREATURES_DIED), seat, "") == 2
    assert condition_met(game, seat, "", Compare(died, at_most=0)) is False
    bears = put(game, seat, "Walking Corpse", Zone.BATTLEFIELD)
    bears.counters["+1/+1"] = 2
    assert evaluate(game, ObjectValue(Of.SOURCE, Trait.COUNTERS, "+1/+1"), seat, bears.id) == 2
    assert evaluate(game, ObjectValue(Of.SOURCE, Trait.MANA_VALUE), seat, bears.id) == 2
    assert evaluate(game, Attackers(), seat, "") == 0  # rule 506.3: no combat
    # "modified" (700.9): a creature with a counter on it.
    modified = Compare(Permanents(dataclasses.replace(_CREATURES, modified=True)), at_least=1)
    assert condition_met(game, seat, "", modified)
    bears.counters.clear()
    assert not condition_met(game, seat, "", modified)


def _effects(definition: CardDef) -> list[Effect]:
    found = [*definition.effects, *(e for m in definition.modes for e in m)]
    for activated in definition.abilities:
        found += activated.effects
    for triggered in definition.triggers:
        found += [*triggered.effects, *(e for m in triggered.modes for e in m)]
    return found


def test_107_1_every_effect_amount_is_one_amount() -> None:
    # Rule 107.1: every effect with an amount says it in the one union.
    kinds = set()
    for definition in card_pool().values():
        for effect in _effects(definition):
            if isinstance(effect, AMOUNTED):
                assert isinstance(effect.amount, tuple(AMOUNT_KINDS.values()))
                kinds.add(type(effect.amount))
    assert {Fixed, X, EventAmount, ObjectValue, Devotion, Permanents, Scaled, ThisWay,
            TurnFact, Cards, PartySize} <= kinds
    merchant = narrow(LoseLife, card("Gray Merchant of Asphodel").triggers[0].effects[0])
    assert merchant.amount == Devotion(("B",))
    peer = narrow(LoseLife, card("Peer into the Abyss").effects[1])
    assert peer.amount == Scaled(Life(Whose.THEIR), half=Rounding.UP)


def _load_sorcery(behaviour: dict[str, Any]) -> CardDef:
    raw = {"name": "T", "types": ["Sorcery"], "manaCost": "{1}", "text": "Something."}
    return load_one(raw, behaviour)["T"]


@pytest.mark.parametrize(("amount", "message"), [
    ({"kind": "devotion"}, "needs 'colors'"),
    ({"kind": "life", "whose": "their", "above": True}, r"takes no \['above'\]"),
    ("power", "expected an amount"),
    ({"kind": "scaled", "amount": 2}, "a 'factor' of 2 or more"),
])
def test_107_1_a_bad_effect_amount_is_a_load_error(amount: object, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load_sorcery({"effects": [{"verb": "gain_life", "amount": amount}]})


def test_608_2c_their_amounts_only_for_verbs_counted_per_player() -> None:
    with pytest.raises(CardDataError, match="'their' counts the player the effect affects"):
        _load_sorcery({"effects": [{"verb": "deal_damage", "target": "any", "amount": {
            "kind": "life", "whose": "their"}}]})
    effect = _load_sorcery({"effects": [{"verb": "draw", "who": "each_player", "amount": {
        "kind": "cards", "zone": "library", "whose": "their"}}]}).effects[0]
    assert narrow(Draw, effect).amount == Cards(CardZone.LIBRARY, Whose.THEIR)
