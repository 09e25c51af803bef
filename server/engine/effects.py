"""Resolving spells and abilities (rule 608) and performing their effects.

Resolution can pause for a player's choice (a discard, say): the object stays on the stack
and :class:`~server.engine.state.Resolution` remembers the next effect (rule 608.2c: effects
are performed in text order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, assert_never, get_args, get_type_hints

from server.cards import card_pool
from server.cards.amounts import names_their
from server.cards.mana import MANA_TYPES
from server.cards.model import (
    Affected,
    CardDef,
    Each,
    ObjectFilter,
    ObjectRef,
    Objects,
    Players,
    TargetKind,
    TargetReq,
    TriggeredAbility,
    TriggerEvent,
)
from server.cards.verbs import (
    AMOUNTED,
    EFFECT_CLASSES,
    AddMana,
    Affecting,
    Amounted,
    AnteTop,
    Attach,
    Become,
    CastCard,
    ChooseCardName,
    ChooseColor,
    ChooseKeyword,
    ChooseTarget,
    Clash,
    Coded,
    CopySpell,
    CounterSpell,
    CreateDelayedTrigger,
    CreateEmblem,
    CreateToken,
    CreateTokenCopy,
    DealDamage,
    Destroy,
    Discard,
    DoesntUntapNext,
    Draw,
    Effect,
    EffectBase,
    EndTurn,
    ExchangeControl,
    ExchangeLife,
    ExchangeZones,
    Exile,
    ExileIfDies,
    ExileTop,
    ExtraTurns,
    Fateseal,
    Fight,
    FlipCoin,
    FreeCastsThisTurn,
    GainControl,
    GainLife,
    LookAndPick,
    LookAtTop,
    LoseGame,
    LoseLife,
    Mill,
    ModifyPT,
    Pay,
    PhaseOut,
    Piles,
    PreventCombatDamage,
    PutCounters,
    PutOnBottom,
    PutOnTop,
    PutSticker,
    Regenerate,
    RemoveCounters,
    RestrictThisTurn,
    ReturnToBattlefield,
    ReturnToHand,
    RevealTop,
    RevealUntil,
    Sacrifice,
    SacrificeOrDiscard,
    Scry,
    Search,
    Tap,
    Untap,
    by_of,
    who_of,
)
from server.engine import (
    ante,
    choosing,
    counting,
    filters,
    layers,
    looking,
    madness,
    permissions,
    phasing,
    replacements,
    sba,
    stickers,
    unless,
    zone_rules,
)
from server.engine.actions import Action, CastSpell, ChooseCard, DeclareAttacker
from server.engine.casting import (
    begin_cast,
    begin_retargeting,
    choices_payable,
    spell_cost,
    stack_effects,
    stack_targets,
)
from server.engine.coded import CODED
from server.engine.counting import condition_met
from server.engine.events import (
    DamageDealt,
    Event,
    LifeExchanged,
    LifeGained,
    TokenCreated,
    Untapped,
)
from server.engine.mana import empty_pools
from server.engine.sba import check_state_based_actions
from server.engine.state import (
    Choice,
    Combat,
    ContinuousEffect,
    DecisionKind,
    DelayedTrigger,
    Game,
    GameObject,
    PendingTrigger,
    Resolution,
    Step,
    Zone,
)
from server.engine.targeting import (
    Target,
    is_legal_target,
    quality_of,
)
from server.engine.watchers import emit
from server.engine.zones import (
    ask_as_it_enters,
    ask_damage_prevention,
    create_object,
    damage_after_replacements,
    damage_to_player_preventions,
    destroy,
    draw,
    enters_as_printed,
    fresh_id,
    lose_life,
    move,
    next_timestamp,
    prevent_damage_to_player,
    put_counters,
    put_into_graveyards,
    remove_from_game,
    restamp_stickers,
    sacrifice,
)


def protected_from(obj: GameObject, source: GameObject) -> bool:
    """Rule 702.16: whether ``obj`` has protection from a quality ``source`` has."""
    return any(quality_of(source, q) for q in obj.protection)


def gain_life(game: Game, seat: int, amount: int, events: list[Event]) -> None:
    """Rule 119.3: a player gains life (remembered for "if you gained life this turn"); a
    life-gain event for "whenever you gain life" (119.9: gaining 0 life is no event)."""
    if amount > 0:
        player = game.player(seat)
        player.life += amount
        emit(game, events, LifeGained(seat, amount))


def deal_damage_at_once(game: Game, dealt: Sequence[tuple[GameObject, Target, int]],
                        events: list[Event], *, combat: bool = False) -> None:
    """Damage dealt at the same time (rule 510.2: all combat damage of a step; an effect
    dealing damage to several recipients, 120.1): each source to each recipient in turn,
    then each source with lifelink makes its controller gain the total it dealt -- one
    life-gain event per source (rules 702.15b, 702.15e, 119.9), however many recipients."""
    gains: dict[str, tuple[int, int]] = {}
    asked = len(game.choices)
    for source, target, amount in dealt:
        dealer = _dealer(game, source)
        done = _damage(game, dealer, target, amount, events, combat=combat, source_id=source.id,
                       dealt_as=dealer.id if dealer is not source else "")
        if done and dealer.has("Lifelink"):  # (as it deals the damage, 702.15c)
            seat, total = gains.get(source.id, (dealer.controller, 0))
            gains[source.id] = (seat, total + done)
    if len(game.choices) - asked > 1:
        # Rule 616.1: players choosing which prevention effects apply to damage dealt at the
        # same time choose in APNAP order (101.4); each player's choices in the order dealt.
        order = game.apnap()
        game.choices[asked:] = sorted(
            game.choices[asked:],
            key=lambda c: order.index(c.seat) if c.seat in order else len(order))
    for seat, total in gains.values():
        gain_life(game, seat, total, events)


def _dealer(game: Game, source: GameObject) -> GameObject:
    """What damage from ``source`` is dealt with (113.7a): an ability on the stack whose
    source has left the battlefield deals it as that source last existed there -- its
    lifelink and deathtouch (702.15c, 702.2e), types and colours (protection, 702.16e) and
    controller; anything else as it is."""
    ref = source.ability
    if ref is None or ref.source_id in game.objects:
        return source
    return game.last_known_permanents.get(ref.source_id, source)


def _damage(game: Game, source: GameObject, target: Target, amount: int,
            events: list[Event], *, combat: bool, source_id: str, dealt_as: str = "") -> int:
    """Rule 120.3: damage to a player is life loss (120.3a); to a planeswalker it removes
    loyalty (120.3c); to a creature it is marked (120.3e), with deathtouch noted (702.2b).
    Protection prevents damage from sources with the quality (702.16e), and so do the
    prevention effects of resolved spells and abilities (615.1,
    :func:`server.engine.replacements.prevented`). ``source`` has the characteristics the
    damage is dealt with (:func:`_dealer`), ``source_id`` is what the events name (and
    ``dealt_as`` the departed permanent ``source`` is, if it is one). Returns
    the damage dealt (0: none)."""
    if amount <= 0:
        return 0  # rule 120.8: no damage is dealt
    kind, ref = target
    if kind == "player":
        seat = int(ref)
        if game.players[seat].has_lost:
            return 0  # rule 800.4a: a player who left is no longer in the game
        preventions = damage_to_player_preventions(game, source, seat, combat=combat)
        if len(preventions) > 1:
            ask_damage_prevention(game, seat, preventions)  # rule 616.1: the player chooses
            return 0
        if preventions:
            # Rules 615.1, 702.16e (400.7c: also damage from what a permanent spell became);
            # Nine Lives: "prevent that damage and put an incarnation counter on [this]".
            prevent_damage_to_player(game, preventions[0], events)
            return 0
        # Rule 614.1a: "it deals triple that damage instead" -- after any division (601.2d)
        # and combat damage assignment (510.1c), which use the unmodified damage.
        amount = damage_after_replacements(game, source, amount)
        emit(game, events, DamageDealt(source_id, seat, None, amount, combat, dealt_as))
        lose_life(game, seat, amount, events)  # rule 120.3a
    else:
        obj = game.objects[str(ref)]
        if replacements.prevented(game, source, obj, combat=combat):
            return 0  # rule 615.1 (400.7c: also from what a permanent spell became)
        amount = damage_after_replacements(game, source, amount)  # rule 614.1a, as above
        if protected_from(obj, source):
            return 0  # rule 702.16e: prevented
        if obj.is_planeswalker:
            # Rules 120.3c, 306.8: that many loyalty counters are removed -- all of them if
            # it has fewer (a number of counters is never below 0, 122.1e).
            obj.counters["loyalty"] = max(0, obj.loyalty - amount)
        if obj.is_creature:
            obj.damage += amount
            if source.has("Deathtouch"):
                obj.deathtouched = True
        emit(game, events, DamageDealt(source_id, None, obj.id, amount, combat, dealt_as))
    return amount


def resolve_top(game: Game, events: list[Event]) -> None:
    """Rule 608: resolve the top object of the stack."""
    obj = game.objects[game.stack[-1]]
    ability = obj.ability_def
    if isinstance(ability, TriggeredAbility) and ability.event is not TriggerEvent.STATE \
            and not condition_met(game, obj.controller, _source_id(obj), ability.condition):
        _leave_stack(game, obj, events)  # rule 603.4: the "if" no longer holds
        return  # (a state trigger's condition isn't an intervening "if", 603.8)
    reqs = stack_targets(obj)
    if obj.ability is None and obj.card.enchant is not None:
        # "You can't choose an untapped creature as this spell's target as you cast it":
        # such restrictions on the choice aren't rechecked (608.2b uses the enchant ability).
        reqs = (TargetReq(TargetKind.PERMANENT, filter=obj.card.enchant),)
    groups = _target_groups(obj)
    legal = tuple(
        is_legal_target(game, req, target, obj.controller, obj.id)
        for req, group in zip(reqs, groups, strict=True) for target in group
    )
    if obj.targets and not any(legal):
        # Rule 608.2b: every target is illegal, so it doesn't resolve.
        _leave_stack(game, obj, events)
        return
    if obj.ability is None and obj.card.is_permanent_card:
        # Rules 608.3a, 608.3c: a permanent spell enters under its controller's control; an
        # Aura spell enters attached to the object it targets.
        attach = str(obj.targets[0][1]) if obj.card.is_aura else None
        move(game, obj.id, Zone.BATTLEFIELD, events, controller=obj.controller,
             attached_to=attach)
        zone_rules.spell_became_permanent(game, obj.id)  # rule 400.7a
        _after_resolution(game)
        return
    source = game.objects.get(_source_id(obj))
    controllers = {str(ref): game.objects[str(ref)].controller for kind, ref in obj.targets
                   if kind == "object" and str(ref) in game.objects}
    cards = {str(ref): game.objects[str(ref)].card for kind, ref in obj.targets
             if kind == "object" and str(ref) in game.objects}
    names = {ref: card.name for ref, card in cards.items()}
    # The source's power now, or as it last existed (an ability's source that left, 113.7a).
    game.resolving = Resolution(obj.id, 0, legal, controllers,
                                obj.source_power if source is None else source.power,
                                names=names, cards=cards)
    continue_resolution(game, events)


def _target_groups(obj: GameObject) -> list[tuple[Target, ...]]:
    out, start = [], 0
    for n in obj.target_groups:
        out.append(obj.targets[start:start + n])
        start += n
    return out


def continue_resolution(game: Game, events: list[Event]) -> None:
    """Perform the remaining effects in order; pause if one needs a player's choice."""
    res = game.resolving
    assert res is not None
    obj = game.objects.get(res.object_id)
    if obj is None or obj.zone is not Zone.STACK:
        game.resolving = None  # it left the stack (its controller left the game, 800.4a)
        _after_resolution(game)
        return
    effects = stack_effects(obj)
    groups = _target_groups(obj)
    flags = iter(res.legal)
    legal_groups = [[(t, next(flags)) for t in group] for group in groups]
    group_of = []
    g = 0
    for effect in effects:
        if effect.target_req is not None:
            group_of.append(g)
            g += 1
        elif who_of(effect) in (Players.THAT, ObjectRef.THAT, Players.TARGET_CONTROLLER,
                                ObjectRef.ATTACHED_TO_THAT):
            group_of.append(g - 1)  # the previous effect's target ("that creature", "its")
        else:
            group_of.append(-1)
    while res.index < len(effects):
        i = res.index
        res.index += 1
        targets = legal_groups[group_of[i]] if group_of[i] >= 0 else []
        layers.refresh(game)  # each effect sees the results of the ones before it
        if group_of[i] >= 0 and not any(ok for _, ok in targets):
            continue  # rule 608.2b: this part's targets are all illegal
        res.previous_targets = [t for t, ok in legal_groups[group_of[i] - 1] if ok] \
            if by_of(effects[i]) is ObjectRef.THAT and group_of[i] >= 1 else []
        if condition_met(game, obj.controller, _source_id(obj), effects[i].condition):
            if effects[i].optional and not isinstance(effects[i], (Sacrifice, Pay)):
                # "You may ...": its controller decides as it would be performed (608.2d).
                res.optional_targets = [t for t, ok in targets if ok]
                res.did = False  # until its controller takes the action
                game.choices.append(Choice(DecisionKind.MAY, obj.controller, [obj.id],
                                           effect=effects[i]))
            else:
                _perform(game, obj, effects[i], [t for t, ok in targets if ok], events)
        if game.resolving is None:
            return  # the turn ended: it was exiled with the rest of the stack (724.1b)
        if game.choices or game.casting is not None:
            return  # rule 608.2c: continue after the choice
    game.resolving = None
    _leave_stack(game, obj, events)


def _leave_stack(game: Game, obj: GameObject, events: list[Event]) -> None:
    """Rule 608.2n: a resolved or fizzled instant or sorcery goes to its owner's graveyard;
    an ability just leaves the stack (it isn't a card, rule 113.7)."""
    looking.end_looks(game, obj.id)  # rule 701.20a: what it revealed is hidden again
    if obj.id in game.objects and obj.zone is Zone.STACK:
        if obj.is_ability:
            remove_from_game(game, obj.id)
        else:
            move(game, obj.id, Zone.GRAVEYARD, events)
    _after_resolution(game)


def _after_resolution(game: Game) -> None:
    """Rule 117.3b: the active player receives priority after a spell or ability resolves."""
    order = game.apnap()
    game.priority = order[0] if order else None
    game.passes = 0


def _source_id(obj: GameObject) -> str:
    return obj.ability.source_id if obj.ability is not None else obj.id


def _players(game: Game, obj: GameObject, who: Players, targets: list[Target]) -> list[int]:
    """The seats of a player set (rule 102) for the resolving spell or ability ``obj``: the
    players it names who are still in the game (800.4a)."""
    match who:
        case Players.YOU:
            seats = [obj.controller]
        case Players.EACH_OPPONENT:
            seats = game.opponents(obj.controller)
        case Players.EACH_PLAYER:
            seats = game.apnap()
        case Players.TARGET | Players.THAT:
            # Its (or the previous effect's, "that player") still-legal target players.
            seats = [int(ref) for kind, ref in targets if kind == "player"]
        case Players.THAT_PLAYER:
            # Rule 603.2: the player the trigger event is about.
            player = obj.ability.event_player if obj.ability is not None else None
            seats = [player] if player is not None else []
        case Players.DEFENDING_PLAYER:
            seats = _defending_player(game, obj)
        case Players.CHOOSER:
            seats = [obj.chooser if obj.chooser >= 0 else obj.controller]  # rule 700.2e
        case Players.TARGET_CONTROLLER:
            # Rule 608.2h: the target's controller as it last existed (it may have left).
            res = game.resolving
            known = res.controllers if res is not None else {}
            seats = [known[str(ref)] for kind, ref in targets
                     if kind == "object" and str(ref) in known]
        case Players.EACH_OPPONENT_WHO_COULDNT:
            couldnt = game.resolving.couldnt if game.resolving is not None else []
            seats = [s for s in game.opponents(obj.controller) if s in couldnt]
        case _:
            assert_never(who)
    return [s for s in seats if not game.players[s].has_lost]


def _defending_player(game: Game, obj: GameObject) -> list[int]:
    """"Defending player" (rules 506.2, 508.5): the player the attacking creature is
    attacking (the controller of the planeswalker it attacks) -- the trigger event's object
    if it is an attacker ("whenever a creature you control attacks, defending player ..."),
    else the source; once it has been removed from combat (506.4: it left the battlefield,
    regenerated, ...), the player it was attacking before. None outside combat, or for a
    creature that didn't attack."""
    combat = game.combat
    event_object = obj.ability.event_object if obj.ability is not None else None
    for ref in (event_object, _source_id(obj)):
        if ref is None:
            continue
        seat = combat.attackers.get(ref, combat.was_attacking.get(ref))
        if seat is not None:
            return [seat]
    return []


def _permanents(game: Game, obj: GameObject, effect: Effect,
                targets: list[Target]) -> list[GameObject]:
    """The objects an effect names: its ``who``, an object reference or :class:`Each`."""
    who = who_of(effect)
    if isinstance(who, Players):
        raise TypeError(f"{type(effect).__name__} names players ({who.value}), not objects")
    return _objects(game, obj, who, effect.filter if isinstance(effect, Affecting) else None,
                    targets)


def _objects(game: Game, obj: GameObject, who: Objects, spec: ObjectFilter | None,
             targets: list[Target]) -> list[GameObject]:
    """The objects an object reference names for the resolving ``obj`` (rules 608.2c,
    608.2h), or the permanents :class:`Each` describes; ``spec``: the effect's filter."""
    if isinstance(who, Each):
        return _each(game, obj, who, targets)
    match who:
        case ObjectRef.SELF:
            if obj.ability is None and obj.zone is Zone.STACK:
                return [obj]  # a spell's own instruction, "Exile Harness Infinity" (608.2n)
            source = game.objects.get(_source_id(obj))
            return [source] if source is not None and source.zone is Zone.BATTLEFIELD else []
        case ObjectRef.TARGET | ObjectRef.THAT:
            # Each object once, however many of the targets name it (a copy's new targets
            # may repeat one chosen for another "target", 707.10c: it is affected once).
            ids = dict.fromkeys(str(ref) for kind, ref in targets if kind == "object")
            return [game.objects[ref] for ref in ids if ref in game.objects]
        case ObjectRef.FOUND:
            # "That land": what the search put onto the battlefield, still there (400.7).
            res = game.resolving
            arrived = [game.objects.get(i) for i in (res.found if res is not None else [])]
            return [o for o in arrived if o is not None and o.zone is Zone.BATTLEFIELD]
        case ObjectRef.EVENT_OBJECT:
            # "That creature" of the trigger event, if it is still that permanent (rule
            # 400.7); "that spell", if it is still on the stack.
            ref = obj.ability.event_object if obj.ability is not None else None
            found = game.objects.get(ref) if ref is not None else None
            return [found] if found is not None and found.zone in (Zone.BATTLEFIELD,
                                                                    Zone.STACK) else []
        case ObjectRef.ATTACHED:
            # Rule 608.2h: what the source is attached to, or was as it last existed.
            source = game.objects.get(_source_id(obj))
            host_id = source.attached_to if source is not None else obj.source_attached
            host = game.objects.get(host_id) if host_id else None
            return [host] if host is not None and host.zone is Zone.BATTLEFIELD else []
        case ObjectRef.ATTACHED_TO_THAT:
            # "all Equipment attached to that creature" (rule 701.3): what is attached to
            # the previous effect's still-legal target now.
            assert spec is not None  # the loader requires it
            hosts = {str(ref) for kind, ref in targets if kind == "object"}
            return [o for o in (game.objects[i] for i in game.battlefield)
                    if o.attached_to in hosts
                    and filters.matches(game, o, spec, obj.controller, _source_id(obj))]
        case ObjectRef.CHOSEN_ONE:
            return []  # chosen as the effect is performed: see _perform_on_chosen
        case ObjectRef.CHOSEN:
            # Chosen as the effect is performed (608.2d), still where they were chosen.
            res = game.resolving
            return [game.objects[i] for i in (res.chosen if res is not None else [])
                    if i in game.objects]
        case _:
            assert_never(who)


def _each(game: Game, obj: GameObject, each: Each, targets: list[Target]) -> list[GameObject]:
    """"Each [filter]": the permanents the filter describes now (608.2c), from the point of
    view of the effect's controller, the modes' chooser (700.2e) or its target player."""
    spec = each.filter
    if spec.max_mana_value_x:  # "with mana value X or less" (107.3)
        spec = replace(spec, max_mana_value=obj.x_value or 0)
    of = each.of
    if of is Players.CHOOSER:
        seats = [obj.chooser if obj.chooser >= 0 else obj.controller]
    elif of is Players.TARGET:
        seats = [int(ref) for kind, ref in targets if kind == "player"]
    elif of is Players.YOU:
        seats = [obj.controller]
    else:
        assert_never(of)
    source_id = _source_id(obj)
    return [o for o in (game.objects[i] for i in game.battlefield)
            if any(filters.matches(game, o, spec, seat, source_id) for seat in seats)]


def perform_optional(game: Game, choice: Choice, events: list[Event]) -> None:
    """The controller chose to take an optional ("you may") action (608.2d)."""
    obj = game.objects.get(choice.pool[0])
    if obj is not None and choice.effect is not None:
        # Its targets were chosen as it was put on the stack (601.2c, 603.3d) and checked as
        # resolution began (608.2b); taking the action uses them.
        res = game.resolving
        targets = res.optional_targets if res is not None else []
        if res is not None:
            res.did = True  # "If you do" (608.2d)
        _perform(game, obj, choice.effect, list(targets), events)


def perform_chosen(game: Game, choice: Choice, events: list[Event]) -> None:
    """The controller has chosen the objects an effect acts on (608.2d): perform it."""
    res = game.resolving
    obj = game.objects.get(res.object_id) if res is not None else None
    if res is None or obj is None or choice.effect is None:
        return
    res.chosen = list(choice.picked)
    res.did = bool(choice.picked)  # "you may [act on one]. If you do" (608.2d)
    _perform(game, obj, choice.effect, [], events, chosen=True)


def _choose(game: Game, obj: GameObject, effect: Effect, amount: int) -> None:
    """Who "chosen": the controller chooses up to ``amount`` of the objects the filter
    describes -- permanents, or cards in their own ``zones`` (rules 608.2c-d)."""
    spec = effect.filter if isinstance(effect, Affecting) else None
    assert spec is not None  # the loader requires it
    if game.resolving is not None:
        game.resolving.chosen = []
    zones = (effect.zones if isinstance(effect, (ReturnToHand, SacrificeOrDiscard)) else ()) \
        or ("battlefield",)
    ids = [i for z in zones for i in (game.battlefield if z == "battlefield"
                                      else looking.zone_cards(game, z, obj.controller))]
    pool = [i for i in ids if filters.matches(game, game.objects[i], spec, obj.controller,
                                              _source_id(obj))]
    if pool and amount > 0 and not game.players[obj.controller].has_lost:
        choosing.start(game, obj.controller, pool, amount, effect)


@dataclass(slots=True)
class Act:
    """One effect being performed (rule 608.2c): the resolving spell or ability ``obj``, the
    effect's still-legal targets (608.2b), its amount as performed, and the events so far."""

    game: Game
    obj: GameObject
    targets: list[Target]
    events: list[Event]
    amount: int = 0
    #: Who or what the effect names (rule 608.2c).
    who: Affected = Players.YOU

    @property
    def source(self) -> GameObject:
        """The source of the spell or ability, or the resolving object itself."""
        return self.game.objects.get(_source_id(self.obj), self.obj)

    @property
    def players(self) -> list[int]:
        """The players the effect names (its ``who``, a player set: :func:`_players`)."""
        if not isinstance(self.who, Players):
            raise TypeError(f"{self.who!r} names objects, not players")
        return _players(self.game, self.obj, self.who, self.targets)


_E = TypeVar("_E", bound=EffectBase)
_F = TypeVar("_F", bound=Callable[..., None])
#: The function performing each effect class (see :func:`performs`).
_PERFORMERS: dict[type[EffectBase], Callable[[Act, Any], None]] = {}
#: The function performing each class that acts on permanents (or other objects) it is
#: given: the named ones, or one chosen as it is performed (see :func:`on_objects`).
_ON_OBJECTS: dict[type[EffectBase], Callable[[Act, Any, list[GameObject]], None]] = {}


def performs(*classes: type[EffectBase]) -> Callable[[_F], _F]:
    """Register the decorated ``(act, effect)`` function as the performer of ``classes``;
    :func:`_check_performers` checks each class has one, whose annotation accepts it."""
    def register(function: _F) -> _F:
        for cls in classes:
            if cls in _PERFORMERS:
                raise TypeError(f"{cls.__name__} has two performers")
            _PERFORMERS[cls] = function
        return function
    return register


def on_objects(*classes: type[EffectBase]) -> Callable[[_F], _F]:
    """Register the decorated ``(act, effect, objects)`` function for ``classes``: performed
    on the objects the effect names (:func:`_permanents`) or on one chosen as it is performed
    ("a Liliana planeswalker you control", 608.2c)."""
    def register(function: _F) -> _F:
        for cls in classes:
            _ON_OBJECTS[cls] = function
        performs(*classes)(_perform_on_objects)
        return function
    return register


def _perform_on_objects(act: Act, effect: Effect) -> None:
    if who_of(effect) is ObjectRef.CHOSEN_ONE:
        _perform_on_chosen(act, effect)
    else:
        _ON_OBJECTS[type(effect)](act, effect, _permanents(act.game, act.obj, effect,
                                                            act.targets))


def _perform(game: Game, obj: GameObject, effect: Effect, targets: list[Target],
             events: list[Event], *, chosen: bool = False) -> None:
    """Perform one effect on its still-legal targets (rule 608.2b) or its named players."""
    # An effect without an amount acts once (one permanent chosen, 608.2c).
    amount = _amount(game, obj, effect) if isinstance(effect, AMOUNTED) else 1
    if who_of(effect) is ObjectRef.CHOSEN and not chosen:
        _choose(game, obj, effect, amount)  # then perform_chosen (608.2d)
        return
    _PERFORMERS[type(effect)](Act(game, obj, targets, events, amount, who_of(effect)), effect)


def _amount(game: Game, obj: GameObject, effect: Amounted) -> int:
    """How much (rule 107.1): the effect's amount as it is performed (608.2c, 608.2h) -- X
    (107.3), the event's number, a characteristic, a count of the game state -- from its
    controller's point of view; "their" amounts are counted per player (:func:`_their`)."""
    return counting.evaluate(game, effect.amount, obj.controller, _source_id(obj),
                             affected=obj.controller, spell=obj)


@performs(DealDamage)
def _deal_damage(act: Act, effect: DealDamage) -> None:
    """Rule 120: the source deals the damage -- or the creature ``by`` names (its power)."""
    if effect.by is not None:
        _creature_deals(act, effect)
        return
    game, obj, targets, who = act.game, act.obj, act.targets, effect.who
    recipients: list[Target]
    if who in (Players.TARGET, ObjectRef.TARGET):
        recipients = targets  # players or objects: "any target" (115.4)
    elif isinstance(who, Players):
        recipients = [("player", seat) for seat in act.players]
    else:
        recipients = [("object", p.id) for p in _objects(game, obj, who, effect.filter,
                                                          targets)]
    deal_damage_at_once(game, [(act.source, target, act.amount) for target in recipients],
                        act.events)


@performs(Fight)
def _fight(act: Act, effect: Fight) -> None:
    """Rules 701.14a-d: see :func:`_creature_deals`."""
    _creature_deals(act, effect)


@performs(GainLife)
def _gain_life(act: Act, effect: GainLife) -> None:
    for seat in act.players:
        gain_life(act.game, seat, _their(act.game, act.obj, effect, seat, act.amount),
                  act.events)


@performs(LoseLife)
def _lose_life(act: Act, effect: LoseLife) -> None:
    game = act.game
    for seat in act.players:
        lost = _their(game, act.obj, effect, seat, act.amount)
        lose_life(game, seat, lost, act.events)  # rule 119.3
        if game.resolving is not None and lost > 0:
            game.resolving.life_lost += lost


@performs(Draw)
def _draw(act: Act, effect: Draw) -> None:
    for seat in act.players:
        for _ in range(_their(act.game, act.obj, effect, seat, act.amount)):
            draw(act.game, seat, act.events)  # rule 121.2


@performs(Discard)
def _discard(act: Act, effect: Discard) -> None:
    game, events = act.game, act.events
    for seat in act.players:
        if not game.player(seat).hand and game.resolving is not None:
            game.resolving.couldnt.append(seat)  # "each opponent who can't" (701.9a)
        if effect.chooser == "you":  # rule 701.9b: another player chooses
            looking.start_hand_choice(game, act.obj.controller, seat, effect, events)
        elif effect.chooser == "random":
            looking.random_discard(game, seat, act.amount, events)
        else:
            # "Discard your hand" (whole_hand): every card in it (701.9a).
            start_discard(game, seat, len(game.player(seat).hand) if effect.whole_hand
                          else act.amount, events, up_to=effect.up_to)


@performs(Sacrifice)
def _sacrifice(act: Act, effect: Sacrifice) -> None:
    for seat in act.players:
        _start_sacrifice(act.game, seat, effect, act.obj, act.events)


@performs(CreateToken)
def _create_token(act: Act, effect: CreateToken) -> None:
    """Rule 111.1: the tokens are created under the control of the players named."""
    game, amount, definition = act.game, act.amount, effect.token
    if effect.token_x:  # "an X/X token, where X is ..." (rule 107.3a): one token
        definition = replace(definition, power=amount, toughness=amount)
        amount = 1
    for seat in act.players:
        for _ in range(amount):
            token = create_object(game, definition, seat, Zone.BATTLEFIELD)
            token.controlled_since = game.turn  # rule 302.6
            enters_as_printed(game, token, None, act.events)  # rule 614.12
            ask_as_it_enters(game, token)
            act.events.append(TokenCreated(token.id, seat, definition))  # rule 111.1
            if effect.tapped_attacking:
                _put_onto_battlefield_attacking(game, act.obj, token)


@performs(PreventCombatDamage)
def _prevent_combat_damage(act: Act, effect: PreventCombatDamage) -> None:
    """Rule 615.1: until the end of the turn -- to what the filter describes as the damage
    would be dealt, if it has one."""
    replacements.register(act.game, replacements.CombatDamagePrevented(
        act.game.turn, act.obj.controller, effect.prevent_to))


@performs(Coded)
def _coded(act: Act, effect: Coded) -> None:
    CODED[effect.code](act.game, act.obj, effect, act.players, act.events)


@performs(CreateDelayedTrigger)
def _delayed_trigger(act: Act, effect: CreateDelayedTrigger) -> None:
    act.game.delayed.append(DelayedTrigger(act.obj.controller, act.obj.card, effect.delayed,
                                            effect.this_turn))  # rule 603.7a


@performs(AnteTop)
def _ante_top(act: Act, effect: AnteTop) -> None:
    for seat in act.players:
        ante.ante_top(act.game, seat, act.events)  # rules 407.3, 407.4


@performs(PutSticker)
def _put_sticker(act: Act, effect: PutSticker) -> None:
    for permanent in _permanents(act.game, act.obj, effect, act.targets):
        stickers.put_sticker(act.game, act.obj.controller, permanent, effect.sticker)  # 123.3


@performs(CreateEmblem)
def _create_emblem(act: Act, effect: CreateEmblem) -> None:
    create_object(act.game, effect.emblem, act.obj.controller, Zone.COMMAND)  # rule 114.1


@performs(ExchangeLife)
def _exchange_life_of(act: Act, effect: ExchangeLife) -> None:
    _exchange_life(act.game, [int(ref) for kind, ref in act.targets if kind == "player"],
                   act.events)


@performs(ExchangeZones)
def _exchange_zones_of(act: Act, effect: ExchangeZones) -> None:
    game = act.game
    if isinstance(effect.who, ObjectRef):  # the loader: exactly for "battlefield"
        for aura in _permanents(game, act.obj, effect, act.targets):
            looking.start_attachment_exchange(game, act.obj.controller, aura, effect,
                                              act.events)
        return
    for seat in act.players:
        _exchange_zones(game, seat, effect.destination, effect.exchange_with, act.events)


@performs(*zone_rules.VERBS)
def _zone_rule(act: Act, effect: zone_rules.ZoneRuleEffect) -> None:
    """Rules 400-406: see :mod:`server.engine.zone_rules`."""
    zone_rules.perform(act.game, act.obj, effect, act.targets,
                       players=act.players if isinstance(act.who, Players) else [],
                       amount=act.amount, events=act.events)


@performs(RestrictThisTurn)
def _restrict(act: Act, effect: RestrictThisTurn) -> None:
    _restrict_this_turn(act.game, act.obj, effect, act.targets)


@performs(ChooseTarget)
def _choose_target(act: Act, effect: ChooseTarget) -> None:
    """The next instruction's subject: chosen as a target, nothing more (rule 115.1)."""


@performs(PhaseOut)
def _phase_out(act: Act, effect: PhaseOut) -> None:
    mine = act.obj.controller if effect.hold else -1  # "until the end of your next turn"
    phasing.phase_out(act.game, [p.id for p in _permanents(act.game, act.obj, effect,
                                                           act.targets)], held_by=mine)


@performs(CastCard)
def _cast(act: Act, effect: CastCard) -> None:
    _cast_card(act.game, act.obj, effect, act.targets, act.events)


@performs(FreeCastsThisTurn)
def _free_casts(act: Act, effect: FreeCastsThisTurn) -> None:
    game = act.game
    permissions.grant(game, permissions.CastFromHandFree(game.turn, act.obj.controller))  # 118.9


@performs(LookAtTop)
def _look_at_top(act: Act, effect: LookAtTop) -> None:
    for seat in act.players:
        looking.start_look_at_top(act.game, seat, act.amount, effect, act.events)  # 701.20a


@performs(ExtraTurns)
def _extra_turns(act: Act, effect: ExtraTurns) -> None:
    act.game.extra_turns += [act.obj.controller] * act.amount  # rule 500.7


@performs(ExileTop)
def _exile_top(act: Act, effect: ExileTop) -> None:
    for seat in act.players:
        looking.exile_top(act.game, seat, act.amount, may_play=effect.may_play,
                          events=act.events)


@performs(EndTurn)
def _end_turn(act: Act, effect: EndTurn) -> None:
    _end_the_turn(act.game, act.events)


@performs(AddMana)
def _add(act: Act, effect: AddMana) -> None:
    _add_mana(act.game, act.obj, effect, act.amount)


@performs(ChooseKeyword)
def _choose_keyword(act: Act, effect: ChooseKeyword) -> None:
    if not act.game.players[act.obj.controller].has_lost:
        choosing.start_name(act.game, act.obj.controller, effect.gains)  # rule 608.2d


@performs(ChooseCardName)
def _choose_card_name(act: Act, effect: ChooseCardName) -> None:
    if not act.game.players[act.obj.controller].has_lost:
        # Rules 201.4, 201.4a: any card's name with the stated characteristics -- the
        # offer is the whole card pool, so it reveals nothing of any hidden zone.
        choosing.start_name(act.game, act.obj.controller, tuple(sorted(
            name for name, card in card_pool().items()
            if not (effect.other_than and looking.has_quality(card, effect.other_than)))))


@performs(ChooseColor)
def _choose_color(act: Act, effect: ChooseColor) -> None:
    if not act.game.players[act.obj.controller].has_lost:
        choosing.start_color(act.game, act.obj.controller)  # rules 105.4, 608.2d


@performs(LoseGame)
def _lose_game(act: Act, effect: LoseGame) -> None:
    source = act.source.card.name  # (the spell or ability's, or its source's, 104.3e)
    sba.lose_together(act.game, [
        (seat, f"{act.game.players[seat].name} lost the game to {source}")
        for seat in act.players], act.events)
    sba.check_game_over(act.game, act.events)  # rule 104.2a: at once


@performs(Pay)
def _pay(act: Act, effect: Pay) -> None:
    """"You may pay {1}{B}" (608.2d); a reflexive "When you do" (603.12)."""
    game, obj = act.game, act.obj
    reflexive = None if effect.reflexive is None else PendingTrigger(
        fresh_id(game), obj.controller, obj.card, -1, _source_id(obj), effect.reflexive)
    unless.offer_payment(game, obj, effect.cost, reflexive)


@performs(FlipCoin)
def _flip_coin(act: Act, effect: FlipCoin) -> None:
    """Rules 705.1-705.2: two outcomes of equal likelihood; the flipper calls one, and wins if
    the call matches the result."""
    if act.game.resolving is not None:
        act.game.resolving.won_flip = act.game.rng.randbelow(2) == 0


def _named(act: Act, effect: Search | RevealUntil) -> str:
    """"The same name as that artifact": its name as it last existed (608.2h); "cards with
    that name" -- the name chosen earlier in this resolution (201.4)."""
    res = act.game.resolving
    if res is None:
        return ""
    if effect.find == "chosen_name":
        return res.name
    return next((res.names.get(str(ref), "") for kind, ref in act.targets if kind == "object"),
                "")


@performs(Clash)
def _clash(act: Act, effect: Clash) -> None:
    looking.start_clash(act.game, act.obj.controller, act.events)  # rule 701.30


@performs(Piles)
def _piles(act: Act, effect: Piles) -> None:
    looking.start_piles(act.game, act.obj.controller, act.amount, act.events)  # rule 700.3


@performs(Fateseal)
def _fateseal(act: Act, effect: Fateseal) -> None:
    looking.start_fateseal(act.game, act.obj.controller, act.amount, act.events)  # 701.29a


@performs(Scry)
def _scry(act: Act, effect: Scry) -> None:
    for seat in act.players:
        looking.start_scry(act.game, seat, seat, act.amount, act.events)  # rule 701.22a


@performs(Search)
def _search(act: Act, effect: Search) -> None:
    """Rule 701.23: see :func:`server.engine.looking.start_search`."""
    named = _named(act, effect)
    for seat in act.players:
        looking.start_search(act.game, act.obj.controller, seat, effect, amount=act.amount,
                             named=named, events=act.events)


@performs(RevealTop)
def _reveal_top(act: Act, effect: RevealTop) -> None:
    game, res = act.game, act.game.resolving
    for seat in act.players:
        card = looking.revealed_top(game, seat, act.obj.id, act.events)
        if card is not None and res is not None:
            res.revealed.append(card.id)
        if card is not None and effect.destination:
            # "If it's a creature card, put it into your hand. Otherwise, put it on the
            # bottom of your library" (rules 701.20a, 400.3, 401.1).
            if looking.has_quality(card.card, effect.find):
                move(game, card.id, Zone.HAND, act.events)
            elif effect.otherwise == "library_bottom":
                move(game, card.id, Zone.LIBRARY, act.events, bottom=True)


@performs(RevealUntil)
def _reveal_until(act: Act, effect: RevealUntil) -> None:
    for seat in act.players:
        looking.reveal_until(act.game, seat, effect, act.obj.id, act.events)


@performs(LookAndPick)
def _look_and_pick(act: Act, effect: LookAndPick) -> None:
    game, you = act.game, act.obj.controller
    every = condition_met(game, you, _source_id(act.obj), effect.all_if) \
        if effect.all_if is not None else False
    for seat in act.players:
        looking.start_look_and_pick(game, seat, act.amount, effect, every=every,
                                    events=act.events)


@performs(Mill)
def _mill(act: Act, effect: Mill) -> None:
    """Rule 701.17a: the top N cards go to the graveyard at the same time."""
    for seat in act.players:
        library = act.game.player(seat).library
        put_into_graveyards(act.game, list(reversed(library[-act.amount:]))
                            if act.amount > 0 else [], act.events)


@on_objects(Destroy)
def _destroy(act: Act, effect: Destroy, permanents: list[GameObject]) -> None:
    """Rule 701.8a (2009: 701.6a): to its owner's graveyard; indestructible permanents aren't
    destroyed (702.12b); regeneration may replace it (701.19)."""
    destroy(act.game, [p.id for p in permanents], act.events,
            regenerable=not effect.no_regeneration)


@on_objects(CopySpell)
def _copy(act: Act, effect: CopySpell, permanents: list[GameObject]) -> None:
    """Rule 707.10: copy the spell(s)."""
    obj = act.obj
    if not permanents and effect.who is ObjectRef.EVENT_OBJECT and obj.ability is not None:
        # "Copy that spell" of a cast trigger: as it last existed on the stack if it has
        # left it (608.2h; countered, say).
        gone = act.game.last_known_spells.get(obj.ability.event_object or "")
        permanents = [gone] if gone is not None else []
    for spell in permanents:
        copy = _copy_spell(act.game, obj.controller, spell)
        if effect.new_targets and spell.targets:
            begin_retargeting(act.game, obj.controller, copy, spell.targets,
                              spell.target_groups)


@on_objects(CreateTokenCopy)
def _create_token_copy(act: Act, effect: CreateTokenCopy,
                       permanents: list[GameObject]) -> None:
    for card in _copiable(act.game, act.targets):
        # Rule 707.2: the copiable values are the printed ones (not counters, damage, or
        # effects); it's a new token under your control (111.1).
        token = create_object(act.game, card, act.obj.controller, Zone.BATTLEFIELD)
        token.token = True
        token.controlled_since = act.game.turn
        # Rule 614.12: the copied text's replacement effects that modify how it enters
        # ("enters tapped", "with N counters": X is 0, 107.3m; "as it enters, choose").
        enters_as_printed(act.game, token, None, act.events)
        ask_as_it_enters(act.game, token)
        act.events.append(TokenCreated(token.id, act.obj.controller, card))


@on_objects(Regenerate)
def _regenerate(act: Act, effect: Regenerate, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        permanent.regeneration_shields += 1  # rule 701.19a (2009: 701.12a)


@on_objects(CounterSpell)
def _counter(act: Act, effect: CounterSpell, permanents: list[GameObject]) -> None:
    if effect.unless_pays is not None:
        # Rule 118.12a: "counter ... unless its controller pays {N}".
        unless.counter_unless_paid(act.game, permanents, effect.unless_pays, act.events)
    else:
        # Rule 701.6a (2009: 701.5a): a countered spell goes to its owner's graveyard (its
        # costs are not refunded, 701.6b); a countered ability ceases to exist.
        unless.counter(act.game, permanents, act.events)


@on_objects(DoesntUntapNext)
def _doesnt_untap(act: Act, effect: DoesntUntapNext, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        permanent.skip_next_untap = True  # rule 502.3


@on_objects(ReturnToHand)
def _return_to_hand(act: Act, effect: ReturnToHand, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        move(act.game, permanent.id, Zone.HAND, act.events)  # rule 400.3: owner's hand


@on_objects(Exile)
def _exile(act: Act, effect: Exile, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        move(act.game, permanent.id, Zone.EXILE, act.events)  # rule 701.13a
    if act.game.resolving is not None:
        # "Exile it. If you do, ...": whether anything was exiled (608.2c) -- an object
        # that left the battlefield can't be exiled from where it went (400.7).
        act.game.resolving.did = bool(permanents)


@on_objects(ReturnToBattlefield)
def _return_to_battlefield(act: Act, effect: ReturnToBattlefield,
                           permanents: list[GameObject]) -> None:
    game = act.game
    for card_obj in permanents:
        new = move(game, card_obj.id, Zone.BATTLEFIELD, act.events,
                   controller=act.obj.controller)
        if game.resolving is not None and new.zone is Zone.BATTLEFIELD:
            game.resolving.found.append(new.id)  # "It gains haste" (400.7)


@on_objects(Tap, Untap)
def _tap(act: Act, effect: Tap | Untap, permanents: list[GameObject]) -> None:
    untap = isinstance(effect, Untap)
    for permanent in permanents:
        if untap and permanent.tapped:
            act.events.append(Untapped(permanent.id))  # rule 701.26b
        permanent.tapped = not untap  # rule 701.26


@on_objects(PutCounters, RemoveCounters)
def _counters(act: Act, effect: PutCounters | RemoveCounters,
              permanents: list[GameObject]) -> None:
    for permanent in permanents:
        have = permanent.counters.get(effect.counter, 0)
        if isinstance(effect, PutCounters):
            # Rule 701.10e: doubling puts as many as it already has.
            n = have if effect.double else act.amount
            put_counters(act.game, permanent, effect.counter, n, act.events)  # rule 122.1
        else:
            permanent.counters[effect.counter] = max(have - act.amount, 0)


@on_objects(ModifyPT)
def _modify_pt(act: Act, effect: ModifyPT, permanents: list[GameObject]) -> None:
    game = act.game
    # Rule 611.2c: the affected set is locked in as the effect begins.
    locked = tuple(p.id for p in permanents)
    # "+X/+X", "+1/+1 for each ...": the bonus times the amount (rule 107.3).
    power, toughness = effect.power * act.amount, effect.toughness * act.amount
    if effect.double_power and len(permanents) == 1:
        power += permanents[0].power
    if locked:
        chosen = game.resolving.name if effect.gains_chosen and \
            game.resolving is not None and game.resolving.name else ""
        game.effects.append(ContinuousEffect(
            next_timestamp(game), locked, power, toughness,
            (*effect.gains, chosen) if chosen else effect.gains,
            effect.loses, effect.switch, lasting=effect.lasting,  # rule 611.2a
            protection=_protection(game, effect), base=effect.set_base))


@on_objects(Become)
def _become(act: Act, effect: Become, permanents: list[GameObject]) -> None:
    # Rule 611.2c: the affected set is locked in as the effect begins.
    locked = tuple(p.id for p in permanents)
    if locked:
        act.game.effects.append(ContinuousEffect(
            next_timestamp(act.game), locked, effect.power, effect.toughness, effect.gains,
            base=True, types=effect.add_types, subtypes=effect.add_subtypes))


@on_objects(Attach)
def _attach(act: Act, effect: Attach, permanents: list[GameObject]) -> None:
    # Rule 701.3a: attach the source (an Equipment) to the target; new timestamp (613.7e).
    game = act.game
    source = game.objects.get(_source_id(act.obj))
    if source is not None and source.zone is Zone.BATTLEFIELD and permanents \
            and source.attached_to != permanents[0].id:  # 701.3b: same object: nothing
        source.attached_to = permanents[0].id
        source.timestamp = next_timestamp(game)
        restamp_stickers(game, source)  # rule 613.7k


@on_objects(SacrificeOrDiscard)
def _sacrifice_or_discard(act: Act, effect: SacrificeOrDiscard,
                          permanents: list[GameObject]) -> None:
    # Rules 701.21a, 701.9a: a permanent chosen is sacrificed, a card in hand discarded.
    put_into_graveyards(act.game, [p.id for p in permanents if p.zone is Zone.BATTLEFIELD],
                        act.events)
    madness.discard(act.game, [p.id for p in permanents if p.zone is Zone.HAND], act.events)


@on_objects(ExileIfDies)
def _exile_if_dies(act: Act, effect: ExileIfDies, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        replacements.register(act.game, replacements.ExileIfDies(permanent.id))  # 614.1a


@on_objects(PutOnTop)
def _put_on_top(act: Act, effect: PutOnTop, permanents: list[GameObject]) -> None:
    for permanent in permanents:
        move(act.game, permanent.id, Zone.LIBRARY, act.events)  # its owner's library (400.3)


@on_objects(PutOnBottom)
def _put_on_bottom(act: Act, effect: PutOnBottom, permanents: list[GameObject]) -> None:
    for card_obj in permanents:
        move(act.game, card_obj.id, Zone.LIBRARY, act.events, bottom=True)  # 400.3, 401.1


@on_objects(ExchangeControl)
def _exchange_control_of(act: Act, effect: ExchangeControl,
                         permanents: list[GameObject]) -> None:
    _exchange_control(act.game, permanents)


@on_objects(GainControl)
def _gain_control(act: Act, effect: GainControl, permanents: list[GameObject]) -> None:
    # Layer 2 (rule 613.1b): until end of turn (514.2) or indefinitely (611.2a).
    held = tuple(p.id for p in permanents if p.zone is Zone.BATTLEFIELD)
    if held:
        act.game.effects.append(ContinuousEffect(next_timestamp(act.game), held,
                                                 controller=act.obj.controller,
                                                 lasting=not effect.this_turn))


def _check_performers() -> None:
    """Every effect class has exactly one performer, whose annotated ``effect`` accepts it
    (registering twice is refused as it happens)."""
    for cls in EFFECT_CLASSES:
        function = _PERFORMERS.get(cls)
        if function is None:
            raise TypeError(f"{cls.__name__} ({cls.verb.value}) has no performer")
        performer = _ON_OBJECTS.get(cls, function)
        accepted = get_type_hints(performer)["effect"]
        if cls is not accepted and cls not in get_args(accepted) and not (
                isinstance(accepted, type) and issubclass(cls, accepted)):
            raise TypeError(f"the performer of {cls.__name__} doesn't accept it")
    if set(_PERFORMERS) != set(EFFECT_CLASSES):
        raise TypeError("performers of classes that aren't effects")


def _cast_card(game: Game, obj: GameObject, effect: CastCard, targets: list[Target],
               events: list[Event]) -> None:
    """"You may cast target red instant or sorcery card from your graveyard" (608.2g): cast
    now, whatever its timing, if some way to cast it is possible (601.2b-h); it goes on the
    stack above this ability and no player receives priority until the cast is done."""
    seat = obj.controller
    for kind, ref in targets:
        card = game.objects.get(str(ref)) if kind == "object" else None
        if card is None or game.casting is not None or not choices_payable(
                game, seat, card, spell_cost(game, card.card, 0, seat, card.id)):
            continue
        begin_cast(game, seat, CastSpell(card.id), events, by_effect=True)
        if game.casting is not None:
            game.casting.had_priority = False  # rule 608.2g
            if effect.exile_instead:  # "If that spell would be put into your graveyard"
                replacements.register(game, replacements.ExileInstead(game.casting.object_id,
                                                                  game.turn))


#: CHOOSE_CARD choices of "a [filter] permanent you control" (``group``: this, the object).
CHOSEN_ONE = "chosen_one"


def _perform_on_chosen(act: Act, effect: Effect) -> None:
    """"Put a loyalty counter on a Liliana planeswalker you control": the controller chooses
    one of the permanents the filter describes as the effect is performed (608.2c) -- no
    choice with only one, nothing with none."""
    game, obj = act.game, act.obj
    spec = effect.filter if isinstance(effect, Affecting) else None
    assert spec is not None  # the loader requires it
    pool = [i for i in game.battlefield
            if filters.matches(game, game.objects[i], spec, obj.controller, _source_id(obj))]
    if len(pool) == 1:
        _ON_OBJECTS[type(effect)](act, effect, [game.objects[pool[0]]])
    elif pool:
        game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, obj.controller, pool,
                                      effect=effect, group=[CHOSEN_ONE, obj.id],
                                      count=act.amount))


def answer_chosen(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """The permanent chosen for a "a [filter] permanent you control" effect."""
    game.choices.remove(choice)
    obj = game.objects.get(choice.group[1])
    chosen = game.objects.get(action.object_id) if isinstance(action, ChooseCard) else None
    if obj is not None and chosen is not None and choice.effect is not None and \
            chosen.zone is Zone.BATTLEFIELD:
        _ON_OBJECTS[type(choice.effect)](Act(game, obj, [], events, choice.count),
                                         choice.effect, [chosen])


def _end_the_turn(game: Game, events: list[Event]) -> None:
    """Rule 724.1: end the turn."""
    game.pending_triggers.clear()  # 724.1a: what triggered before never goes on the stack
    for oid in reversed(list(game.stack)):  # 724.1b: exile the stack, the resolving spell too
        if game.objects[oid].is_ability:
            remove_from_game(game, oid)
        else:
            move(game, oid, Zone.EXILE, events)  # a copy then ceases to exist (704.5e)
    game.resolving = None
    check_state_based_actions(game, events)  # 724.1c: no priority, triggers wait (724.1f)
    # 724.1d: the step ends (500.5), everything leaves combat, and the cleanup step begins.
    empty_pools(game)
    game.combat = Combat()
    game.step = Step.CLEANUP
    game.step_begun = False
    game.cleanup_priority = False
    game.priority = None
    game.passes = 0


def _copiable(game: Game, targets: list[Target]) -> tuple[CardDef, ...]:
    """CREATE_TOKEN_COPY: the copiable values (rule 707.2) of each still-legal target -- as
    it last existed if it has left the battlefield since resolution began (608.2h: "return
    it, then create a token that's a copy of it")."""
    res = game.resolving
    known = res.cards if res is not None else {}
    out = []
    for kind, ref in targets:
        now = game.objects.get(str(ref)) if kind == "object" else None
        if now is not None and now.zone is Zone.BATTLEFIELD:
            out.append(now.card)
        elif now is None and str(ref) in known:
            out.append(known[str(ref)])
    return tuple(out)


def _restrict_this_turn(game: Game, obj: GameObject, effect: RestrictThisTurn,
                        targets: list[Target]) -> None:
    """"[Target creature / creatures without flying] can't block this turn": a rules change
    until end of turn (rules 611.2a, 611.2c). For the named permanents it follows them; for
    "each [filter]" it applies to whatever matches while it lasts, even permanents that arrive
    later (611.2c: it changes no characteristics, so the set isn't locked in) -- unless the
    permanents gain an ability granting it (``locked_in``: a characteristic, layer 6, so only
    those there as it resolves, 611.2c)."""
    stamp = next_timestamp(game)
    if isinstance(effect.who, Each) and not effect.locked_in:
        game.effects.append(ContinuousEffect(stamp, (), restrictions=effect.restrictions,
                                             filter=effect.who.filter, viewer=obj.controller))
        return
    affected = tuple(p.id for p in _permanents(game, obj, effect, targets))
    if affected:
        game.effects.append(ContinuousEffect(stamp, affected,
                                             restrictions=effect.restrictions))


def _add_mana(game: Game, obj: GameObject, effect: AddMana, amount: int) -> None:
    """Rule 106.3: mana is added to its controller's pool -- ``amount`` times the letters,
    or of "the chosen color" (105.4; none chosen, none added)."""
    if game.players[obj.controller].has_lost:
        return
    mana = game.resolving.color if effect.mana == "chosen_color" and \
        game.resolving is not None else effect.mana
    pool = game.player(obj.controller).mana_pool
    for letter in (mana if mana != "chosen_color" else "") * amount:
        pool[MANA_TYPES.index(letter)] += 1


def _protection(game: Game, effect: ModifyPT) -> tuple[str, ...]:
    """"gains protection from [quality]" -- "the color of your choice" is the color chosen
    earlier in this resolution (105.4); none chosen, none granted."""
    if effect.protection != "chosen_color":
        return (effect.protection,) if effect.protection else ()
    color = game.resolving.color if game.resolving is not None else ""
    return (color,) if color else ()


def _their(game: Game, obj: GameObject, effect: Amounted, seat: int, amount: int) -> int:
    """The amount for one affected player: "their library", "their life" counted as the
    effect is performed for that player (608.2c), or else the effect's amount."""
    if not names_their(effect.amount):
        return amount
    return counting.evaluate(game, effect.amount, obj.controller, _source_id(obj),
                             affected=seat, spell=obj)


#: A permanent fits a description (kept here for callers of ``effects.matches``).
matches = filters.matches


def _creature_deals(act: Act, effect: DealDamage | Fight) -> None:
    """"[It] fights [target creature]" (rules 701.14a-d) and "[that creature] deals damage
    equal to its power to [target]": the acting creature is the previous effect's target
    (``by`` THAT, still a legal target: rule 608.2b) or the source on the battlefield (``by``
    SELF). Neither creature deals damage unless both are creatures on the battlefield
    (701.14b); the damage isn't combat damage (701.14d)."""
    game, obj, targets, events = act.game, act.obj, act.targets, act.events
    res = game.resolving
    by = effect.by
    if by is ObjectRef.THAT:
        acting = [game.objects[str(ref)] for kind, ref in (res.previous_targets if res else [])
                  if kind == "object" and str(ref) in game.objects]
    elif by is ObjectRef.SELF or by is None:
        found = game.objects.get(_source_id(obj))
        acting = [found] if found is not None else []
    else:
        assert_never(by)
    creature = next((c for c in acting if c.zone is Zone.BATTLEFIELD and c.is_creature), None)
    if creature is None:
        return
    if isinstance(effect, DealDamage):
        deal_damage_at_once(game, [(creature, target, creature.power) for target in targets],
                            events)
        return
    other = next((game.objects[str(ref)] for kind, ref in targets
                  if kind == "object" and str(ref) in game.objects), None)
    if other is None or other.zone is not Zone.BATTLEFIELD or not other.is_creature:
        return  # rule 701.14b
    # Rule 701.14a: each deals damage equal to its power to the other, at the same time (a
    # creature fighting itself deals twice its power to itself, 701.14c).
    first, second = creature.power, other.power
    deal_damage_at_once(game, [(creature, ("object", other.id), first),
                               (other, ("object", creature.id), second)], events)


def _exchange_control(game: Game, permanents: list[GameObject]) -> None:
    """Rules 701.12a-b (2009: 701.8a-b): both permanents must still be there, or nothing
    happens; controlled by the same player, nothing happens; otherwise each player gains
    control of the other's permanent at the same time, indefinitely (layer 2, 613.1b)."""
    if len(permanents) != 2 or any(p.zone is not Zone.BATTLEFIELD for p in permanents):
        return
    first, second = permanents
    if first.controller == second.controller:
        return
    stamp = next_timestamp(game)
    game.effects.append(ContinuousEffect(stamp, (first.id,), controller=second.controller,
                                         lasting=True))
    game.effects.append(ContinuousEffect(stamp, (second.id,), controller=first.controller,
                                         lasting=True))


def _exchange_life(game: Game, seats: list[int], events: list[Event]) -> None:
    """Rule 701.12c (2009: 701.8c): each player gains or loses the life needed to reach the
    other's previous total (so it is life gained or lost, and triggers on that)."""
    if len(seats) != 2 or seats[0] == seats[1]:
        return
    a, b = (game.player(s) for s in seats)
    before = (a.life, b.life)
    for player, new in ((a, before[1]), (b, before[0])):
        if new > player.life:
            gain_life(game, player.seat, new - player.life, events)
        else:
            lose_life(game, player.seat, player.life - new, events)  # rule 119.3
    events.append(LifeExchanged((seats[0], seats[1])))


def _exchange_zones(game: Game, seat: int, first: str, second: str,
                    events: list[Event]) -> None:
    """Rules 701.12d, 701.12f (2009: 701.8d, 701.8f): exchange the cards of two zones; only
    if every card is owned by the same player -- and even if one zone is empty."""
    zone = {"hand": Zone.HAND, "graveyard": Zone.GRAVEYARD, "exile": Zone.EXILE,
            "all_exile": Zone.EXILE}
    ones = list(looking.zone_cards(game, first, seat))
    others = list(looking.zone_cards(game, second, seat))
    if any(game.objects[i].owner != seat for i in (*ones, *others)):
        return  # rule 701.12d: not all owned by the same player -- no part happens
    for ids, to in ((ones, zone[second]), (others, zone[first])):
        for oid in ids:
            move(game, oid, to, events)


def _copy_spell(game: Game, controller: int, spell: GameObject) -> GameObject:
    """Rule 707.10: put a copy of a spell on the stack, with every decision made for it --
    its modes and who chose them (700.2e, 700.2g), targets, X, and the objects used to pay
    its costs (an effect of the copy that refers to them uses the original's); it isn't
    cast (so nothing triggers on casting it) and the copier controls it."""
    copy = create_object(game, spell.card, controller, Zone.STACK)
    copy.controller = copy.base_controller = controller
    copy.spell_copy = True
    copy.modes = spell.modes  # rule 700.2g
    copy.chooser = spell.chooser  # rule 700.2e: "that player" is who chose them
    copy.x_value = spell.x_value
    copy.targets = spell.targets
    copy.target_groups = spell.target_groups
    paid = game.costs_paid.get(spell.id)
    if paid is not None:
        game.costs_paid[copy.id] = paid
    return copy


def _put_onto_battlefield_attacking(game: Game, obj: GameObject, token: GameObject) -> None:
    """Rule 508.4: a creature put onto the battlefield attacking -- its controller chooses
    which defending player (every opponent, 802.2) or planeswalker of theirs it attacks;
    with one possibility there is nothing to choose. It was never declared as an attacker
    (508.4c); outside combat it isn't attacking at all. Entering after blockers were
    declared, it is unblocked (508.4d: it is simply in no block)."""
    token.tapped = True
    if game.combat.attackers_declared and game.active == token.controller:
        options = attack_targets(game, token.id)
        if len(options) == 1:
            declare_attack(game, options[0])
        elif options:
            game.choices.append(Choice(DecisionKind.CHOOSE_DEFENDER, token.controller,
                                       [token.id]))


#: What a creature could attack: each opponent (the planeswalker id "") and each planeswalker
#: an opponent controls (with its controller), in that order.
Attackable = list[tuple[int, str]]


def attackable(game: Game) -> Attackable:
    """The players and planeswalkers the active player's creatures could attack now (rules
    506.2, 506.3, 802.2): found once for every creature a declaration asks about (a scan of
    the battlefield for each one cost attackers x permanents: an attacker's round)."""
    opponents = game.opponents(game.active)
    return [*((seat, "") for seat in opponents),
            *((game.objects[w].controller, w) for w in game.battlefield
              if game.objects[w].is_planeswalker and game.objects[w].controller in opponents)]


def attack_targets(game: Game, object_id: str,
                   targets: Attackable | None = None) -> list[DeclareAttacker]:
    """What a creature of the active player could attack (rules 506.2, 506.3, 802.2);
    ``targets``: :func:`attackable`, if known."""
    return [DeclareAttacker(object_id, seat, walker)
            for seat, walker in (attackable(game) if targets is None else targets)]


def declare_attack(game: Game, action: DeclareAttacker) -> None:
    """Record what an attacking creature attacks (rules 508.1b, 508.4)."""
    game.combat.attackers[action.object_id] = action.defender
    if action.planeswalker_id:
        game.combat.attacking_planeswalker[action.object_id] = action.planeswalker_id


def _start_sacrifice(game: Game, seat: int, effect: Sacrifice, obj: GameObject,
                     events: list[Event]) -> None:
    """Rule 701.21a: the player chooses a creature of theirs with the quality to sacrifice;
    "you may sacrifice" can be declined, and "when you do" is a reflexive trigger (603.12)."""
    source = _source_id(obj)
    if effect.optional and game.resolving is not None:
        game.resolving.did = False  # "If you do" (608.2d): until a permanent is sacrificed
    pool = [i for i in game.battlefield if game.objects[i].controller == seat
            and game.objects[i].is_creature
            and (not effect.quality or game.objects[i].has(effect.quality))
            and not (effect.other and i == source)]
    if not pool:
        return
    reflexive = None
    if effect.reflexive is not None:
        reflexive = PendingTrigger(fresh_id(game), obj.controller, obj.card, -1, source,
                                   effect.reflexive)
    if len(pool) == 1 and not effect.optional:
        sacrifice(game, pool, events)
        return
    game.choices.append(Choice(DecisionKind.SACRIFICE, seat, pool, optional=effect.optional,
                               reflexive=reflexive))


def start_discard(game: Game, seat: int, count: int, events: list[Event], *,
                  up_to: bool = False) -> None:
    """Rule 701.9b (2009: 701.7b): the player chooses the cards to discard. With no more
    cards than asked, there is nothing to choose: the whole hand is discarded -- unless it
    is "up to N" (the player may stop at any number, 608.2d)."""
    hand = game.player(seat).hand
    if up_to and game.resolving is not None:
        game.resolving.chosen = []  # "that many": none until discarded
    if count <= 0 or not hand:
        return
    if up_to:
        game.choices.append(Choice(DecisionKind.DISCARD, seat, list(hand),
                                   count=min(count, len(hand)), optional=True))
        return
    if len(hand) <= count:
        madness.discard(game, list(hand), events)  # rules 701.9a, 702.35a
        return
    game.choices.append(Choice(DecisionKind.DISCARD, seat, list(hand), count=count))


_check_performers()
