"""Targets (rule 115): what a target may be, the legal choices for one, and whether a chosen
target is still legal on resolution (608.2b). Hexproof (702.11b) and protection (702.16b)
restrict them."""

from __future__ import annotations

from server.cards.mana import COLORS
from server.cards.model import CardDef, TargetKind, TargetReq
from server.engine.state import Game, GameObject, Zone

Target = tuple[str, int | str]

#: Cards in your graveyard (rule 115.1): the card types each kind asks for (none: any card).
_GRAVEYARD_KINDS: dict[TargetKind, tuple[str, ...]] = {
    TargetKind.CREATURE_CARD_IN_YOUR_GRAVEYARD: ("Creature",),
    TargetKind.CARD_IN_YOUR_GRAVEYARD: (),
    TargetKind.INSTANT_OR_SORCERY_CARD_IN_YOUR_GRAVEYARD: ("Instant", "Sorcery"),
    TargetKind.PERMANENT_CARD_IN_YOUR_GRAVEYARD: ("Artifact", "Battle", "Creature",
                                                  "Enchantment", "Land", "Planeswalker"),
}


def _object_qualifies(game: Game, obj: GameObject, req: TargetReq, controller: int,
                      source: CardDef | None = None) -> bool:
    """Whether a permanent, spell or card matches the target's noun phrase (rule 115.1) for
    a spell or ability controlled by ``controller`` from ``source``; hexproof (702.11b) and
    protection (702.16b) forbid some."""
    kind = req.kind
    if kind in _GRAVEYARD_KINDS:
        types = _GRAVEYARD_KINDS[kind]
        return obj.zone is Zone.GRAVEYARD and obj.owner == controller and (
            not types or any(obj.card.is_type(t) for t in types))
    if kind is TargetKind.CARD_IN_A_GRAVEYARD:
        return obj.zone is Zone.GRAVEYARD  # any player's graveyard (rule 404.1)
    if obj.zone is Zone.STACK:
        if kind is TargetKind.INSTANT_OR_SORCERY_SPELL:
            return not obj.is_ability and not obj.card.is_permanent_card
        if kind is TargetKind.ACTIVATED_OR_TRIGGERED_ABILITY:
            return obj.is_ability  # rule 113.3: mana abilities never are on the stack
        return kind in (TargetKind.SPELL, TargetKind.SPELL_OR_CREATURE) and not obj.is_ability
    if obj.zone is not Zone.BATTLEFIELD or not _is_kind(obj, kind):
        return False
    # (The type test above is the cheapest and the most selective: it goes first.)
    if obj.controller != controller and obj.has("Hexproof"):
        return False
    # Rule 702.11d: "hexproof from [quality]" -- not by such spells or abilities of opponents.
    if obj.controller != controller and source is not None and obj.card.hexproof_from and \
            any(quality_of(source, q) for q in obj.card.hexproof_from):
        return False
    if source is not None and obj.protection and \
            any(quality_of(source, q) for q in obj.protection):
        return False
    if req.you_control and obj.controller != controller:
        return False
    if req.min_power is not None and obj.power < req.min_power:
        return False
    if req.max_power is not None and obj.power > req.max_power:
        return False
    if req.has and not (obj.has(req.has) or req.has in obj.subtypes):
        return False
    if req.lacks and (obj.has(req.lacks) or req.lacks in obj.subtypes):
        return False
    if req.tapped and not obj.tapped:
        return False
    if req.with_counter and obj.counters.get(req.with_counter, 0) < 1:
        return False
    if req.subtypes and not any(t in obj.subtypes for t in req.subtypes):
        return False
    if req.max_mana_value is not None and obj.mana_value > req.max_mana_value:
        return False
    if req.opponent_controls and obj.controller == controller:
        return False
    # Rule 700.10: "that was activated this turn".
    return not (req.activated_this_turn and obj.activated_turn != game.turn)


def _is_kind(obj: GameObject, kind: TargetKind) -> bool:
    """Whether a permanent is of the kind a target names (rule 115.1); spells are never."""
    card = obj.card
    if kind in (TargetKind.SPELL, TargetKind.INSTANT_OR_SORCERY_SPELL,
                TargetKind.ACTIVATED_OR_TRIGGERED_ABILITY, TargetKind.CARD_IN_A_GRAVEYARD):
        return False
    if kind in (TargetKind.ANY, TargetKind.CREATURE_OR_PLANESWALKER):
        return obj.is_creature or obj.is_planeswalker  # rule 115.4
    if kind in (TargetKind.CREATURE, TargetKind.SPELL_OR_CREATURE):
        return obj.is_creature
    if kind in (TargetKind.PLAYER_OR_PLANESWALKER, TargetKind.PLANESWALKER):
        return obj.is_planeswalker
    if kind is TargetKind.ARTIFACT_OR_ENCHANTMENT:
        return card.is_type("Artifact") or card.is_type("Enchantment")
    if kind is TargetKind.ARTIFACT:
        return card.is_type("Artifact")
    if kind is TargetKind.ENCHANTMENT:
        return card.is_type("Enchantment")
    if kind is TargetKind.NONLAND_PERMANENT:
        return not card.is_land
    return kind is TargetKind.PERMANENT


def quality_of(card: CardDef, quality: str) -> bool:
    """Whether a card has a quality protection can name (rule 702.16a): a colour letter,
    "multicolored", a card type such as "Planeswalker" ("protection from planeswalkers") or
    a subtype such as "Demon"."""
    if quality in COLORS:
        return quality in card.colors
    if quality == "multicolored":
        return len(card.colors) > 1
    return quality in card.card_types or quality in card.subtypes



def target_candidates(game: Game, req: TargetReq, controller: int, source_id: str | None = None,
                      *, exclude: tuple[Target, ...] = (),
                      source: CardDef | None = None,
                      other_than: str | None = None) -> list[Target]:
    """Legal choices for one target (rule 115): players in turn order, then objects.

    A spell or ability can't target itself (rule 115.5); ``exclude`` holds targets already
    chosen for the same instance of the word "target" (rule 601.2c).
    """
    out: list[Target] = []
    if req.kind in (TargetKind.ANY, TargetKind.PLAYER, TargetKind.PLAYER_OR_PLANESWALKER):
        out += [("player", seat) for seat in game.apnap(controller)]
    elif req.kind is TargetKind.OPPONENT:
        out += [("player", seat) for seat in game.opponents(controller)]
    if req.kind in _GRAVEYARD_KINDS:
        zone: list[str] = game.player(controller).graveyard
    elif req.kind is TargetKind.CARD_IN_A_GRAVEYARD:
        zone = [i for seat in game.apnap(controller) for i in game.player(seat).graveyard]
    elif req.kind in (TargetKind.SPELL, TargetKind.INSTANT_OR_SORCERY_SPELL,
                      TargetKind.ACTIVATED_OR_TRIGGERED_ABILITY):
        zone = game.stack
    elif req.kind is TargetKind.SPELL_OR_CREATURE:
        zone = [*game.stack, *game.battlefield]
    else:
        zone = game.battlefield
    # "another target": not the source of the spell or ability (its permanent for an
    # ability, whether it's on the stack yet or being checked for activation).
    if other_than is None:
        origin = game.objects.get(source_id) if source_id is not None else None
        other_than = origin.ability.source_id if origin is not None and origin.ability \
            else source_id
    out += [("object", oid) for oid in zone
            if oid != source_id and not (req.other and oid == other_than)
            and _object_qualifies(game, game.objects[oid], req, controller, source)
            and _that_players(game, req, game.objects[oid], source_id)]
    return [t for t in out if t not in exclude]


def _that_players(game: Game, req: TargetReq, obj: GameObject, source_id: str | None) -> bool:
    """"... that player controls": the trigger event's player of the ability ``source_id``
    controls it."""
    if not req.that_player_controls:
        return True
    origin = game.objects.get(source_id) if source_id is not None else None
    ref = origin.ability if origin is not None else None
    return ref is not None and ref.event_player == obj.controller


def is_legal_target(game: Game, req: TargetReq, target: Target, controller: int,
                    source_id: str) -> bool:
    """Rule 608.2b: recheck a target on resolution (a changed zone means a new object)."""
    kind, ref = target
    source = game.objects.get(source_id)
    card = source.card if source is not None else None
    if kind == "player":
        return target in target_candidates(game, req, controller, source_id, source=card)
    obj = game.objects.get(str(ref))
    return obj is not None and obj.id != source_id and \
        _object_qualifies(game, obj, req, controller, card) and \
        _that_players(game, req, obj, source_id)


def targets_available(game: Game, reqs: tuple[TargetReq, ...], controller: int,
                      source_id: str | None = None, *, source: CardDef | None = None,
                      other_than: str | None = None) -> bool:
    """Whether every target requirement can be met (rules 601.2c, 115.1): "another target"
    (``other_target``, rule 115.3) needs objects or players not chosen for the earlier
    targets, so the required targets up to the last such requirement must all be different."""
    lists = [target_candidates(game, req, controller, source_id, source=source,
                               other_than=other_than) for req in reqs]
    if not all(req.up_to or len(found) >= req.count for req, found in zip(reqs, lists,
                                                                           strict=True)):
        return False
    return different_targets_possible(game, reqs, [], controller, source_id, source=source,
                                      other_than=other_than)


def different_targets_possible(game: Game, reqs: tuple[TargetReq, ...],
                               chosen: list[tuple[Target, ...]], controller: int,
                               source_id: str | None = None, *,
                               source: CardDef | None = None,
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

    def place(slot: int, seen: set[Target]) -> bool:
        for target in slots[slot]:
            if target in seen:
                continue
            seen.add(target)
            if target not in owner or place(owner[target], seen):
                owner[target] = slot
                return True
        return False

    return all(place(i, set()) for i in range(len(slots)))
