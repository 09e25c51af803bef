"""Countering spells and abilities (rule 701.6), "counter ... unless its controller pays
{N}" (rule 118.12a) and "you may pay {N}" (608.2d): as the effect is performed, the controller
of the spell or ability (or the resolving ability's controller, for "you may pay") may pay the
cost -- a ``PAY_MANA`` choice whose options are their mana abilities (117.1d, 605.3a), one
``PayMana`` per way to pay from their mana pool, and ``Decline``. If they don't pay, it is
countered (for "you may pay": "if you do" doesn't hold). A player who can't pay the cost even
with every mana ability they have isn't asked (rule 118.3: a cost can't be paid without the
resources).
"""

from __future__ import annotations

from server.cards.mana import ManaCost
from server.engine.actions import (
    Action,
    ActivateManaAbility,
    Decline,
    PayAutomatically,
    PayMana,
)
from server.engine.casting import mana_ability_options
from server.engine.events import Countered, Event
from server.engine.mana import (
    affordable,
    as_paid_by,
    payment_options,
    potential_pool,
    spend,
    take_payment_step,
    tap_for_mana,
)
from server.engine.state import Choice, DecisionKind, Game, GameObject, PendingTrigger, Zone
from server.engine.zones import move, remove_from_game

#: The choice kinds this module answers (server.engine.game dispatches them here). Outside
#: casting, a PAY_MANA choice is an "unless [player] pays" payment or a "you may pay" one.
KINDS = (DecisionKind.PAY_MANA,)


def _counterer(game: Game) -> str:
    """The spell or ability whose resolution counters (608.2): the one resolving."""
    return game.resolving.object_id if game.resolving is not None else ""


def counter(game: Game, objects: list[GameObject], events: list[Event],
            unless_cost: str = "", declined: bool = False) -> None:
    """Rule 701.6a (2009: 701.5a): remove each from the stack: a countered spell goes to its
    owner's graveyard (costs are not refunded, 701.6b); a countered ability simply ceases to
    exist (it isn't a card, 113.7). A ``Countered`` event says so first, naming the resolving
    spell or ability that countered it and, for "unless ... pays", the cost not paid."""
    for obj in objects:
        if obj.id not in game.objects or obj.zone is not Zone.STACK:
            continue
        events.append(Countered(obj.id, obj.controller, _counterer(game), unless_cost,
                                declined))
        if obj.is_ability:
            remove_from_game(game, obj.id)
        else:
            move(game, obj.id, Zone.GRAVEYARD, events)


def counter_unless_paid(game: Game, objects: list[GameObject], cost: ManaCost,
                        events: list[Event]) -> None:
    """Rule 118.12a: each one's controller may pay ``cost``; whoever can't is countered at
    once, the others decide in turn (a PAY_MANA choice each)."""
    for obj in objects:
        if obj.zone is not Zone.STACK:
            continue
        paid = as_paid_by(game, obj.controller, cost)  # rule 609.4b
        if affordable(potential_pool(game, obj.controller), paid):
            game.choices.append(Choice(DecisionKind.PAY_MANA, obj.controller, [obj.id],
                                       optional=True, unless_cost=paid))
        else:
            counter(game, [obj], events, str(paid) or "{0}")  # couldn't pay (118.3)


def offer_payment(game: Game, obj: GameObject, cost: ManaCost,
                  reflexive: PendingTrigger | None = None) -> None:
    """"You may pay {1}{B}. If you do, ..." (rules 118.1, 608.2d): the controller of the
    resolving ``obj`` may pay ``cost`` -- not asked if they can't (118.3); "if you do" holds
    only once they have paid, and "When you do, ..." (``reflexive``, 603.12a) triggers."""
    res = game.resolving
    if res is not None:
        res.did = False
    paid = as_paid_by(game, obj.controller, cost)  # rule 609.4b
    if affordable(potential_pool(game, obj.controller), paid):
        game.choices.append(Choice(DecisionKind.PAY_MANA, obj.controller, [obj.id],
                                   optional=True, unless_cost=paid, may_pay=True,
                                   reflexive=reflexive))


def options(game: Game, choice: Choice) -> tuple[Action, ...]:
    """Mana abilities of the paying player (117.1d), each way to pay from the pool, or
    not paying."""
    assert choice.unless_cost is not None
    seat = choice.seat
    out = mana_ability_options(game, seat)
    if out:
        out.insert(0, PayAutomatically())  # (server.engine.autopay)
    out += [PayMana(m, t) for m, t in payment_options(game, game.player(seat).mana_pool,
                                                       choice.unless_cost)]
    return (*out, Decline())


def answer(game: Game, choice: Choice, action: Action, events: list[Event]) -> None:
    """Activate a mana ability (the choice stays), pay, or decline -- then it is countered."""
    if isinstance(action, ActivateManaAbility):
        tap_for_mana(game, action.object_id, action.mana, events, action.paid_with)  # rule 605.3a
        return
    if isinstance(action, PayMana) and action.types:
        # A step of a payment asked in steps (601.2h): the choice stays, asking the next.
        assert choice.unless_cost is not None
        take_payment_step(game, game.player(choice.seat).mana_pool, choice.unless_cost,
                          action.mana, action.types)
        return
    game.choices.remove(choice)
    if isinstance(action, PayMana):
        spend(game.player(choice.seat).mana_pool, action.mana)
        if choice.may_pay and game.resolving is not None:
            game.resolving.did = True  # "If you do" (608.2d)
        if choice.reflexive is not None:
            game.pending_triggers.append(choice.reflexive)  # rule 603.12a: "when you do"
        return
    if choice.may_pay:
        return  # "you may pay": declining just doesn't pay
    if not isinstance(action, Decline):  # pragma: no cover - options always match
        raise TypeError(f"{action!r} doesn't answer a PAY_MANA choice")
    found = game.objects.get(choice.pool[0])
    if found is not None:
        counter(game, [found], events, str(choice.unless_cost) or "{0}", declined=True)
