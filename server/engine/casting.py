"""Casting spells (rule 601) and resolving them (rule 608)."""

from __future__ import annotations

from server.cards.model import DealDamage, TargetSpec
from server.engine.actions import (
    Action,
    ActivateManaAbility,
    CastSpell,
    ChooseTarget,
    ChooseX,
    PayMana,
)
from server.engine.events import DamageDealt, Event
from server.engine.mana import can_pay, mana_sources, pay, potential_pool, tap_for_mana
from server.engine.state import Casting, CastStage, DecisionKind, Game, GameObject, Zone
from server.engine.zones import move

Target = tuple[str, int | str]


def target_candidates(game: Game, spec: TargetSpec) -> list[Target]:
    """Legal choices for one target (rule 115). "Any target" is rule 115.4."""
    if spec is TargetSpec.ANY:
        out: list[Target] = [("player", seat) for seat in game.in_game()]
        out += [("object", oid) for oid in game.battlefield if game.objects[oid].is_creature]
        return out
    raise ValueError(f"unsupported target spec {spec}")


def is_legal_target(game: Game, spec: TargetSpec, target: Target) -> bool:
    """Rule 608.2b: recheck a target on resolution (a changed zone means a new object)."""
    return target in target_candidates(game, spec)


def can_cast_now(game: Game, seat: int, obj: GameObject) -> bool:
    """Timing (rules 117.1a, 302.1, 304.1) and whether targets and mana are available."""
    card = obj.card
    if card.is_land or obj.zone is not Zone.HAND or obj.owner != seat:
        return False
    if not card.is_type("Instant") and not is_sorcery_speed(game, seat):
        return False
    if any(not target_candidates(game, spec) for spec in card.targets):
        return False
    return can_pay(potential_pool(game, seat), card.mana_cost.with_x(0))


def begin_cast(game: Game, seat: int, action: CastSpell, events: list[Event]) -> None:
    """Rule 601.2a: move the card to the stack; the next choices are pending decisions."""
    spell = move(game, action.object_id, Zone.STACK, events, controller=seat)
    card = spell.card
    if card.mana_cost.x_count:
        stage = CastStage.CHOOSE_X
    elif card.targets:
        stage = CastStage.CHOOSE_TARGETS
    else:
        stage = CastStage.PAY
    game.casting = Casting(spell.id, seat, stage)


def casting_decision(game: Game) -> tuple[DecisionKind, tuple[Action, ...]]:
    """The options of the current casting choice (rules 601.2b, 601.2c, 601.2g-h)."""
    casting = game.casting
    assert casting is not None
    spell = game.objects[casting.object_id]
    cost = spell.card.mana_cost
    if casting.stage is CastStage.CHOOSE_X:
        pool = potential_pool(game, casting.seat)
        top = sum(pool)
        options = tuple(ChooseX(x) for x in range(top + 1) if can_pay(pool, cost.with_x(x)))
        return DecisionKind.CHOOSE_X, options
    if casting.stage is CastStage.CHOOSE_TARGETS:
        spec = spell.card.targets[len(spell.targets)]
        return DecisionKind.CHOOSE_TARGET, tuple(
            ChooseTarget(player=int(v)) if kind == "player" else ChooseTarget(object_id=str(v))
            for kind, v in target_candidates(game, spec)
        )
    pay_options: list[Action] = [
        ActivateManaAbility(oid) for oid in mana_sources(game, casting.seat)
    ]
    if can_pay(game.player(casting.seat).mana_pool, cost.with_x(spell.x_value or 0)):
        pay_options.append(PayMana())
    return DecisionKind.PAY_MANA, tuple(pay_options)


def continue_cast(game: Game, action: Action) -> None:
    """Apply one casting choice; after payment the spell becomes cast (rule 601.2i)."""
    casting = game.casting
    assert casting is not None
    spell = game.objects[casting.object_id]
    if isinstance(action, ChooseX):
        spell.x_value = action.value
        casting.stage = CastStage.CHOOSE_TARGETS if spell.card.targets else CastStage.PAY
    elif isinstance(action, ChooseTarget):
        target: Target = (
            ("player", action.player) if action.player is not None
            else ("object", str(action.object_id))
        )
        spell.targets = (*spell.targets, target)
        if len(spell.targets) == len(spell.card.targets):
            casting.stage = CastStage.PAY
    elif isinstance(action, ActivateManaAbility):
        tap_for_mana(game, action.object_id)  # rule 605.3a: mana abilities don't use the stack
    elif isinstance(action, PayMana):
        pay(game.player(casting.seat).mana_pool, spell.card.mana_cost.with_x(spell.x_value or 0))
        game.casting = None
        # Rule 117.3c: the caster receives priority again.
        game.priority = casting.seat
        game.passes = 0
    else:
        raise TypeError(f"not a casting action: {action!r}")


def deal_damage(game: Game, source_id: str, target: Target, amount: int,
                events: list[Event]) -> None:
    """Rule 120.3: damage to a player is life loss (120.3a); to a creature, marked (120.3e)."""
    if amount <= 0:
        return  # rule 120.8: no damage is dealt
    kind, ref = target
    if kind == "player":
        game.player(int(ref)).life -= amount
        events.append(DamageDealt(source_id, int(ref), None, amount))
    else:
        game.objects[str(ref)].damage += amount
        events.append(DamageDealt(source_id, None, str(ref), amount))


def resolve_top(game: Game, events: list[Event]) -> None:
    """Rule 608: resolve the top object of the stack."""
    spell = game.objects[game.stack[-1]]
    card = spell.card
    if card.is_permanent_card:
        # Rule 608.3: a permanent spell enters the battlefield under its controller's control.
        move(game, spell.id, Zone.BATTLEFIELD, events, controller=spell.controller)
        return
    specs = card.targets
    legal = [is_legal_target(game, s, t) for s, t in zip(specs, spell.targets, strict=True)]
    if specs and not any(legal):
        # Rule 608.2b: every target is illegal, so the spell doesn't resolve.
        move(game, spell.id, Zone.GRAVEYARD, events)
        return
    targets = iter(zip(spell.targets, legal, strict=True))
    for effect in card.effects:
        if isinstance(effect, DealDamage):
            target, ok = next(targets)
            if ok:  # rule 608.2b: an illegal target is unaffected
                amount = (spell.x_value or 0) if effect.amount is None else effect.amount
                deal_damage(game, spell.id, target, amount, events)
    # Rule 608.2n: an instant or sorcery goes to its owner's graveyard as it finishes resolving.
    move(game, spell.id, Zone.GRAVEYARD, events)


def is_sorcery_speed(game: Game, seat: int) -> bool:
    """Main phase of ``seat``'s own turn with an empty stack (rules 117.1a, 307.1)."""
    return seat == game.active and game.step.is_main and not game.stack
