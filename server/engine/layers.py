"""Continuous effects applied in layers (rule 613).

:func:`refresh` recomputes every permanent's controller (layer 2), subtypes (layer 4),
keyword abilities (layer 6) and power/toughness (layer 7) from its printed values, the static
abilities on the battlefield (604, 611.3) and the effects of resolved spells and abilities
(611.2), each layer in timestamp order (613.7). Because layers are applied in order, an effect
whose set of affected objects depends on an earlier layer ("creatures you control" after a
control change) sees that layer's result -- the common case of dependency (613.8).

The engine calls it before every decision, state-based action check and effect (but for the
next player's priority after a pass that changed nothing else, 117.3d: the results stand), so
readers just use :attr:`GameObject.power`, :meth:`GameObject.has`,
:attr:`GameObject.controller`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, assert_never

from server.cards.model import ActivatedAbility, Affects, ObjectFilter, StaticAbility
from server.engine.board import board, invalidate
from server.engine.counting import cda_power, condition_met, evaluate
from server.engine.filters import matches
from server.engine.state import ContinuousEffect, Game, GameObject, Zone
from server.engine.zones import remove_from_combat

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_AFFECTS_ATTACHED: Final = Affects.ATTACHED
_AFFECTS_SELF: Final = Affects.SELF
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD


def _affected(game: Game, source: GameObject, static: StaticAbility,
              permanents: list[GameObject]) -> Iterator[GameObject]:
    kind = static.affects
    if isinstance(kind, ObjectFilter):
        # Every permanent the filter describes now, from the source's controller's point of
        # view (rules 611.3a, 613: its characteristics as the earlier layers left them).
        yield from (p for p in permanents
                    if matches(game, p, kind, source.controller, source.id))
    elif kind is _AFFECTS_SELF:
        yield source
    elif kind is _AFFECTS_ATTACHED:
        host = game.objects.get(source.attached_to) if source.attached_to else None
        if host is not None:
            yield host
    else:
        assert_never(kind)


def refresh(game: Game) -> None:
    """Recompute every permanent's characteristics from the layers (rule 613)."""
    summary = game.board
    if summary is not None and summary.at_start and summary.key == game.battlefield \
            and not game.effects and not game.command:
        return  # the same permanents as the last pass left them (_plain's first answer)
    if not game.effects and not game.command and _plain(game):
        return  # nothing applies: printed characteristics, counters and owners' control
    objects = game.objects
    permanents = [objects[i] for i in game.battlefield]
    invalidate(game)  # what the layers compute may change (the summary's restrictions)
    before = [o.controller for o in permanents]
    conditional = _has_conditional(game, permanents)
    holding = _conditions_holding(game, permanents) if conditional else frozenset()
    _apply_layers(game, permanents, holding)
    # Rules 611.3a-b: a conditional static ability ("as long as ...") applies whenever its
    # condition holds -- of the game as the layers leave it. Its condition may depend on
    # what the layers compute (a creature's power, who controls what), so apply them again
    # until the set of conditions that hold is stable (bounded: the set can only change
    # as many times as there are conditional abilities; a loop stops at the last result).
    for _ in range(_MAX_PASSES if conditional else 0):
        now = _conditions_holding(game, permanents)
        if now == holding:
            break
        holding = now
        _apply_layers(game, permanents, holding)
    for obj, controller in zip(permanents, before, strict=True):
        if obj.controller != controller:
            # Rule 302.6: it hasn't been under this controller's control continuously since
            # their most recent turn began; rule 506.4: it is removed from combat.
            obj.controlled_since = game.turn
            remove_from_combat(game, obj.id)


#: At most this many extra passes of the layers for conditional static abilities.
_MAX_PASSES = 4


def _conditional(game: Game, permanents: list[GameObject]) -> Iterator[
        tuple[GameObject, int, StaticAbility]]:
    for obj in permanents:
        if obj.card.conditional_statics:
            for i, static in enumerate(obj.card.statics):
                if static.condition is not None:
                    yield obj, i, static
    for oid in game.command:
        obj = game.objects[oid]
        if not obj.face_down:
            for i, static in enumerate(obj.card.statics):
                if static.condition is not None:
                    yield obj, i, static


def _conditions_holding(game: Game, permanents: list[GameObject]) -> frozenset[
        tuple[str, int]]:
    """The conditional static abilities (by source and index) whose condition holds now
    (rule 611.3b), from each source's controller's point of view."""
    return frozenset((obj.id, i) for obj, i, static in _conditional(game, permanents)
                     if condition_met(game, obj.controller, obj.id, static.condition))


def _plain(game: Game) -> bool:
    """Whether no layer has anything to do (the usual case, decided in one pass): no
    permanent has a static ability, a characteristic-defining P/T or a sticker, and each
    is as the layers' start leaves it (its owner's control, 613.2's copiable values). If
    so, it sets what applying the layers would (no computed values) -- unless the same
    permanents were left so by the last pass of the layers (:attr:`Board.at_start`)."""
    summary = board(game)
    if summary.at_start:
        return True  # as the last pass left them: the same permanents, still plain
    if summary.layered:
        return False
    objects = game.objects
    for i in game.battlefield:
        obj = objects[i]
        if obj.stickers or obj.controller != obj.base_controller:
            return False
    for i in game.battlefield:
        obj = objects[i]
        _start(obj)
        obj.pt_now = None  # printed values and counters
    if summary.restricted:
        invalidate(game)  # the restrictions it listed are gone
        summary = board(game)
    summary.at_start = True
    return True


_NONE: frozenset[str] = frozenset()


def _start(obj: GameObject) -> None:
    """What every application of the layers starts from (rule 613.1): the object's own
    controller and printed characteristics, nothing granted or computed yet."""
    obj.controller = obj.base_controller
    obj.subtypes_now = None
    obj.keywords_now = None
    obj.restrictions = _NONE
    obj.granted_triggers = ()
    obj.granted_abilities = ()
    obj.top_casts = ()
    obj.types_added = ()
    obj.protection_added = ()


def _has_conditional(game: Game, permanents: list[GameObject]) -> bool:
    return any(obj.card.conditional_statics for obj in permanents) or \
        next(_conditional(game, []), None) is not None  # a face-up plane's (901.7)


def _apply_layers(game: Game, permanents: list[GameObject],
                  holding: frozenset[tuple[str, int]]) -> None:
    objects = game.objects
    statics: list[tuple[int, GameObject, StaticAbility]] = []
    varies = False  # a characteristic-defining P/T or a sticker (the layers apply)
    for obj in permanents:
        _start(obj)
        card = obj.card
        if card.statics:
            for i, static in enumerate(card.statics):
                if static.condition is None or (obj.id, i) in holding:  # 611.3b
                    statics.append((obj.timestamp, obj, static))  # rule 613.7a
        if card.power_cda or obj.stickers:
            varies = True
    for oid in [i for i in game.command if not objects[i].face_down]:  # 400.9, 708.2
        # Rules 311.4, 901.7: a face-up plane's statics work from there.
        for i, static in enumerate(objects[oid].card.statics):
            if static.condition is None or (oid, i) in holding:  # 611.3b
                statics.append((objects[oid].timestamp, objects[oid], static))
    if not statics and not game.effects and not varies:
        for obj in permanents:
            obj.pt_now = None  # printed values and counters
        return
    statics.sort(key=lambda item: item[0])
    effects = sorted(game.effects, key=lambda e: e.timestamp)
    # Layer 2: control-changing effects (613.1b), statics and resolved effects together in
    # timestamp order (613.7).
    layer2: list[tuple[int, GameObject | None, StaticAbility | None, int]] = [
        (t, src, st, -1) for t, src, st in statics if st.control]
    layer2 += [(e.timestamp, None, None, i) for i, e in enumerate(effects) if e.controller >= 0]
    layer2.sort(key=lambda item: item[0])
    players = game.players
    for _, source, control, index in layer2:
        if source is not None and control is not None:
            if players[source.controller].has_lost:
                continue  # rules 800.4a-b: no control goes to a player who left the game
            for obj in _affected(game, source, control, permanents):
                obj.controller = source.controller
        else:
            change = effects[index]
            if players[change.controller].has_lost:
                continue  # rules 800.4a-b
            for oid in change.affected:
                target = objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    target.controller = change.controller
    # Layer 4: type-changing effects (613.1d).
    for _, source, static in statics:
        if static.subtypes:
            for obj in list(_affected(game, source, static, permanents)):
                obj.subtypes_now = (*obj.subtypes, *static.subtypes)
    for effect in effects:
        if effect.types or effect.subtypes:  # "becomes a ... in addition to its other types"
            for oid in effect.affected:
                target = objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    target.types_added += effect.types
                    if effect.subtypes:
                        target.subtypes_now = (*target.subtypes, *effect.subtypes)
    # Layer 6: ability-adding and -removing effects, statics and resolved effects in
    # timestamp order together (613.1f, 613.7). Only affected permanents get a computed set;
    # the others keep their printed keywords.
    keywords: dict[str, set[str]] = {}
    restrictions: dict[str, set[str]] = {}

    def touched(obj: GameObject) -> set[str]:
        if obj.id not in keywords:
            keywords[obj.id] = set(obj.card.keywords)
            restrictions[obj.id] = set()
        return keywords[obj.id]

    layer6: list[tuple[int, GameObject | None, StaticAbility | None, int]] = [
        (t, src, st, -1) for t, src, st in statics
        if st.keywords or st.restrictions or st.triggers or st.protection
        or st.cast_from_top is not None or st.abilities_of_top is not None]
    layer6 += [(e.timestamp, None, None, i) for i, e in enumerate(effects)
               if e.gains or e.loses or e.protection]
    # Rule 123.7: an ability sticker grants its ability, in its timestamp order (613.7k).
    layer6 += [(st.timestamp, obj, None, k) for obj in permanents
               for k, st in enumerate(obj.stickers) if st.definition.keywords]
    layer6.sort(key=lambda item: item[0])
    for _, granter, grant, index in layer6:
        if granter is not None and grant is not None:
            for obj in _affected(game, granter, grant, permanents):
                touched(obj).update(grant.keywords)
                restrictions[obj.id].update(grant.restrictions)
                obj.granted_triggers += grant.triggers  # 613.1f: granted abilities
                obj.protection_added += grant.protection  # rule 702.16
                if grant.cast_from_top is not None:
                    obj.top_casts += (grant.cast_from_top,)  # a rules change (601.3)
                if grant.abilities_of_top is not None:
                    obj.granted_abilities += _abilities_of_top(game, granter,
                                                               grant.abilities_of_top)
        elif granter is not None:
            touched(granter).update(granter.stickers[index].definition.keywords)
        else:
            effect = effects[index]
            for oid in effect.affected:
                target = objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    kw = touched(target)
                    kw.update(effect.gains)
                    kw.difference_update(effect.loses)
                    target.protection_added += effect.protection  # rule 702.16a
    for oid, kw in keywords.items():
        objects[oid].keywords_now = frozenset(kw)
        objects[oid].restrictions = frozenset(restrictions[oid])
    # Layer 7: power and toughness (613.4): printed, then characteristic-defining abilities
    # (7a), then 7c modifications from statics, resolved effects and counters, then 7d
    # switches (7b: only power and toughness stickers, 123.8). Unaffected permanents keep pt_now
    # None: printed values and counters.
    for obj in permanents:
        obj.pt_now = None

    def pt(obj: GameObject) -> tuple[int, int]:
        if obj.pt_now is None:
            bonus = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
            # Layer 7b (613.4b): a power and toughness sticker sets them (rule 123.8).
            base = obj.sticker_pt if obj.stickers else None
            power, toughness = base if base is not None else (obj.card.power or 0,
                                                              obj.card.toughness or 0)
            obj.pt_now = (power + bonus, toughness + bonus)
        return obj.pt_now

    for obj in permanents:
        if obj.card.power_cda and not (obj.stickers and obj.sticker_pt is not None):
            # Layer 7a (613.4a): the characteristic-defining ability (7b overrides it).
            p, t = pt(obj)
            obj.pt_now = (p + cda_power(game, obj), t)
    for effect in effects:
        if effect.base:
            # Layer 7b (613.4b): "have base power and toughness X/X", in timestamp order
            # with a power and toughness sticker's (123.8, 613.7k): an effect older than
            # the sticker is overwritten by it; counters still apply (7c).
            for oid in effect.affected:
                target = objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    sticker = target.pt_sticker if target.sticker_pt is not None else None
                    if sticker is not None and sticker.timestamp > effect.timestamp:
                        continue
                    pt(target)
                    bonus = target.counters.get("+1/+1", 0) - target.counters.get("-1/-1", 0)
                    target.pt_now = (effect.power + bonus, effect.toughness + bonus)
    for _, source, static in statics:
        if static.power or static.toughness:
            # "+1/+1 for each ...", "+X/+0, where X is ...": counted now (611.3a, 107.3).
            times = 1 if static.amount is None else evaluate(
                game, static.amount, source.controller, source.id)
            for obj in _affected(game, source, static, permanents):
                p, t = pt(obj)
                obj.pt_now = (p + static.power * times, t + static.toughness * times)
    for effect in effects:
        if (effect.power or effect.toughness) and not effect.base:
            for oid in effect.affected:
                target = objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    p, t = pt(target)
                    target.pt_now = (p + effect.power, t + effect.toughness)
    _switch(game, effects, pt)
    _rules_changes(game, effects, permanents)


def revealed_top(game: Game, seat: int) -> GameObject | None:
    """The top card of ``seat``'s library as it is known now: none while a spell is being
    cast or an ability activated and a new top card hasn't been revealed yet (401.5; a top
    card played revealed is revealed again only once that is done, see
    :func:`server.engine.zone_rules.refresh_revealed_tops`)."""
    library = game.player(seat).library
    if not library:
        return None
    top = library[-1]
    if game.casting is not None and game.revealed_tops.get(seat) != top:
        return None
    return game.objects[top]


def _abilities_of_top(game: Game, granter: GameObject,
                      spec: ObjectFilter) -> tuple[ActivatedAbility, ...]:
    """Layer 6 (613.1f): "has all activated abilities of the top card of your library as
    long as that card is [spec]" -- its printed activated abilities (602.1). Not yet its mana
    abilities (605: a card's separate ``mana_abilities`` data, which only the card itself
    uses); no Goblin card of the pool has one."""
    top = revealed_top(game, granter.controller)
    if top is None or not matches(game, top, spec, granter.controller, granter.id):
        return ()
    return top.card.abilities


def _rules_changes(game: Game, effects: list[ContinuousEffect],
                   permanents: list[GameObject]) -> None:
    """Rules changes of resolved spells and abilities ("can't block this turn", 611.2c): not
    characteristics, so they apply after the layers -- to the permanents they name, or to
    every permanent their filter describes now (the filter sees the layers' results)."""
    for effect in effects:
        if not effect.restrictions:
            continue
        spec = effect.filter
        if spec is not None:
            affected = [p for p in permanents
                        if matches(game, p, spec, effect.viewer, "")]
        else:
            found = (game.objects.get(oid) for oid in effect.affected)
            affected = [p for p in found if p is not None and p.zone is _ZONE_BATTLEFIELD]
        for obj in affected:
            obj.restrictions = obj.restrictions | frozenset(effect.restrictions)


def _switch(game: Game, effects: list[ContinuousEffect], pt: Callable[[GameObject],
                                                                      tuple[int, int]]) -> None:
    """Layer 7d (rule 613.4d): switch power and toughness, in timestamp order."""
    for effect in effects:
        if effect.switch:
            for oid in effect.affected:
                target = game.objects.get(oid)
                if target is not None and target.zone is _ZONE_BATTLEFIELD:
                    p, t = pt(target)
                    target.pt_now = (t, p)
