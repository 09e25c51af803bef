"""Resolving spells and abilities (rule 608) and performing their effects.

Resolution can pause for a player's choice (a discard, say): the object stays on the stack
and :class:`~server.engine.state.Resolution` remembers the next effect (rule 608.2c: effects
are performed in text order).
"""

from __future__ import annotations

from server.cards.model import Effect, Verb, Who
from server.engine.casting import Target, is_legal_target, stack_targets
from server.engine.events import DamageDealt, Event
from server.engine.state import (
    Choice,
    DecisionKind,
    Game,
    GameObject,
    Resolution,
    Zone,
)
from server.engine.zones import draw, move, put_into_graveyards, remove_from_game


def stack_effects(obj: GameObject) -> tuple[Effect, ...]:
    """The effects of a spell (its chosen mode's, rule 700.2) or ability on the stack."""
    ability = obj.ability_def
    return obj.card.spell_effects(obj.mode) if ability is None else ability.effects


def deal_damage(game: Game, source: GameObject, target: Target, amount: int,
                events: list[Event]) -> None:
    """Rule 120.3: damage to a player is life loss (120.3a); to a planeswalker it removes
    loyalty (120.3c); to a creature it is marked (120.3e), with deathtouch noted (702.2b)."""
    if amount <= 0:
        return  # rule 120.8: no damage is dealt
    kind, ref = target
    if kind == "player":
        seat = int(ref)
        if game.players[seat].has_lost:
            return  # rule 800.4a: a player who left is no longer in the game
        game.player(seat).life -= amount
        events.append(DamageDealt(source.id, seat, None, amount))
        return
    obj = game.objects[str(ref)]
    if obj.is_planeswalker:
        obj.counters["loyalty"] = obj.loyalty - amount
    if obj.is_creature:
        obj.damage += amount
        if source.card.has_keyword("Deathtouch"):
            obj.deathtouched = True
    events.append(DamageDealt(source.id, None, obj.id, amount))


def resolve_top(game: Game, events: list[Event]) -> None:
    """Rule 608: resolve the top object of the stack."""
    obj = game.objects[game.stack[-1]]
    reqs = stack_targets(obj)
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
        _after_resolution(game)
        return
    game.resolving = Resolution(obj.id, 0, legal)
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
        group_of.append(g if effect.target is not None else -1)
        g += effect.target is not None
    while res.index < len(effects):
        i = res.index
        res.index += 1
        targets = legal_groups[group_of[i]] if group_of[i] >= 0 else []
        _perform(game, obj, effects[i], [t for t, ok in targets if ok], events)
        if game.choices:
            return  # rule 608.2c: continue after the choice
    game.resolving = None
    _leave_stack(game, obj, events)


def _leave_stack(game: Game, obj: GameObject, events: list[Event]) -> None:
    """Rule 608.2n: a resolved or fizzled instant or sorcery goes to its owner's graveyard;
    an ability just leaves the stack (it isn't a card, rule 113.7)."""
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


def _players(game: Game, obj: GameObject, effect: Effect, targets: list[Target]) -> list[int]:
    if effect.who is Who.YOU:
        return [] if game.players[obj.controller].has_lost else [obj.controller]
    if effect.who is Who.EACH_OPPONENT:
        return game.opponents(obj.controller)
    if effect.who is Who.EACH_PLAYER:
        return game.apnap()
    return [int(ref) for kind, ref in targets if kind == "player"]


def _permanents(game: Game, obj: GameObject, effect: Effect,
                targets: list[Target]) -> list[GameObject]:
    if effect.who is Who.EACH_CREATURE_YOU_CONTROL:
        return [game.objects[i] for i in game.battlefield
                if game.objects[i].is_creature and game.objects[i].controller == obj.controller]
    if effect.who is Who.SELF:
        source = game.objects.get(obj.ability.source_id) if obj.ability else obj
        return [source] if source is not None and source.zone is Zone.BATTLEFIELD else []
    return [game.objects[str(ref)] for kind, ref in targets if kind == "object"]


def _perform(game: Game, obj: GameObject, effect: Effect, targets: list[Target],
             events: list[Event]) -> None:
    """Perform one effect on its still-legal targets (rule 608.2b) or its named players."""
    amount = (obj.x_value or 0) if effect.amount is None else effect.amount
    verb = effect.verb
    source = obj
    if obj.ability is not None and obj.ability.source_id in game.objects:
        source = game.objects[obj.ability.source_id]
    if verb is Verb.DEAL_DAMAGE:
        recipients = targets if effect.who is Who.TARGET else [
            ("player", seat) for seat in _players(game, obj, effect, targets)]
        for target in recipients:
            deal_damage(game, source, target, amount, events)
    elif verb is Verb.GAIN_LIFE:
        for seat in _players(game, obj, effect, targets):
            game.player(seat).life += amount  # rule 119.3
    elif verb is Verb.LOSE_LIFE:
        for seat in _players(game, obj, effect, targets):
            game.player(seat).life -= amount  # rule 119.3
    elif verb is Verb.DRAW:
        for seat in _players(game, obj, effect, targets):
            for _ in range(amount):
                draw(game, seat, events)  # rule 121.2
    elif verb is Verb.DISCARD:
        for seat in _players(game, obj, effect, targets):
            start_discard(game, seat, amount, events)
    elif verb is Verb.DESTROY:
        # Rule 701.8a (2009: 701.6a): move to its owner's graveyard.
        put_into_graveyards(game, [p.id for p in _permanents(game, obj, effect, targets)],
                            events)
    elif verb is Verb.COUNTER:
        # Rule 701.6a (2009: 701.5a): a countered spell goes to its owner's graveyard; its
        # costs are not refunded (701.6b).
        for spell in _permanents(game, obj, effect, targets):
            move(game, spell.id, Zone.GRAVEYARD, events)
    elif verb is Verb.RETURN_TO_HAND:
        for permanent in _permanents(game, obj, effect, targets):
            move(game, permanent.id, Zone.HAND, events)  # rule 400.3: owner's hand
    elif verb is Verb.PUT_COUNTERS:
        for permanent in _permanents(game, obj, effect, targets):
            permanent.counters[effect.counter] = permanent.counters.get(effect.counter, 0) \
                + amount  # rule 122.1
    elif verb is Verb.MODIFY_PT:
        for permanent in _permanents(game, obj, effect, targets):
            permanent.pt_effects.append((effect.power, effect.toughness))  # until end of turn
    else:  # pragma: no cover - the vocabulary is closed
        raise ValueError(f"unhandled verb {verb}")


def start_discard(game: Game, seat: int, count: int, events: list[Event]) -> None:
    """Rule 701.9b (2009: 701.7b): the player chooses the cards to discard. With no more
    cards than asked, there is nothing to choose: the whole hand is discarded."""
    hand = game.player(seat).hand
    if count <= 0 or not hand:
        return
    if len(hand) <= count:
        put_into_graveyards(game, list(hand), events)
        return
    game.choices.append(Choice(DecisionKind.DISCARD, seat, list(hand), count=count))
