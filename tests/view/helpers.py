"""Helpers shared by the view tests."""

from __future__ import annotations

from server.engine import Game, looking


def hidden_from(game: Game, viewer: int) -> set[str]:
    """Ids of cards in hidden zones the viewer may not see now (400.2, 701.20)."""
    hidden: set[str] = set()
    for p in game.players:
        hidden.update(p.library)
        if p.seat != viewer:
            hidden.update(p.hand)
    hidden.difference_update(looking.visible_hidden_ids(game, viewer))
    return hidden
