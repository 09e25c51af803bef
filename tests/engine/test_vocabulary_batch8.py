"""Load-time validation of the vocabulary added for the eighth M21 batch: "counter ... unless
its controller pays {N}" (rule 118.12a), "doesn't untap during its controller's next untap
step" (502.3), rules changes until end of turn for targets or a described set (611.2c), cost
reductions (601.2f, 118.7a), "another target" (115.3), targets in any graveyard and abilities on
the stack (115.2), doubling counters (701.10e), permanents attached to a target (701.3) and
"without [keyword]" in object filters."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Fixed, Measure, Permanents
from server.cards.mana import ManaCost
from server.cards.model import Controller, Each, ObjectRef, TargetKind
from server.cards.verbs import (
    CounterSpell,
    Destroy,
    DoesntUntapNext,
    PutCounters,
    RestrictThisTurn,
)
from tests.engine.helpers import load_one, narrow


def _load(behaviour: dict[str, Any], *, types: tuple[str, ...] = ("Instant",)) -> None:
    raw: dict[str, Any] = {"name": "T", "types": list(types), "manaCost": "{2}{U}",
                           "text": "Do something."}
    load_one(raw, behaviour)


def _effects(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"effects": list(effects)}


@pytest.mark.parametrize(("behaviour", "message"), [
    # "unless its controller pays": a mana cost, only on counter
    (_effects({"verb": "counter", "target": "spell", "unless_pays": "{Q}"}), "unless_pays"),
    (_effects({"verb": "counter", "target": "spell", "unless_pays": 3}), "unless_pays"),
    (_effects({"verb": "destroy", "target": "creature", "unless_pays": "{1}"}),
     "unknown field"),
    (_effects({"verb": "counter", "target": "spell", "unles_pays": "{1}"}), "unknown field"),
    # doubling counters: a flag, on put_counters only
    (_effects({"verb": "put_counters", "counter": "+1/+1", "target": "creature",
               "double": "yes"}), "double: expected true or false"),
    (_effects({"verb": "modify_pt", "power": 1, "target": "creature", "double": True}),
     "unknown field"),
    # rules changes this turn
    (_effects({"verb": "restrict_this_turn", "target": "creature",
               "restrictions": ["cant_blok"]}), "restrictions: expected some of"),
    (_effects({"verb": "restrict_this_turn", "target": "creature"}),
     "restrict_this_turn needs a 'restrictions'"),
    (_effects({"verb": "restrict_this_turn", "target": "creature",
               "restrictions": ["doesnt_untap"]}), "restrictions: expected some of"),
    (_effects({"verb": "restrict_this_turn", "restrictions": ["cant_block"]}),
     "'target' is required exactly when who is 'target'"),
    (_effects({"verb": "restrict_this_turn", "restrictions": ["cant_block"], "who": "self",
               "filter": {"types": ["Creature"]}}), "'filter' is given exactly"),
    (_effects({"verb": "restrict_this_turn", "target": "creature", "restrictions":
               ["cant_block"], "filter": {"types": ["Creature"]}}),
     "'filter' is given exactly"),
    (_effects({"verb": "restrict_this_turn", "who": "each_opponent",
               "restrictions": ["cant_block"]}),
     "restrict_this_turn acts on objects; 'each_opponent' names a player set"),
    # filters: "without [keyword]"
    (_effects({"verb": "restrict_this_turn", "restrictions": ["cant_block"],
               "who": {"each": {"types": ["Creature"], "lacks": "Flyng"}}}),
     "lacks: keyword 'Flyng'"),
    # "another target": a flag
    (_effects({"verb": "modify_pt", "power": 1, "target": {"kind": "permanent",
                                                         "other_target": 1}}),
     "other_target: expected true or false"),
    # permanents attached to the previous target
    (_effects({"verb": "deal_damage", "amount": 1, "target": "creature"},
              {"verb": "destroy", "who": "attached_to_that"}), "'filter' is given exactly"),
    (_effects({"verb": "deal_damage", "amount": 1, "target": "creature"},
              {"verb": "draw", "who": "attached_to_that",
               "filter": {"subtypes": ["Equipment"]}}), "'attached_to_that' names"),
    # new target kinds are enum members
    (_effects({"verb": "exile", "target": "card_in_any_graveyard"}),
     "unknown value 'card_in_any_graveyard'"),
    # cost reductions
    ({**_effects({"verb": "draw"}), "cost_reduction": {"generic": 1}}, "unknown field"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {}}, "either 'amount'"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {"amount": {
        "kind": "permanents", "measure": "total_power"}}}, "needs 'filter'"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {"amount": 0}},
     "amount: must be at least 1"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {"amount": 3, "if": "x"}},
     "unknown field"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {"amount": 3, "condition": "you_did"}},
     "about a resolving spell"),
    ({**_effects({"verb": "draw"}), "cost_reduction": {"amount": 3,
                                                       "condition": "gained_life"}},
     "unknown value 'gained_life'"),
])
def test_mistakes_are_load_errors(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_a_land_has_no_cost_reduction() -> None:
    with pytest.raises(CardDataError, match="a land isn't cast"):
        _load({"mana": ["U"], "cost_reduction": {"amount": 1}}, types=("Land",))


def test_well_formed_data_loads() -> None:
    _load(_effects({"verb": "counter", "target": "spell", "unless_pays": "{2}"}))
    _load(_effects({"verb": "tap", "target": "creature"},
                   {"verb": "doesnt_untap_next", "who": "that"}))
    _load(_effects({"verb": "restrict_this_turn", "target": "creature",
                    "restrictions": ["cant_block", "cant_attack"]}))
    _load(_effects({"verb": "restrict_this_turn", "restrictions": ["cant_block"],
                    "who": {"each": {"types": ["Creature"], "lacks": "Flying",
                                     "controller": "opponent"}}}))
    _load({**_effects({"verb": "draw"}),
           "cost_reduction": {"amount": {"kind": "permanents",
                                         "filter": {"subtypes": ["Shrine"]}}}})
    _load(_effects({"verb": "exile", "target": "card_in_graveyard"}))
    _load(_effects({"verb": "counter", "target": "ability"}))


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    miscast = narrow(CounterSpell, card("Miscast").effects[0])
    assert miscast.unless_pays == ManaCost(3)
    denial = [narrow(CounterSpell, e) for e in card("Lofty Denial").effects]
    assert [e.unless_pays for e in denial] == [ManaCost(1), ManaCost(4)]
    assert denial[1].who is ObjectRef.THAT
    breath = card("Frost Breath").effects
    assert narrow(DoesntUntapNext, breath[1]).who is ObjectRef.THAT
    indulgence = card("Sanguine Indulgence").cost_reduction
    assert indulgence is not None and indulgence.amount == Fixed(3)
    salvo = card("Volcanic Salvo").cost_reduction
    assert salvo is not None and isinstance(salvo.amount, Permanents)
    assert salvo.amount.measure is Measure.TOTAL_POWER
    mistake = card("Rookie Mistake").spell_targets()
    assert [t.other_target for t in mistake] == [False, True]
    tampering = narrow(RestrictThisTurn, card("Destructive Tampering").modes[1][0])
    assert tampering.restrictions == ("cant_block",)
    assert isinstance(tampering.who, Each) and tampering.who.filter.lacks == "Flying"
    assert tampering.who.filter.controller is Controller.ANY and tampering.filter is None
    assert card("Return to Nature").modes[2][0].target_req is not None
    assert card("Return to Nature").spell_targets((2,))[0].kind is \
        TargetKind.CARD_IN_GRAVEYARD
    assert narrow(PutCounters, card("Invigorating Surge").effects[1]).double
    slag = narrow(Destroy, card("Turn to Slag").effects[1])
    assert slag.who is ObjectRef.ATTACHED_TO_THAT and slag.filter is not None
    epiphany = card("Sublime Epiphany")
    assert (epiphany.mode_min, epiphany.mode_max) == (1, 5)
    assert epiphany.spell_targets((1,))[0].kind is TargetKind.ABILITY
