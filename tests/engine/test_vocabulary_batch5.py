"""Load-time validation of the vocabulary added for the fifth M21 batch: conditional static
abilities ("as long as ...", rule 611.3b), the count "cards you've drawn this turn", the
static restrictions "cant_be_blocked" and "attacks_despite_defender", and "hexproof from
[quality]" (rule 702.11d)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Compare, Permanents, TurnFact, TurnFactKind, Whose
from server.cards.model import ObjectFilter
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], keywords: tuple[str, ...] = ()) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{G}",
                           "power": "1", "toughness": "1", "text": "As long as x, y."}
    if keywords:
        raw["keywords"] = list(keywords)
    load_one(raw, behaviour)


def _static(**fields: Any) -> dict[str, Any]:
    return {"statics": [{"text": "x", "affects": "self", "power": 2, **fields}]}


_DRAWN_AMOUNT = {"kind": "turn", "fact": "cards_drawn"}
_DRAWN = {"amount": _DRAWN_AMOUNT, "at_least": 2}
_POWER_4 = {"amount": {"kind": "permanents", "filter": {"types": ["Creature"], "min_power": 4}},
            "at_least": 1}


@pytest.mark.parametrize(("behaviour", "keywords", "message"), [
    (_static(condition="drawn_two"), (), "unknown value 'drawn_two'"),
    (_static(condition={"amount": {"kind": "turn", "fact": "cards_drawn_this_turn"},
                        "at_least": 2}), (), "unknown value 'cards_drawn_this_turn'"),
    (_static(condition={"amount": _DRAWN_AMOUNT}), (), "needs 'at_least' and/or 'at_most'"),
    (_static(condition={"amount": {**_DRAWN_AMOUNT, "filter": {"types": ["Creature"]}},
                        "at_least": 2}), (), "a turn fact's filter describes the spells"),
    # conditions only a resolving spell or ability can ask are not "as long as" conditions
    (_static(condition="you_did"), (), "about a resolving spell"),
    (_static(condition="won_clash"), (), "about a resolving spell"),
    (_static(restrictions=["cant_be_blockd"]), (), "unknown 'cant_be_blockd'"),
    (_static(conditon=_DRAWN), (), "unknown field"),
    # hexproof from [quality]
    ({}, ("Hexproof", "Hexproof from"), "needs 'hexproof_from'"),
    ({"hexproof_from": ["blue"]}, ("Hexproof", "Hexproof from"), "unknown quality 'blue'"),
    ({"hexproof_from": ["U"]}, (), "is for a card with 'Hexproof from'"),
])
def test_mistakes_are_load_errors(behaviour: dict[str, Any], keywords: tuple[str, ...],
                                  message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour, keywords)


def test_well_formed_data_loads() -> None:
    _load(_static(condition=_DRAWN, restrictions=["cant_be_blocked"]))
    _load(_static(condition=_POWER_4, restrictions=["attacks_despite_defender"]))
    _load({"hexproof_from": ["U", "multicolored"]}, ("Hexproof", "Hexproof from", "Reach"))


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    wurm = card("Predatory Wurm").statics[0].condition
    assert isinstance(wurm, Compare) and isinstance(wurm.amount, Permanents)
    assert wurm.amount.filter.subtypes == ("Garruk",)
    sage = card("Gnarled Sage").statics[0]
    assert sage.condition == Compare(TurnFact(TurnFactKind.CARDS_DRAWN, Whose.YOU), at_least=2)
    assert sage.keywords == ("Vigilance",)
    assert card("Tome Anima").statics[0].restrictions == ("cant_be_blocked",)
    assert card("Drowsing Tyrannodon").statics[0].condition == Compare(
        Permanents(ObjectFilter(card_types=("Creature",), min_power=4)), at_least=1)
    weaver = card("Sporeweb Weaver")
    assert weaver.hexproof_from == ("U",)
    # "Hexproof from blue" is not hexproof (rule 702.11d vs 702.11a).
    assert "Hexproof" not in weaver.keywords
    assert "Reach" in weaver.keywords
