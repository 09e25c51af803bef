"""Paying a mana cost automatically: the ``PayAutomatically`` option of a ``PAY_MANA``
decision (a spell's or ability's total cost, 601.2g-h and 602.2b; "unless its controller
pays", 118.12a; "you may pay", 608.2d).

It is a shortcut (rule 732.2a): the engine takes, one after another, options the player could
have taken themselves -- mana abilities (605.3a), then a payment from the pool (601.2h) --
each exactly as if chosen, so the game is the one those choices make (and the action log
keeps the one action, which replays the same way: the choices depend only on the game).

Which option is next (:func:`next_payment`):

1. once the pool pays the cost, the first way to pay it (the engine's default, as
   :func:`server.engine.mana.pay` spends: colorless first for generic mana);
2. else a mana ability whose mana brings the cost closer to paid, preferring, in order:
   a land to another permanent, a permanent that isn't a creature to a creature (a tapped
   creature can't attack or block), one with no further cost (neither sacrificed, like a
   Treasure, nor paid with other mana) -- then the source that can add the fewest kinds of
   mana (a dual land is kept for later), then the most mana gained, then mana of the type
   the most other sources offered can add (so the scarcer colours stay available: {1}{G}
   from two Forests and a Mountain taps the Forests);
3. else (nothing brings the cost closer: a source that turns mana into other mana needs
   more mana in the pool first) a source whose mana doesn't, in the same order.

While a spell or ability is being cast, every mana ability offered leaves the cost payable
(``casting._still_payable``), so the payment completes. If it can't go on (never seen; at
most :data:`MAX_STEPS` steps), it stops where it is: the mana added so far stays in the pool
and the player goes on choosing (or, for "unless ... pays", declines) -- the decision asked
again (a new prompt: the client that sent the action is answered).
"""

from __future__ import annotations

from collections.abc import Sequence

from server.cards.mana import MANA_TYPES, ManaCost
from server.cards.model import CardDef
from server.engine.actions import Action, ActivateManaAbility, PayMana
from server.engine.casting import locked_total
from server.engine.mana import mana_choices, pay, spend, spendable, usable
from server.engine.state import DecisionKind, Game

#: The most options one automatic payment takes: far more than any cost needs (each step
#: but the last brings the cost at least one mana closer), so a bound only, never reached.
MAX_STEPS = 64


def shortfall(pool: Sequence[int], cost: ManaCost) -> int:
    """How much more mana ``pool`` needs to pay ``cost``: each coloured or colorless symbol
    from its own type, a hybrid symbol (107.4e) from either of its colours, generic mana
    from whatever is left. (Hybrid symbols are matched greedily: a measure for choosing the
    next mana ability, not a test of payability -- :func:`server.engine.mana.can_pay` is.)"""
    left = list(pool)
    short = 0
    for i, n in enumerate(cost.symbols):
        taken = min(n, left[i])
        left[i] -= taken
        short += n - taken
    for pair in cost.hybrid:
        for colour in pair:
            i = MANA_TYPES.index(colour)
            if left[i]:
                left[i] -= 1
                break
        else:
            short += 1
    return short + max(0, cost.generic - sum(left))


def being_paid(game: Game) -> tuple[ManaCost, CardDef | None]:
    """The cost of the pending ``PAY_MANA`` decision and the spell it pays for, if it is a
    spell's (rule 106.6: mana restricted to some spells): the total cost of the spell or
    ability being cast (601.2f, locked in), else the first choice's "unless" cost."""
    casting = game.casting
    if casting is not None:
        obj = game.objects[casting.object_id]
        return locked_total(game, casting), obj.card if obj.ability is None else None
    cost = game.choices[0].unless_cost
    assert cost is not None  # a PAY_MANA choice always has one (server.engine.unless)
    return cost, None


def next_payment(game: Game, seat: int) -> Action | None:
    """The option an automatic payment takes next (see the module docstring), or None when
    ``seat`` isn't paying a cost or nothing offered brings the cost closer."""
    pending = game.pending
    if pending is None or pending.seat != seat or pending.kind is not DecisionKind.PAY_MANA:
        return None
    for option in pending.options:
        if isinstance(option, PayMana):
            return option
    cost, spell = being_paid(game)
    pool = spendable(game, seat, spell)
    short = shortfall(pool, cost)
    abilities = [o for o in pending.options if isinstance(o, ActivateManaAbility)]
    sources: dict[str, set[str]] = {}  # mana type -> the sources offered that can add it
    for option in abilities:
        for symbol in _mana(game, option):
            sources.setdefault(symbol, set()).add(option.object_id)
    best: tuple[tuple[int, int, int, int, int, int], ActivateManaAbility] | None = None
    for index, option in enumerate(abilities):
        gain = short - shortfall(_pool_after(game, option, pool, spell), cost)
        converter = game.objects[option.object_id].card.mana_ability_cost is not None
        if gain <= 0 and converter:
            continue  # (it only trades mana: worth it only for the mana the cost lacks)
        mana = _mana(game, option)
        # Mana that brings the cost no closer comes last: it is for a source that turns
        # mana into other mana (Prismite's {2}: a {U} the cost lacks, once the pool holds
        # two more than the rest of the cost).
        key = (gain <= 0, _drawbacks(game, option), len(mana_choices(game, option.object_id)),
               -gain, -min((len(sources[s]) for s in mana), default=0), index)
        if best is None or key < best[0]:
            best = key, option
    return None if best is None else best[1]


def _mana(game: Game, option: ActivateManaAbility) -> str:
    """The mana ``option`` adds."""
    return option.mana or mana_choices(game, option.object_id)[0]


def _pool_after(game: Game, option: ActivateManaAbility, pool: Sequence[int],
                spell: CardDef | None) -> list[int]:
    """What ``pool`` (the mana that may pay the cost) would hold after ``option``: less the
    mana paying its cost, if its cost is mana (605.1a), plus the mana it adds -- if that
    mana may pay for ``spell`` (106.6)."""
    card = game.objects[option.object_id].card
    after = list(pool)
    if card.mana_ability_cost is not None:
        if option.paid_with:
            spend(after, option.paid_with)
        else:
            pay(after, card.mana_ability_cost)
    if usable(card.mana_only_for, spell):
        for symbol in _mana(game, option):
            after[MANA_TYPES.index(symbol)] += 1
    return after


def _drawbacks(game: Game, option: ActivateManaAbility) -> int:
    """What activating ``option`` costs besides tapping its source, least first: a land; a
    noncreature permanent; a creature (it can't attack or block once tapped); a source that
    is sacrificed (701.21a) or whose cost is other mana (605.1a)."""
    card = game.objects[option.object_id].card
    if card.mana_sacrifice or card.mana_ability_cost is not None:
        return 3
    if card.creature:
        return 2
    return 0 if card.is_land else 1
