"""Triggered abilities (rule 603): what triggers on which event, and putting waiting triggers
on the stack in APNAP order (603.3b)."""

from __future__ import annotations

from typing import Any, assert_never

from server.cards import CardDef
from server.cards.model import DamageKind, Recipient, TriggeredAbility, TriggerEvent
from server.cards.verbs import PROWESS
from server.engine import casting, counting, filters
from server.engine.board import board
from server.engine.events import (
    AbilityActivated,
    AttackersDeclared,
    BlockersDeclared,
    CardDrawn,
    CountersPut,
    CrimeCommitted,
    DamageDealt,
    Event,
    Expended,
    LifeGained,
    Sacrificed,
    SpellCast,
    TargetsChosen,
    TokenCreated,
    Untapped,
    ZoneChanged,
)
from server.engine.filters import LastKnown
from server.engine.state import (
    AbilityKind,
    Choice,
    DecisionKind,
    Game,
    GameObject,
    PendingTrigger,
    Zone,
)
from server.engine.zones import fresh_id


def trigger(game: Game, controller: int, card: CardDef, source_id: str,
             event: TriggerEvent, *, event_player: int | None = None,
             keywords: bool = False, blocked: GameObject | None = None,
             spell: CardDef | None = None, amount: int = 0, event_amount: int = 0,
             spell_obj: GameObject | None = None,
             last_known: LastKnown | None = None,
             damage: DamageDealt | None = None, event_object: str | None = None,
             attackers: tuple[GameObject, ...] = (),
             moved: ZoneChanged | None = None, counter_kind: str = "",
             delayed: TriggeredAbility | None = None,
             granted: tuple[TriggeredAbility, ...] | None = None,
             sources: tuple[GameObject | LastKnown, ...] = ()) -> None:
    """Rule 603.2: ``card``'s abilities with this trigger event trigger. An intervening "if"
    must hold now (603.4). ``keywords``: the source's keyword triggers (prowess) too;
    ``event_amount``: "that much" of the event (life gained, 119.9, damage dealt);
    ``spell_obj``: the object the event is about (the spell just cast, 601.2i; the permanent
    that entered; the damage source), for a trigger's ``filter``; ``last_known``: that
    object's card, controller and id if it has left its zone (608.2h); ``damage``: the damage
    event a "deals damage" trigger checks its damage kind and recipient against;
    ``event_object``: "that creature" of the event; ``attackers``: the creatures declared as
    attackers, for "whenever you attack with N or more ..."; ``moved``: the zone change a
    "changes zone" trigger checks its zones against. An ability triggers only from the zone
    it functions in (rule 113.6): the battlefield unless it says otherwise (113.6k).
    ``delayed``: check only this delayed triggered ability (603.7) instead of the card's.
    ``granted``: the triggered abilities static abilities granted the source (613.1f) as it
    last existed, for one that has left the battlefield (603.10a); by default those it has
    on the battlefield now. ``sources``: the creatures that dealt a player combat damage
    together ("whenever one or more [filter] creatures deal combat damage to a player")."""
    if delayed is None and not card.triggers and not keywords and not granted and \
            not _granted_now(game, source_id):
        return  # nothing of this object's can trigger (the usual case)
    if game.players[controller].has_lost:
        return  # rule 800.4d
    source_now = game.objects.get(source_id)
    in_graveyard = source_now is not None and source_now.zone is Zone.GRAVEYARD
    found: list[tuple[int, TriggeredAbility]] = [(-1, delayed)] if delayed is not None else [
        (i, t) for i, t in enumerate(card.triggers) if (t.zone == "graveyard") == in_graveyard]
    if delayed is None:
        if granted is None and source_now is not None and source_now.zone is Zone.BATTLEFIELD:
            granted = source_now.granted_triggers
        found += [(-1, t) for t in granted or ()]  # rule 613.1f: granted abilities
    if keywords and event is TriggerEvent.YOU_CAST_NONCREATURE:
        source = game.objects.get(source_id)
        if source is not None and source.has("Prowess"):
            found.append((-1, PROWESS))  # rule 702.108a
    for index, ability in found:
        if ability.event is not event:
            continue
        if ability.event is TriggerEvent.COUNTERS_PUT:
            if ability.quality != counter_kind:
                continue  # "whenever one or more +1/+1 counters are put ..."
        elif ability.quality and (blocked is None or not blocked.has(ability.quality)):
            continue
        if ability.colors and (spell is None or not set(ability.colors) & set(spell.colors)):
            continue
        if ability.event is TriggerEvent.COMBAT_DAMAGE_TO_PLAYER_BY:
            if not any(_fits(game, ability, controller, source_id, s) for s in sources):
                continue  # "one or more Cats you control" (510.2)
        elif ability.filter is not None and ability.event not in _ATTACK_COUNTS and \
                not _subject_matches(
                game, ability, controller, source_id, subject=spell_obj, last_known=last_known):
            continue  # "whenever you cast a Dog spell": the spell and its caster
        if ability.event is TriggerEvent.SOURCE_DEALS_DAMAGE and (
                damage is None or not _damage_kind_fits(ability.damage, damage.combat)
                or not _recipient_fits(game, ability.recipient, controller, damage)):
            continue  # "deals noncombat damage to an opponent" (120.3)
        if ability.event in _ATTACK_COUNTS:
            if ability.count and not _enough_attackers(game, ability, controller, source_id,
                                                       attackers):
                continue  # "with two or more creatures with flying" (508.3a)
        elif ability.count and ability.count != (
                _spell_number(game, ability, controller, source_id, spell_obj)
                if ability.event is TriggerEvent.SPELL_CAST else amount):
            continue  # "whenever you expend 4" (700.14); "your second card each turn"
        if ability.event is TriggerEvent.CHANGES_ZONE and not _zones_fit(ability, moved):
            continue
        if not counting.condition_met(game, controller, source_id, ability.condition):
            continue
        if ability.once_each_turn \
                and not game.watchers.once_each_turn.use(f"{source_id}:{index}"):
            continue  # "This ability triggers only once each turn." (603.2h)
        for _ in range(1 + _additional_times(game, controller, source_id)):
            game.pending_triggers.append(PendingTrigger(
                fresh_id(game), controller, card, index, source_id, ability, event_player,
                event_amount, event_object))


def _additional_times(game: Game, controller: int, source_id: str) -> int:
    """Rule 603.2d: "it triggers an additional time" -- once for each permanent whose
    ``extra_triggers`` describes the trigger's source, on the battlefield, as it triggers."""
    source = game.objects.get(source_id)
    if source is None or source.zone is not Zone.BATTLEFIELD:
        return 0
    times = 0
    for oid in game.battlefield:
        extra = game.objects[oid].card.extra_triggers
        you = game.objects[oid].controller
        if extra is not None and filters.matches(game, source, extra.filter, you, oid) \
                and counting.condition_met(game, you, oid, extra.condition):
            times += 1
    return times


#: Events whose ``filter`` describes the declared attackers counted, not one object.
_ATTACK_COUNTS = (TriggerEvent.YOU_ATTACK_WITH, TriggerEvent.ATTACKS)
_ZONE_NAMES = {"battlefield": Zone.BATTLEFIELD, "graveyard": Zone.GRAVEYARD,
               "hand": Zone.HAND, "library": Zone.LIBRARY, "exile": Zone.EXILE,
               "stack": Zone.STACK}


def _zones_fit(ability: TriggeredAbility, moved: ZoneChanged | None) -> bool:
    """Whether a zone change goes from and to the zones a "changes zone" trigger names."""
    return moved is not None and (
        not ability.from_zone or _ZONE_NAMES[ability.from_zone] is moved.from_zone) and (
        not ability.to_zone or _ZONE_NAMES[ability.to_zone] is moved.to_zone)


def _fits(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
          subject: GameObject | LastKnown) -> bool:
    """Whether one object (or its last known information, 608.2h) fits the trigger's filter."""
    if isinstance(subject, LastKnown):
        return _subject_matches(game, ability, controller, source_id, subject=None,
                                last_known=subject)
    return _subject_matches(game, ability, controller, source_id, subject=subject,
                            last_known=None)


def _spell_number(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
                  spell: GameObject | None) -> int:
    """"Whenever [a player] casts their Nth [filter] spell each turn": which of the caster's
    spells this turn (601.2i; this one included) that the trigger's ``filter`` describes this
    spell is -- counted whether or not the source was on the battlefield for the others."""
    if spell is None or ability.filter is None:
        return 0
    caster = spell.controller
    return sum(1 for card in game.watchers.spells_cast.of(caster)
               if filters.matches_last_known(game, LastKnown(card, caster, ""), ability.filter,
                                             controller, source_id))


def _enough_attackers(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
                      attackers: tuple[GameObject, ...]) -> bool:
    """"Whenever you attack with N or more [filter] creatures"; "whenever [this] and at least
    N other [filter] creatures attack" (508.3a): the declared attackers matching the filter,
    as they were declared (the count is of that declaration, not of later changes)."""
    assert ability.filter is not None  # the loader requires it with a count
    if ability.event is TriggerEvent.ATTACKS and not any(a.id == source_id for a in attackers):
        return False
    n = sum(1 for a in attackers if filters.matches(game, a, ability.filter, controller,
                                                     source_id))
    return n >= ability.count


def _subject_matches(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
                     *, subject: GameObject | None,
                     last_known: LastKnown | None) -> bool:
    """Whether the object the event is about fits the trigger's ``filter``."""
    assert ability.filter is not None
    if subject is not None:
        return filters.matches(game, subject, ability.filter, controller, source_id)
    if last_known is not None:
        return filters.matches_last_known(game, last_known, ability.filter, controller,
                                           source_id)
    return False


def _granted_now(game: Game, source_id: str) -> bool:
    """Whether static abilities grant the object ``source_id`` triggered abilities."""
    obj = game.objects.get(source_id)
    return obj is not None and bool(obj.granted_triggers)


def each_permanent(game: Game, event: TriggerEvent, seat: int | None = None,
                    **kwargs: Any) -> None:
    """Trigger ``event`` for every permanent and emblem (rule 114.4) controlled by
    ``seat``, if given, and every card in a graveyard with an ability that triggers from
    there (rule 113.6k; its owner controls it, 108.4a)."""
    keywords = kwargs.get("keywords", False)
    # Without keywords, only permanents with triggered abilities can trigger (same order).
    permanents = game.battlefield if keywords else [o.id for o in board(game).triggering]
    for oid in [*permanents, *game.command]:
        obj = game.objects[oid]
        if (seat is None or obj.controller == seat) and not obj.face_down and (
                obj.card.triggers or obj.granted_triggers or keywords):  # 400.9, 708.2
            trigger(game, obj.controller, obj.card, oid, event, **kwargs)
    for player in game.players:
        if seat is None or player.seat == seat:
            for oid in [i for i in player.graveyard
                        if game.objects[i].card.triggers_from_graveyard]:
                trigger(game, player.seat, game.objects[oid].card, oid, event, **kwargs)
    # Delayed triggered abilities (603.7) with this event: "until end of turn, whenever a
    # creature you control ... deals combat damage to a player" -- each time this turn
    # (603.7b), or only the next time. (Attack triggers are checked per declaration.)
    for delayed in list(game.delayed):
        if delayed.ability.event is not event or event is \
                TriggerEvent.NONTOKEN_CREATURES_ATTACK or (
                seat is not None and delayed.controller != seat):
            continue
        before = len(game.pending_triggers)
        trigger(game, delayed.controller, delayed.card, "", event, delayed=delayed.ability,
                **kwargs)
        if len(game.pending_triggers) > before and not delayed.this_turn:
            game.delayed.remove(delayed)  # rule 603.7b: only the next time


def collect_triggers(game: Game, events: list[Event], seen: int) -> int:
    """Rule 603.2: abilities trigger when their event happens; they wait to be put on the
    stack the next time a player would receive priority (603.3). Leaves-the-battlefield
    triggers look back in time (603.10a)."""
    if seen == len(events):
        _state_triggers(game)  # no new event: only the game state can trigger (603.8)
        return seen
    fresh = events[seen:]
    # Rule 603.10a: leaves-the-battlefield abilities look back in time, so permanents that
    # left the battlefield in these same events still see what left with them.
    departed = [(e.old_id, e.controller, e.card) for e in fresh
                if isinstance(e, ZoneChanged) and e.from_zone is Zone.BATTLEFIELD]
    for event in fresh:
        if isinstance(event, TokenCreated):
            trigger(game, event.controller, event.card, event.object_id, TriggerEvent.ENTERS)
            _permanent_enters(game, event.object_id)
        elif isinstance(event, SpellCast):
            if not event.card.creature:
                each_permanent(game, TriggerEvent.YOU_CAST_NONCREATURE, event.controller,
                                keywords=True)
            each_permanent(game, TriggerEvent.YOU_CAST_COLORED, event.controller,
                            spell=event.card)
            cast = game.objects.get(event.object_id)
            if cast is not None:
                each_permanent(game, TriggerEvent.SPELL_CAST, spell_obj=cast,
                               event_object=cast.id)  # "copy that spell"
        elif isinstance(event, DamageDealt):
            _damage_triggers(game, event, departed)
            _source_damage_triggers(game, event, fresh)
        elif isinstance(event, CountersPut):
            _counters_put(game, event)
        elif isinstance(event, LifeGained):
            # Rule 119.9: "whenever you gain life" -- once per life-gain event.
            each_permanent(game, TriggerEvent.YOU_GAIN_LIFE, event.seat,
                           event_amount=event.amount)
        elif isinstance(event, CardDrawn):
            # "Whenever you draw your second card each turn": the draw's number (121.1).
            each_permanent(game, TriggerEvent.YOU_DRAW, event.seat, amount=event.number)
        elif isinstance(event, Untapped):
            untapped = game.objects.get(event.object_id)
            if untapped is not None and untapped.zone is Zone.BATTLEFIELD:
                trigger(game, untapped.controller, untapped.card, untapped.id,
                        TriggerEvent.BECOMES_UNTAPPED)  # rule 701.26b
        elif isinstance(event, Sacrificed):
            # "Whenever you sacrifice a permanent" (701.21a): the sacrificed permanent as it
            # last existed; those that left with it (itself, too) look back (603.10a).
            sacrificed = LastKnown(event.card, event.seat, event.object_id)
            each_permanent(game, TriggerEvent.YOU_SACRIFICE, event.seat, last_known=sacrificed)
            for oid, controller, card in departed:
                if controller == event.seat:
                    trigger(game, controller, card, oid, TriggerEvent.YOU_SACRIFICE,
                            last_known=sacrificed)
        elif isinstance(event, CrimeCommitted):
            each_permanent(game, TriggerEvent.YOU_COMMIT_CRIME, event.seat)  # rule 700.13
        elif isinstance(event, Expended):
            each_permanent(game, TriggerEvent.YOU_EXPEND, event.seat, amount=event.amount)
        elif isinstance(event, AttackersDeclared):
            attackers = tuple(game.objects[i] for i in event.attackers if i in game.objects)
            for attacking in attackers:
                trigger(game, attacking.controller, attacking.card, attacking.id,
                        TriggerEvent.ATTACKS, attackers=attackers)
            for attacking in attackers:  # "whenever a creature you control with ... attacks"
                each_permanent(game, TriggerEvent.CREATURE_ATTACKS, spell_obj=attacking,
                               event_object=attacking.id)
            each_permanent(game, TriggerEvent.YOU_ATTACK_WITH, attackers=attackers)
            if attackers:  # "whenever an opponent attacks" (508.1): the active player
                for seat in game.opponents(game.active):
                    each_permanent(game, TriggerEvent.OPPONENT_ATTACKS, seat,
                                   event_player=game.active)
            _delayed_attack_triggers(game, event)
        elif isinstance(event, BlockersDeclared):
            for blocker_id, attacker_id in event.blocks:
                obj = game.objects.get(blocker_id)
                if obj is not None:
                    trigger(game, obj.controller, obj.card, blocker_id, TriggerEvent.BLOCKS,
                             blocked=game.objects.get(attacker_id))
                attacker = game.objects.get(attacker_id)
                if attacker is not None and obj is not None:
                    # Rule 509.3d: once for each creature blocking it.
                    trigger(game, attacker.controller, attacker.card, attacker_id,
                            TriggerEvent.BECOMES_BLOCKED_BY, event_player=obj.controller,
                            event_object=blocker_id)
        elif isinstance(event, TargetsChosen):
            _targeted(game, event)
        elif isinstance(event, AbilityActivated) and event.loyalty:
            # "Whenever you activate a loyalty ability of a Chandra planeswalker" (606.4).
            source = game.objects.get(event.source_id)
            if source is not None:
                each_permanent(game, TriggerEvent.LOYALTY_ACTIVATED, event.controller,
                               spell_obj=source, event_object=source.id)
        elif isinstance(event, ZoneChanged):
            if event.to_zone is Zone.BATTLEFIELD:
                obj = game.objects.get(event.new_id)
                controller = obj.controller if obj is not None else event.owner
                trigger(game, controller, event.card, event.new_id, TriggerEvent.ENTERS)
                _permanent_enters(game, event.new_id)
            _zone_change_triggers(game, event, departed)
            if event.from_zone is Zone.BATTLEFIELD:
                # "When [this] leaves the battlefield" (603.6c): as it last existed (603.10a).
                trigger(game, event.controller, event.card, event.old_id,
                        TriggerEvent.LEAVES_BATTLEFIELD, granted=event.granted)
            if event.from_zone is Zone.BATTLEFIELD and event.card.creature:
                # "Whenever a creature leaves the battlefield" (603.6c; planes, 311.4).
                each_permanent(game, TriggerEvent.CREATURE_LEAVES_BATTLEFIELD,
                               event_player=event.controller)
            if event.from_zone is Zone.BATTLEFIELD and event.to_zone is Zone.GRAVEYARD:
                trigger(game, event.controller, event.card, event.old_id, TriggerEvent.DIES,
                        granted=event.granted)
                if event.card.creature:  # "when enchanted/equipped creature dies" (400.7f)
                    for oid in [i for i in game.battlefield
                                if (game.objects[i].card.is_aura
                                    or game.objects[i].card.is_equipment)
                                and game.objects[i].attached_to == event.old_id]:
                        trigger(game, game.objects[oid].controller, game.objects[oid].card,
                                oid, TriggerEvent.ENCHANTED_CREATURE_DIES)
                    # An Aura or Equipment that left the battlefield with it looks back in
                    # time (603.10a): it still triggers, as it last existed.
                    for left in fresh:
                        if isinstance(left, ZoneChanged) and \
                                left.from_zone is Zone.BATTLEFIELD and \
                                left.attached_to == event.old_id and \
                                (left.card.is_aura or left.card.is_equipment):
                            trigger(game, left.controller, left.card, left.old_id,
                                    TriggerEvent.ENCHANTED_CREATURE_DIES)
                if event.card.creature:
                    watchers = [(o.id, o.controller, o.card) for o in
                                (game.objects[i] for i in game.battlefield)]
                    for oid, controller, card in [*watchers, *departed]:
                        if controller != event.controller:
                            trigger(game, controller, card, oid,
                                     TriggerEvent.OPPONENT_CREATURE_DIES,
                                     event_player=event.controller)
    _combat_damage_batches(game, fresh, departed)
    _state_triggers(game)
    return len(events)


def _combat_damage_batches(game: Game, fresh: list[Event],
                           departed: list[tuple[str, int, CardDef]]) -> None:
    """"Whenever one or more [filter] creatures deal combat damage to a player" (510.2): once
    per player dealt combat damage in these events, with the creatures that dealt it (as
    they last existed if they have left the battlefield since, 603.10a)."""
    dealt: dict[int, list[str]] = {}
    for event in fresh:
        if isinstance(event, DamageDealt) and event.combat and event.player is not None \
                and event.amount > 0:
            dealt.setdefault(event.player, []).append(event.source_id)
    for seat, ids in dealt.items():
        found: list[GameObject | LastKnown] = []
        for oid in dict.fromkeys(ids):
            obj = game.objects.get(oid)
            if obj is not None and obj.zone is Zone.BATTLEFIELD:
                found.append(obj)
            else:
                found += [LastKnown(card, c, old) for old, c, card in departed if old == oid]
        each_permanent(game, TriggerEvent.COMBAT_DAMAGE_TO_PLAYER_BY, event_player=seat,
                       sources=tuple(found))


def _state_triggers(game: Game) -> None:
    """Rule 603.8: a state trigger triggers as soon as the game state matches its condition,
    and again only after that instance has resolved, been countered or otherwise left the
    stack -- so not while it waits to be put on the stack or is on it."""
    if not board(game).state_triggers:
        return  # no permanent has a state trigger (the usual case)
    waiting = {(t.source_id, t.index) for t in game.pending_triggers}
    for oid in game.stack:
        ref = game.objects[oid].ability
        if ref is not None and ref.kind is AbilityKind.TRIGGERED:
            waiting.add((ref.source_id, ref.index))
    for oid in list(game.battlefield):
        obj = game.objects[oid]
        if obj.face_down or game.players[obj.controller].has_lost:
            continue  # rules 708.2, 800.4d
        for index, ability in enumerate(obj.card.triggers):
            if ability.event is TriggerEvent.STATE and (oid, index) not in waiting and \
                    counting.condition_met(game, obj.controller, oid, ability.condition):
                game.pending_triggers.append(PendingTrigger(
                    fresh_id(game), obj.controller, obj.card, index, oid, ability))


def _damage_triggers(game: Game, event: DamageDealt,
                     departed: list[tuple[str, int, CardDef]]) -> None:
    """"Whenever [this] is dealt damage" and "whenever [this] deals combat damage to a
    player" (rules 120.3, 510.2): once per damage event, "that much" being the damage; a
    permanent that has since left the battlefield still triggers, as it last existed."""
    def found(oid: str) -> tuple[int, CardDef] | None:
        obj = game.objects.get(oid)
        if obj is not None and obj.zone is Zone.BATTLEFIELD:
            return obj.controller, obj.card
        return next(((c, card) for old, c, card in departed if old == oid), None)

    if event.object_id is not None and (dealt := found(event.object_id)) is not None:
        trigger(game, dealt[0], dealt[1], event.object_id, TriggerEvent.DEALT_DAMAGE,
                event_amount=event.amount)
    if event.player is not None and event.combat and \
            (dealer := found(event.source_id)) is not None:
        trigger(game, dealer[0], dealer[1], event.source_id,
                TriggerEvent.DEALS_COMBAT_DAMAGE_TO_PLAYER, event_player=event.player,
                event_amount=event.amount)
    dealt_walker = game.objects.get(event.object_id) if event.object_id is not None else None
    if event.combat and (event.player is not None or (
            dealt_walker is not None and dealt_walker.card.planeswalker)) and \
            (dealer := found(event.source_id)) is not None:
        trigger(game, dealer[0], dealer[1], event.source_id,
                TriggerEvent.DEALS_COMBAT_DAMAGE_TO_PLAYER_OR_PLANESWALKER,
                event_player=event.player, event_amount=event.amount)


def _zone_change_triggers(game: Game, event: ZoneChanged,
                          departed: list[tuple[str, int, CardDef]]) -> None:
    """"Whenever [a filter object] is put into [zone] from [zone]" (603.2, 603.6): an object
    that entered the battlefield is matched as it is there (603.6d); any other as it last
    existed (608.2h) -- and an object leaving the battlefield is seen by the permanents that
    left with it (leaves-the-battlefield abilities look back in time, 603.10a)."""
    entered = game.objects.get(event.new_id) if event.to_zone is Zone.BATTLEFIELD else None
    last_known = LastKnown(event.card, event.controller, event.old_id, event.counters,
                           event.attacking)
    common: dict[str, Any] = {"spell_obj": entered, "last_known": last_known,
                              "event_object": event.new_id, "moved": event,
                              "event_player": event.controller}
    each_permanent(game, TriggerEvent.CHANGES_ZONE, **common)
    if event.from_zone is Zone.BATTLEFIELD:
        for oid, controller, card in departed:
            trigger(game, controller, card, oid, TriggerEvent.CHANGES_ZONE, **common)


def _targeted(game: Game, event: TargetsChosen) -> None:
    """"Whenever [this] becomes the target of a spell or ability [an opponent controls]"
    (601.2c, 603.2e): once per spell or ability for each permanent it targets; "that spell"
    is the spell or ability, "that player" its controller."""
    spell = game.objects.get(event.object_id)
    if spell is None:
        return
    for oid in dict.fromkeys(event.targets):
        target = game.objects.get(oid)
        if target is not None and target.zone is Zone.BATTLEFIELD:
            trigger(game, target.controller, target.card, oid, TriggerEvent.BECOMES_TARGET,
                    spell_obj=spell, event_object=spell.id, event_player=spell.controller)


def _counters_put(game: Game, event: CountersPut) -> None:
    """"Whenever one or more [kind] counters are put on a [filter] permanent" (122.1, 603.2):
    once per event, matched as the permanent is now (also one that entered with them)."""
    obj = game.objects.get(event.object_id)
    if obj is None or obj.zone is not Zone.BATTLEFIELD:
        return
    for oid in [*game.battlefield, *game.command]:
        holder = game.objects[oid]
        if holder.face_down:
            continue
        if any(t.event is TriggerEvent.COUNTERS_PUT and t.quality == event.kind
               for t in holder.card.triggers):
            trigger(game, holder.controller, holder.card, oid, TriggerEvent.COUNTERS_PUT,
                    spell_obj=obj, event_object=obj.id, event_amount=event.amount,
                    counter_kind=event.kind)


def _permanent_enters(game: Game, object_id: str) -> None:
    """"Whenever [this or another] [filter] enters" (603.6a): every permanent's ability whose
    filter the entering permanent fits, as it is on the battlefield (603.6d)."""
    entered = game.objects.get(object_id)
    if entered is not None and entered.zone is Zone.BATTLEFIELD:
        each_permanent(game, TriggerEvent.PERMANENT_ENTERS, spell_obj=entered,
                       event_object=entered.id)  # "that creature"


def _recipient_fits(game: Game, recipient: Recipient, controller: int,
                    event: DamageDealt) -> bool:
    """Whether the damage went to what a "deals damage to [recipient]" trigger names."""
    dealt = game.objects.get(event.object_id) if event.object_id is not None else None
    if recipient is Recipient.ANY:
        return True
    if recipient is Recipient.PLAYER:
        return event.player is not None
    if recipient is Recipient.OPPONENT:
        return event.player is not None and event.player in game.opponents(controller)
    if recipient is Recipient.CREATURE:
        return dealt is not None and dealt.is_creature
    if recipient is Recipient.PLANESWALKER:
        return dealt is not None and dealt.card.planeswalker
    assert_never(recipient)


def _damage_kind_fits(kind: DamageKind, combat: bool) -> bool:
    if kind is DamageKind.ANY:
        return True
    if kind is DamageKind.COMBAT:
        return combat  # rule 510.2
    if kind is DamageKind.NONCOMBAT:
        return not combat
    assert_never(kind)


def _source_damage_triggers(game: Game, event: DamageDealt, fresh: list[Event]) -> None:
    """"Whenever a [filter] source deals [combat|noncombat] damage to [recipient]" (120.3):
    once per damage event; a source that has since left its zone (a resolved spell) is
    matched by its last known information (608.2h)."""
    if event.amount <= 0:
        return
    source = game.objects.get(event.source_id)
    last_known = next((LastKnown(e.card, e.controller, e.old_id, e.counters, e.attacking)
                       for e in fresh
                       if isinstance(e, ZoneChanged) and e.old_id == event.source_id), None)
    if source is None and last_known is None:
        return
    each_permanent(game, TriggerEvent.SOURCE_DEALS_DAMAGE, event_player=event.player,
                   event_amount=event.amount, spell_obj=source, last_known=last_known,
                   damage=event, event_object=event.object_id)  # "destroy that planeswalker"


def _delayed_attack_triggers(game: Game, event: AttackersDeclared) -> None:
    """Delayed "whenever one or more nontoken creatures attack" abilities (603.7)."""
    nontoken = [game.objects[i] for i in event.attackers
                if i in game.objects and not game.objects[i].is_token]
    for delayed in list(game.delayed):
        if delayed.ability.event is not TriggerEvent.NONTOKEN_CREATURES_ATTACK:
            continue
        mine = [o for o in nontoken if o.controller == delayed.controller]
        if not mine or game.players[delayed.controller].has_lost:
            continue
        game.pending_triggers.append(PendingTrigger(
            fresh_id(game), delayed.controller, delayed.card, -1, "", delayed.ability,
            event_amount=len(mine)))
        if not delayed.this_turn:
            game.delayed.remove(delayed)  # rule 603.7b: only the next time


def put_triggers(game: Game, events: list[Event]) -> None:
    """Rules 603.3b, 405.3: the active player puts their triggered abilities on the stack
    first, then each other player in turn order; a player with several orders them."""
    for seat in game.apnap():
        mine = [t for t in game.pending_triggers if t.controller == seat]
        if len(mine) == 1:
            casting.put_trigger_on_stack(game, mine[0], events)
            return
        if mine:
            game.choices.append(Choice(DecisionKind.ORDER_TRIGGERS, seat, [t.id for t in mine]))
            return
    game.pending_triggers.clear()  # only triggers of players who left remained
