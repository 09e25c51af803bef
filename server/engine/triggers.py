"""Triggered abilities (rule 603): what triggers on which event, and putting waiting triggers
on the stack in APNAP order (603.3b).

A triggered ability names a general kind of event (:class:`TriggerEvent`) with parameters;
:func:`_fits` decides, once for every kind, whether one occurrence of that kind of event
fits the ability's parameters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, assert_never

from server.cards import CardDef
from server.cards.model import (
    Controller,
    DamageKind,
    Recipient,
    TriggeredAbility,
    TriggerEvent,
    TriggerStep,
    TriggerSubject,
)
from server.cards.verbs import PROWESS
from server.engine import casting, counting, filters
from server.engine.board import board, graveyard
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
    LeftGame,
    LifeGained,
    LifeLost,
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

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_ABILITY_KIND_TRIGGERED: Final = AbilityKind.TRIGGERED
_CONTROLLER_ANY: Final = Controller.ANY
_CONTROLLER_OPPONENT: Final = Controller.OPPONENT
_CONTROLLER_THAT_PLAYER: Final = Controller.THAT_PLAYER
_CONTROLLER_YOU: Final = Controller.YOU
_DECISION_KIND_ORDER_TRIGGERS: Final = DecisionKind.ORDER_TRIGGERS
_RECIPIENT_ANY: Final = Recipient.ANY
_RECIPIENT_CREATURE: Final = Recipient.CREATURE
_RECIPIENT_OPPONENT: Final = Recipient.OPPONENT
_RECIPIENT_PLANESWALKER: Final = Recipient.PLANESWALKER
_RECIPIENT_PLAYER: Final = Recipient.PLAYER
_RECIPIENT_PLAYER_OR_PLANESWALKER: Final = Recipient.PLAYER_OR_PLANESWALKER
_TRIGGER_EVENT_ATTACKS: Final = TriggerEvent.ATTACKS
_TRIGGER_EVENT_BECOMES_BLOCKED: Final = TriggerEvent.BECOMES_BLOCKED
_TRIGGER_EVENT_BECOMES_TARGET: Final = TriggerEvent.BECOMES_TARGET
_TRIGGER_EVENT_BECOMES_UNTAPPED: Final = TriggerEvent.BECOMES_UNTAPPED
_TRIGGER_EVENT_BLOCKS: Final = TriggerEvent.BLOCKS
_TRIGGER_EVENT_CAST: Final = TriggerEvent.CAST
_TRIGGER_EVENT_COUNTERS_PUT: Final = TriggerEvent.COUNTERS_PUT
_TRIGGER_EVENT_CRIME: Final = TriggerEvent.CRIME
_TRIGGER_EVENT_DEALS_DAMAGE: Final = TriggerEvent.DEALS_DAMAGE
_TRIGGER_EVENT_DEALT_DAMAGE: Final = TriggerEvent.DEALT_DAMAGE
_TRIGGER_EVENT_DRAW: Final = TriggerEvent.DRAW
_TRIGGER_EVENT_EXPEND: Final = TriggerEvent.EXPEND
_TRIGGER_EVENT_GAIN_LIFE: Final = TriggerEvent.GAIN_LIFE
_TRIGGER_EVENT_LOSE_LIFE: Final = TriggerEvent.LOSE_LIFE
_TRIGGER_EVENT_LOYALTY_ACTIVATED: Final = TriggerEvent.LOYALTY_ACTIVATED
_TRIGGER_EVENT_SACRIFICE: Final = TriggerEvent.SACRIFICE
_TRIGGER_EVENT_STATE: Final = TriggerEvent.STATE
_TRIGGER_EVENT_STEP: Final = TriggerEvent.STEP
_TRIGGER_EVENT_ZONE_CHANGE: Final = TriggerEvent.ZONE_CHANGE
_TRIGGER_SUBJECT_ATTACHED: Final = TriggerSubject.ATTACHED
_TRIGGER_SUBJECT_FILTER: Final = TriggerSubject.FILTER
_TRIGGER_SUBJECT_THIS: Final = TriggerSubject.THIS
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_GRAVEYARD: Final = Zone.GRAVEYARD


@dataclass(frozen=True, slots=True)
class _Occurrence:
    """One occurrence of a kind of trigger event, as a triggered ability sees it."""

    kind: TriggerEvent
    #: How the object the event is about relates to the ability's source (THIS: it is the
    #: source; ATTACHED: the source is attached to it; FILTER: any other watcher); None for
    #: an event about no object, or about the source by its kind.
    subject: TriggerSubject | None
    #: The player the event is about: whose step, who drew, gained life, ...
    player: int | None
    #: The creature blocked (BLOCKS).
    blocked: GameObject | None
    #: The event's number: the card drawn's number this turn (121.1), the mana expended.
    number: int
    #: The object the event is about, if it is in its zone (the spell cast, the permanent
    #: that entered, the damage source, the attacker), or its last known information.
    obj: GameObject | None
    last_known: LastKnown | None
    damage: DamageDealt | None
    attackers: tuple[GameObject, ...]
    #: ZONE_CHANGE: the zones moved from (None: a token created) and to (None: out of the
    #: game with its owner, 800.4a).
    zones: tuple[Zone | None, Zone | None] | None
    counter_kind: str
    #: DEALS_DAMAGE batches: the creatures that dealt a player combat damage together.
    sources: tuple[GameObject | LastKnown, ...]
    step: TriggerStep | None
    #: Once per declaration or damage step ("one or more"), not per object.
    batch: bool


def trigger(game: Game, controller: int, card: CardDef, source_id: str,
             event: TriggerEvent, *, event_player: int | None = None,
             keywords: bool = False, blocked: GameObject | None = None,
             amount: int = 0, event_amount: int = 0,
             spell_obj: GameObject | None = None,
             last_known: LastKnown | None = None,
             damage: DamageDealt | None = None, event_object: str | None = None,
             attackers: tuple[GameObject, ...] = (),
             zones: tuple[Zone | None, Zone | None] | None = None, counter_kind: str = "",
             delayed: TriggeredAbility | None = None,
             granted: tuple[TriggeredAbility, ...] | None = None,
             sources: tuple[GameObject | LastKnown, ...] = (),
             subject: TriggerSubject | None = None, step: TriggerStep | None = None,
             batch: bool = False) -> None:
    """Rule 603.2: ``card``'s abilities of this kind whose parameters the occurrence fits
    trigger. An intervening "if" must hold now (603.4). ``subject``: how the object the
    event is about relates to this source (its own event, the one it is attached to, or
    another's); ``event_player``: the player the event is about ("that player");
    ``keywords``: the source's keyword triggers (prowess) too; ``amount``: the event's
    number (the Nth card drawn, the mana expended); ``event_amount``: "that much" of the
    event (life gained, 119.9, damage dealt); ``spell_obj``: the object the event is about
    (the spell just cast, 601.2i; the permanent that entered; the damage source; the
    attacker), for a trigger's ``filter``; ``last_known``: that object's card, controller
    and id if it has left its zone (608.2h); ``damage``: the damage event;
    ``event_object``: "that creature" of the event; ``attackers``: the creatures declared
    as attackers; ``zones``: the zones of a zone change; ``batch``: the occurrence is a
    whole declaration of attackers or a combat damage step's damage to one player
    (``sources``). An ability triggers only from the zone it functions in (rule 113.6): the
    battlefield unless it says otherwise (113.6k). ``delayed``: check only this delayed
    triggered ability (603.7) instead of the card's. ``granted``: the triggered abilities
    static abilities granted the source (613.1f) as it last existed, for one that has left
    the battlefield (603.10a); by default those it has on the battlefield now."""
    if delayed is None and not card.triggers and not keywords and not granted and \
            not _granted_now(game, source_id):
        return  # nothing of this object's can trigger (the usual case)
    if game.players[controller].has_lost:
        return  # rule 800.4d
    source_now = game.objects.get(source_id)
    in_graveyard = source_now is not None and source_now.zone is _ZONE_GRAVEYARD
    found: list[tuple[int, TriggeredAbility]] = [(-1, delayed)] if delayed is not None else [
        (i, t) for i, t in enumerate(card.triggers) if (t.zone == "graveyard") == in_graveyard]
    if delayed is None:
        if granted is None and source_now is not None and source_now.zone is _ZONE_BATTLEFIELD:
            granted = source_now.granted_triggers
        found += [(-1, t) for t in granted or ()]  # rule 613.1f: granted abilities
    if keywords and event is _TRIGGER_EVENT_CAST:
        source = game.objects.get(source_id)
        if source is not None and source.has("Prowess"):
            found.append((-1, PROWESS))  # rule 702.108a
    # The occurrence as the abilities see it: made once one of them is of its kind (most
    # objects' abilities wait for other events).
    occurrence: _Occurrence | None = None
    for index, ability in found:
        if ability.event is not event or (
                subject is not None and ability.subject is not subject):
            continue
        if occurrence is None:
            occurrence = _Occurrence(event, subject, event_player, blocked, amount, spell_obj,
                                     last_known, damage, attackers, zones, counter_kind,
                                     sources, step, batch)
        if not _fits(game, ability, controller, source_id, occurrence):
            continue
        if not counting.condition_met(game, controller, source_id, ability.condition):
            continue
        if ability.once_each_turn \
                and not game.watchers.once_each_turn.use(f"{source_id}:{index}"):
            continue  # "This ability triggers only once each turn." (603.2h)
        much = event_amount
        if event is _TRIGGER_EVENT_ATTACKS and batch:
            much = _attackers_matching(game, ability, controller, source_id, attackers)
        for _ in range(1 + _additional_times(game, controller, source_id)):
            game.pending_triggers.append(PendingTrigger(
                fresh_id(game), controller, card, index, source_id, ability, event_player,
                much, event_object))


def _fits(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
          o: _Occurrence) -> bool:
    """Whether an occurrence of the ability's kind of event fits its parameters (rule
    603.2), from its controller's point of view."""
    kind = ability.event
    match kind:
        case TriggerEvent.ZONE_CHANGE:
            return o.zones is not None and _zones_fit(ability, *o.zones) and (
                ability.subject is not _TRIGGER_SUBJECT_FILTER
                or _about(game, ability, controller, source_id, o))
        case TriggerEvent.STEP:
            return ability.step is o.step and _whose(game, ability.whose, controller, o.player)
        case TriggerEvent.ATTACKS:
            if ability.subject is not _TRIGGER_SUBJECT_FILTER:
                return not ability.count or _enough_attackers(
                    game, ability, controller, source_id, o.attackers)  # (508.3a)
            if ability.count:  # "whenever you attack with N or more [filter] creatures"
                return o.batch and _attackers_matching(
                    game, ability, controller, source_id, o.attackers) >= ability.count
            return not o.batch and _about(game, ability, controller, source_id, o)
        case TriggerEvent.BLOCKS:  # "blocks a creature with flying"
            return ability.filter is None or (o.blocked is not None and filters.matches(
                game, o.blocked, ability.filter, controller, source_id))
        case TriggerEvent.DEALS_DAMAGE:
            if ability.count:  # "one or more [filter] creatures deal combat damage" (510.2)
                return o.batch and any(_one_fits(game, ability, controller, source_id, s)
                                       for s in o.sources)
            return not o.batch and o.damage is not None and o.damage.amount > 0 and \
                _damage_kind_fits(ability.damage, o.damage.combat) and \
                _recipient_fits(game, ability.recipient, controller, o.damage) and (
                    ability.subject is not _TRIGGER_SUBJECT_FILTER
                    or _about(game, ability, controller, source_id, o))  # rule 120.3
        case TriggerEvent.CAST:
            return _about(game, ability, controller, source_id, o) and (
                not ability.count or ability.count == _spell_number(
                    game, ability, controller, source_id, o.obj))  # "your second spell"
        case TriggerEvent.DRAW:
            return _whose(game, ability.whose, controller, o.player) and (
                not ability.count or ability.count == o.number)  # "your second card" (121.1)
        case TriggerEvent.GAIN_LIFE | TriggerEvent.LOSE_LIFE | TriggerEvent.CRIME:
            # Rules 119.9, 119.3, 700.13.
            return _whose(game, ability.whose, controller, o.player)
        case TriggerEvent.EXPEND:
            return _whose(game, ability.whose, controller, o.player) and \
                ability.count == o.number  # "whenever you expend 4" (700.14)
        case TriggerEvent.COUNTERS_PUT:
            return ability.counter == o.counter_kind and \
                _about(game, ability, controller, source_id, o)  # rule 122.1
        case TriggerEvent.BECOMES_TARGET | TriggerEvent.LOYALTY_ACTIVATED | \
                TriggerEvent.SACRIFICE:
            return _about(game, ability, controller, source_id, o)
        case TriggerEvent.BECOMES_BLOCKED | TriggerEvent.DEALT_DAMAGE | \
                TriggerEvent.BECOMES_UNTAPPED | TriggerEvent.CHAOS_ENSUES | \
                TriggerEvent.PLANESWALK_TO | TriggerEvent.ROLL_PLANESWALKER | \
                TriggerEvent.EXILED_WITH_MADNESS | TriggerEvent.STATE:
            return True  # no parameters (a state trigger is put by _state_triggers, 603.8)
        case _:
            assert_never(kind)


def _whose(game: Game, whose: Controller, controller: int, player: int | None) -> bool:
    """Whether the player the event is about is the one a trigger names (rule 102.2)."""
    if player is None:
        return False
    if whose is _CONTROLLER_YOU:
        return player == controller
    if whose is _CONTROLLER_OPPONENT:
        return player in game.opponents(controller)
    if whose is _CONTROLLER_ANY:
        return True
    if whose is _CONTROLLER_THAT_PLAYER:
        raise AssertionError("a trigger's 'whose' is never 'that_player' (the loader refuses)")
    assert_never(whose)


def _about(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
           o: _Occurrence) -> bool:
    """Whether the object the event is about fits the trigger's ``filter``."""
    return _subject_matches(game, ability, controller, source_id, subject=o.obj,
                            last_known=o.last_known)


def _attackers_matching(game: Game, ability: TriggeredAbility, controller: int,
                        source_id: str, attackers: tuple[GameObject, ...]) -> int:
    """The declared attackers the trigger's filter describes, as they were declared."""
    if ability.filter is None:
        return 0
    return sum(1 for a in attackers
               if filters.matches(game, a, ability.filter, controller, source_id))


def _additional_times(game: Game, controller: int, source_id: str) -> int:
    """Rule 603.2d: "it triggers an additional time" -- once for each permanent whose
    ``extra_triggers`` describes the trigger's source, on the battlefield, as it triggers."""
    source = game.objects.get(source_id)
    if source is None or source.zone is not _ZONE_BATTLEFIELD:
        return 0
    times = 0
    for oid in game.battlefield:
        extra = game.objects[oid].card.extra_triggers
        you = game.objects[oid].controller
        if extra is not None and filters.matches(game, source, extra.filter, you, oid) \
                and counting.condition_met(game, you, oid, extra.condition):
            times += 1
    return times


_ZONE_NAMES = {"battlefield": Zone.BATTLEFIELD, "graveyard": Zone.GRAVEYARD,
               "hand": Zone.HAND, "library": Zone.LIBRARY, "exile": Zone.EXILE,
               "stack": Zone.STACK}


def _zones_fit(ability: TriggeredAbility, from_zone: Zone | None, to_zone: Zone | None
               ) -> bool:
    """Whether a zone change goes from and to the zones a zone-change trigger names (to
    None: a permanent leaving the game with its owner leaves the battlefield, and goes to
    no zone: "dies" doesn't fit, 603.6c)."""
    return (not ability.from_zone or _ZONE_NAMES[ability.from_zone] is from_zone) and (
        not ability.to_zone or _ZONE_NAMES[ability.to_zone] is to_zone)


def _one_fits(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
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
    if not any(a.id == source_id for a in attackers):
        return False
    return _attackers_matching(game, ability, controller, source_id, attackers) >= \
        ability.count


def _subject_matches(game: Game, ability: TriggeredAbility, controller: int, source_id: str,
                     *, subject: GameObject | None,
                     last_known: LastKnown | None) -> bool:
    """Whether the object the event is about fits the trigger's ``filter``."""
    if ability.filter is None:
        return False
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
    objects = game.objects
    if permanents or game.command:
        for oid in [*permanents, *game.command]:
            obj = objects[oid]
            if (seat is None or obj.controller == seat) and not obj.face_down and (
                    obj.card.triggers or obj.granted_triggers or keywords):  # 400.9, 708.2
                trigger(game, obj.controller, obj.card, oid, event, **kwargs)
    for player in game.players:
        if seat is None or player.seat == seat:
            for oid in graveyard(game, player.seat).triggering:
                trigger(game, player.seat, objects[oid].card, oid, event, **kwargs)
    if not game.delayed:
        return
    # Delayed triggered abilities (603.7) with this event: "until end of turn, whenever a
    # creature you control ... deals combat damage to a player" -- each time this turn
    # (603.7b), or only the next time.
    for delayed in list(game.delayed):
        if delayed.ability.event is not event or (
                seat is not None and delayed.controller != seat):
            continue
        before = len(game.pending_triggers)
        trigger(game, delayed.controller, delayed.card, "", event, delayed=delayed.ability,
                **kwargs)
        if len(game.pending_triggers) > before and not delayed.this_turn:
            game.delayed.remove(delayed)  # rule 603.7b: only the next time


def _nothing_triggers(game: Game) -> bool:
    """Whether :func:`each_permanent` would trigger nothing, whatever the event: no
    permanent has a triggered ability (its own or granted, 613.1f), nothing is in the command
    zone (emblems, planes), no graveyard card has one that functions there (113.6k) and no
    delayed triggered ability waits (603.7) -- as :func:`each_permanent` asks without
    keywords."""
    if board(game).triggering or game.command or game.delayed:
        return False
    return all(not graveyard(game, player.seat).triggering for player in game.players)


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
                if (isinstance(e, ZoneChanged) and e.from_zone is _ZONE_BATTLEFIELD)
                or isinstance(e, LeftGame)]
    # Rules 510.2, 603.2c: a step's combat damage is one event -- a permanent dealt combat
    # damage by several sources at once is dealt damage once, "that much" being the total.
    struck: dict[str, int] = {}
    for e in fresh:
        if isinstance(e, DamageDealt) and e.combat and e.object_id is not None:
            struck[e.object_id] = struck.get(e.object_id, 0) + e.amount
    # The kinds of event most frequent first (each event is of exactly one kind).
    for event in fresh:
        if isinstance(event, Untapped):
            untapped = game.objects.get(event.object_id)
            if untapped is not None and untapped.zone is _ZONE_BATTLEFIELD and (
                    untapped.card.triggers or untapped.granted_triggers):  # (else none can)
                trigger(game, untapped.controller, untapped.card, untapped.id,
                        _TRIGGER_EVENT_BECOMES_UNTAPPED)  # rule 701.26b
        elif isinstance(event, ZoneChanged):
            _zone_changed(game, event, fresh, departed)
        elif isinstance(event, CardDrawn):
            # "Whenever you draw your second card each turn": the draw's number (121.1).
            each_permanent(game, _TRIGGER_EVENT_DRAW, event_player=event.seat,
                           amount=event.number)
        elif isinstance(event, TokenCreated):
            _token_created(game, event)
        elif isinstance(event, SpellCast):
            cast = game.objects.get(event.object_id)
            if cast is not None:  # "whenever you cast a noncreature spell"; prowess
                each_permanent(game, _TRIGGER_EVENT_CAST, spell_obj=cast, keywords=True,
                               event_player=event.controller,
                               event_object=cast.id)  # "copy that spell"
        elif isinstance(event, DamageDealt):
            _damage_triggers(game, event, departed, struck)
            _source_damage_triggers(game, event, fresh)
        elif isinstance(event, CountersPut):
            _counters_put(game, event)
        elif isinstance(event, LifeGained):
            # Rule 119.9: "whenever you gain life" -- once per life-gain event.
            each_permanent(game, _TRIGGER_EVENT_GAIN_LIFE, event_player=event.seat,
                           event_amount=event.amount)
        elif isinstance(event, LifeLost):
            # Rule 119.3: "whenever an opponent loses life" -- once per life-loss event.
            each_permanent(game, _TRIGGER_EVENT_LOSE_LIFE, event_player=event.seat,
                           event_amount=event.amount)
        elif isinstance(event, Sacrificed):
            # "Whenever you sacrifice a permanent" (701.21a): the sacrificed permanent as it
            # last existed; those that left with it (itself, too) look back (603.10a).
            sacrificed = LastKnown(event.card, event.seat, event.object_id)
            each_permanent(game, _TRIGGER_EVENT_SACRIFICE, last_known=sacrificed)
            for oid, controller, card in departed:
                trigger(game, controller, card, oid, _TRIGGER_EVENT_SACRIFICE,
                        last_known=sacrificed)
        elif isinstance(event, CrimeCommitted):
            each_permanent(game, _TRIGGER_EVENT_CRIME, event_player=event.seat)  # rule 700.13
        elif isinstance(event, Expended):
            each_permanent(game, _TRIGGER_EVENT_EXPEND, event_player=event.seat,
                           amount=event.amount)  # rule 700.14
        elif isinstance(event, AttackersDeclared):
            _attack_triggers(game, event)
        elif isinstance(event, BlockersDeclared):
            for blocker_id, attacker_id in event.blocks:
                obj = game.objects.get(blocker_id)
                if obj is not None:
                    trigger(game, obj.controller, obj.card, blocker_id, _TRIGGER_EVENT_BLOCKS,
                             blocked=game.objects.get(attacker_id))
                attacker = game.objects.get(attacker_id)
                if attacker is not None and obj is not None:
                    # Rule 509.3d: once for each creature blocking it.
                    trigger(game, attacker.controller, attacker.card, attacker_id,
                            _TRIGGER_EVENT_BECOMES_BLOCKED, event_player=obj.controller,
                            event_object=blocker_id)
        elif isinstance(event, TargetsChosen):
            _targeted(game, event)
        elif isinstance(event, AbilityActivated) and event.loyalty:
            # "Whenever you activate a loyalty ability of a Chandra planeswalker" (606.4).
            source = game.objects.get(event.source_id)
            if source is not None:
                each_permanent(game, _TRIGGER_EVENT_LOYALTY_ACTIVATED, event.controller,
                               spell_obj=source, event_object=source.id)
        elif isinstance(event, LeftGame):
            _left_game(game, event, departed)
    _combat_damage_batches(game, fresh, departed)
    _state_triggers(game)
    return len(events)


def step_begins(game: Game, step: TriggerStep) -> None:
    """"At the beginning of [whose] [step]" (rules 503.1a, 504.2, 505.1a, 507.2, 513.1a):
    the step or phase begins in the active player's turn, who is "that player"."""
    each_permanent(game, _TRIGGER_EVENT_STEP, step=step, event_player=game.active)


def _token_created(game: Game, event: TokenCreated) -> None:
    """A token created enters the battlefield from no zone (rules 111.1, 603.6a): its own
    "when [this] enters" and others' "whenever a [filter] enters", as it is there (603.6d)."""
    zones: tuple[Zone | None, Zone] = (None, _ZONE_BATTLEFIELD)
    trigger(game, event.controller, event.card, event.object_id, _TRIGGER_EVENT_ZONE_CHANGE,
            subject=_TRIGGER_SUBJECT_THIS, zones=zones)
    entered = game.objects.get(event.object_id)
    if entered is not None and entered.zone is _ZONE_BATTLEFIELD:
        each_permanent(game, _TRIGGER_EVENT_ZONE_CHANGE, subject=_TRIGGER_SUBJECT_FILTER,
                       zones=zones, spell_obj=entered, event_object=entered.id,
                       event_player=entered.controller)  # "that creature"


def _zone_changed(game: Game, event: ZoneChanged, fresh: list[Event],
                  departed: list[tuple[str, int, CardDef]]) -> None:
    """A zone change (rules 603.2, 603.6, 700.4), for each subject: the object itself
    ("when [this] enters / dies / leaves the battlefield"), any object a filter describes,
    and the permanent an Aura or Equipment was attached to ("when enchanted creature
    dies") -- seen also by the Auras and Equipment that left with it (603.10a, 400.7f)."""
    zones: tuple[Zone | None, Zone] = (event.from_zone, event.to_zone)
    if event.to_zone is _ZONE_BATTLEFIELD:
        obj = game.objects.get(event.new_id)
        controller = obj.controller if obj is not None else event.owner
        trigger(game, controller, event.card, event.new_id, _TRIGGER_EVENT_ZONE_CHANGE,
                subject=_TRIGGER_SUBJECT_THIS, zones=zones)
    elif event.from_zone is _ZONE_BATTLEFIELD:
        # As it last existed (603.10a), with the abilities it was granted (613.1f).
        trigger(game, event.controller, event.card, event.old_id, _TRIGGER_EVENT_ZONE_CHANGE,
                subject=_TRIGGER_SUBJECT_THIS, zones=zones, granted=event.granted)
    _zone_change_triggers(game, event, departed)
    if event.from_zone is not _ZONE_BATTLEFIELD:
        return
    for oid in [i for i in game.battlefield if game.objects[i].attached_to == event.old_id]:
        holder = game.objects[oid]
        trigger(game, holder.controller, holder.card, oid, _TRIGGER_EVENT_ZONE_CHANGE,
                subject=_TRIGGER_SUBJECT_ATTACHED, zones=zones)
    for left in fresh:  # an Aura or Equipment that left with it looks back in time
        if isinstance(left, ZoneChanged) and left.from_zone is _ZONE_BATTLEFIELD and \
                left.attached_to == event.old_id:
            trigger(game, left.controller, left.card, left.old_id, _TRIGGER_EVENT_ZONE_CHANGE,
                    subject=_TRIGGER_SUBJECT_ATTACHED, zones=zones, granted=left.granted)


def _left_game(game: Game, event: LeftGame, departed: list[tuple[str, int, CardDef]]
               ) -> None:
    """Rule 603.6c: a permanent leaving the game with its owner (800.4a) leaves the
    battlefield: its own "when [this] leaves the battlefield" (controlled by a player still
    in the game, 800.4d), others' "whenever a [filter] leaves the battlefield" and "when
    enchanted creature leaves" trigger, as it last existed (603.10a)."""
    zones: tuple[Zone | None, Zone | None] = (_ZONE_BATTLEFIELD, None)
    trigger(game, event.controller, event.card, event.old_id, _TRIGGER_EVENT_ZONE_CHANGE,
            subject=_TRIGGER_SUBJECT_THIS, zones=zones, granted=event.granted)
    common: dict[str, Any] = {
        "last_known": LastKnown(event.card, event.controller, event.old_id, event.counters),
        "event_object": event.old_id, "zones": zones, "event_player": event.controller,
        "subject": _TRIGGER_SUBJECT_FILTER}
    each_permanent(game, _TRIGGER_EVENT_ZONE_CHANGE, **common)
    for oid, controller, card in departed:
        if oid != event.old_id:
            trigger(game, controller, card, oid, _TRIGGER_EVENT_ZONE_CHANGE, **common)
    for oid in [i for i in game.battlefield if game.objects[i].attached_to == event.old_id]:
        holder = game.objects[oid]
        trigger(game, holder.controller, holder.card, oid, _TRIGGER_EVENT_ZONE_CHANGE,
                subject=_TRIGGER_SUBJECT_ATTACHED, zones=zones)


def _attack_triggers(game: Game, event: AttackersDeclared) -> None:
    """Rules 508.1, 508.3a: "whenever [this] attacks"; "whenever a [filter] creature
    attacks" (once per such attacker, "that creature"); "whenever [you / an opponent]
    attack[s] with N or more / one or more [filter] creatures" (once per declaration,
    "that many" the number, "that player" the attacking player)."""
    attackers = tuple(game.objects[i] for i in event.attackers if i in game.objects)
    for attacking in attackers:
        trigger(game, attacking.controller, attacking.card, attacking.id,
                _TRIGGER_EVENT_ATTACKS, subject=_TRIGGER_SUBJECT_THIS, attackers=attackers)
    for attacking in attackers:
        each_permanent(game, _TRIGGER_EVENT_ATTACKS, subject=_TRIGGER_SUBJECT_FILTER,
                       spell_obj=attacking, event_object=attacking.id, attackers=attackers)
    if attackers:
        each_permanent(game, _TRIGGER_EVENT_ATTACKS, subject=_TRIGGER_SUBJECT_FILTER,
                       batch=True, attackers=attackers, event_player=game.active)


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
            if obj is not None and obj.zone is _ZONE_BATTLEFIELD:
                found.append(obj)
            else:
                found += [LastKnown(card, c, old) for old, c, card in departed if old == oid]
        each_permanent(game, _TRIGGER_EVENT_DEALS_DAMAGE, subject=_TRIGGER_SUBJECT_FILTER,
                       batch=True, event_player=seat, sources=tuple(found))


def _state_triggers(game: Game) -> None:
    """Rule 603.8: a state trigger triggers as soon as the game state matches its condition,
    and again only after that instance has resolved, been countered or otherwise left the
    stack -- so not while it waits to be put on the stack or is on it."""
    if not board(game).state_triggers:
        return  # no permanent has a state trigger (the usual case)
    waiting = {(t.source_id, t.index) for t in game.pending_triggers}
    for oid in game.stack:
        ref = game.objects[oid].ability
        if ref is not None and ref.kind is _ABILITY_KIND_TRIGGERED:
            waiting.add((ref.source_id, ref.index))
    for oid in list(game.battlefield):
        obj = game.objects[oid]
        if obj.face_down or game.players[obj.controller].has_lost:
            continue  # rules 708.2, 800.4d
        for index, ability in enumerate(obj.card.triggers):
            if ability.event is _TRIGGER_EVENT_STATE and (oid, index) not in waiting and \
                    counting.condition_met(game, obj.controller, oid, ability.condition):
                game.pending_triggers.append(PendingTrigger(
                    fresh_id(game), obj.controller, obj.card, index, oid, ability))


def _damage_triggers(game: Game, event: DamageDealt,
                     departed: list[tuple[str, int, CardDef]], struck: dict[str, int]) -> None:
    """"Whenever [this] is dealt damage" and "whenever [this] deals [combat] damage to [a
    player]" (rules 120.3, 510.2): once per damage event, "that much" being the damage; a
    permanent that has since left the battlefield still triggers, as it last existed.
    ``struck``: each permanent's combat damage of this step, all one event (510.2, 603.2c),
    taken out as its first part triggers for the whole."""
    def found(oid: str) -> tuple[int, CardDef] | None:
        obj = game.objects.get(oid)
        if obj is not None and obj.zone is _ZONE_BATTLEFIELD:
            return obj.controller, obj.card
        return next(((c, card) for old, c, card in departed if old == oid), None)

    amount = struck.pop(event.object_id, None) if event.combat and event.object_id is not None \
        else event.amount
    if event.object_id is not None and amount is not None and \
            (dealt := found(event.object_id)) is not None:
        trigger(game, dealt[0], dealt[1], event.object_id, _TRIGGER_EVENT_DEALT_DAMAGE,
                event_amount=amount)
    if (dealer := found(event.source_id)) is not None:
        trigger(game, dealer[0], dealer[1], event.source_id, _TRIGGER_EVENT_DEALS_DAMAGE,
                subject=_TRIGGER_SUBJECT_THIS, damage=event, event_player=event.player,
                event_amount=event.amount)


def last_known_of(event: ZoneChanged) -> LastKnown:
    """The object a zone change moved, as it last existed in the zone it left (603.10a,
    608.2h): from the battlefield, with its types, subtypes, power and toughness then."""
    from_battlefield = event.from_zone is _ZONE_BATTLEFIELD
    return LastKnown(event.card, event.controller, event.old_id, event.counters,
                     event.attacking, creature=event.creature if from_battlefield else None,
                     subtypes=event.subtypes, power=event.power, toughness=event.toughness)


def _zone_change_triggers(game: Game, event: ZoneChanged,
                          departed: list[tuple[str, int, CardDef]]) -> None:
    """"Whenever [a filter object] is put into [zone] from [zone]" (603.2, 603.6): an object
    that entered the battlefield is matched as it is there (603.6d); any other as it last
    existed (608.2h) -- and an object leaving the battlefield is seen by the permanents that
    left with it (leaves-the-battlefield abilities look back in time, 603.10a). Nothing to
    do (and the last known information isn't gathered) when no object could trigger."""
    looking_back = event.from_zone is _ZONE_BATTLEFIELD and any(
        card.triggers or _granted_now(game, oid) for oid, _, card in departed)
    if not looking_back and _nothing_triggers(game):
        return  # each_permanent and trigger() below would find no ability (the usual case)
    entered = game.objects.get(event.new_id) if event.to_zone is _ZONE_BATTLEFIELD else None
    last_known = last_known_of(event)
    common: dict[str, Any] = {"spell_obj": entered, "last_known": last_known,
                              "event_object": event.new_id,
                              "zones": (event.from_zone, event.to_zone),
                              "event_player": event.controller,
                              "subject": _TRIGGER_SUBJECT_FILTER}
    each_permanent(game, _TRIGGER_EVENT_ZONE_CHANGE, **common)
    if event.from_zone is _ZONE_BATTLEFIELD:
        for oid, controller, card in departed:
            trigger(game, controller, card, oid, _TRIGGER_EVENT_ZONE_CHANGE, **common)


def _targeted(game: Game, event: TargetsChosen) -> None:
    """"Whenever [this] becomes the target of a spell or ability [an opponent controls]"
    (601.2c, 603.2e): once per spell or ability for each permanent it targets; "that spell"
    is the spell or ability, "that player" its controller."""
    spell = game.objects.get(event.object_id)
    if spell is None:
        return
    for oid in dict.fromkeys(event.targets):
        target = game.objects.get(oid)
        if target is not None and target.zone is _ZONE_BATTLEFIELD:
            trigger(game, target.controller, target.card, oid, _TRIGGER_EVENT_BECOMES_TARGET,
                    spell_obj=spell, event_object=spell.id, event_player=spell.controller)


def _counters_put(game: Game, event: CountersPut) -> None:
    """"Whenever one or more [kind] counters are put on a [filter] permanent" (122.1, 603.2):
    once per event, matched as the permanent is now (also one that entered with them)."""
    obj = game.objects.get(event.object_id)
    if obj is None or obj.zone is not _ZONE_BATTLEFIELD:
        return
    for oid in [*game.battlefield, *game.command]:
        holder = game.objects[oid]
        if holder.face_down:
            continue
        if any(t.event is _TRIGGER_EVENT_COUNTERS_PUT and t.counter == event.kind
               for t in holder.card.triggers):
            trigger(game, holder.controller, holder.card, oid, _TRIGGER_EVENT_COUNTERS_PUT,
                    spell_obj=obj, event_object=obj.id, event_amount=event.amount,
                    counter_kind=event.kind)


def _recipient_fits(game: Game, recipient: Recipient, controller: int,
                    event: DamageDealt) -> bool:
    """Whether the damage went to what a "deals damage to [recipient]" trigger names."""
    dealt = game.objects.get(event.object_id) if event.object_id is not None else None
    if recipient is _RECIPIENT_ANY:
        return True
    if recipient is _RECIPIENT_PLAYER:
        return event.player is not None
    if recipient is _RECIPIENT_OPPONENT:
        return event.player is not None and event.player in game.opponents(controller)
    if recipient is _RECIPIENT_CREATURE:
        return dealt is not None and dealt.is_creature
    if recipient is _RECIPIENT_PLANESWALKER:
        return dealt is not None and dealt.card.planeswalker
    if recipient is _RECIPIENT_PLAYER_OR_PLANESWALKER:  # rules 120.3a, 120.3c
        return event.player is not None or (dealt is not None and dealt.card.planeswalker)
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
    matched by its last known information (608.2h) -- and so is a permanent that had left
    the battlefield before its ability had it deal the damage ("When [this] dies, it deals
    3 damage"): the permanent deals it, as it last existed there, not the ability (113.7a,
    608.2h: its controller, types and abilities then)."""
    if event.amount <= 0:
        return
    source = game.last_known_permanents.get(event.dealt_as) if event.dealt_as else None
    last_known = None
    if source is None:
        source = game.objects.get(event.source_id)
        last_known = next((last_known_of(e)
                           for e in fresh
                           if isinstance(e, ZoneChanged) and e.old_id == event.source_id),
                          None)
    if source is None and last_known is None:
        return
    each_permanent(game, _TRIGGER_EVENT_DEALS_DAMAGE, subject=_TRIGGER_SUBJECT_FILTER,
                   event_player=event.player,
                   event_amount=event.amount, spell_obj=source, last_known=last_known,
                   damage=event, event_object=event.object_id)  # "destroy that planeswalker"


def put_triggers(game: Game, events: list[Event]) -> None:
    """Rules 603.3b, 405.3: the active player puts their triggered abilities on the stack
    first, then each other player in turn order; a player with several orders them. Those
    are the ones that had triggered when this began (a batch): one that triggers while
    they are put there (becoming a target, 603.2) waits for the next time a player would
    receive priority (603.3) -- after the batch, as the next one."""
    batch = game.trigger_batch
    if batch is None or not any(t.id in batch for t in game.pending_triggers):
        batch = game.trigger_batch = frozenset(t.id for t in game.pending_triggers)
    for seat in game.apnap():
        mine = [t for t in game.pending_triggers if t.controller == seat and t.id in batch]
        if len(mine) == 1:
            casting.put_trigger_on_stack(game, mine[0], events)
            return
        if mine:
            game.choices.append(Choice(_DECISION_KIND_ORDER_TRIGGERS, seat, [t.id for t in mine]))
            return
    # Only triggers of players who left remained in the batch.
    game.pending_triggers[:] = [t for t in game.pending_triggers if t.id not in batch]
    game.trigger_batch = None
