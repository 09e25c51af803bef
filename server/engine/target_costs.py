"""Targets that make a spell cost more (rule 601.2f): "Spells your opponents cast that target
[this] cost {N} more / an additional N life to cast" (Pursued Whale, Terror of the Peaks).

What a spell being cast pays more for its targets, which permanents tax a player's spells
this way, and the least a spell's targets still to choose can add -- so a target, a mode or
a spell that would leave the cast unpayable is never offered (:mod:`server.engine.casting`).
"""

from __future__ import annotations

from typing import Final

from server.cards.model import CardDef, TargetedCost, TargetReq
from server.engine.board import board
from server.engine.state import Game, Zone
from server.engine.targeting import Target, target_candidates

# Enum members read in this module's functions, bound to module names once: in Python
# 3.11 reading a member as a class attribute (``Zone.BATTLEFIELD``) goes through the slow
# attribute hook of ``EnumType.__getattr__``, several times the cost of reading a global.
# They are the same objects (``is`` holds).
_ZONE_BATTLEFIELD: Final = Zone.BATTLEFIELD
_ZONE_STACK: Final = Zone.STACK


def targeted_cost(game: Game, spell_id: str,
                  extra: tuple[Target, ...] = ()) -> tuple[int, int]:
    """The generic mana and life a spell on the stack costs more for its targets (with
    ``extra`` targets besides): "Spells your opponents cast that target [this] cost {3} more /
    an additional 3 life" (rule 601.2f) -- once for each such permanent it targets."""
    spell = game.objects.get(spell_id)
    if spell is None or spell.zone is not _ZONE_STACK or spell.ability is not None \
            or spell.spell_copy:
        return 0, 0
    generic = life = 0
    for oid in dict.fromkeys(str(r) for kind, r in (*spell.targets, *extra) if kind == "object"):
        target = game.objects.get(oid)
        if target is None or target.zone is not _ZONE_BATTLEFIELD:
            continue
        more = target.card.targeted_cost
        if more is not None and target.controller in game.opponents(spell.controller):
            generic += more.generic
            life += more.life
    return generic, life


def target_taxes(game: Game, seat: int) -> dict[str, TargetedCost]:
    """Rule 601.2f: the permanents ``seat``'s opponents control that make ``seat``'s spells
    targeting them cost more (Pursued Whale, Terror of the Peaks), by id."""
    taxed = board(game).taxed
    if not taxed:
        return {}
    opponents = game.opponents(seat)
    return {o.id: o.card.targeted_cost for o in taxed
            if o.card.targeted_cost is not None and o.controller in opponents}


def least_target_taxes(game: Game, seat: int, spell_id: str, card: CardDef,
                       reqs: tuple[TargetReq, ...], *, taxed: dict[str, TargetedCost]
                       ) -> tuple[int, int]:
    """The least generic mana and life that choosing targets for ``reqs`` adds to the spell's
    total cost (601.2f): for each required target, its cheapest legal choices. (A permanent
    chosen for two instances of "target" is counted twice here, paid once: too high only for
    a spell whose every choice for two of its targets is such a permanent.)"""
    generic = life = 0
    for req in reqs:
        if req.up_to:
            continue  # none need be chosen (601.2c)
        costs = sorted(_tax_of(t, taxed) for t in target_candidates(
            game, req, seat, spell_id, source=card))
        for more, more_life in costs[:req.count]:
            generic += more
            life += more_life
    return generic, life


def _tax_of(target: Target, taxed: dict[str, TargetedCost]) -> tuple[int, int]:
    kind, ref = target
    tax = taxed.get(str(ref)) if kind == "object" else None
    return (0, 0) if tax is None else (tax.generic, tax.life)
