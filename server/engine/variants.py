"""Variants as hooks: Planechase (rule 901) and playing for ante (rule 407).

A variant is on when its record is in ``game.variants`` (:data:`Variant`:
:class:`~server.engine.planar.Planechase`, :class:`~server.engine.ante.Ante`); the record
holds all of the variant's state. The core engine doesn't ask which variants are on: at
the points of the game where a variant may act it calls the hook here, which calls each
variant's module for its record (each dispatch ends in ``assert_never``, so a new variant
must say what it does at every hook):

- :func:`starting_player_chosen` -- rule 103.1 is done, before the opening hands (407.2:
  the ante);
- :func:`turn_began` -- a new turn (901.6: the active player becomes planar controller);
- :func:`step_beginning` -- before a step's turn-based actions (103.7, 901.5: the starting
  plane, once the opening hands are kept);
- :func:`special_actions` -- the special actions a player with priority may take (901.9,
  116.2i: rolling the planar die);
- :func:`player_leaving` / :func:`player_left` -- around a player leaving the game (901.6,
  901.10, 407.2);
- :func:`game_over` -- the game has ended (407.2: the winner owns the ante).

Adding a variant: a module with its record (a dataclass with its state) and functions for
the hooks it needs, its record in :data:`Variant`, and a case in each hook.
"""

from __future__ import annotations

from typing import assert_never

from server.engine import ante, planar
from server.engine.actions import Action, RollPlanarDie
from server.engine.events import Event
from server.engine.state import Game

#: The variants' records.
Variant = planar.Planechase | ante.Ante


def starting_player_chosen(game: Game, events: list[Event]) -> None:
    """Rule 103.1 is done; nobody has drawn yet."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            pass  # the starting plane waits for the opening hands (103.7)
        elif isinstance(variant, ante.Ante):
            ante.ante_at_start(game, events)  # rule 407.2: before anyone draws
        else:
            assert_never(variant)


def turn_began(game: Game) -> None:
    """Rule 500.1: a new turn began (the new active player is set)."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            planar.new_turn(game)  # rule 901.6: the active player is the planar controller
        elif isinstance(variant, ante.Ante):
            pass
        else:
            assert_never(variant)


def step_beginning(game: Game) -> None:
    """A step is about to begin (before its turn-based actions, 703.4)."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            planar.start_if_needed(game)  # rules 103.7, 901.5: the starting plane
        elif isinstance(variant, ante.Ante):
            pass
        else:
            assert_never(variant)


def special_actions(game: Game, seat: int) -> list[Action]:
    """The special actions (rule 116) a variant lets ``seat``, who has priority, take now."""
    options: list[Action] = []
    for variant in game.variants:
        if isinstance(variant, planar.Planechase):
            if planar.can_roll(game, seat):  # rules 901.9, 116.2i
                options += [RollPlanarDie(m) for m in planar.payments(
                    game.player(seat).mana_pool, planar.roll_cost(game, seat))]
        elif isinstance(variant, ante.Ante):
            pass
        else:
            assert_never(variant)
    return options


def player_leaving(game: Game, seat: int) -> None:
    """``seat`` has lost and is about to leave the game (rule 800.4a)."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            planar.before_leaving(game, seat)  # rule 901.6: the planar controller passes on
        elif isinstance(variant, ante.Ante):
            ante.before_leaving(game, variant, seat)  # rule 407.2: the ante as it ends
        else:
            assert_never(variant)


def player_left(game: Game, seat: int, events: list[Event]) -> None:
    """``seat`` has left the game with everything they owned (rule 800.4a)."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            planar.after_leaving(game, seat, events)  # rule 901.10
        elif isinstance(variant, ante.Ante):
            pass
        else:
            assert_never(variant)


def game_over(game: Game) -> None:
    """The game is over (rule 104)."""
    for variant in list(game.variants):
        if isinstance(variant, planar.Planechase):
            pass
        elif isinstance(variant, ante.Ante):
            ante.settle(game, variant)  # rule 407.2: the winner owns the ante
        else:
            assert_never(variant)
