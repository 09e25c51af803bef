"""Load-time validation of the vocabulary added for the fifth M21 batch: conditional static
abilities ("as long as ...", rule 611.3b), the count "cards you've drawn this turn", the
static restrictions "cant_be_blocked" and "attacks_despite_defender", and "hexproof from
[quality]" (rule 702.11d)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.model import Condition, Count, CountCondition
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], keywords: tuple[str, ...] = ()) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{G}",
                           "power": "1", "toughness": "1", "text": "As long as x, y."}
    if keywords:
        raw["keywords"] = list(keywords)
    load_one(raw, behaviour)


def _static(**fields: Any) -> dict[str, Any]:
    return {"statics": [{"text": "x", "affects": "self", "power": 2, **fields}]}


_DRAWN = {"count": "cards_drawn_this_turn", "at_least": 2}


@pytest.mark.parametrize(("behaviour", "keywords", "message"), [
    (_static(condition="drawn_two"), (), "unknown value 'drawn_two'"),
    (_static(condition={"count": "cards_drawn", "at_least": 2}), (), "unknown value"),
    (_static(condition={"count": "cards_drawn_this_turn"}), (),
     "needs 'at_least' and/or 'at_most'"),
    (_static(condition={"count": "cards_drawn_this_turn", "at_least": 2,
                        "filter": {"types": ["Creature"]}}), (), "'filter' is given exactly"),
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
    _load(_static(condition="control_power_4", restrictions=["attacks_despite_defender"]))
    _load({"hexproof_from": ["U", "multicolored"]}, ("Hexproof", "Hexproof from", "Reach"))


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    wurm = card("Predatory Wurm").statics[0].condition
    assert isinstance(wurm, CountCondition)
    assert wurm.filter is not None
    assert wurm.filter.subtypes == ("Garruk",)
    sage = card("Gnarled Sage").statics[0]
    assert isinstance(sage.condition, CountCondition)
    assert sage.condition.count is Count.CARDS_DRAWN_THIS_TURN
    assert sage.keywords == ("Vigilance",)
    assert card("Tome Anima").statics[0].restrictions == ("cant_be_blocked",)
    assert card("Drowsing Tyrannodon").statics[0].condition is Condition.CONTROL_POWER_4
    weaver = card("Sporeweb Weaver")
    assert weaver.hexproof_from == ("U",)
    # "Hexproof from blue" is not hexproof (rule 702.11d vs 702.11a).
    assert "Hexproof" not in weaver.keywords
    assert "Reach" in weaver.keywords
