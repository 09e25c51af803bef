"""The rules engine: pure Python, standard library only, deterministic from (seed, actions).

Public API (architecture invariant 1):

- :func:`new_game` -- start a game from a secret seed and the decks of 2-8 players
  (optionally Planechase, rule 901, and/or playing for ante, rule 407);
- :func:`legal_actions` -- the options of the decision pending for a seat;
- :func:`apply` -- the one entry point that changes a game;
- :func:`replay` -- rebuild a game from its seed, players and action log;
- :func:`blank_game` / :func:`settle` -- build a position by hand (rules scenarios).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from server.engine.actions import Action
from server.engine.errors import GameOverError, IllegalActionError
from server.engine.game import PlayerSetup, apply, blank_game, legal_actions, new_game, settle
from server.engine.state import Decision, DecisionKind, Game, GameObject, Player, Step, Zone

__all__ = [
    "Action",
    "Decision",
    "DecisionKind",
    "Game",
    "GameObject",
    "GameOverError",
    "IllegalActionError",
    "Player",
    "PlayerSetup",
    "Step",
    "Zone",
    "apply",
    "blank_game",
    "legal_actions",
    "new_game",
    "replay",
    "settle",
]


def replay(seed: bytes, players: Sequence[PlayerSetup],
           log: Iterable[tuple[int, Action]], *, planechase: bool = False,
           ante: bool = False) -> Game:
    """Rebuild a game by applying its logged ``(seat, action)`` pairs to a new game (with
    the same variant options: Planechase, rule 901; playing for ante, rule 407)."""
    game = new_game(seed, players, planechase=planechase, ante=ante)
    for seat, action in log:
        apply(game, seat, action)
    return game
