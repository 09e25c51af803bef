"""Object filters (:class:`ObjectFilter`): whether a permanent, a spell or an object that has
left its zone (by its last known information, 608.2h) fits a description, from a player's
point of view. Depends only on the game state, so zone changes, casting and the layers can all
ask it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from server.cards import CardDef
from server.cards.model import Controller, ObjectFilter
from server.engine.state import Game, GameObject, Zone

__all__ = ["LastKnown", "matches", "matches_last_known"]


@dataclass(frozen=True, slots=True)
class LastKnown:
    """An object that has left its zone, as it last existed there (rules 608.2h, 603.10a):
    its card, controller, id, counters and whether it was attacking."""

    card: CardDef
    controller: int
    object_id: str
    counters: tuple[tuple[str, int], ...] = ()
    attacking: bool = False


def matches(game: Game, obj: GameObject, spec: ObjectFilter, you: int, source_id: str) -> bool:
    """Whether an object (a permanent, or a spell on the stack) fits a description
    (:class:`ObjectFilter`) from ``you``'s point of view, with its characteristics after the
    layers (rule 613)."""
    control = spec.controller
    if control is Controller.YOU:
        mine = obj.controller == you
    elif control is Controller.OPPONENT:
        mine = obj.controller in game.opponents(you)
    elif control is Controller.ANY:
        mine = True
    else:
        assert_never(control)
    return (mine and not (spec.other and obj.id == source_id)
            and (not spec.card_types or any(_has_type(obj, t) for t in spec.card_types))
            and not any(_has_type(obj, t) for t in spec.not_types)
            and (not spec.subtypes or bool(set(spec.subtypes) & set(obj.subtypes)))
            and not set(spec.not_subtypes) & set(obj.subtypes)
            and not (spec.nontoken and obj.is_token)
            and (not spec.supertypes or bool(set(spec.supertypes) & set(obj.card.supertypes)))
            and not (spec.untapped and obj.tapped)
            and (not spec.has or obj.has(spec.has))
            and (not spec.lacks or not obj.has(spec.lacks))
            and (spec.min_power is None or (obj.is_creature and obj.power >= spec.min_power))
            and (spec.max_power is None or (obj.is_creature and obj.power <= spec.max_power))
            and (not spec.attacking or obj.id in game.combat.attackers)  # rule 506.4
            and (not spec.with_counter or obj.counters.get(spec.with_counter, 0) > 0)
            and (not spec.colored or bool(obj.card.colors))  # rule 105.2
            and (not spec.cast_from or _cast_from(obj, spec.cast_from))
            and (spec.max_mana_value is None or obj.mana_value <= spec.max_mana_value)
            and (not spec.colors or bool(set(spec.colors) & set(obj.card.colors))))


def _cast_from(obj: GameObject, where: str) -> bool:
    """A spell cast from that zone (601.2a); "not_hand": from anywhere but its hand."""
    if obj.cast_from is None:
        return False
    if where == "not_hand":
        return obj.cast_from is not Zone.HAND
    return obj.cast_from.name.lower() == where


def matches_last_known(game: Game, last_known: LastKnown, spec: ObjectFilter,
                       you: int, source_id: str) -> bool:
    """:func:`matches` for an object that has left its zone, by its last known information
    (rule 608.2h): its card's characteristics, its controller, counters and combat status as
    it last existed, its id."""
    card, controller, object_id = last_known.card, last_known.controller, last_known.object_id
    counters = dict(last_known.counters)
    control = spec.controller
    if control is Controller.YOU:
        mine = controller == you
    elif control is Controller.OPPONENT:
        mine = controller in game.opponents(you)
    elif control is Controller.ANY:
        mine = True
    else:
        assert_never(control)
    return (mine and not (spec.other and object_id == source_id)
            and (not spec.card_types or any(card.is_type(t) for t in spec.card_types))
            and not any(card.is_type(t) for t in spec.not_types)
            and (not spec.subtypes or bool(set(spec.subtypes) & set(card.subtypes)))
            and not set(spec.not_subtypes) & set(card.subtypes)
            and not (spec.nontoken and card.is_token)
            and (not spec.supertypes or bool(set(spec.supertypes) & set(card.supertypes)))
            and (not spec.has or card.has_keyword(spec.has))
            and (not spec.lacks or not card.has_keyword(spec.lacks))
            and (spec.min_power is None or (card.creature and card.power is not None
                                            and card.power >= spec.min_power))
            and (spec.max_power is None or (card.creature and card.power is not None
                                            and card.power <= spec.max_power))
            and (not spec.attacking or last_known.attacking)
            and (not spec.with_counter or counters.get(spec.with_counter, 0) > 0)
            and (not spec.colored or bool(card.colors))
            and not spec.cast_from  # where a spell was cast from isn't known here
            and (spec.max_mana_value is None
                 or card.mana_cost.mana_value <= spec.max_mana_value)
            and (not spec.colors or bool(set(spec.colors) & set(card.colors))))


def _has_type(obj: GameObject, card_type: str) -> bool:
    """A card type now (rule 205.2a); a creature by the layers (e.g. a crewed Vehicle)."""
    return obj.is_creature if card_type == "Creature" else (
        obj.card.is_type(card_type) or card_type in obj.types_added)
