"""Load-time validation of the vocabulary added for the nineteenth M21 batch (Conspicuous
Snoop): the static fields ``cast_from_top`` ("You may cast [filter] spells from the top of
your library", 601.3) and ``abilities_of_top`` ("has all activated abilities of the top card
of your library as long as that card is [filter]", layer 6, 613.1f) -- each a filter of a
card's own characteristics."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.model import ObjectFilter
from tests.engine.helpers import load_one


def _load(static: dict[str, Any]) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "subtypes": ["Goblin"],
                           "manaCost": "{R}", "power": "1", "toughness": "1",
                           "text": "Something."}
    load_one(raw, {"statics": [{"text": "Something.", "affects": "self", **static}]},
             check_claims=True)


@pytest.mark.parametrize("field", ["cast_from_top", "abilities_of_top"])
@pytest.mark.parametrize(("value", "message"), [
    # about a card in your own library: nothing about a permanent, a spell or another player
    ({"subtypes": ["Goblin"], "controller": "opponent"}, "describes a card in your library"),
    ({"subtypes": ["Goblin"], "controller": "any"}, "describes a card in your library"),
    ({"subtypes": ["Goblin"], "attacking": True}, "describes a card in your library"),
    ({"subtypes": ["Goblin"], "untapped": True}, "describes a card in your library"),
    ({"subtypes": ["Goblin"], "other": True}, "describes a card in your library"),
    ({"subtypes": ["Goblin"], "cast_from": "hand"}, "describes a card in your library"),
    ({"max_mana_value": "X"}, "describes a card in your library"),
    # a filter that says something, spelt right
    ({}, "an empty filter"),
    ({"types": ["Goblin"]}, "unknown card type 'Goblin'"),
    ({"subtypes": ["goblin"]}, "capitalised subtypes"),
    ({"subtype": ["Goblin"]}, "unknown field"),
    ("Goblin", "expected a mapping|expected an object|mapping"),
])
def test_rejected(field: str, value: Any, message: str) -> None:
    with pytest.raises(CardDataError, match=message) as info:
        _load({field: value})
    assert field in str(info.value)  # the error names the field


def test_a_misspelt_field_is_rejected() -> None:
    with pytest.raises(CardDataError, match=r"unknown field.*cast_from_tops"):
        _load({"cast_from_tops": {"subtypes": ["Goblin"]}})


def test_conspicuous_snoop_is_data() -> None:
    snoop = card("Conspicuous Snoop")
    revealed, cast, abilities = snoop.statics
    assert revealed.restrictions == ("top_revealed",)
    assert cast.cast_from_top == ObjectFilter(subtypes=("Goblin",))
    assert cast.abilities_of_top is None
    assert abilities.abilities_of_top == ObjectFilter(subtypes=("Goblin",))
    assert abilities.cast_from_top is None
    assert not snoop.abilities  # its activated abilities are only ever granted ones
