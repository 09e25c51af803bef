"""Coded effects: the odd card text the data vocabulary can't express (see
``server.cards.model.CODED_EFFECTS``). Each takes the resolving object, the effect and the
players it names, and performs it like any other effect (rule 608.2c)."""

from __future__ import annotations

from collections.abc import Callable

from server.cards.verbs import Effect
from server.engine import counting, madness, planar
from server.engine.events import Event
from server.engine.state import Game, GameObject
from server.engine.zones import draw

CodedEffect = Callable[[Game, GameObject, Effect, list[int], list[Event]], None]


def _draw_per_named_card_in_graveyard(game: Game, obj: GameObject, effect: Effect,
                                      players: list[int], events: list[Event]) -> None:
    """Frantic Inventory: "then draw cards equal to the number of cards named [this] in your
    graveyard" -- counted as this part of the effect is performed (608.2c), before the spell
    itself goes to the graveyard (608.2n)."""
    for seat in players:
        count = sum(1 for oid in game.player(seat).graveyard
                    if game.objects[oid].card.name == obj.card.name)
        for _ in range(count):
            draw(game, seat, events)


CODED: dict[str, CodedEffect] = {
    "draw_per_named_card_in_graveyard": _draw_per_named_card_in_graveyard,
    # Planechase (rule 901)
    "planeswalk": planar.coded_planeswalk,
    "flame_counter_then_damage_you": planar.coded_flame_counter_then_damage_you,
    "draw_per_land_you_control": planar.coded_draw_per_land_you_control,
    "sacrifice_nonblack_creature": planar.coded_sacrifice_nonblack_creature,
    # Stick Together (rule 700.8d)
    "choose_party_sacrifice_rest": counting.start_choosing_parties,
    # Madness (rule 702.35): its trigger; "the discarded card" (400.7j, 400.7k)
    "madness": madness.coded_madness,
    "discarded_card_to_library_bottom": madness.coded_discarded_card_to_library_bottom,
}
