"""Helpers shared by the view tests."""

from __future__ import annotations

from server.engine import Game, looking
from server.view.project import EVERY_HAND


def hidden_from(game: Game, viewer: int) -> set[str]:
    """Ids of cards in hidden zones the viewer may not see now (400.2, 701.20)."""
    hidden: set[str] = set()
    for p in game.players:
        hidden.update(p.library)
        if viewer not in (p.seat, EVERY_HAND):
            hidden.update(p.hand)
    if viewer == EVERY_HAND:  # every hand, and what any player looks at
        for lk in game.looks:
            hidden.difference_update(lk.ids)
    else:
        hidden.difference_update(looking.visible_hidden_ids(game, viewer))
    return hidden
