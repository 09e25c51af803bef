"""Projection of a top card played revealed (rules 401.5, 401.6; architecture invariant 4):
with Conspicuous Snoop on the battlefield, every viewer -- the opponent and spectators too --
sees the top card of its controller's library; without it, or once it has left, nobody
does."""

from __future__ import annotations

from server.engine import Zone
from server.engine.zones import move
from server.view import SPECTATOR, project
from tests.engine.helpers import demo_game, put, refresh
from tests.view.helpers import hidden_from


def test_401_5_the_top_card_is_public_only_while_snoop_is_on_the_battlefield() -> None:
    game = demo_game()
    seat = game.active
    other = 1 - seat
    top = game.player(seat).library[-1]
    viewers = (seat, other, SPECTATOR)
    for v in viewers:  # no Snoop yet: the library is hidden from everyone (400.2)
        assert top not in project(game, v).objects
    snoop = put(game, seat, "Conspicuous Snoop", Zone.BATTLEFIELD)
    refresh(game)
    for v in viewers:
        view = project(game, v)
        assert view.objects[top].name == game.objects[top].card.name
        assert view.objects[top].zone is Zone.LIBRARY
    assert top not in hidden_from(game, other)
    move(game, snoop.id, Zone.GRAVEYARD, [])
    refresh(game)
    assert top not in game.objects  # rule 401.6: hidden again, it is a new object
    new_top = game.player(seat).library[-1]
    for v in viewers:
        view = project(game, v)
        assert top not in view.objects and new_top not in view.objects
    assert new_top in hidden_from(game, other)
