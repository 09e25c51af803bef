"""Load-time validation of the vocabulary added for the seventeenth M21 batch: "choose a card
name [other than a basic land card name]" (rules 201.4, 201.4a), a search for "cards with that
name", and "for each card exiled from their hand this way" (608.2c)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import ResolutionFact, ThisWay
from server.cards.model import Verb
from server.cards.verbs import ChooseCardName, CreateToken, Search
from tests.engine.helpers import load_one, narrow

_SEARCH = {"verb": "search", "target": "opponent", "zones": ["graveyard", "hand", "library"],
           "find": "chosen_name", "find_all": True, "destination": "exile", "shuffle": True}
_TOKEN = {"verb": "create_token", "who": "that",
          "amount": {"kind": "this_way", "fact": "found_from_hand"},
          "token": {"types": ["Creature"], "colors": ["B"], "subtypes": ["Zombie"],
                    "power": 2, "toughness": 2}}


def _load(*effects: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Sorcery"], "manaCost": "{1}{B}{B}",
                           "text": "Something."}
    load_one(raw, {"effects": list(effects)})


@pytest.mark.parametrize(("effects", "message"), [
    # "other than a [quality] card name": a stated card quality, spelt right
    (({"verb": "choose_card_name", "other_than": "basic_lands"}, _SEARCH),
     "expected a card quality"),
    (({"verb": "choose_card_name", "other_than": "chosen_name"}, _SEARCH),
     "expected a card quality"),
    (({"verb": "choose_card_name", "except": "basic_land"}, _SEARCH), "unknown field"),
    (({"verb": "choose_card_nam"}, _SEARCH), "unknown value 'choose_card_nam'"),
    # other_than belongs to choose_card_name only
    (({"verb": "choose_color", "other_than": "basic_land"},), "unknown field"),
    # "cards with that name": a name chosen earlier in the resolution
    ((_SEARCH,), "find 'chosen_name' follows a choose_card_name"),
    (({**_SEARCH, "find": "chosen_nam"},), "unknown quality 'chosen_nam'"),
    # "for each card exiled from their hand this way": after a search of a hand
    (({"verb": "choose_card_name"}, _TOKEN), "'found_from_hand' follows a search of a hand"),
    (({"verb": "choose_card_name"}, {**_SEARCH, "zones": ["graveyard", "library"]}, _TOKEN),
     "'found_from_hand' follows a search of a hand"),
    (({"verb": "choose_card_name"}, _SEARCH,
      {**_TOKEN, "amount": {"kind": "this_way", "fact": "found_from_hands"}}),
     "unknown value 'found_from_hands'"),
])
def test_rejected(effects: tuple[dict[str, Any], ...], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(*effects)


def test_accepted() -> None:
    _load({"verb": "choose_card_name", "other_than": "basic_land"}, _SEARCH, _TOKEN)
    _load({"verb": "choose_card_name"}, _SEARCH)


def test_necromentia_is_data() -> None:
    effects = card("Necromentia").effects
    assert [e.verb for e in effects] == [Verb.CHOOSE_CARD_NAME, Verb.SEARCH, Verb.CREATE_TOKEN]
    assert narrow(ChooseCardName, effects[0]).other_than == "basic_land"
    search = narrow(Search, effects[1])
    assert search.find == "chosen_name" and search.zones == ("graveyard", "hand", "library")
    assert narrow(CreateToken, effects[2]).amount == ThisWay(ResolutionFact.FOUND_FROM_HAND)


def _load_card(behaviour: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Enchantment"], "manaCost": "{W}",
                           "text": "Something."}
    load_one(raw, behaviour)


_SHRINES = {"subtypes": ["Shrine"], "other": True}


@pytest.mark.parametrize(("behaviour", "message"), [
    # "triggers an additional time" (603.2d): a filter of permanents, an optional condition
    ({"extra_triggers": {}}, "the filter required"),
    ({"extra_triggers": {"filter": _SHRINES, "when": "six"}}, "the filter required"),
    ({"extra_triggers": {"filter": {"subtype": ["Shrine"]}}}, "unknown field"),
    ({"extra_triggers": {"filter": _SHRINES, "condition": "six_shrines"}}, "unknown value"),
    ({"extra_trigger": {"filter": _SHRINES}}, "unknown field"),
    # a search's filter: "a Shrine card", spelt right
    ({"triggers": [{"text": "x", "when": "step", "step": "upkeep", "effects": [
        {"verb": "search", "zones": ["library"], "destination": "battlefield",
         "filter": {"subtypes": "Shrine", "colour": "W"}}]}]}, "unknown field|expected"),
])
def test_rejected_card(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load_card(behaviour)


def test_sanctum_of_all_is_data() -> None:
    sanctum = card("Sanctum of All")
    assert sanctum.extra_triggers is not None
    assert sanctum.extra_triggers.filter.subtypes == ("Shrine",)
    assert sanctum.extra_triggers.filter.other
    search = narrow(Search, sanctum.triggers[0].effects[0])
    assert search.verb is Verb.SEARCH and search.filter is not None and search.optional
