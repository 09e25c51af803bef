"""Casting spells (rule 601), activating abilities (602), putting triggered abilities on the
stack (603.3), and choosing targets (115).

Every choice of rules 601.2b-h is a pending decision whose options are exactly the legal
choices, so a player can't propose an illegal cast. Only another player leaving the game can
take away the last legal choice half-way; then the cast is reversed (rule 733.1).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import assert_never

from server.cards.mana import MANA_TYPES, ManaCost
from server.cards.model import (
    ActivatedAbility,
    AdditionalCost,
    CardDef,
    CostKind,
    CostReduction,
    ObjectFilter,
    TargetedCost,
    TargetReq,
    TriggeredAbility,
)
from server.cards.verbs import Effect
from server.cards.wording import target_words
from server.engine import counting, filters, madness, modes, permissions, zone_rules
from server.engine.actions import (
    Action,
    ActivateAbility,
    ActivateManaAbility,
    CancelCast,
    CastSpell,
    ChooseCard,
    ChooseMode,
    ChoosePlayer,
    ChooseTarget,
    ChooseX,
    Discard,
    FinishModes,
    FinishTargets,
    PayAutomatically,
    PayMana,
    Sacrifice,
)
from server.engine.board import board
from server.engine.counting import condition_met
from server.engine.events import (
    AbilityActivated,
    AbilityTriggered,
    CrimeCommitted,
    Event,
    Expended,
    SpellCast,
    TargetsChosen,
)
from server.engine.mana import (
    ForEachMana,
    Potential,
    affordable,
    as_paid_by,
    converter_payments,
    mana_choices,
    mana_sources,
    most_mana,
    one_kind,
    pay,
    payment_options,
    potential_pool,
    restricted_for,
    spend,
    spend_for,
    spendable,
    take_payment_step,
    tap_for_mana,
    usable,
)
from server.engine.state import (
    AbilityKind,
    AbilityRef,
    Casting,
    CastStage,
    DecisionKind,
    Game,
    GameObject,
    GamePhase,
    PendingTrigger,
    Zone,
    may_take_back,
)
from server.engine.target_costs import least_target_taxes, target_taxes, targeted_cost
from server.engine.targeting import (
    Target,
    different_targets_possible,
    quality_source,
    target_candidates,
    targets_available,
)
from server.engine.watchers import emit
from server.engine.zones import (
    fresh_id,
    lose_life,
    move,
    next_timestamp,
    put_counters,
    sacrifice,
)

_NO_COST = ManaCost()


def spell_cost(game: Game, card: CardDef, x: int, seat: int, spell_id: str, *,
               extra: tuple[Target, ...] = ()) -> ManaCost:
    """Rule 601.2f: a spell's mana cost with X fixed, plus cost increases (Vryn Wingmare),
    minus cost reductions (Sanguine Indulgence) -- for ``seat`` casting the spell that is (or
    will be, from its card) the object ``spell_id``; ``extra``: targets it would have besides
    those chosen (what choosing them would make it cost)."""
    # Rule 118.9: cast "without paying its mana cost" (cost increases still apply).
    cost = ManaCost() if permissions.free(game, seat, spell_id) else \
        card.mana_cost.with_x(x)
    changers = board(game).cost_changers
    if not changers and card.cost_reduction is None and \
            targeted_cost(game, spell_id, extra) == (0, 0):
        return as_paid_by(game, seat, cost)  # nothing changes it (the usual case)
    if not card.creature and changers:
        tax = sum(o.card.noncreature_tax for o in changers)
        if tax:
            cost = ManaCost(cost.generic + tax, cost.symbols, 0, cost.hybrid)
    # Statics of permanents ("Creature spells with flying you cast cost {1} less"): the
    # increases first, then the reductions (601.2f), generic mana only (118.7a).
    changes = [change.generic for o in changers for change in o.card.spell_costs
               if _describes_spell(game, change.filter, o, card, seat=seat,
                                   spell_id=spell_id)]
    more = sum(g for g in changes if g > 0) + targeted_cost(game, spell_id, extra)[0]
    less = -sum(g for g in changes if g < 0)
    if more:
        cost = ManaCost(cost.generic + more, cost.symbols, cost.x_count, cost.hybrid)
    cost = reduced(game, card, cost, seat, spell_id)
    if less:
        cost = ManaCost(max(cost.generic - less, 0), cost.symbols, cost.x_count, cost.hybrid)
    return as_paid_by(game, seat, cost)  # rule 609.4b


def _describes_spell(game: Game, spec: ObjectFilter, permanent: GameObject, card: CardDef,
                     *, seat: int, spell_id: str) -> bool:
    """Whether a permanent's cost-changing static describes a spell ``seat`` casts: the
    spell's characteristics (its card's, as it is cast), its caster relative to the
    permanent's controller (rule 601.2f)."""
    spell = filters.LastKnown(card, seat, spell_id)
    return filters.matches_last_known(game, spell, spec, permanent.controller, permanent.id)


def reduced(game: Game, card: CardDef, cost: ManaCost, seat: int, spell_id: str) -> ManaCost:
    """Rules 601.2f, 118.7a: the card's own cost reduction, applied after increases, takes
    only generic mana off (never below none); a reduction by a count of 0 or less (creatures
    with a total power below 1) reduces nothing."""
    return _reduce(game, card.cost_reduction, cost, seat, spell_id)


def _reduce(game: Game, reduction: CostReduction | None, cost: ManaCost, seat: int,
            object_id: str) -> ManaCost:
    """A cost reduction (rules 601.2f, 118.7a) of a spell's cost or of an activated ability's
    (602.2b), counted from ``seat``'s point of view with ``object_id`` as "this"."""
    if reduction is None or not counting.condition_met(game, seat, object_id,
                                                       reduction.condition):
        return cost
    if reduction.mana is not None:
        return _reduced_by_mana(cost, reduction.mana)
    if reduction.amount is None:
        return cost
    amount = counting.evaluate(game, reduction.amount, seat, object_id)
    if amount <= 0:
        return cost
    return ManaCost(max(cost.generic - amount, 0), cost.symbols, cost.x_count, cost.hybrid)


def _reduced_by_mana(cost: ManaCost, by: ManaCost) -> ManaCost:
    """Rules 118.7a-d: a reduction by "{2}{U}" takes each coloured or colourless symbol off
    that component; what the component lacks, and the generic part, come off the generic
    mana (never below none)."""
    symbols = list(cost.symbols)
    excess = by.generic
    for i, n in enumerate(by.symbols):
        taken = min(n, symbols[i])
        symbols[i] -= taken
        excess += n - taken  # 118.7b-c
    w, u, b, r, g, c = symbols
    return ManaCost(max(cost.generic - excess, 0), (w, u, b, r, g, c), cost.x_count,
                    cost.hybrid)


def mana_ability_options(game: Game, seat: int, exclude: str | None = None,
                         sources: list[str] | None = None) -> list[Action]:
    """Every mana ability ``seat`` could activate now, one option per kind of mana a source
    could add (rule 605.3a) -- and, for an ability whose cost is mana, per way to pay it
    (601.2h); ``sources``: their :func:`mana_sources`, if known."""
    out: list[Action] = []
    objects = game.objects
    for oid in mana_sources(game, seat, exclude) if sources is None else sources:
        card = objects[oid].card
        if card.mana_ability_cost is None and one_kind(card):
            out.append(mana_option(oid, ""))  # (the usual case: a basic land's)
            continue
        choices = mana_choices(game, oid)
        kinds = ("",) if len(choices) == 1 else choices
        if card.mana_ability_cost is None:
            out += [mana_option(oid, m) for m in kinds]
        else:
            ways = converter_payments(game, oid)
            out += [mana_option(oid, m, way) for way in ways for m in kinds]
    return out


@lru_cache(maxsize=4096)
def mana_option(object_id: str, mana: str, paid_with: str = "") -> ActivateManaAbility:
    """The option to activate this mana ability (rule 605.3a): a value, so one instance
    serves every decision offering it (options are made anew for each decision)."""
    return ActivateManaAbility(object_id, mana, paid_with)


def _still_payable(game: Game, seat: int, option: ActivateManaAbility, cost: ManaCost,
                   exclude: str | None, *, spell: CardDef | None = None) -> bool:
    """Whether the cost can still be paid after this mana ability (so a player paying a
    cost is never offered a choice that strands the spell, rule 601.2g-h)."""
    mine = mana_choices(game, option.object_id)
    paid_with = game.objects[option.object_id].card.mana_ability_cost
    if paid_with is not None:
        # It turns pool mana into other mana: payable if, once that is paid and the mana
        # added, the rest still pays the cost.
        rest = potential_pool(game, seat, exclude=exclude, spell=spell)
        pool = game.player(seat).mana_pool
        after = list(pool)
        if option.paid_with:  # as tap_for_mana pays it (the source is offered only then)
            spend(after, option.paid_with)
        else:
            pay(after, paid_with)
        for symbol in option.mana or mine[0]:
            after[MANA_TYPES.index(symbol)] += 1
        return affordable(Potential(tuple(
            f - now + a for f, now, a in zip(rest.fixed, pool, after, strict=True)),
            rest.choices, rest.converters), cost)
    if len(mine) == 1:
        return True  # a source of one kind of mana only adds to what can be spent
    rest = potential_pool(game, seat, exclude=exclude, spell=spell)
    choices = list(rest.choices)
    fixed = list(rest.fixed)
    if not usable(game.objects[option.object_id].card.mana_only_for, spell):
        return affordable(rest, cost)  # rule 106.6: its mana can't pay this anyway
    choices.remove(tuple(mine))
    for symbol in option.mana:
        fixed[MANA_TYPES.index(symbol)] += 1
    return affordable(Potential(tuple(fixed), tuple(choices), rest.converters), cost)


def is_sorcery_speed(game: Game, seat: int) -> bool:
    """Main phase of ``seat``'s own turn with an empty stack (rules 117.1a, 307.1)."""
    return seat == game.active and game.step.is_main and not game.stack


def most_for_any_spell(game: Game, seat: int, pool: Potential) -> int | None:
    """The most mana ``seat`` could spend on a spell now (``pool``: their potential mana),
    when that bounds every spell they could cast by its mana value alone: no effect grants
    a permission (so none is cast without paying its mana cost, 118.9), no permanent changes
    spells' costs (601.2f) and no mana may be spent only on some spells (106.6). Then a card
    with no cost reduction of its own and a mana value above it can't be cast
    (:func:`can_cast_now` would find that first, 601.2g-h). None when something could
    change that."""
    summary = board(game)
    restricted = game.player(seat).restricted_mana
    if game.permissions or summary.cost_changers or summary.mana_only \
            or (restricted and any(any(c) for c in restricted.values())):
        return None
    return most_mana(pool)


def can_cast_now(game: Game, seat: int, obj: GameObject, pool: Potential | None = None) -> bool:
    """Timing (rules 117.1a, 302.1, 304.1, 702.8a flash) and whether targets and mana are
    available for some legal way to cast it. ``pool``: the seat's potential mana, if known."""
    card = obj.card
    if card.is_land or obj.owner != seat or (
            obj.zone is not Zone.HAND and obj.id not in zone_rules.playable_elsewhere(game, seat)):
        return False
    if not card.instant_speed and not is_sorcery_speed(game, seat):
        return False
    if permissions.permit(game, seat, obj, kind=permissions.CastFromHandFree) is not None:
        card = replace(card, mana_cost=ManaCost())  # without paying its mana cost (118.9)
    return choices_payable(game, seat, obj, spell_cost(game, card, 0, seat, obj.id), pool)


def choices_payable(game: Game, seat: int, obj: GameObject, total: ManaCost,
                    pool: Potential | None = None) -> bool:
    """Whether ``seat`` can make the choices of casting ``obj``'s card -- some mode with
    legal targets (601.2b-c, 700.2a), its additional cost (601.2f) -- and pay ``total`` (the
    spell's total mana cost, however it is cast) plus the cheapest possible mode's cost
    (700.2h). ``pool``: the seat's potential mana, if known."""
    card = obj.card
    if pool is None or restricted_for(game, seat, card):
        pool = potential_pool(game, seat, spell=card)  # rule 106.6: mana only for spells like it
    if most_mana(pool) < total.mana_value:
        return False  # not even the least it could cost (a cheap first test; 601.2g-h)
    cheapest = _NO_COST  # (a cost is an immutable value)
    taxed = target_taxes(game, seat)
    life = _cast_life(obj)
    if card.modes:
        possible = [m for m in range(len(card.modes))
                    if targets_available(game, card.spell_targets((m,)), seat, source=card)
                    and (not taxed or _taxes_payable(
                        game, seat, obj.id, card, chosen=(m,),
                        cost=total.plus(_mode_cost(card, m)), life=life, pool=pool,
                        taxed=taxed))]
        if not possible:
            return False  # rule 700.2a: no mode can be chosen
        if card.mode_costs:  # rule 700.2h: at least one mode's cost must be payable too
            cheapest = min((card.mode_costs[m] for m in possible),
                           key=lambda c: c.mana_value)
    elif not affordable(pool, total) or \
            not targets_available(game, card.spell_targets(), seat, source=card):
        return False  # the mana first: quicker to rule out than the targets (both pure)
    extra = spell_additional_cost(obj)
    if extra is not None and len(cost_choices(game, seat, extra, obj.id, obj.id)) < extra.count:
        return False  # rule 601.2f: the additional cost can't be paid
    if life > game.player(seat).life:
        return False  # rule 119.4: too little life to pay
    if taxed and not card.modes and not _taxes_payable(
            game, seat, obj.id, card, chosen=(), cost=total, life=life, pool=pool,
            taxed=taxed):
        return False  # rule 601.2f: every choice of targets makes it cost too much
    if not card.modes:
        return True  # affordable(pool, total) held above, and no mode adds a cost (700.2h)
    return affordable(pool, total.plus(cheapest))


def _mode_cost(card: CardDef, mode: int) -> ManaCost:
    """Rule 700.2h: a mode's additional cost (none for most modal spells)."""
    return card.mode_costs[mode] if mode < len(card.mode_costs) else ManaCost()


def _taxes_payable(game: Game, seat: int, spell_id: str, card: CardDef, *,
                   chosen: tuple[int, ...], cost: ManaCost, life: int, pool: Potential,
                   taxed: dict[str, TargetedCost]) -> bool:
    """Rule 601.2f: whether ``seat`` can still pay ``cost`` plus the least that the targets
    of the spell (with the modes ``chosen``) add to it -- mana (601.2h) and life (119.4,
    on top of the ``life`` the rest of the total cost takes: they are paid together).
    (The mana is added to the total as it stands: a reduction bigger than the rest of the
    cost, which could absorb some of it, is not counted.)"""
    more, more_life = least_target_taxes(game, seat, spell_id, card,
                                         card.spell_targets(chosen), taxed=taxed)
    if more_life + life > game.player(seat).life:
        return False
    if not more:
        return True  # (the cost itself is checked by the caller)
    return affordable(pool, cost.plus(ManaCost(more)))


def can_activate(game: Game, seat: int, obj: GameObject, index: int,
                 for_each: ForEachMana | None = None) -> bool:
    """Rule 602.5: whether ``seat`` may activate this ability of ``obj`` now; ``for_each``:
    see :func:`~server.engine.mana.potential_pool`."""
    ability = obj.activated_abilities[index]  # printed or granted (613.1f)
    if ability.discard_self:
        # Rule 113.6m: "Discard [this]" -- it functions only in its owner's hand.
        if obj.zone is not Zone.HAND or obj.owner != seat:
            return False
    elif obj.zone is not Zone.BATTLEFIELD or obj.controller != seat:
        return False
    if "cant_activate" in obj.restrictions:
        return False  # e.g. Faith's Fetters (mana abilities are separate: 605.1a)
    if ability.tap:
        if obj.tapped:
            return False
        if game.summoning_sick(obj) and not obj.has("Haste"):
            return False  # rules 302.6, 702.10c
    if ability.loyalty is not None:
        # Rule 606.3: at sorcery speed, once per turn per permanent; a negative loyalty
        # cost can't be paid with too few counters (606.4, 118.3).
        if not (is_sorcery_speed(game, seat) or ability.any_time) or \
                obj.loyalty_turn == game.turn:
            return False
        if obj.loyalty + ability.loyalty < 0:
            return False
    if ability.sorcery_speed and not is_sorcery_speed(game, seat):
        return False  # rule 602.5d
    if not condition_met(game, seat, obj.id, ability.condition):
        return False  # rule 602.5b
    if ability.additional_cost is not None and len(cost_choices(
            game, seat, ability.additional_cost, obj.id, None)) < ability.additional_cost.count:
        return False  # rules 602.2b, 601.2f: the additional cost can't be paid
    if ability.life > game.player(seat).life:
        return False  # rule 119.4: too little life to pay
    pool = potential_pool(game, seat, exclude=obj.id if ability.tap else None,
                          for_each=for_each)
    if not affordable(pool, ability_cost(game, obj, index, seat)):
        return False  # the mana before the targets: quicker to rule out (both pure)
    # Rule 115.5: an ability may target its own source, unless it says "another".
    return targets_available(game, ability.targets, seat, source=obj, other_than=obj.id)


def ability_cost(game: Game, source: GameObject, index: int, seat: int) -> ManaCost:
    """The mana part of the total cost of ``source``'s activated ability ``index`` (printed
    or granted, :attr:`GameObject.activated_abilities`); see :func:`_ability_cost`."""
    return _ability_cost(game, source, source.activated_abilities[index], seat)


def _ability_cost(game: Game, source: GameObject, ability: ActivatedAbility,
                  seat: int) -> ManaCost:
    """The mana part of an activated ability's total cost (rules 602.2b, 601.2f): its mana
    cost less its own reduction ("costs {1} less to activate for each Shrine you control",
    118.7a), counted as the cost is determined."""
    return as_paid_by(game, seat, _reduce(game, ability.cost_reduction, ability.cost, seat,
                                          source.id))  # rule 609.4b


def cost_choices(game: Game, seat: int, cost: AdditionalCost, source_id: str,
                 spell_id: str | None) -> list[str]:
    """The permanents or cards that could pay an additional cost (rules 601.2f, 602.2b) of
    the spell ``spell_id`` or of an ability of ``source_id``."""
    if cost.kind is CostKind.SACRIFICE_CREATURE:
        # "Sacrifice another creature with defender": the filter's further qualities.
        return [i for i in game.battlefield
                if game.objects[i].controller == seat and game.objects[i].is_creature
                and (cost.filter is None
                     or filters.matches(game, game.objects[i], cost.filter, seat, source_id))]
    if cost.kind is CostKind.DISCARD_CARD:
        # "Discard a land card or Shrine card": a card of one of the descriptions (109.3).
        return [i for i in game.player(seat).hand if i != spell_id and (
            not cost.cards or any(filters.matches_last_known(
                game, filters.LastKnown(game.objects[i].card, seat, i), spec, seat, source_id)
                for spec in cost.cards))]
    if cost.kind is CostKind.TAP_PERMANENTS:
        # Rules 118.3, 701.26a: only untapped permanents can be tapped to pay a cost.
        spec = cost.filter
        assert spec is not None  # the loader requires it
        return [i for i in game.battlefield
                if game.objects[i].controller == seat and not game.objects[i].tapped
                and filters.matches(game, game.objects[i], spec, seat, source_id)]
    assert_never(cost.kind)


def _cast_life(obj: GameObject) -> int:
    """The life a spell's total cost takes besides what its targets add (601.2f): that of
    a "cast [this] from your graveyard by paying N life" permission."""
    grave = obj.card.graveyard_cast
    return grave.life if grave is not None and _own_graveyard_cast(obj) else 0


def _own_graveyard_cast(obj: GameObject) -> bool:
    """Whether a card in a graveyard would be, or a spell was, cast by its own "you may cast
    [this] from your graveyard by paying ..." (601.2f)."""
    return obj.card.graveyard_cast is not None and Zone.GRAVEYARD in (obj.zone, obj.cast_from)


def spell_additional_cost(obj: GameObject) -> AdditionalCost | None:
    """The additional cost of casting a card or spell (601.2f): its own, or the one its
    permission to be cast from the graveyard adds."""
    grave = obj.card.graveyard_cast
    if grave is not None and _own_graveyard_cast(obj):
        return grave.additional_cost
    return obj.card.additional_cost


def additional_cost(obj: GameObject) -> AdditionalCost | None:
    """The additional cost of a spell or an activated ability on the stack (601.2f, 602.2b)."""
    ref = obj.ability
    if ref is None:
        return None if obj.spell_copy else spell_additional_cost(obj)
    if ref.kind is AbilityKind.ACTIVATED:
        return obj.activated_def.additional_cost
    return None


def modes_of(obj: GameObject) -> tuple[tuple[Effect, ...], ...]:
    """The modes of a modal spell or triggered ability on the stack (rule 700.2)."""
    ability = obj.ability_def
    if ability is None:
        return obj.card.modes
    return ability.modes if isinstance(ability, TriggeredAbility) else ()


def stack_effects(obj: GameObject) -> tuple[Effect, ...]:
    """The effects of a spell or ability on the stack: its chosen mode's, if modal."""
    ability = obj.ability_def
    if ability is None:
        return obj.card.spell_effects(obj.modes)
    if isinstance(ability, TriggeredAbility) and ability.modes:
        return ability.modes[obj.modes[0] if obj.modes else 0]
    return ability.effects


def stack_targets(obj: GameObject) -> tuple[TargetReq, ...]:
    """The target requirements of a spell or ability on the stack."""
    if obj.ability is None and obj.card.enchant is not None:
        return obj.card.spell_targets()  # rule 303.4a
    return tuple(t for e in stack_effects(obj) if (t := e.target_req) is not None)


def total_cost(game: Game, obj: GameObject, extra: tuple[Target, ...] = ()) -> ManaCost:
    """Rule 601.2f: the mana part of the total cost, X fixed, with cost increases (a spell's
    with ``extra`` targets besides those chosen)."""
    ref = obj.ability
    if ref is None:
        if obj.spell_copy:
            return _NO_COST
        if permissions.cast_for_madness(game, obj.id):  # 702.35b, 601.2f: the madness cost
            return madness.cost(game, obj.card, obj.x_value or 0, obj.controller,
                                obj.id, extra=extra).plus(modes.mode_costs(obj))
        if permissions.free(game, obj.controller, obj.id):  # 118.9: without paying; X is 0
            return spell_cost(game, replace(obj.card, mana_cost=ManaCost()), 0,
                              obj.controller, obj.id, extra=extra).plus(modes.mode_costs(obj))
        # Rule 700.2h: plus the additional costs of the chosen modes.
        return spell_cost(game, obj.card, obj.x_value or 0, obj.controller,
                          obj.id, extra=extra).plus(modes.mode_costs(obj))
    if ref.kind is AbilityKind.ACTIVATED:
        source = game.objects.get(ref.source_id)
        if source is None:
            return obj.activated_def.cost
        return _ability_cost(game, source, obj.activated_def, obj.controller)
    return _NO_COST


def _payable_with(game: Game, seat: int, obj: GameObject, card: CardDef, target_id: str, *,
                  later: tuple[int, int]) -> bool:
    """Whether ``seat`` could still pay for spell ``obj`` with ``target_id`` among its
    targets, plus ``later`` (generic mana, life) for the targets still to choose."""
    extra: tuple[Target, ...] = (("object", target_id),)
    if targeted_cost(game, obj.id, extra)[1] + later[1] + _cast_life(obj) \
            > game.player(seat).life:
        return False  # rule 119.4: the total cost's life is paid at once (601.2h)
    cost = total_cost(game, obj, extra).plus(ManaCost(later[0]))
    return affordable(potential_pool(game, seat, spell=card), cost)


def locked_total(game: Game, casting: Casting) -> ManaCost:
    """The total cost being paid: locked in as the payment began (rule 601.2f)."""
    if casting.locked_cost is not None:
        return casting.locked_cost
    return total_cost(game, game.objects[casting.object_id])


def begin_cast(game: Game, seat: int, action: CastSpell, events: list[Event], *,
               for_madness: bool = False, by_effect: bool = False) -> None:
    """Rule 601.2a: move the card to the stack; the next choices are pending decisions.
    ``for_madness``: cast by paying its madness cost (rules 702.35a-b); ``by_effect``: cast
    as a resolving effect instructs (608.2g), using no other permission."""
    origin = game.objects[action.object_id].zone
    cost = permissions.cast_with(game, seat, game.objects[action.object_id])  # 601.2b
    spell = move(game, action.object_id, Zone.STACK, events, controller=seat)
    if cost is permissions.Cost.WITHOUT_PAYING:  # rule 118.9: "without paying its mana cost"
        permissions.cast_for(game, spell.id, cost)
    if for_madness:  # rule 601.2b: the alternative cost announced
        permissions.cast_for(game, spell.id, permissions.Cost.MADNESS)
    spell.cast_from = origin  # rule 601.2a
    if not by_effect:
        zone_rules.cast_from(game, seat, origin, spell)  # rule 400.7h
    game.casting = Casting(spell.id, seat, CastStage.CHOOSE_MODE)
    modes.start_choosing(game, game.casting, spell)
    _advance_stage(game, events, start=True)


def begin_activation(game: Game, seat: int, action: ActivateAbility,
                     events: list[Event]) -> None:
    """Rule 602.2a: the ability is created on the stack; then as 601.2b-i (602.2b)."""
    source = game.objects[action.object_id]
    # An ability a static ability grants (613.1f) keeps its definition on the stack: it is
    # independent of its source from now on (113.7a), whatever the source has later.
    granted = action.ability >= len(source.card.abilities)
    ability = _new_ability(game, source.card, seat, AbilityRef(
        AbilityKind.ACTIVATED, action.ability, source.id,
        definition=source.activated_abilities[action.ability] if granted else None))
    ability.source_power = source.power
    ability.source_attached = source.attached_to
    # Rule 601.2b: "[-X]" -- X is announced first (606.4, 107.3).
    first = CastStage.CHOOSE_X if ability.activated_def.loyalty_x \
        else CastStage.CHOOSE_TARGETS
    game.casting = Casting(ability.id, seat, first)
    _advance_stage(game, events, start=True)


def put_trigger_on_stack(game: Game, trigger: PendingTrigger, events: list[Event]) -> None:
    """Rules 603.3a-d: put a triggered ability on the stack and choose its targets.

    If a target can't be chosen, the ability is removed from the stack (rule 603.3d).
    """
    game.pending_triggers.remove(trigger)
    ability = _new_ability(game, trigger.card, trigger.controller, AbilityRef(
        AbilityKind.TRIGGERED, trigger.index, trigger.source_id,
        definition=trigger.definition, event_player=trigger.event_player,
        event_amount=trigger.event_amount, event_object=trigger.event_object))
    source = game.objects.get(trigger.source_id)
    if source is not None:
        ability.source_attached = source.attached_to
    else:  # its source left the battlefield: its power as it last existed (608.2h)
        ability.source_power = game.power_as_it_left(trigger.source_id)
    trigger_modes = modes_of(ability)
    choosable = [m for m in trigger_modes if targets_available(
        game, tuple(t for e in m if (t := e.target_req)), trigger.controller, ability.id,
        source=trigger.card)]
    if (trigger_modes and not choosable) or (not trigger_modes and not targets_available(
            game, stack_targets(ability), trigger.controller, ability.id, source=trigger.card)):
        game.stack.remove(ability.id)
        del game.objects[ability.id]
        return
    # Rule 700.2b: a modal trigger's mode is chosen as it is put on the stack.
    game.casting = Casting(ability.id, trigger.controller,
                           CastStage.CHOOSE_MODE if trigger_modes
                           else CastStage.CHOOSE_TARGETS,
                           had_priority=False)
    _advance_stage(game, events, start=True)


def abandon_impossible_cast(game: Game, events: list[Event]) -> None:
    """Rule 733.1: a spell or ability whose casting can no longer be completed (its only
    possible targets left the game with their owner) is reversed: a spell returns to its
    owner's hand, an activated ability is removed; a triggered ability with no legal target
    is removed from the stack (603.3d). Nothing is paid before the payment itself; mana
    already produced by mana abilities stays in the pool (it was produced, 733.2)."""
    casting = game.casting
    if casting is None or casting_decision(game)[1]:
        return
    _reverse(game, casting, events)


def _reverse(game: Game, casting: Casting, events: list[Event]) -> None:
    """Undo what casting began (733.1): a spell returns to its owner's hand (a new object,
    400.7), an ability leaves the stack; the player who had priority has it again (733.2).
    Nothing was paid: costs are paid together at the end (601.2h)."""
    obj = game.objects[casting.object_id]
    game.casting = None
    if obj.is_ability:
        game.stack.remove(obj.id)
        del game.objects[obj.id]
    else:
        move(game, obj.id, Zone.HAND, events)
        # It was never cast: no effect may look back at it (608.2h), and a player taking
        # casts back over and over must not grow what the game keeps.
        game.last_known_spells.pop(obj.id, None)
    if casting.had_priority:
        game.priority = casting.seat


def cancellable(game: Game, casting: Casting) -> bool:
    """Whether the caster may take back what they began (:class:`CancelCast`): a spell from
    their hand or an activated ability, begun with priority, while the choice is theirs (not
    an opponent choosing the modes, 700.2e) -- not a triggered ability (603.3d), a copy's new
    targets (707.10c), nor a spell cast from elsewhere (its permission used, 400.7h)."""
    if not casting.had_priority or casting.retarget is not None \
            or modes.decider(casting) != casting.seat:
        return False
    obj = game.objects[casting.object_id]
    ref = obj.ability
    if ref is not None:
        return ref.kind is AbilityKind.ACTIVATED
    return not obj.spell_copy and obj.cast_from is Zone.HAND


def casting_choice(game: Game) -> tuple[DecisionKind, tuple[Action, ...]]:
    """The current casting choice's decision: :func:`casting_decision`'s options, and last,
    when the caster may take the cast back, :class:`CancelCast`."""
    kind, options = casting_decision(game)
    casting = game.casting
    assert casting is not None
    if options and cancellable(game, casting) and may_take_back(game, casting.seat):
        options = (*options, CancelCast())
    return kind, options


def _new_ability(game: Game, card: CardDef, seat: int, ref: AbilityRef) -> GameObject:
    obj = GameObject(id=fresh_id(game), card=card, owner=seat, controller=seat,
                     zone=Zone.STACK, controlled_since=game.turn, ability=ref,
                     timestamp=next_timestamp(game), base_controller=seat)
    game.objects[obj.id] = obj
    game.stack.append(obj.id)
    return obj


def _advance_stage(game: Game, events: list[Event], *, start: bool = False) -> None:
    """Move to the next casting step that needs a choice; finish when none is left."""
    casting = game.casting
    assert casting is not None
    obj = game.objects[casting.object_id]
    order = [CastStage.CHOOSE_MODE, CastStage.CHOOSE_X, CastStage.CHOOSE_TARGETS,
             CastStage.CHOOSE_COST, CastStage.PAY]
    stage = order.index(casting.stage) + (0 if start else 1)
    for candidate in order[stage:]:
        casting.stage = candidate
        if candidate is CastStage.CHOOSE_MODE and modes_of(obj) and (
                obj.ability is not None or not obj.modes
                or modes.choosable(game, obj, casting.seat, lambda: spell_cost(
                    game, obj.card, 0, casting.seat, obj.id))):
            return
        if candidate is CastStage.CHOOSE_X and (
                (obj.ability is None and obj.card.mana_cost.x_count) or _loyalty_x(obj)):
            return
        if candidate is CastStage.CHOOSE_TARGETS and \
                len(obj.target_groups) < len(stack_targets(obj)):
            return
        if candidate is CastStage.CHOOSE_COST and additional_cost(obj) is not None and \
                casting.cost_paid is None:
            return  # (a cost of several permanents is paid once all are chosen)
        if candidate is CastStage.PAY:
            ref = obj.ability
            if obj.spell_copy or (ref is not None and ref.kind is AbilityKind.TRIGGERED):
                _finish(game, events)  # a triggered ability has no cost (rule 603.3d)
                return
            # Rule 601.2f: the total cost is locked in before it is paid (activating mana
            # abilities while paying can't change it, 601.2g).
            casting.locked_cost = total_cost(game, obj)
            if casting.locked_cost != _NO_COST:
                return
            _pay(game, events, "")  # nothing to choose: {0} (rule 601.2h)
            return


def _loyalty_x(obj: GameObject) -> bool:
    """Whether ``obj`` is a loyalty ability with the cost "[-X]" being activated."""
    ref = obj.ability
    return ref is not None and ref.kind is AbilityKind.ACTIVATED and \
        obj.activated_def.loyalty_x


def casting_decision(game: Game) -> tuple[DecisionKind, tuple[Action, ...]]:
    """The options of the current casting choice (rules 601.2b, 601.2c, 601.2g-h)."""
    casting = game.casting
    assert casting is not None
    obj = game.objects[casting.object_id]
    seat = casting.seat
    card = obj.card
    if casting.stage is CastStage.CHOOSE_MODE and obj.ability is None:
        if casting.mode_chooser == -2:  # rule 700.2e: which opponent chooses
            return DecisionKind.CHOOSE_PLAYER, tuple(
                ChoosePlayer(s) for s in game.opponents(seat))
        picks: list[Action] = [ChooseMode(m) for m in modes.choosable(
            game, obj, seat, lambda: spell_cost(game, card, 0, seat, obj.id))]
        taxed = target_taxes(game, seat)
        if taxed:  # rule 601.2f: a mode whose targets make it cost too much can't be chosen
            potential = potential_pool(game, seat, spell=card)
            total = total_cost(game, obj)
            picks = [p for p in picks if isinstance(p, ChooseMode) and _taxes_payable(
                game, seat, obj.id, card, chosen=(*obj.modes, p.mode),
                cost=total.plus(_mode_cost(card, p.mode)), life=_cast_life(obj),
                pool=potential, taxed=taxed)]
        if obj.modes and modes.may_finish(obj):
            picks.append(FinishModes())
        return DecisionKind.CHOOSE_MODE, tuple(picks)
    if casting.stage is CastStage.CHOOSE_MODE:
        # Rule 700.2a: a mode whose targets can't be chosen can't be chosen.
        return DecisionKind.CHOOSE_MODE, tuple(
            ChooseMode(m) for m, effects in enumerate(modes_of(obj))
            if targets_available(game, tuple(t for e in effects if (t := e.target_req)), seat,
                                 obj.id, source=card)
        )
    if casting.stage is CastStage.CHOOSE_X and obj.ability is not None:
        # "[-X]": X from 0 to the loyalty it has (rules 606.4, 107.3, 118.3).
        source = game.objects.get(obj.ability.source_id)
        return DecisionKind.CHOOSE_X, tuple(
            ChooseX(x) for x in range((source.loyalty if source is not None else 0) + 1))
    if casting.stage is CastStage.CHOOSE_X and permissions.free(game, seat, obj.id):
        return DecisionKind.CHOOSE_X, (ChooseX(0),)  # rule 107.3: X is 0
    if casting.stage is CastStage.CHOOSE_X:
        potential = potential_pool(game, seat, spell=card if obj.ability is None else None)
        # Rule 601.2f: the targets still to choose (601.2c) add at least this much; the
        # chosen modes their costs (700.2h). An X that leaves too little for them can't
        # be chosen: the cast would stall at a decision without options.
        taxed = target_taxes(game, seat) if obj.ability is None else {}
        more = least_target_taxes(game, seat, obj.id, card, stack_targets(obj),
                                  taxed=taxed)[0] if taxed else 0
        rest = modes.mode_costs(obj).plus(ManaCost(more))
        return DecisionKind.CHOOSE_X, tuple(
            ChooseX(x) for x in range(most_mana(potential) + 1)
            if affordable(potential, spell_cost(game, card, x, seat, obj.id).plus(rest)))
    if casting.stage is CastStage.CHOOSE_COST:
        extra = additional_cost(obj)
        assert extra is not None
        source_id = obj.ability.source_id if obj.ability is not None else obj.id
        spell_id = obj.id if obj.ability is None else None
        payers = cost_choices(game, seat, extra, source_id, spell_id)
        match extra.kind:
            case CostKind.TAP_PERMANENTS:
                # Choose the permanents to tap one at a time (601.2f, 602.2b).
                return DecisionKind.CHOOSE_COST, tuple(
                    ChooseCard(oid) for oid in payers if oid not in casting.cost_tapped)
            case CostKind.SACRIFICE_CREATURE:
                return DecisionKind.CHOOSE_COST, tuple(Sacrifice(oid) for oid in payers)
            case CostKind.DISCARD_CARD:
                return DecisionKind.CHOOSE_COST, tuple(Discard(oid) for oid in payers)
            case _:
                assert_never(extra.kind)
    if casting.stage is CastStage.CHOOSE_TARGETS:
        reqs = stack_targets(obj)
        req = reqs[len(obj.target_groups)]
        chosen = obj.targets[len(obj.targets) - casting.chosen_in_group:]
        # Rules 115.3, 601.2c: "another target" excludes every target chosen before; the
        # source's qualities as it is now (702.16b).
        qualities = quality_source(game, obj)
        found = target_candidates(game, req, seat, obj.id, source=qualities,
                                  exclude=obj.targets if req.other_target else chosen)
        if any(r.other_target for r in reqs) and casting.retarget is None:
            # Offer only choices that leave different targets for the rest (601.2c).
            groups = _target_groups_so_far(obj, casting)
            found = [t for t in found if different_targets_possible(
                game, reqs, [*groups[:-1], (*groups[-1], t)], seat, obj.id,
                source=qualities)]
        if casting.retarget is not None:
            # Rule 707.10c: keep the original target (even if illegal now, as long as it is
            # still an object in the game to name) or pick a legal one.
            original = casting.retarget[len(obj.targets)]
            excluded = obj.targets if req.other_target else chosen
            if (original[0] == "player" or str(original[1]) in game.objects) \
                    and original not in excluded:  # (115.3: not twice for one "target")
                found = [original, *(t for t in found if t != original)]
        options: list[Action] = [
            ChooseTarget(player=int(v)) if kind == "player" else ChooseTarget(object_id=str(v))
            for kind, v in found
        ]
        taxed = target_taxes(game, seat) if obj.ability is None and casting.retarget is None \
            else {}
        if any(isinstance(o, ChooseTarget) and o.object_id in taxed for o in options):
            # Rule 601.2f: a target that makes the spell cost more than its caster can pay
            # -- mana (601.2h), or life beyond their life total (119.4) -- with the least the
            # targets still to choose add, can't be chosen: the cast could not be completed.
            later = least_target_taxes(game, seat, obj.id, card,
                                       reqs[len(obj.target_groups) + 1:], taxed=taxed)
            options = [o for o in options if not isinstance(o, ChooseTarget)
                       or o.object_id not in taxed
                       or _payable_with(game, seat, obj, card, o.object_id, later=later)]
        if req.up_to and casting.retarget is None:
            options.append(FinishTargets())
        return DecisionKind.CHOOSE_TARGET, tuple(options)
    ref = obj.ability
    tapping = ref is not None and ref.kind is AbilityKind.ACTIVATED and \
        obj.activated_def.tap
    exclude = ref.source_id if tapping and ref is not None else None
    cost = locked_total(game, casting)
    spell = card if obj.ability is None else None  # rule 106.6: what restricted mana may pay
    pay_options: list[Action] = [
        a for a in mana_ability_options(game, seat, exclude)
        if isinstance(a, ActivateManaAbility) and _still_payable(game, seat, a, cost, exclude,
                                                                 spell=spell)
    ]
    # Rule 601.2h: the player chooses the mana to spend when more than one way pays.
    pool = spendable(game, seat, spell)
    if pay_options:
        pay_options.insert(0, PayAutomatically())  # (server.engine.autopay)
    pay_options += [PayMana(m, t) for m, t in payment_options(game, pool, cost)]
    return DecisionKind.PAY_MANA, tuple(pay_options)


def continue_cast(game: Game, action: Action, events: list[Event]) -> None:
    """Apply one casting choice; after payment the spell becomes cast (rule 601.2i)."""
    casting = game.casting
    assert casting is not None
    obj = game.objects[casting.object_id]
    if isinstance(action, ChooseMode):
        obj.modes = (*obj.modes, action.mode)
        if casting.mode_chooser >= 0:
            obj.chooser = casting.mode_chooser  # rule 700.2e
        if obj.ability is not None or not modes.choosable(
                game, obj, casting.seat, lambda: spell_cost(game, obj.card, 0, casting.seat,
                                                             obj.id)):
            _advance_stage(game, events)
    elif isinstance(action, FinishModes):
        _advance_stage(game, events)
    elif isinstance(action, ChoosePlayer):
        casting.mode_chooser = action.seat  # rule 700.2e
    elif isinstance(action, ChooseX):
        obj.x_value = action.value
        _advance_stage(game, events)
    elif isinstance(action, ChooseTarget | FinishTargets):
        req = stack_targets(obj)[len(obj.target_groups)]
        if isinstance(action, ChooseTarget):
            target: Target = (
                ("player", action.player) if action.player is not None
                else ("object", str(action.object_id))
            )
            obj.targets = (*obj.targets, target)
            casting.chosen_in_group += 1
        wanted = req.count if casting.retarget is None \
            else casting.retarget_groups[len(obj.target_groups)]
        if isinstance(action, FinishTargets) or casting.chosen_in_group == wanted:
            obj.target_groups = (*obj.target_groups, casting.chosen_in_group)
            casting.chosen_in_group = 0
            _skip_empty_copied_groups(casting, obj)
            if len(obj.target_groups) == len(stack_targets(obj)):
                _advance_stage(game, events)
    elif isinstance(action, Sacrifice | Discard):
        casting.cost_paid = action.object_id  # paid with the rest of the cost (601.2h)
        _advance_stage(game, events)
    elif isinstance(action, ChooseCard):
        # A permanent to tap for the cost (paid with the rest of it, 601.2h).
        casting.cost_tapped = (*casting.cost_tapped, action.object_id)
        extra = additional_cost(obj)
        if extra is not None and len(casting.cost_tapped) >= extra.count:
            casting.cost_paid = action.object_id
            _advance_stage(game, events)
    elif isinstance(action, ActivateManaAbility):
        # Rule 605.3a: mana abilities don't use the stack.
        tap_for_mana(game, action.object_id, action.mana, events, action.paid_with)
    elif isinstance(action, PayMana) and action.types:
        # A step of a payment asked in steps (601.2h): the decision asks the next one.
        take_payment_step(game, spendable(game, casting.seat,
                                          obj.card if obj.ability is None else None),
                          locked_total(game, casting), action.mana, action.types)
    elif isinstance(action, PayMana):
        _pay(game, events, action.mana)
    elif isinstance(action, CancelCast):
        _reverse(game, casting, events)
    else:
        raise TypeError(f"not a casting action: {action!r}")


def _target_groups_so_far(obj: GameObject, casting: Casting) -> list[tuple[Target, ...]]:
    """The targets chosen so far per requirement, the current (partial) group last."""
    out, start = [], 0
    for n in obj.target_groups:
        out.append(obj.targets[start:start + n])
        start += n
    out.append(obj.targets[start:])
    return out


def _skip_empty_copied_groups(casting: Casting, obj: GameObject) -> None:
    """A copy keeps the number of targets of each "up to" requirement (707.10): groups the
    original left empty stay empty."""
    if casting.retarget is None:
        return
    while len(obj.target_groups) < len(casting.retarget_groups) and \
            casting.retarget_groups[len(obj.target_groups)] == 0:
        obj.target_groups = (*obj.target_groups, 0)


def begin_retargeting(game: Game, controller: int, copy: GameObject,
                      targets: tuple[tuple[str, int | str], ...],
                      groups: tuple[int, ...]) -> None:
    """Rule 707.10c: the copy's controller may choose new targets for it."""
    copy.targets = ()
    copy.target_groups = ()
    game.casting = Casting(copy.id, controller, CastStage.CHOOSE_TARGETS, had_priority=False,
                           retarget=targets, retarget_groups=groups)
    _skip_empty_copied_groups(game.casting, copy)


def _pay(game: Game, events: list[Event], mana: str) -> None:
    """Rule 601.2h: pay the total cost -- the chosen mana, then {T} and sacrifice of the
    source."""
    casting = game.casting
    assert casting is not None
    obj = game.objects[casting.object_id]
    spend_for(game, casting.seat, mana, obj.card if obj.ability is None else None)  # 106.6
    if obj.ability is None:
        # Rule 119.4: paying life -- "cost an additional 3 life to cast" (601.2f).
        lose_life(game, casting.seat, targeted_cost(game, obj.id)[1], events)
    if obj.ability is None and not obj.spell_copy and mana:
        before, after = game.watchers.mana_spent.spend(casting.seat, len(mana))
        for n in counting.expended(before, after):
            events.append(Expended(casting.seat, n))  # rule 700.14
    ref = obj.ability
    if ref is not None and ref.kind is AbilityKind.ACTIVATED:
        ability = obj.activated_def
        source = game.objects[ref.source_id]
        source.activated_turn = game.turn  # rule 700.10
        if ability.loyalty is not None:
            x_cost = (obj.x_value or 0) if ability.loyalty_x else 0  # "[-X]"
            source.counters["loyalty"] = source.loyalty + ability.loyalty - x_cost  # 606.4
            source.loyalty_turn = game.turn  # rule 606.3
        if ability.tap:
            source.tapped = True
        if ability.life:
            lose_life(game, casting.seat, ability.life, events)  # rule 119.4: paying life
        if ability.self_counter:
            put_counters(game, source, ability.self_counter, 1, events)  # rule 122.1
        if ability.discard_hand:
            # "Discard your hand": all of it at once, nothing if it is empty (701.9a).
            madness.discard(game, list(game.player(casting.seat).hand), events)
        if ability.discard_self and source.zone is Zone.HAND:
            madness.discard(game, [source.id], events)  # rule 701.9a
        if ability.sacrifice_self:
            sacrifice(game, [source.id], events)  # rule 701.21a
    if ref is None and (life := _cast_life(obj)):
        lose_life(game, casting.seat, life, events)  # rule 119.4: paying life (601.2f)
    if casting.cost_tapped:
        for oid in casting.cost_tapped:  # rule 701.26a: tapping as a cost (602.2b)
            game.objects[oid].tapped = True
    elif casting.cost_paid is not None:
        # Rule 601.2h: the additional cost -- sacrifice (701.21a) or discard (701.9a).
        madness.pay_cost(game, obj, casting.cost_paid, events)  # madness applies (702.35a)
    _finish(game, events)


def _finish(game: Game, events: list[Event]) -> None:
    """Rule 601.2i: the spell is cast (or the ability activated or put on the stack)."""
    casting = game.casting
    assert casting is not None
    game.casting = None
    obj = game.objects[casting.object_id]
    if obj.ability is None and not obj.spell_copy:  # a copy isn't cast (707.10)
        emit(game, events, SpellCast(obj.id, obj.controller, obj.card))  # cast triggers
    ref = obj.ability
    if ref is not None and ref.kind is AbilityKind.ACTIVATED:  # rule 602.2i
        events.append(AbilityActivated(obj.id, ref.source_id, obj.controller,
                                       obj.activated_def.loyalty is not None))
    elif ref is not None and ref.kind is AbilityKind.TRIGGERED:  # rule 603.3
        events.append(AbilityTriggered(obj.id, ref.source_id, obj.controller))
    # Rule 601.2c: the chosen objects became its targets (a copy's targets it was created
    # with weren't chosen, 707.10c: only new ones were).
    kept = {str(ref) for kind, ref in casting.retarget or () if kind == "object"}
    chosen = tuple(str(ref) for kind, ref in obj.targets
                   if kind == "object" and str(ref) not in kept)
    if chosen:
        events.append(TargetsChosen(obj.id, chosen))
    if not obj.spell_copy and counting.is_crime(game, obj.controller, obj):
        events.append(CrimeCommitted(obj.controller))  # rule 700.13
    if casting.had_priority:
        # Rule 117.3c: the caster receives priority again.
        game.priority = casting.seat
        game.passes = 0


# --- why a card can't be cast (asked on demand, never while deciding) ------------------------


def why_not_castable(game: Game, seat: int, object_id: str) -> str:
    """Why ``seat`` can't cast the card ``object_id`` now, in a player's words (no rule
    numbers, as every reason a player reads) -- "" when they can. The same tests as
    :func:`can_cast_now` and :func:`choices_payable`, in their order: whose card and where
    (601.2, 400.7h), timing (117.1a, 307.1, 702.8a), priority (117.1), mana (601.2f-h,
    naming the permanents that make it cost more), targets (601.2c, 115.1), additional
    costs (601.2f), life (119.4). Only what ``seat`` may know: their own card and the public
    state -- a card that isn't theirs to cast (an opponent's, a hidden one, one that doesn't
    exist) gets the same answer, and a missing target is never said to be among hidden
    cards. Pure: it changes nothing, and no decision asks it (the engine's cost per
    decision is unchanged)."""
    if game.result is not None:
        return "The game is over."  # (first: public, and the same for every card)
    obj = game.objects.get(object_id)
    if obj is None or obj.owner != seat or (
            obj.zone is not Zone.HAND
            and obj.id not in zone_rules.playable_elsewhere(game, seat)):
        return ("It isn't a card you may cast: you cast your own cards from your hand, or from "
                "where an effect lets you.")
    card = obj.card
    if game.phase is not GamePhase.PLAYING:
        return ("The game hasn't begun: first who plays first is chosen and the hands are "
                "kept or mulliganed.")
    if card.is_land:
        return ("A land is played, not cast: once a turn, in your main phase with the stack "
                "empty.")
    if not card.instant_speed and not is_sorcery_speed(game, seat):
        # Why first, then the rule (307.1): "... -- and it isn't your turn" read as a part
        # of when the card may be cast (new player, round 9).
        when = "It isn't your turn" if seat != game.active else \
            "It isn't your main phase" if not game.step.is_main else "The stack isn't empty"
        return (f"{when}: this card can be cast only when you could cast a sorcery -- in "
                f"your main phase, with the stack empty.")
    pending = game.pending
    if pending is None or pending.seat != seat or pending.kind is not DecisionKind.PRIORITY:
        return ("You don't have priority: a spell is cast only by a player with priority."
                if pending is None or pending.seat != seat else
                "Finish the decision you are making first: a spell is cast only when you have "
                "priority.")
    free = permissions.permit(game, seat, obj, kind=permissions.CastFromHandFree)
    if free is not None:
        card = replace(card, mana_cost=ManaCost())  # without paying its mana cost (118.9)
    total = spell_cost(game, card, 0, seat, obj.id)
    pool = potential_pool(game, seat, spell=card)
    life = _cast_life(obj)
    if card.modes:
        # Rule 700.2a: some mode must have its targets; the mana checked for the cheapest.
        possible = [m for m in range(len(card.modes))
                    if targets_available(game, card.spell_targets((m,)), seat, source=card)]
        if not possible:
            return "No mode can be chosen: none has a legal target."
        cheapest = min((_mode_cost(card, m) for m in possible), key=lambda c: c.mana_value)
        if not affordable(pool, total.plus(cheapest)):
            return _mana_reason(game, seat, obj, total.plus(cheapest), pool)
    else:
        if not affordable(pool, total):
            return _mana_reason(game, seat, obj, total, pool)
        for req in card.spell_targets():
            if not req.up_to and not targets_available(game, (req,), seat, source=card):
                return f"No legal target: it needs {target_words(req)}."
        if not targets_available(game, card.spell_targets(), seat, source=card):
            return "No legal targets: its targets must all be different."
    extra = spell_additional_cost(obj)
    if extra is not None and len(cost_choices(game, seat, extra, obj.id, obj.id)) < extra.count:
        return "Its additional cost can't be paid."
    if life > game.player(seat).life:
        return f"It costs {life} life and you have {game.player(seat).life}."
    if can_cast_now(game, seat, obj):
        return ""
    return "Every choice of targets makes it cost more than you could pay."


def _mana_reason(game: Game, seat: int, obj: GameObject, total: ManaCost,
                 pool: Potential) -> str:
    """Rules 601.2f-h: the total cost, the most mana ``seat`` could make, and the public
    permanents that make the spell cost more (Vryn Wingmare)."""
    most = most_mana(pool)
    cost = str(total) or "{0}"
    more = cost_increasers(game, seat, obj)
    if more:
        names = ", ".join(more)
        cost += f" ({names} make{'s' if len(more) == 1 else ''} it cost more)"
    if most >= total.mana_value:
        return f"Not the right mana: it needs {cost}, and your {most} mana can't pay it."
    return f"Not enough mana: it needs {cost}, and you could make at most {most}."


def cost_increasers(game: Game, seat: int, obj: GameObject) -> list[str]:
    """The names of the permanents whose statics make ``obj``'s card cost more for ``seat``
    (601.2f: Vryn Wingmare's "Noncreature spells cost {1} more to cast"), as
    :func:`spell_cost` finds them -- permanents on the battlefield, public."""
    card = obj.card
    names: list[str] = []
    for o in board(game).cost_changers:
        more = (not card.creature and o.card.noncreature_tax > 0) or any(
            change.generic > 0 and _describes_spell(game, change.filter, o, card, seat=seat,
                                                    spell_id=obj.id)
            for change in o.card.spell_costs)
        if more and o.card.name not in names:
            names.append(o.card.name)
    return names
