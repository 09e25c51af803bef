"""The ten shipped demo decks (``server/cards/data/decks``) are built from the whole of Core Set
2021 (issue 13): together they play every supported M21 card, every colour and every mechanic
of the set (its MTGJSON keywords, card types and the subtypes that carry rules: Aura, Equipment,
Shrine); each is a legal constructed deck (rule 100.2a) whose lands make every colour it needs,
and a card that fetches a named card or needs a planeswalker type finds it in its own deck.

A deck file that loses a card, a colour or a mechanic fails here, naming what was lost.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from server.cards import CardDef, card, card_pool, demo_deck, demo_deck_names
from server.cards.sets import coverage, load_set
from server.decks import DeckFormat, resolve

COLOURS = ("W", "U", "B", "R", "G")
#: Supported M21 cards deliberately left out of every demo deck, each with its reason. Empty:
#: all of them are played. An entry must be a supported card that no deck plays.
LEFT_OUT: dict[str, str] = {}
#: Subtypes that carry rules of their own (303.4 Auras, 301.5 Equipment, the M21 Shrines).
RULES_SUBTYPES = ("Aura", "Equipment", "Shrine")
#: Mechanics that are neither keywords nor types, found in the Oracle text.
TEXT_MECHANICS = {"+1/+1 counters (122.1a)": "+1/+1 counter", "tokens (111.1)": "token",
                  "life gain (119.3)": "gain", "loyalty abilities (606)": "loyalty",
                  "discard (701.9)": "discard", "search (701.23)": "search your library",
                  "sacrifice (701.21)": "sacrifice"}


@cache
def _decks() -> dict[str, list[CardDef]]:
    return {name: demo_deck(name) for name in demo_deck_names()}


@cache
def _m21_supported() -> tuple[str, ...]:
    """The supported M21 card names other than basic lands."""
    return tuple(n for n in coverage(load_set("M21")).supported
                 if "Basic" not in card(n).supertypes)


def _raw(name: str) -> Mapping[str, Any]:
    return load_set("M21").first_printing(name)


def _colours_made(deck: list[CardDef]) -> set[str]:
    """The colours the deck's lands can make (basic land types and mana abilities)."""
    made: set[str] = set()
    for c in deck:
        if "Land" in c.card_types:
            for ability in c.mana_abilities:
                made.update(m for m in ability.split("|") if m in COLOURS)
    return made


def _gain_land_pair(c: CardDef) -> frozenset[str] | None:
    """The two colours of a gain land (enters tapped, gains 1 life, taps for either colour)."""
    if "Land" not in c.card_types or "gain 1 life" not in c.rules_text:
        return None
    colours = {m for ability in c.mana_abilities for m in ability.split("|")}
    return frozenset(colours) if len(colours) == 2 else None


def test_ten_demo_decks_each_a_legal_constructed_deck_rule_100_2a() -> None:
    assert len(_decks()) == 10
    for name, deck in _decks().items():
        # demo_deck enforces 60+ cards and four copies; the server's resolver agrees.
        assert len(deck) == 60, name
        resolved = resolve(name, DeckFormat.CONSTRUCTED)
        assert len(resolved.main) == 60 and not resolved.sideboard, name
        assert all(c.set_code == "M21" for c in deck), name  # the set's cards only


def test_every_supported_m21_card_is_in_a_demo_deck_or_left_out_for_a_reason() -> None:
    played = {c.name for deck in _decks().values() for c in deck}
    missing = sorted(set(_m21_supported()) - played - set(LEFT_OUT))
    assert not missing, f"supported M21 cards in no demo deck: {missing}"
    assert len(_m21_supported()) >= 279
    for name, reason in LEFT_OUT.items():
        assert name in _m21_supported() and name not in played and reason.strip(), name


def test_all_five_colours_each_deck_two_colours_or_its_gain_lands_and_lands_for_its_colours(
) -> None:
    """Rule 105.1: between them the decks play all five colours. Each deck is two colours, or
    plays the gain land of every pair of its colours (a three- or five-colour mosaic), and its
    lands make every colour its cards are (rule 106.1)."""
    seen: set[str] = set()
    for name, deck in _decks().items():
        colours = {x for c in deck for x in c.colors}
        seen |= colours
        assert len(colours) >= 2, f"{name}: {sorted(colours)}"
        assert colours <= _colours_made(deck), f"{name}: lands miss {colours - _colours_made(deck)}"
        pairs = {p for c in deck if (p := _gain_land_pair(c)) is not None}
        if len(colours) > 2:
            wanted = {frozenset((a, b)) for a in colours for b in colours if a < b}
            assert wanted <= pairs, f"{name}: no gain land for {wanted - pairs}"
        else:
            assert frozenset(colours) in pairs, f"{name}: no gain land of its colours"
    assert seen == set(COLOURS)


def _mechanics(name: str) -> set[str]:
    raw = _raw(name)
    found = {f"keyword {k}" for k in raw.get("keywords") or ()}
    found |= {f"type {t}" for t in raw.get("types") or ()}
    found |= {f"subtype {s}" for s in raw.get("subtypes") or () if s in RULES_SUBTYPES}
    text = str(raw.get("text") or "").casefold()
    found |= {m for m, marker in TEXT_MECHANICS.items() if marker in text}
    return found


def test_every_mechanic_of_the_set_is_played_by_a_demo_deck() -> None:
    """Every keyword (flying, lifelink, flash, prowess, fight, mill, scry...), card type
    (planeswalkers...), rules subtype and text mechanic of the set's supported cards."""
    in_set = {m for n in _m21_supported() for m in _mechanics(n)}
    played = {m for deck in _decks().values() for c in deck if c.name in _m21_supported()
              for m in _mechanics(c.name)}
    assert not in_set - played, f"mechanics no demo deck plays: {sorted(in_set - played)}"
    for expected in ("keyword Flying", "keyword Mill", "keyword Fight", "type Planeswalker",
                     "subtype Shrine", "subtype Equipment", "+1/+1 counters (122.1a)"):
        assert expected in in_set


@pytest.mark.parametrize("deck_name", sorted(demo_deck_names()))
def test_support_cards_find_their_planeswalker_or_named_card_in_their_own_deck(
    deck_name: str,
) -> None:
    """A card whose text names another card ("search ... for a card named Liliana, Death
    Mage") or a planeswalker type ("a Chandra planeswalker", rule 205.3j) shares its deck
    with that card or a planeswalker of that type."""
    deck = _decks()[deck_name]
    names = {c.name for c in deck}
    walker_types = {s for c in deck if "Planeswalker" in c.card_types for s in c.subtypes}
    all_walker_types = {s for c in card_pool().values() if "Planeswalker" in c.card_types
                        for s in c.subtypes}
    for c in deck:
        for other in _m21_supported():
            if other != c.name and f"named {other}" in c.rules_text:
                assert other in names, f"{c.name} names {other}, not in {deck_name}"
        for t in all_walker_types:
            if re.search(rf"\b{t} planeswalker", c.rules_text):
                assert t in walker_types, f"{c.name} needs a {t} planeswalker in {deck_name}"
