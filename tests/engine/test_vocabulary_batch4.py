"""Load-time validation of the vocabulary added for the fourth M21 batch: conditions as count
comparisons over a filter of permanents, "whenever [filter] casts a [filter] spell",
"whenever [this] is dealt damage" and "whenever [this] deals combat damage to a player"."""

from __future__ import annotations

import json

import pytest

from server.cards import CardDataError, card, load_pool
from server.cards.amounts import Compare, Permanents
from server.cards.model import Controller, DamageKind, Recipient, TriggerEvent, TriggerSubject

_SET = {"data": {"cards": [{"name": "T", "types": ["Creature"], "manaCost": "{G}",
                            "power": "1", "toughness": "1",
                            "text": "Whenever you cast a Dog spell, draw a card."}]}}


def _load(trigger: dict[str, object]) -> None:
    ability = {"text": "x", "effects": [{"verb": "draw"}], **trigger}
    load_pool(json.dumps(_SET), json.dumps({"T": {"triggers": [ability]}}), check_claims=False)


_BASRI = {"types": ["Planeswalker"], "subtypes": ["Basri"]}
_BASRI_COUNT = {"kind": "permanents", "filter": _BASRI}


@pytest.mark.parametrize(("trigger", "message"), [
    # conditions as comparisons of amounts
    ({"when": "attacks", "condition": {"amount": {"kind": "permanents"}, "at_least": 1}},
     "an amount of kind 'permanents' needs 'filter'"),
    ({"when": "attacks", "condition": {"amount": {"kind": "party", "filter": _BASRI},
                                       "at_least": 1}},
     "an amount of kind 'party' takes no \\['filter'\\]"),
    ({"when": "attacks", "condition": {"amount": _BASRI_COUNT}},
     "needs 'at_least' and/or 'at_most'"),
    ({"when": "attacks", "condition": {"at_least": 1}}, "needs the 'amount' it compares"),
    ({"when": "attacks", "condition": {"amount": _BASRI_COUNT, "at_least": 3, "at_most": 1}},
     "more than 'at_most'"),
    ({"when": "attacks", "condition": {"amount": _BASRI_COUNT, "at_least": -1}},
     "non-negative integer"),
    ({"when": "attacks", "condition": {"amount": _BASRI_COUNT, "atleast": 1}},
     "unknown field"),
    ({"when": "attacks", "condition": {"amount": {"kind": "permanents", "filter": {
        "types": ["Planeswalkr"]}}, "at_least": 1}}, "unknown card type"),
    ({"when": "attacks", "condition": {"amount": {"kind": "basri"}, "at_least": 1}},
     "unknown amount kind 'basri'"),
    ({"when": "attacks", "condition": {"amount": "basri", "at_least": 1}},
     "expected an amount"),
    ({"when": "attacks", "condition": {"amount": {"kind": "permanents", "filter": _BASRI,
                                                  "measure": "sum"}, "at_least": 1}},
     "unknown value 'sum'"),
    ({"when": "attacks", "condition": "control_basri"}, "unknown value 'control_basri'"),
    # spell-cast triggers need the spell's filter, and only they may have one
    ({"when": "cast"}, "'cast' needs a 'filter'"),
    # "attacks" takes a filter only with a count: "this and at least N other [filter]
    # creatures attack" (batch 9).
    ({"when": "attacks", "filter": {"subtypes": ["Dog"]}}, "needs both 'filter'"),
    ({"when": "cast", "filter": {"subtypes": ["dog"]}}, "capitalised subtypes"),
    ({"when": "cast", "filter": {"controller": "each"}}, "unknown value 'each'"),
    ({"when": "is_dealt_damage"}, "unknown value 'is_dealt_damage'"),
])
def test_mistakes_are_load_errors(trigger: dict[str, object], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(trigger)


def test_well_formed_data_loads() -> None:
    _load({"when": "cast", "filter": {"subtypes": ["Dog"]},
           "condition": {"amount": _BASRI_COUNT, "at_most": 0}})


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    hope = card("Adherent of Hope").triggers[0]
    assert isinstance(hope.condition, Compare)
    assert isinstance(hope.condition.amount, Permanents)
    assert hope.condition.amount.filter.subtypes == ("Basri",)
    assert hope.condition.at_least == 1
    rin = card("Rin and Seri, Inseparable").triggers
    assert [t.event for t in rin] == [TriggerEvent.CAST] * 2
    assert rin[0].filter is not None
    assert rin[0].filter.controller is Controller.YOU
    assert card("Brash Taunter").triggers[0].event is TriggerEvent.DEALT_DAMAGE
    elder = card("Jeskai Elder").triggers[0]
    assert (elder.event, elder.subject, elder.damage, elder.recipient) == (
        TriggerEvent.DEALS_DAMAGE, TriggerSubject.THIS, DamageKind.COMBAT, Recipient.PLAYER)
