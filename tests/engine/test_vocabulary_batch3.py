"""Load-time validation of the vocabulary added for the third M21 batch: counts of permanents
matching a filter, the creature that fights or deals damage ("by"), "If you do"."""

from __future__ import annotations

import json

import pytest

from server.cards import CardDataError, load_pool
from server.cards.amounts import Permanents
from server.cards.model import Condition, Controller, ObjectRef, TriggerEvent, TriggerStep
from server.cards.verbs import Fight, LoseLife
from tests.engine.helpers import narrow

_SET = {"data": {"cards": [{"name": "T", "types": ["Sorcery"], "manaCost": "{G}",
                            "text": "Target creature you control fights target creature."}]}}


def _load(effects: list[dict[str, object]]) -> None:
    load_pool(json.dumps(_SET), json.dumps({"T": {"effects": effects}}), check_claims=False)


@pytest.mark.parametrize(("effects", "message"), [
    ([{"verb": "gain_life", "amount": {"kind": "permanents"}}], "needs 'filter'"),
    ([{"verb": "gain_life", "filter": {"subtypes": ["Shrine"]}}], "'filter' is given exactly"),
    ([{"verb": "gain_life", "amount": {"kind": "permanents", "filter": {"types": ["Shrine"]}}}],
     "unknown card type"),
    ([{"verb": "gain_life", "amount": {"kind": "permanents", "filter": {"has": "Flyng"}}}],
     "'Flyng' is not supported"),
    ([{"verb": "gain_life", "amount": {"kind": "permanents", "filter": {"controller": "me"}}}],
     "unknown value 'me'"),
    ([{"verb": "gain_life", "amount": {"kind": "shrines"}}], "unknown amount kind 'shrines'"),
    ([{"verb": "fight", "target": "creature"}], "required for fight"),
    ([{"verb": "fight", "by": "that"}], "'target' is required exactly when who is 'target'"),
    ([{"verb": "fight", "by": "chosen", "target": "creature"}], "expected 'self'"),
    ([{"verb": "deal_damage", "by": "that", "amount": 2, "target": "creature"}],
     "power \\(rule 120.3\\): no 'amount'"),
    ([{"verb": "draw", "by": "that"}], "unknown field"),
])
def test_mistakes_are_load_errors(effects: list[dict[str, object]], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(effects)


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    from server.cards import card

    stone = card("Sanctum of Stone Fangs").triggers[0]
    assert (stone.event, stone.step, stone.whose) == (
        TriggerEvent.STEP, TriggerStep.PRECOMBAT_MAIN, Controller.YOU)
    drain = narrow(LoseLife, stone.effects[0])
    assert isinstance(drain.amount, Permanents)
    assert drain.amount.filter.subtypes == ("Shrine",)
    assert drain.amount.filter.controller is Controller.YOU
    might = card("Primal Might").effects
    assert narrow(Fight, might[1]).by is ObjectRef.THAT
    assert card("Vito, Thorn of the Dusk Rose").triggers[0].event is TriggerEvent.GAIN_LIFE
    assert card("Sanctum of Calm Waters").triggers[0].effects[1].condition is Condition.YOU_DID
