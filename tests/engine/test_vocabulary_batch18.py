"""Load-time validation of the vocabulary added for the eighteenth M21 batch: restricted mana
(rule 106.6) -- "Spend this mana only to cast an instant or sorcery spell" as ``mana_only_for``,
the card types of the spells a source's mana may pay for -- and the engine's helpers for it."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.engine.mana import usable
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], subtypes: tuple[str, ...] = ()) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "subtypes": list(subtypes),
                           "manaCost": "{1}{U}", "power": "1", "toughness": "1",
                           "text": "Something."}
    load_one(raw, behaviour)


@pytest.mark.parametrize(("behaviour", "subtypes", "message"), [
    # card types of spells, spelt right
    ({"mana": ["C"], "mana_only_for": ["Instants"]}, (), "expected spell card types"),
    ({"mana": ["C"], "mana_only_for": ["Land"]}, (), "expected spell card types"),
    ({"mana": ["C"], "mana_only_for": []}, (), "expected spell card types"),
    ({"mana": ["C"], "mana_only_for": "Instant"}, (), "expected a list"),
    ({"mana": ["C"], "mana_only_fr": ["Instant"]}, (), "unknown field|mana_only_fr"),
    # only for a card with mana abilities of its own (not a basic land type's, 305.6)
    ({"enters_tapped": True, "mana_only_for": ["Instant"]}, (),
     "for a card with its own mana abilities"),
    ({"mana": ["C"], "mana_only_for": ["Instant"]}, ("Island",),
     "for a card with its own mana abilities"),
])
def test_rejected(behaviour: dict[str, Any], subtypes: tuple[str, ...], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour, subtypes)


def test_vodalian_arcanist_is_data() -> None:
    arcanist = card("Vodalian Arcanist")
    assert arcanist.mana_abilities == ("C",)
    assert arcanist.mana_only_for == ("Instant", "Sorcery")


def test_restricted_mana_pays_only_spells_of_its_types() -> None:
    restriction = ("Instant", "Sorcery")
    assert usable(restriction, card("Opt"))
    assert usable(restriction, card("See the Truth"))
    assert not usable(restriction, card("Jeskai Elder"))
    assert not usable(restriction, None)  # an ability's cost, an "unless" payment
    assert usable((), None)  # unrestricted mana pays anything
