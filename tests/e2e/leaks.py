"""What a viewer of a logged game must never be sent: the id of an object that was in a
hidden zone and never shown to it (invariant 4; rules 400.2, 401.2, 701.20).

A card a rule lets the viewer see while it stays in a hidden zone -- revealed to all players
(701.20a: Duress, Alpine Houndmaster's search, a top card played revealed), looked at by the
viewer (701.20e: its own search) -- is shown with its id for as long as that lasts, by design
(``server/view/project.py``); every other id of a card in a library, or in a hand not the
viewer's, must never reach it. Found by replaying the game from its log, as the server would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from server.engine import Game, apply, looking
from server.engine.actions import Action
from tests.view.helpers import hidden_from


@dataclass(frozen=True)
class Secrets:
    """Per viewer: the ids it must never be sent, and the hidden-zone ids it was shown."""

    never_shown: dict[int, frozenset[str]]
    shown: dict[int, frozenset[str]]


def replay_secrets(game: Game, actions: Sequence[tuple[int, Action]],
                   viewers: Iterable[int]) -> Secrets:
    """Play ``actions`` on ``game`` (a new game from the log's seed and decks), noting after
    every action, for each viewer, the hidden-zone ids it may not see and those it may."""
    hidden: dict[int, set[str]] = {v: set() for v in viewers}
    shown: dict[int, set[str]] = {v: set() for v in hidden}

    def collect() -> None:
        for viewer, ids in hidden.items():
            ids.update(hidden_from(game, viewer))
            shown[viewer].update(looking.visible_hidden_ids(game, viewer))

    collect()
    for seat, action in actions:
        apply(game, seat, action)
        collect()
    return Secrets({v: frozenset(ids - shown[v]) for v, ids in hidden.items()},
                   {v: frozenset(ids) for v, ids in shown.items()})
