"""Events pass through the projection too (architecture invariant 4).

:func:`project_events` turns the engine's events of one action into protocol events for one
viewer, given what that viewer could see before the action and can see after it. An object id
appears only if the viewer could see that object; a zone change links the old and the new id
(rule 400.7) only if the viewer could see the object in both places; a revealed card reaches
only the players it was shown to (701.20a, 701.20e) -- and the omniscient replay view, which
sees every card anyway; a face-down card stays nameless.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from protocol.v1 import game_pb2 as pb
from server.engine.events import (
    AbilityActivated,
    AbilityTriggered,
    AttackersDeclared,
    BlockersDeclared,
    CardDrawn,
    CardsRevealed,
    ClashResolved,
    Countered,
    CrimeCommitted,
    DamageDealt,
    Event,
    Expended,
    GameEnded,
    LibrarySearched,
    LifeExchanged,
    LifeGained,
    LifeLost,
    MulliganTaken,
    PlayerLost,
    SpellCast,
    StartingPlayerChosen,
    TokenCreated,
    ZoneChanged,
)
from server.view.project import OMNISCIENT, ObjectView


def _name(obj: ObjectView | None) -> str:
    return obj.name if obj is not None and not obj.face_down else ""


def project_events(events: Sequence[Event], viewer: int, before: Mapping[str, ObjectView],
                   after: Mapping[str, ObjectView]) -> list[pb.GameEvent]:
    """``events`` as ``viewer`` may learn them; ``before``/``after``: the objects of its view
    before and after the action."""
    out: list[pb.GameEvent] = []

    def seen(oid: str | None) -> str:
        return oid if oid and (oid in before or oid in after) else ""

    previous: Event | None = None
    for event in events:
        msg = _public(event, seen, after)
        before_it, previous = previous, event
        if isinstance(event, (LifeGained, LifeLost)):
            if isinstance(event, LifeLost) and isinstance(before_it, DamageDealt) \
                    and before_it.player == event.seat and before_it.amount == event.amount:
                continue  # damage to a player (120.3a): its damage event says it
            amount = event.amount if isinstance(event, LifeGained) else -event.amount
            out.append(pb.GameEvent(life_changed=pb.LifeChangedEvent(seat=event.seat,
                                                                     amount=amount)))
        elif msg is not None:
            out.append(msg)
        elif isinstance(event, Countered):
            out.append(_countered(event, before, after))
        elif isinstance(event, ZoneChanged):
            was, now = before.get(event.old_id), after.get(event.new_id)
            out.append(pb.GameEvent(zone_change=pb.ZoneChangeEvent(
                owner=event.owner, from_zone=cast(pb.ZoneKind, int(event.from_zone)),
                to_zone=cast(pb.ZoneKind, int(event.to_zone)),
                old_id=event.old_id if was is not None else "",
                new_id=event.new_id if now is not None else "",
                name=_name(now) or _name(was))))
        elif isinstance(event, CardsRevealed) and (viewer in event.seats
                                                   or viewer == OMNISCIENT):
            out.append(pb.GameEvent(cards_revealed=pb.CardsRevealedEvent(
                cards=[pb.RevealedCard(name=card.name, object_id=oid if oid in after else "")
                       for oid, card in zip(event.object_ids, event.cards, strict=True)],
                to_everyone=len(event.seats) > 1 and -1 in event.seats)))
    return out


def _countered(event: Countered, before: Mapping[str, ObjectView],
               after: Mapping[str, ObjectView]) -> pb.GameEvent:
    """Rule 701.6a (2009: 701.5a): what was countered and by what -- both on the stack, which
    is public (400.2), so named only as the viewer saw them there (a face-down spell stays
    nameless) -- and the "unless ... pays" cost not paid (118.12a)."""
    was = before.get(event.object_id) or after.get(event.object_id)
    by = (before.get(event.by_id) or after.get(event.by_id)) if event.by_id else None
    return pb.GameEvent(countered=pb.CounteredEvent(
        object_id=was.id if was is not None else "", controller=event.controller,
        name=_name(was), ability=was is not None and was.is_ability,
        by_id=by.id if by is not None else "", by_name=_name(by),
        by_ability=by is not None and by.is_ability, unless_cost=event.unless_cost,
        declined=event.declined))


def _targets(obj: ObjectView | None, visible: Callable[[str | None], str]
             ) -> list[pb.Target]:
    """What the spell or ability ``obj`` targets (601.2c) -- players, and the objects the
    viewer can see -- as it is on the stack after the action."""
    if obj is None:
        return []
    return [pb.Target(player=int(ref)) if kind == "player" else pb.Target(object_id=oid)
            for kind, ref in obj.targets
            if kind == "player" or (oid := visible(str(ref)))]


def _public(event: Event, visible: Callable[[str | None], str],
            after: Mapping[str, ObjectView]) -> pb.GameEvent | None:
    """Events every viewer may know in full (ids filtered by ``visible``; ``after``: the
    viewer's objects after the action, for a spell or ability on the stack)."""
    if isinstance(event, DamageDealt):
        damage = pb.DamageEvent(source_id=visible(event.source_id), amount=event.amount)
        if event.player is not None:
            damage.player = event.player
        else:
            damage.object_id = visible(event.object_id)
        return pb.GameEvent(damage=damage)
    if isinstance(event, PlayerLost):
        return pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=event.seat, reason=event.reason))
    if isinstance(event, GameEnded):
        return pb.GameEvent(game_ended=pb.GameEndedEvent(winners=event.winners,
                                                         reason=event.reason))
    if isinstance(event, SpellCast):
        oid = visible(event.object_id)
        return pb.GameEvent(spell_cast=pb.SpellCastEvent(
            object_id=oid, controller=event.controller, name=event.card.name if oid else "",
            targets=_targets(after.get(oid) if oid else None, visible)))
    if isinstance(event, (AbilityActivated, AbilityTriggered)):
        # The stack is public (400.2): the ability, its source's name and its targets.
        ability = after.get(visible(event.object_id))
        if ability is None:  # (gone within the action: nothing to name)
            return None
        return pb.GameEvent(ability=pb.AbilityEvent(
            object_id=ability.id, controller=event.controller,
            source_id=visible(event.source_id), name=ability.name, text=ability.ability_text,
            triggered=isinstance(event, AbilityTriggered),
            targets=_targets(ability, visible)))
    if isinstance(event, CardDrawn):
        return pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=event.seat))
    if isinstance(event, TokenCreated):
        oid = visible(event.object_id)
        return pb.GameEvent(token_created=pb.TokenCreatedEvent(
            object_id=oid, controller=event.controller, name=event.card.name if oid else ""))
    if isinstance(event, AttackersDeclared):
        shown = [(oid, seat, walker) for oid, seat, walker in zip(
            map(visible, event.attackers), event.defenders, event.planeswalkers, strict=True)
            if oid]
        return pb.GameEvent(attackers_declared=pb.AttackersDeclaredEvent(
            attacker_ids=[oid for oid, _s, _w in shown],
            defenders=[seat for _o, seat, _w in shown],
            planeswalker_ids=[visible(walker) if walker else "" for _o, _s, walker in shown]))
    if isinstance(event, BlockersDeclared):
        return pb.GameEvent(blockers_declared=pb.BlockersDeclaredEvent(blocks=[
            pb.BlockPair(blocker_id=visible(b), attacker_id=visible(a))
            for b, a in event.blocks]))
    return _public_counts(event)


def _public_counts(event: Event) -> pb.GameEvent | None:
    if isinstance(event, LibrarySearched):
        return pb.GameEvent(library_searched=pb.LibrarySearchedEvent(
            seat=event.seat, owner=event.owner, found=event.found))
    if isinstance(event, ClashResolved):
        clash = pb.ClashEvent(seats=event.seats)
        if event.winner is not None:
            clash.winner = event.winner
        return pb.GameEvent(clash=clash)
    if isinstance(event, LifeExchanged):
        return pb.GameEvent(life_exchanged=pb.LifeExchangedEvent(seats=event.seats))
    if isinstance(event, CrimeCommitted):
        return pb.GameEvent(crime=pb.CrimeEvent(seat=event.seat))
    if isinstance(event, Expended):
        return pb.GameEvent(expend=pb.ExpendEvent(seat=event.seat, amount=event.amount))
    if isinstance(event, StartingPlayerChosen):
        return pb.GameEvent(starting_player_chosen=pb.StartingPlayerChosenEvent(
            chooser=event.chooser, starting=event.starting))
    if isinstance(event, MulliganTaken):
        return pb.GameEvent(mulligan_taken=pb.MulliganTakenEvent(seat=event.seat,
                                                                 number=event.number))
    return None
