"""Load-time validation of the vocabulary added for the seventh M21 batch: target
restrictions "with a [kind] counter on it" (rule 122.1), "target Bird, Cat, ... or Snake" (one
of several subtypes, rule 205.3), "target planeswalker" (rule 306) and protection from a card
type (rule 702.16a)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.model import Controller, TargetKind
from server.engine.targeting import quality_of
from tests.engine.helpers import load_one


def _load(target: Any) -> None:
    raw: dict[str, Any] = {"name": "T", "types": ["Creature"], "manaCost": "{G}",
                           "power": "1", "toughness": "1", "text": "{1}: x."}
    behaviour = {"abilities": [{"text": "{1}: x.", "cost": "{1}", "effects": [
        {"verb": "put_counters", "counter": "+1/+1", "target": target}]}]}
    load_one(raw, behaviour)


@pytest.mark.parametrize(("target", "message"), [
    ({"kind": "permanent", "filter": {"with_counter": "+1/+2"}}, "with_counter"),
    ({"kind": "permanent", "filter": {"with_counter": 1}}, "with_counter"),
    ({"kind": "permanent", "filter": {"subtypes": "Cat"}}, "expected a list"),
    ({"kind": "permanent", "filter": {"subtypes": ["cat"]}}, "unknown subtype 'cat'"),
    ({"kind": "permanent", "filter": {"subtype": ["Cat"]}}, "unknown field"),
    ("planeswalkers", "unknown value 'planeswalkers'"),
])
def test_mistakes_are_load_errors(target: Any, message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(target)


def test_well_formed_data_loads() -> None:
    _load({"kind": "permanent", "filter": {"types": ["Creature"], "with_counter": "+1/+1"}})
    _load({"kind": "permanent", "filter": {"subtypes": ["Bird", "Ox"]}})
    _load("planeswalker")


def test_the_m21_cards_load_into_the_new_vocabulary() -> None:
    veteran = card("Tempered Veteran").abilities[0].targets[0]
    assert veteran.filter.with_counter == "+1/+1"
    sanctuary = card("Animal Sanctuary")
    assert sanctuary.mana_abilities == ("C",)
    assert sanctuary.abilities[0].targets[0].filter.subtypes == (
        "Bird", "Cat", "Dog", "Goat", "Ox", "Snake")
    masticore = card("Sparkhunter Masticore")
    walker = masticore.abilities[0].targets[0]
    assert (walker.kind, walker.filter.card_types) == (TargetKind.PERMANENT, ("Planeswalker",))
    assert masticore.protection == ("Planeswalker",)
    assert quality_of(card("Basri Ket"), "Planeswalker")
    assert not quality_of(card("Tempered Veteran"), "Planeswalker")


def _load_aura(behaviour: dict[str, Any], subtypes: list[str]) -> None:
    raw: dict[str, Any] = {"name": "A", "types": ["Enchantment"], "subtypes": subtypes,
                           "manaCost": "{G}", "text": "Enchant creature you control"}
    load_one(raw, behaviour)


def test_enchant_you_control_is_validated() -> None:
    with pytest.raises(CardDataError, match="enchant_you_control: expected true or false"):
        _load_aura({"enchant": "creature", "enchant_you_control": "yes"}, ["Aura"])
    _load_aura({"enchant": "creature", "enchant_you_control": True}, ["Aura"])
    training = card("Setessan Training")
    assert training.enchant is not None and training.enchant.controller is Controller.YOU
    assert training.spell_targets()[0].filter.controller is Controller.YOU
