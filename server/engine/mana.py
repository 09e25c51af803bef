"""Mana pools and paying mana costs (rules 106, 107.4, 601.2g-h, 605)."""

from __future__ import annotations

from server.cards.mana import MANA_TYPES, ManaCost
from server.engine.state import Game, Zone

_COLORLESS = MANA_TYPES.index("C")


def can_pay(pool: list[int], cost: ManaCost) -> bool:
    """Whether the mana in ``pool`` can pay ``cost`` (X already fixed, rule 107.3a)."""
    left = list(pool)
    for i, need in enumerate(cost.symbols):
        if left[i] < need:
            return False
        left[i] -= need
    return sum(left) >= cost.generic


def pay(pool: list[int], cost: ManaCost) -> None:
    """Remove ``cost`` from ``pool``: each symbol with its own type, then generic (rule 601.2h).

    Generic mana is taken from colorless first, then from the most plentiful colour, a fixed
    rule so payment is deterministic. (Choosing which mana pays generic becomes a decision
    when cards care about the colour of mana spent.)
    """
    if not can_pay(pool, cost):
        raise ValueError(f"cannot pay {cost} from pool {pool}")
    for i, need in enumerate(cost.symbols):
        pool[i] -= need
    generic = cost.generic
    take = min(generic, pool[_COLORLESS])
    pool[_COLORLESS] -= take
    generic -= take
    while generic:
        i = max(range(len(MANA_TYPES)), key=lambda k: (pool[k], -k))
        pool[i] -= 1
        generic -= 1


def mana_sources(game: Game, seat: int) -> list[str]:
    """Untapped permanents ``seat`` controls that can tap for mana now (rule 605)."""
    out = []
    for oid in game.battlefield:
        obj = game.objects[oid]
        if obj.controller == seat and not obj.tapped and obj.card.mana_abilities:
            if obj.is_creature and obj.controlled_since == game.turn:
                continue  # rule 302.6: {T} abilities of summoning-sick creatures
            out.append(oid)
    return out


def potential_pool(game: Game, seat: int) -> list[int]:
    """Mana ``seat`` has now plus what their untapped sources could add."""
    pool = list(game.player(seat).mana_pool)
    for oid in mana_sources(game, seat):
        pool[MANA_TYPES.index(game.objects[oid].card.mana_abilities[0])] += 1
    return pool


def tap_for_mana(game: Game, object_id: str) -> None:
    """Activate a permanent's mana ability: tap it and add its mana (rules 106.4, 605.3b)."""
    obj = game.objects[object_id]
    if obj.zone is not Zone.BATTLEFIELD or obj.tapped:
        raise ValueError("only an untapped permanent can tap for mana")
    obj.tapped = True
    game.player(obj.controller).mana_pool[MANA_TYPES.index(obj.card.mana_abilities[0])] += 1


def empty_pools(game: Game) -> None:
    """Rule 500.5: unspent mana empties as each step and phase ends."""
    for player in game.players:
        player.mana_pool = [0] * len(MANA_TYPES)
