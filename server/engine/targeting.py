"""Targets (rule 115): what a target may be, the legal choices for one, and whether a chosen
target is still legal on resolution (608.2b). Hexproof (702.11b) and protection (702.16b)
restrict them."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Final, assert_never

from server.cards.mana import COLORS
from server.cards.model import CardDef, Controller, TargetKind, TargetReq
from server.engine import filters
from server.engine.state import Game, GameObject, Zone

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_CONTROLLER_ANY: Final = Controller.ANY
_CONTROLLER_OPPONENT: Final = Controller.OPPONENT
_CONTROLLER_THAT_PLAYER: Final = Controller.THAT_PLAYER
_CONTROLLER_YOU: Final = Controller.YOU
_TARGET_KIND_ABILITY: Final = TargetKind.ABILITY
_TARGET_KIND_CARD_IN_GRAVEYARD: Final = TargetKind.CARD_IN_GRAVEYARD
_TARGET_KIND_PERMANENT: Final = TargetKind.PERMANENT
_TARGET_KIND_PLAYER: Final = TargetKind.PLAYER
_TARGET_KIND_PLAYER_OR_PERMANENT: Final = TargetKind.PLAYER_OR_PERMANENT
_TARGET_KIND_SPELL: Final = TargetKind.SPELL
_TARGET_KIND_SPELL_OR_PERMANENT: Final = TargetKind.SPELL_OR_PERMANENT
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD
_ZONE_STACK: Final = Zone.STACK

Target = tuple[str, int | str]
#: What a spell or ability's qualities are read from for protection and hexproof from
#: (702.16b, 702.11d): an object as it is now (its types after layer 4), or a card.
Source = CardDef | GameObject

def _object_qualifies(game: Game, obj: GameObject, req: TargetReq, controller: int,
                      source: Source | None = None, *, other_than: str = "",
                      that_player: int | None = None) -> bool:
    """Whether a permanent, spell, ability or card is of the target's kind and fits its
    filter (rule 115.1) for a spell or ability controlled by ``controller`` from ``source``;
    hexproof (702.11b) and protection (702.16b) forbid some permanents. ``other_than``: the
    source an "another target" filter excludes (115.5 covers only the spell itself)."""
    kind = req.kind
    if kind is _TARGET_KIND_PLAYER:
        return False
    if kind is _TARGET_KIND_CARD_IN_GRAVEYARD:
        if obj.zone is not _ZONE_GRAVEYARD:
            return False
    elif kind is _TARGET_KIND_ABILITY:
        if obj.zone is not _ZONE_STACK or not obj.is_ability:
            return False  # rule 113.3: mana abilities never are on the stack
    elif kind is _TARGET_KIND_SPELL:
        if obj.zone is not _ZONE_STACK or obj.is_ability:
            return False
    elif kind is _TARGET_KIND_SPELL_OR_PERMANENT and obj.zone is _ZONE_STACK:
        return not obj.is_ability  # "target spell or creature": any spell
    elif kind in (_TARGET_KIND_PERMANENT, _TARGET_KIND_PLAYER_OR_PERMANENT,
                  _TARGET_KIND_SPELL_OR_PERMANENT):
        if obj.zone is not _ZONE_BATTLEFIELD or obj.id not in game.battlefield:
            return False  # rule 702.26b: phased out
        if not _may_target_permanent(obj, controller, source):
            return False
    else:
        assert_never(kind)
    return filters.matches(game, obj, req.filter, controller, other_than,
                           that_player=that_player)


def _may_target_permanent(obj: GameObject, controller: int, source: Source | None) -> bool:
    """Hexproof (702.11b), "hexproof from [quality]" (702.11d: not by such spells or
    abilities of opponents) and protection (702.16b)."""
    if obj.controller != controller and obj.has("Hexproof"):
        return False
    if obj.controller != controller and source is not None and obj.card.hexproof_from and \
            any(quality_of(source, q) for q in obj.card.hexproof_from):
        return False
    return not (source is not None and obj.protection
                and any(quality_of(source, q) for q in obj.protection))


def _players_of(game: Game, req: TargetReq, controller: int,
                that_player: int | None) -> list[int]:
    """The players a target may be (rule 115.1), in turn order: for a player target, those
    its filter's controller names ("target opponent", 102.2); "any target" -- every one."""
    kind = req.kind
    if kind is _TARGET_KIND_PLAYER_OR_PERMANENT:
        return game.apnap(controller)
    if kind in (_TARGET_KIND_PERMANENT, _TARGET_KIND_SPELL, _TARGET_KIND_SPELL_OR_PERMANENT,
                _TARGET_KIND_CARD_IN_GRAVEYARD, _TARGET_KIND_ABILITY):
        return []
    if kind is not _TARGET_KIND_PLAYER:
        assert_never(kind)
    which = req.filter.controller
    if which is _CONTROLLER_ANY:
        return game.apnap(controller)
    if which is _CONTROLLER_OPPONENT:
        return game.opponents(controller)
    if which is _CONTROLLER_YOU:
        return [controller]
    if which is _CONTROLLER_THAT_PLAYER:
        return [that_player] if that_player is not None else []
    assert_never(which)


def _zone_of(game: Game, req: TargetReq, controller: int) -> list[str]:
    """Where a target's objects are: the battlefield, the stack or the graveyards."""
    kind = req.kind
    if kind is _TARGET_KIND_CARD_IN_GRAVEYARD:
        return [i for seat in game.apnap(controller) for i in game.player(seat).graveyard]
    if kind in (_TARGET_KIND_SPELL, _TARGET_KIND_ABILITY):
        return game.stack
    if kind is _TARGET_KIND_SPELL_OR_PERMANENT:
        return [*game.stack, *game.battlefield]
    if kind in (_TARGET_KIND_PERMANENT, _TARGET_KIND_PLAYER_OR_PERMANENT):
        return game.battlefield
    if kind is _TARGET_KIND_PLAYER:
        return []
    assert_never(kind)


def _event_player(game: Game, source_id: str | None) -> int | None:
    """"That player" of the triggered ability ``source_id`` (its event's player, 603.2)."""
    origin = game.objects.get(source_id) if source_id is not None else None
    ref = origin.ability if origin is not None else None
    return ref.event_player if ref is not None else None


def player_protected_from(game: Game, seat: int, source: Source | None) -> bool:
    """Whether a player has protection from a quality of ``source`` (rules 702.16a-b, e):
    "You have protection from the chosen card name" -- a permanent they control that named
    the source's name as it entered (a name only when the ability says so, 702.16a)."""
    return bool(player_protection_sources(game, seat, source))


def player_protection_sources(game: Game, seat: int, source: Source | None) -> list[str]:
    """The permanents (in battlefield order) giving player ``seat`` protection from a
    quality of ``source`` (:func:`player_protected_from`): each one's protection is a
    prevention effect of its own for damage from ``source`` (702.16e, 616.1)."""
    if source is None:
        return []
    name = source.card.name if isinstance(source, GameObject) else source.name
    out = []
    for oid in game.battlefield:
        obj = game.objects[oid]
        if obj.controller == seat and obj.card.player_protection == "chosen_name" \
                and obj.chosen_name and obj.chosen_name == name:
            out.append(oid)
    return out


def quality_of(source: Source, quality: str) -> bool:
    """Whether a card or an object has a quality protection can name (rule 702.16a): a
    colour letter, "multicolored", a card type such as "Planeswalker" ("protection from
    planeswalkers") or a subtype such as "Demon" -- an object's as it is now (702.16b/e/f:
    a creature made a Demon by Demonic Embrace can't block a Baneslayer Angel)."""
    card = source.card if isinstance(source, GameObject) else source
    if quality in COLORS:
        return quality in card.colors
    if quality == "multicolored":
        return len(card.colors) > 1
    if isinstance(source, GameObject):
        return quality in card.card_types or quality in source.subtypes or (
            quality in source.types_added and source.zone is _ZONE_BATTLEFIELD)
    return quality in card.card_types or quality in card.subtypes


def quality_source(game: Game, obj: GameObject) -> Source:
    """What a spell or ability on the stack has its qualities from (702.16b: "spells with
    the quality or abilities from sources with it"): a spell itself; an ability its source
    as it is now -- or, if the source has left the battlefield, as it last existed there
    (113.7a, 608.2b: a Devils made a Demon dies; its trigger can't target a creature with
    protection from Demons); else the source's card."""
    if obj.ability is None:
        return obj
    source_id = obj.ability.source_id
    source = game.objects.get(source_id) or game.last_known_permanents.get(source_id)
    return source if source is not None else obj.card



def target_candidates(game: Game, req: TargetReq, controller: int, source_id: str | None = None,
                      *, exclude: tuple[Target, ...] = (),
                      source: Source | None = None,
                      other_than: str | None = None) -> list[Target]:
    """Legal choices for one target (rule 115): players in turn order, then objects.

    A spell or ability can't target itself (rule 115.5); ``exclude`` holds targets already
    chosen for the same instance of the word "target" (rule 601.2c).
    """
    return [t for t in _candidates(game, req, controller, source_id, source=source,
                                   other_than=other_than) if t not in exclude]


def _candidates(game: Game, req: TargetReq, controller: int, source_id: str | None, *,
                source: Source | None, other_than: str | None) -> Iterator[Target]:
    """The legal choices of :func:`target_candidates`, found one at a time (so a caller
    asking only whether there are enough stops there)."""
    that_player = _event_player(game, source_id)
    for seat in _players_of(game, req, controller, that_player):
        if not player_protected_from(game, seat, source):
            yield ("player", seat)
    # "another target": not the source of the spell or ability (its permanent for an
    # ability, whether it's on the stack yet or being checked for activation).
    if other_than is None:
        origin = game.objects.get(source_id) if source_id is not None else None
        other_than = origin.ability.source_id if origin is not None and origin.ability \
            else source_id
    objects = game.objects
    for oid in _zone_of(game, req, controller):
        if oid != source_id and _object_qualifies(game, objects[oid], req, controller, source,
                                                  other_than=other_than or "",
                                                  that_player=that_player):
            yield ("object", oid)


def is_legal_target(game: Game, req: TargetReq, target: Target, controller: int,
                    source_id: str) -> bool:
    """Rule 608.2b: recheck a target on resolution (a changed zone means a new object)."""
    kind, ref = target
    source = game.objects.get(source_id)
    card = quality_source(game, source) if source is not None else None
    if kind == "player":
        return target in target_candidates(game, req, controller, source_id, source=card)
    obj = game.objects.get(str(ref))
    other_than = source.ability.source_id if source is not None and source.ability \
        else source_id
    return obj is not None and obj.id != source_id and \
        _object_qualifies(game, obj, req, controller, card, other_than=other_than,
                          that_player=_event_player(game, source_id))


def targets_available(game: Game, reqs: tuple[TargetReq, ...], controller: int,
                      source_id: str | None = None, *, source: Source | None = None,
                      other_than: str | None = None) -> bool:
    """Whether every target requirement can be met (rules 601.2c, 115.1): "another target"
    (``other_target``, rule 115.3) needs objects or players not chosen for the earlier
    targets, so the required targets up to the last such requirement must all be different."""
    for req in reqs:
        if req.up_to:
            continue
        found = _candidates(game, req, controller, source_id, source=source,
                            other_than=other_than)
        if sum(1 for _ in islice(found, req.count)) < req.count:
            return False  # fewer legal choices than the targets it needs
    if not any(req.other_target for req in reqs):
        return True  # nothing more to check: any choice of the candidates does
    return different_targets_possible(game, reqs, [], controller, source_id, source=source,
                                      other_than=other_than)


def different_targets_possible(game: Game, reqs: tuple[TargetReq, ...],
                               chosen: list[tuple[Target, ...]], controller: int,
                               source_id: str | None = None, *,
                               source: Source | None = None,
                               other_than: str | None = None) -> bool:
    """Whether the targets chosen so far (``chosen``: per requirement, in order; the last
    may be partial) leave a way to choose the rest when a later requirement says "another
    target" (rule 115.3): the targets up to the last such requirement are all different.
    (Requirements before it are kept apart from each other too -- stricter than 115.3 only
    for a card with two plain instances of "target" before an "another target", which no
    supported card has.)"""
    last = max((i for i, req in enumerate(reqs) if req.other_target), default=-1)
    slots: list[list[Target]] = []
    for i, req in enumerate(reqs[:last + 1]):
        fixed = list(chosen[i]) if i < len(chosen) else []
        slots += [[t] for t in fixed]
        if not req.up_to and req.count > len(fixed):
            found = target_candidates(game, req, controller, source_id, source=source,
                                      other_than=other_than)
            slots += [found] * (req.count - len(fixed))
    return _all_different(slots)


def _all_different(slots: list[list[Target]]) -> bool:
    """Whether each slot can get a different one of its candidates (a bipartite matching,
    found by augmenting paths)."""
    owner: dict[Target, int] = {}
    return all(_place(slots, owner, i, set()) for i in range(len(slots)))


def _place(slots: list[list[Target]], owner: dict[Target, int], slot: int,
           seen: set[Target]) -> bool:
    """Give ``slot`` a candidate, moving earlier slots to others (an augmenting path). A
    module function: a closure calling itself would be a reference cycle (garbage only the
    cyclic collector frees, see :mod:`server.gctune`)."""
    for target in slots[slot]:
        if target in seen:
            continue
        seen.add(target)
        if target not in owner or _place(slots, owner, owner[target], seen):
            owner[target] = slot
            return True
    return False
