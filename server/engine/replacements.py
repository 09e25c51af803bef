"""Replacement effects (rule 614): registered in one place, consulted by the event they modify.

Two sources of replacement effects, both looked up here rather than by the functions that
perform the events:

- **Registered** ones: a resolved spell or ability, or a rule, created the effect for a
  particular object -- ``game.replacements`` holds one small frozen record each
  (:data:`Registered`), added with :func:`register`:

  - :class:`ExileInstead` -- "if that spell would be put into your graveyard [this turn],
    exile it instead" (614.1a, 400.7h);
  - :class:`FlashbackExile` -- a spell cast with flashback is exiled instead of going
    anywhere else as it leaves the stack (702.34a, 400.7g);
  - :class:`ExileIfDies` -- "if it would die this turn, exile it instead" (614.1a);
  - the prevention effects (615.1) of resolved spells and abilities, all "this turn":
    :class:`CombatDamagePrevented` -- "prevent all combat damage that would be dealt this
    turn [to filter]" -- and :class:`DamageFromPrevented` -- "prevent all damage [source]
    would deal this turn"; consulted as the damage would be dealt (:func:`prevented`).

- **Static** ones: a permanent's static ability (:class:`~server.cards.model.Replacement`
  in its card data) applies while it is on the battlefield (614.1, 614.12);
  :func:`statics` finds those that modify one kind of event (:class:`Modified`, the one
  exhaustive dispatch over :class:`~server.cards.model.ReplacementKind`), and the madness
  keyword's "exiles it instead" (702.35a) is :func:`discarded_to`.

Consulted by: :func:`server.engine.zones.move` (:func:`zone_change`), the "dies"
replacements (:func:`exiles_if_dies`), prevention as damage would be dealt
(:func:`prevented`), draws (:data:`Modified.DRAW`), counters (:data:`Modified.COUNTERS`),
damage (:data:`Modified.DAMAGE`, :data:`Modified.DAMAGE_TO_YOU`) and discards
(:func:`discarded_to`). Rule 616.1: each applies at most once to an event, in the order
given here (static ones in battlefield order) where the order can't change the result
(exiles, multiplied damage, added counters and draws commute). Where it can, the affected
player (or the affected object's controller) chooses, a ``CHOOSE_REPLACEMENT`` decision in
APNAP order (616.1, 101.4): which of the "dies" replacements applies to a permanent that
would die (:func:`server.engine.zones.death_options`; regeneration is no choice: it applies
after whichever was chosen, the permanent still being destroyed, 616.1f), and which
prevention effect prevents damage to a player when one of them does more, such as Nine
Lives' counter (:func:`server.engine.zones.damage_to_player_preventions`). No effect here
is one that 616.1a-d rank first (a self-replacement effect, 614.15, is part of the effect
it modifies and is applied by it before the event happens; none changes how an object
enters under a player's control, as a copy or transformed), so every choice is one of
616.1e.

Adding one: a new registered kind is a frozen dataclass here, added to :data:`Registered`
and to the consulting function of the event it modifies (each dispatch over it ends in
``assert_never``); a new static kind is a :class:`~server.cards.model.ReplacementKind`
with its :class:`Modified` in :func:`modifies`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, assert_never

from server.cards.model import ObjectFilter, Replacement, ReplacementKind
from server.engine.filters import matches
from server.engine.state import Game, GameObject, Zone

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_EXILE: Final = Zone.EXILE
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD
_ZONE_HAND: Final = Zone.HAND
_ZONE_STACK: Final = Zone.STACK


@dataclass(frozen=True, slots=True)
class ExileInstead:
    """Rule 614.1a: "If that spell would be put into your graveyard, exile it instead" --
    for the stack object ``object_id`` (the spell a permission or an effect let be cast,
    400.7h), during turn ``turn``."""

    object_id: str
    turn: int


@dataclass(frozen=True, slots=True)
class FlashbackExile:
    """Rule 702.34a: the spell ``object_id`` was cast with flashback: if it would leave the
    stack, it is exiled instead of going anywhere else (400.7g: also a flashback granted to
    the card goes on applying to the spell)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ExileIfDies:
    """Rule 614.1a: "If [that permanent] would die this turn, exile it instead" -- until the
    cleanup step (514.2)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class CombatDamagePrevented:
    """Rule 615.1: "Prevent all combat damage that would be dealt this turn" (Fog) -- or only
    that dealt to the creatures ``to`` describes from ``seat``'s point of view ("... to Dogs
    you control"), as the damage would be dealt; made during turn ``turn``, it ends in that
    turn's cleanup step (514.2)."""

    turn: int
    seat: int
    to: ObjectFilter | None = None


@dataclass(frozen=True, slots=True)
class DamageFromPrevented:
    """Rule 615.1: "Prevent all damage [the object ``object_id``] would deal this turn" -- made
    during turn ``turn``, until that turn's cleanup step (514.2). For a permanent spell it
    goes on applying to the permanent the spell becomes (400.7c, :func:`follow`)."""

    object_id: str
    turn: int


#: The replacement effects created for particular objects, and the prevention effects (615)
#: of resolved spells and abilities (see the module docstring).
Registered = ExileInstead | FlashbackExile | ExileIfDies | CombatDamagePrevented | \
    DamageFromPrevented


def register(game: Game, replacement: Registered) -> None:
    """A replacement effect begins to apply (rule 614.1)."""
    if replacement not in game.replacements:
        game.replacements.append(replacement)


def end_of_turn(game: Game) -> None:
    """Rule 514.2: the effects that last "this turn" end in the cleanup step."""
    game.replacements[:] = [r for r in game.replacements if _lasting(r)]


def new_turn(game: Game) -> None:
    """Rule 500.1: nothing of the previous turn's "this turn" replacements is left."""
    game.replacements[:] = [r for r in game.replacements if _turn_of(r) in (None, game.turn)]


def _turn_of(replacement: Registered) -> int | None:
    """The turn a "this turn" replacement or prevention effect is for (None: another
    duration)."""
    if isinstance(replacement, ExileInstead | CombatDamagePrevented | DamageFromPrevented):
        return replacement.turn
    if isinstance(replacement, FlashbackExile | ExileIfDies):
        return None
    assert_never(replacement)


def _lasting(replacement: Registered) -> bool:
    """Whether a registered replacement outlives the cleanup step's end of "this turn"
    effects (514.2)."""
    if isinstance(replacement, ExileIfDies | CombatDamagePrevented | DamageFromPrevented):
        return False  # "this turn"
    if isinstance(replacement, ExileInstead | FlashbackExile):
        return True  # until the spell leaves the stack (a spell can't outlast the turn)
    assert_never(replacement)


def prevented(game: Game, source: GameObject, to: GameObject | None, *, combat: bool) -> bool:
    """Rule 615.1: whether a prevention effect of :attr:`Game.replacements` prevents the
    damage ``source`` would deal now to the permanent ``to`` (None: to a player) -- all
    damage from that source (400.7c: also from the spell it was), or combat damage (510.2)
    of this turn, to anything or to what a filter describes."""
    for effect in game.replacements:
        if isinstance(effect, DamageFromPrevented):
            if effect.object_id == source.id and effect.turn == game.turn:
                return True
        elif isinstance(effect, CombatDamagePrevented):
            if combat and effect.turn == game.turn and (effect.to is None or (
                    to is not None and matches(game, to, effect.to, effect.seat, ""))):
                return True
        elif isinstance(effect, ExileInstead | FlashbackExile | ExileIfDies):
            pass  # they modify zone changes
        else:
            assert_never(effect)
    return False


def follow(game: Game, spell_id: str, permanent_id: str) -> None:
    """Rule 400.7c: the prevention effects for damage from the permanent spell ``spell_id``
    go on applying to the permanent ``permanent_id`` it became."""
    for effect in list(game.replacements):
        if isinstance(effect, DamageFromPrevented) and effect.object_id == spell_id:
            register(game, DamageFromPrevented(permanent_id, effect.turn))


def zone_change(game: Game, obj: GameObject, to: Zone) -> Zone:
    """The zone ``obj`` goes to instead of ``to`` after the replacement effects that modify
    its zone change (rules 614.1a, 616.1): a static "exile it instead" of an entering
    permanent (614.12), a registered "exile it instead" of a spell going to the graveyard,
    then flashback's exile of a spell leaving the stack (which is used up)."""
    if to is _ZONE_BATTLEFIELD and _exiled_unless_cast(game, obj):
        to = _ZONE_EXILE  # 614.1a, 614.12
    for replacement in list(game.replacements):
        if isinstance(replacement, CombatDamagePrevented | DamageFromPrevented) \
                or replacement.object_id != obj.id:
            continue  # (prevention effects modify damage, 615.1)
        if isinstance(replacement, ExileInstead):
            if to is _ZONE_GRAVEYARD and replacement.turn == game.turn:
                to = _ZONE_EXILE  # 614.1a (400.7h)
        elif isinstance(replacement, FlashbackExile):
            game.replacements.remove(replacement)
            to = _ZONE_EXILE  # 702.34a: instead of anywhere else (400.7g)
        elif isinstance(replacement, ExileIfDies):
            pass  # a choice among "dies" replacements (exiles_if_dies, 616.1)
        else:
            assert_never(replacement)
    return to


def exiles_if_dies(game: Game, object_id: str) -> bool:
    """Whether "if it would die this turn, exile it instead" applies to ``object_id``."""
    return ExileIfDies(object_id) in game.replacements


class Modified(Enum):
    """The kinds of event a static replacement effect modifies (rule 614.1)."""

    #: A permanent would enter the battlefield (614.1a, 614.12).
    ENTERING = "entering"
    #: Counters would be put on a permanent (614.1a, 122.6).
    COUNTERS = "counters"
    #: A source would deal damage (614.1a, 120.3).
    DAMAGE = "damage"
    #: A source would deal damage to a player: prevented instead (615.1).
    DAMAGE_TO_YOU = "damage_to_you"
    #: A player would draw a card (614.1a, 121.2).
    DRAW = "draw"


def modifies(kind: ReplacementKind) -> Modified:
    """The event a static replacement effect of ``kind`` modifies."""
    if kind is ReplacementKind.DAMAGE_MULTIPLIED:
        return Modified.DAMAGE
    if kind is ReplacementKind.EXTRA_COUNTERS:
        return Modified.COUNTERS
    if kind is ReplacementKind.EXILED_UNLESS_CAST:
        return Modified.ENTERING
    if kind is ReplacementKind.EXTRA_DRAWS:
        return Modified.DRAW
    if kind is ReplacementKind.PREVENT_DAMAGE_TO_YOU:
        return Modified.DAMAGE_TO_YOU
    assert_never(kind)


def statics(game: Game, event: Modified) -> list[tuple[GameObject, int, Replacement]]:
    """The static replacement effects of permanents on the battlefield that modify
    ``event``: (the permanent, the index of the replacement on its card, the replacement),
    in battlefield order (rule 614.12: only those already on the battlefield)."""
    out = []
    for oid in list(game.battlefield):
        holder = game.objects[oid]
        for index, rep in enumerate(holder.card.replacements):
            if modifies(rep.kind) is event:
                out.append((holder, index, rep))
    return out


def _exiled_unless_cast(game: Game, obj: GameObject) -> bool:
    """Rules 614.1a, 614.12: a permanent on the battlefield says "if a [filter] permanent
    would enter the battlefield and it wasn't cast, exile it instead" -- and ``obj``, about
    to enter from anywhere but the stack (a spell there was cast unless it is a copy, which
    becomes a token, 707.10f), fits the filter as it would exist on the battlefield.
    Permanents entering at the same time aren't on the battlefield yet, so their own such
    abilities don't apply."""
    if obj.zone is _ZONE_STACK:
        return False
    return any(matches(game, obj, rep.filter, holder.controller, holder.id)
               for holder, _, rep in statics(game, Modified.ENTERING))


def discarded_to(obj: GameObject) -> Zone:
    """Rule 702.35a: where a discarded card goes -- its owner's graveyard (701.9a), except
    that madness, working while the card is face up in its owner's hand, exiles it instead
    (614.1a)."""
    if obj.zone is _ZONE_HAND and obj.card.madness_cost is not None and not obj.face_down:
        return _ZONE_EXILE
    return _ZONE_GRAVEYARD
