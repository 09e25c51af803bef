"""Choosing the modes of modal spells and abilities (rule 700.2).

A modal spell's controller (or, 700.2e, the player its text names) chooses its modes as it is
cast (601.2b): one at a time, never a mode that would be illegal (700.2a), the same mode again
only if the card allows it (700.2d), within the card's pawprint budget (700.2i), and, for
modes with additional costs, only while the total cost can still be paid (700.2h).
"""

from __future__ import annotations

from collections.abc import Callable

from server.cards.mana import ManaCost
from server.engine.mana import affordable, potential_pool
from server.engine.state import Casting, CastStage, Game, GameObject
from server.engine.targeting import targets_available


def mode_costs(obj: GameObject) -> ManaCost:
    """Rule 700.2h: the additional costs of the chosen modes, all of which must be paid."""
    total = ManaCost()
    costs = obj.card.mode_costs
    for m in obj.modes:
        if m < len(costs):
            total = total.plus(costs[m])
    return total


def choosable(game: Game, obj: GameObject, seat: int,
              base_cost: Callable[[], ManaCost] | None = None) -> list[int]:
    """The modes that may be chosen next for the spell ``obj`` being cast by ``seat``."""
    card = obj.card
    chosen = obj.modes
    if len(chosen) >= card.mode_max:
        return []
    spent = sum(card.pawprints[m] for m in chosen) if card.pawprints else 0
    out = []
    pool = potential_pool(game, seat, spell=card) if card.mode_costs and base_cost is not None \
        else None  # rule 106.6: restricted mana it may use counts
    for m, effects in enumerate(card.modes):
        if m in chosen and not card.mode_repeat:
            continue  # rule 700.2d
        if card.pawprints and spent + card.pawprints[m] > card.pawprint_limit:
            continue  # rule 700.2i
        if not targets_available(game, tuple(t for e in effects if (t := e.target_req)), seat,
                                 obj.id, source=card):
            continue  # rule 700.2a
        if pool is not None and base_cost is not None:
            extra = card.mode_costs[m] if m < len(card.mode_costs) else ManaCost()
            if not affordable(pool, base_cost().plus(mode_costs(obj)).plus(extra)):
                continue  # rule 700.2h: its additional cost couldn't be paid
        out.append(m)
    return out


def may_finish(obj: GameObject) -> bool:
    """Whether enough modes are chosen to stop choosing (700.2)."""
    return len(obj.modes) >= obj.card.mode_min


def start_choosing(game: Game, casting: Casting, obj: GameObject) -> None:
    """Rule 700.2e: if an opponent chooses the modes, the caster picks which opponent when
    there are several (-2 until then)."""
    if obj.ability is None and obj.card.mode_chooser == "opponent":
        opponents = game.opponents(casting.seat)
        casting.mode_chooser = opponents[0] if len(opponents) == 1 else -2


def decider(casting: Casting) -> int:
    """Who must make the current casting choice (the modes' chooser, 700.2e)."""
    if casting.stage is CastStage.CHOOSE_MODE and casting.mode_chooser >= 0:
        return casting.mode_chooser
    return casting.seat
