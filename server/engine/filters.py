"""Object filters (:class:`ObjectFilter`): whether a permanent, a spell or an object that has
left its zone (by its last known information, 608.2h) fits a description, from a player's
point of view. Depends only on the game state, so zone changes, casting and the layers can all
ask it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, assert_never

from server.cards import CardDef
from server.cards.model import Controller, ObjectFilter
from server.engine.state import Game, GameObject, Zone

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_CONTROLLER_ANY: Final = Controller.ANY
_CONTROLLER_OPPONENT: Final = Controller.OPPONENT
_CONTROLLER_THAT_PLAYER: Final = Controller.THAT_PLAYER
_CONTROLLER_YOU: Final = Controller.YOU
_ZONE_HAND: Final = Zone.HAND

__all__ = ["LastKnown", "is_modified", "matches", "matches_last_known"]


@dataclass(frozen=True, slots=True)
class LastKnown:
    """An object that has left its zone, as it last existed there (rules 608.2h, 603.10a):
    its card, controller, id, counters and whether it was attacking -- and, for a permanent,
    whether it was a creature, its subtypes, power and toughness after the layers (an
    animated Riddleform died a creature; None: its card's)."""

    card: CardDef
    controller: int
    object_id: str
    counters: tuple[tuple[str, int], ...] = ()
    attacking: bool = False
    creature: bool | None = None
    subtypes: tuple[str, ...] | None = None
    power: int | None = None
    toughness: int | None = None


@dataclass(slots=True)
class _Facts:
    """What a filter asks of an object besides its kind and controller, read either from a
    live object (after the layers, rule 613) or from last known information (608.2h); None
    -- unknown (never matches).
    Made for one question and read only (not frozen: it is made for every object a filter
    looks at, and a frozen dataclass is several times slower to make)."""

    card: CardDef
    subtypes: tuple[str, ...]
    power: int | None
    toughness: int | None
    mana_value: int
    counters: dict[str, int]
    attacking: bool
    blocking: bool
    tapped: bool | None
    token: bool
    cast_from: Zone | None
    activated_turn: int | None
    #: Rule 700.9: a counter on it, equipped, or enchanted by an Aura its controller controls.
    modified: bool
    #: Whether it has a keyword ability (rule 613.1f).
    has: Callable[[str], bool]


def matches(game: Game, obj: GameObject, spec: ObjectFilter, you: int, source_id: str,
            *, that_player: int | None = None) -> bool:
    """Whether an object (a permanent, a spell or ability on the stack, or a card in a zone)
    fits a description (:class:`ObjectFilter`) from ``you``'s point of view, with its
    characteristics after the layers (rule 613). ``that_player``: "that player" of a
    triggered ability's event (rule 603.2), for :attr:`Controller.THAT_PLAYER`."""
    def has_type(card_type: str) -> bool:
        return _has_type(obj, card_type)

    if not _who_and_kind(game, spec, you, source_id, that_player=that_player,
                         controller=obj.controller, object_id=obj.id, has_type=has_type):
        return False  # most objects are ruled out here, before their other facts are read
    creature = obj.is_creature
    return _fits(game, spec, _Facts(
        subtypes=obj.subtypes, card=obj.card,
        power=obj.power if creature else None, toughness=obj.toughness if creature else None,
        mana_value=obj.mana_value, counters=obj.counters,
        attacking=obj.id in game.combat.attackers,  # rule 506.4
        blocking=obj.id in game.combat.blocking, tapped=obj.tapped, token=obj.is_token,
        cast_from=obj.cast_from, activated_turn=obj.activated_turn,
        modified=spec.modified and is_modified(game, obj), has=obj.has))


def is_modified(game: Game, obj: GameObject) -> bool:
    """Rule 700.9: it has a counter, is equipped, or is enchanted by an Aura its controller
    controls."""
    if any(n > 0 for n in obj.counters.values()):
        return True
    for oid in game.battlefield:
        other = game.objects[oid]
        if other.attached_to == obj.id and (
                other.card.is_equipment
                or (other.card.is_aura and other.controller == obj.controller)):
            return True
    return False


def matches_last_known(game: Game, last_known: LastKnown, spec: ObjectFilter,
                       you: int, source_id: str, *, that_player: int | None = None) -> bool:
    """:func:`matches` for an object that has left its zone, or a card in a hidden zone, by
    its last known information (rule 608.2h): its card's characteristics, its controller,
    counters and combat status as it last existed, its id. Whether it was blocking or cast
    from a zone isn't known here (a filter asking that doesn't match), nor whether it was
    tapped (not checked: a card in a zone is neither)."""
    card = last_known.card
    was_creature = last_known.creature

    def has_type(kind: str) -> bool:
        if kind == "Creature" and was_creature is not None:
            return was_creature  # (after layer 4, as it last existed)
        return card.is_type(kind)

    if not _who_and_kind(game, spec, you, source_id, that_player=that_player,
                         controller=last_known.controller, object_id=last_known.object_id,
                         has_type=has_type):
        return False
    creature = card.creature and card.power is not None
    subtypes = card.subtypes if last_known.subtypes is None else last_known.subtypes
    power = last_known.power if last_known.power is not None else \
        card.power if creature else None
    toughness = last_known.toughness if last_known.toughness is not None else \
        card.toughness if creature else None
    return _fits(game, spec, _Facts(
        card=card, subtypes=subtypes, power=power, toughness=toughness,
        mana_value=card.mana_cost.mana_value, counters=dict(last_known.counters),
        attacking=last_known.attacking, blocking=False, tapped=None, token=card.is_token,
        cast_from=None, activated_turn=None,
        modified=any(n > 0 for _, n in last_known.counters),  # rule 700.9
        has=card.has_keyword))


def _who_and_kind(game: Game, spec: ObjectFilter, you: int, source_id: str, *,
                  that_player: int | None, controller: int, object_id: str,
                  has_type: Callable[[str], bool]) -> bool:
    """The qualities of :class:`ObjectFilter` about what kind of object it is and whose: its
    card types (rule 205.2a), "other" and who controls it (102.2) -- read without gathering
    the object's other facts, and asked first, since they rule most objects out."""
    if spec.card_types and not any(has_type(t) for t in spec.card_types):
        return False
    if spec.not_types and any(has_type(t) for t in spec.not_types):
        return False
    if spec.other and object_id == source_id:
        return False
    control = spec.controller
    if control is _CONTROLLER_YOU:
        return controller == you
    if control is _CONTROLLER_OPPONENT:
        return controller in game.opponents(you)  # rule 102.2
    if control is _CONTROLLER_ANY:
        return True
    if control is _CONTROLLER_THAT_PLAYER:
        return that_player is not None and controller == that_player
    assert_never(control)


def _fits(game: Game, spec: ObjectFilter, facts: _Facts) -> bool:
    """The evaluator of :class:`ObjectFilter`'s other qualities, once
    :func:`_who_and_kind` holds: every stated quality holds."""
    has = facts.has
    card = facts.card
    return ((not spec.subtypes or bool(set(spec.subtypes) & set(facts.subtypes)))
            and not set(spec.not_subtypes) & set(facts.subtypes)  # rule 205.3
            and not (spec.nontoken and facts.token)
            and not (spec.token and not facts.token)  # rule 111.1
            and (not spec.supertypes or bool(set(spec.supertypes) & set(card.supertypes)))
            and (not spec.colors or bool(set(spec.colors) & set(card.colors)))
            and (not spec.colored or bool(card.colors))  # rule 105.2
            and (not spec.has or has(spec.has))
            and (not spec.lacks or not has(spec.lacks))
            and _within(facts.power, spec.min_power, spec.max_power)
            and _within(facts.toughness, spec.min_toughness, spec.max_toughness)
            and _within(facts.mana_value, spec.min_mana_value, spec.max_mana_value)
            and not (spec.untapped and facts.tapped is True)  # rule 110.5
            and not (spec.tapped and facts.tapped is False)
            and (not spec.attacking or facts.attacking)
            and (not spec.blocking or facts.blocking)  # rule 509.1g
            and (not spec.with_counter
                 or facts.counters.get(spec.with_counter, 0) >= spec.min_counters)
            and (not spec.cast_from or _cast_from(facts.cast_from, spec.cast_from))
            and not (spec.activated_this_turn  # rule 700.10
                     and facts.activated_turn != game.turn)
            and (not spec.modified or facts.modified))


def _within(value: int | None, low: int | None, high: int | None) -> bool:
    """A comparison "N or greater" / "N or less"; an unknown value (a noncreature's power)
    meets neither."""
    if low is None and high is None:
        return True
    return value is not None and (low is None or value >= low) and \
        (high is None or value <= high)


def _cast_from(zone: Zone | None, where: str) -> bool:
    """A spell cast from that zone (601.2a); "not_hand": from anywhere but its hand."""
    if zone is None:
        return False
    if where == "not_hand":
        return zone is not _ZONE_HAND
    return zone.name.lower() == where


def _has_type(obj: GameObject, card_type: str) -> bool:
    """A card type now (rule 205.2a); a creature by the layers (e.g. a crewed Vehicle)."""
    return obj.is_creature if card_type == "Creature" else (
        obj.card.is_type(card_type) or card_type in obj.types_added)
