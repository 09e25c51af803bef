"""Rule 701.23b: "search ... for a card named [name]" finds exactly cards with that English
name (rule 201.2). The named planeswalkers of M21's "search for" cards aren't supported cards
yet, so a stand-in definition carries the name."""

from __future__ import annotations

import dataclasses

from server.cards import card
from server.cards.verbs import Search
from server.engine import Zone
from server.engine.looking import start_search
from server.engine.state import DecisionKind
from server.engine.zones import create_object
from tests.engine.helpers import demo_game, load_one, narrow

NAME = "Chandra, Flame's Catalyst"


def _search_effect() -> Search:  # the Firemaw's enters trigger: library and/or graveyard, to hand
    return narrow(Search, card("Chandra's Firemaw").triggers[0].effects[0])


def test_701_23b_named_search_of_the_library_offers_only_the_named_card() -> None:
    game = demo_game()
    seat = game.active
    stand_in = dataclasses.replace(card("Walking Corpse"), name=NAME)
    wanted = create_object(game, stand_in, seat, Zone.LIBRARY)
    other = create_object(game, card("Walking Corpse"), seat, Zone.LIBRARY)
    start_search(game, seat, seat, _search_effect(), amount=1, named="", events=[])
    choice = game.choices[-1]
    assert choice.kind is DecisionKind.SEARCH
    assert wanted.id in choice.pool and other.id not in choice.pool
    assert choice.minimum == 0  # a stated quality may fail to find it (701.23b)


def test_701_23b_named_search_finds_the_named_card_in_the_graveyard() -> None:
    game = demo_game()
    seat = game.active
    stand_in = dataclasses.replace(card("Walking Corpse"), name=NAME)
    wanted = create_object(game, stand_in, seat, Zone.GRAVEYARD)
    create_object(game, card("Walking Corpse"), seat, Zone.GRAVEYARD)
    # "Search your library and graveyard" (not "and/or": both zones are searched).
    both = dataclasses.replace(_search_effect(), and_or=False)
    start_search(game, seat, seat, both, amount=1, named="", events=[])
    choice = game.choices[-1]
    # In a public zone every match is found (701.23b): it is picked, and nothing more is
    # wanted from the library.
    assert choice.kind is DecisionKind.SEARCH
    assert choice.picked == [wanted.id] and choice.count == 0


def test_608_2d_and_or_search_of_both_zones_finds_either_copy() -> None:
    """"Search your library and/or graveyard for a card named ...", both zones chosen: the
    copy found may be the library's or the graveyard's (608.2d)."""
    game = demo_game()
    seat = game.active
    stand_in = dataclasses.replace(card("Walking Corpse"), name=NAME)
    in_graveyard = create_object(game, stand_in, seat, Zone.GRAVEYARD)
    in_library = create_object(game, stand_in, seat, Zone.LIBRARY)
    start_search(game, seat, seat, _search_effect(), amount=1, named="", events=[],
                 zones_chosen=True)
    choice = game.choices[-1]
    assert choice.kind is DecisionKind.SEARCH
    assert {in_graveyard.id, in_library.id} <= set(choice.pool)
    assert choice.picked == [] and choice.count == 1 and choice.minimum == 0


def _load(behaviour: dict[str, object]) -> None:

    raw = {"name": "Witch's Cauldron", "manaCost": "{B}", "types": ["Artifact"],
           "text": "{1}{B}, {T}, Sacrifice a creature: You gain 1 life and draw a card."}
    load_one(raw, behaviour)


def test_additional_costs_and_named_searches_are_validated_at_load() -> None:
    import pytest

    from server.cards import CardDataError
    ability = {"text": "", "cost": "{1}{B}", "tap": True,
               "effects": [{"verb": "draw", "amount": 1}]}
    _load({"abilities": [{**ability, "additional_cost": "sacrifice_creature"}]})
    for bad in ("sacrifice_artifact", {"kind": "discard_card", "other": True},
                {"kind": "sacrifice_creature", "has": "Flyng"}):
        with pytest.raises(CardDataError):
            _load({"abilities": [{**ability, "additional_cost": bad}]})
    search = {"verb": "search", "zones": ["library"], "destination": "hand", "find": "named"}
    with pytest.raises(CardDataError, match="name"):
        _load({"abilities": [{**ability, "effects": [search]}]})
    _load({"abilities": [{**ability, "effects": [{**search, "name": "Shock"}]}]})
