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


def test_401_6_a_scry_begun_as_the_revealed_top_card_is_hidden_goes_on_with_its_new_id() -> None:
    """The same action started a scry of the top two cards and took Snoop away: the top
    card became a new object (401.6) while the scry held its old id, and placing it put a
    dead id back into the library, which ended the room (KeyError). The scry now goes on
    with the card under its new id (701.22a), and both cards end up placed."""
    from server.engine import apply
    from server.engine.actions import PlaceCard
    from server.engine.looking import start_scry

    game = demo_game()
    seat = game.active
    snoop = put(game, seat, "Conspicuous Snoop", Zone.BATTLEFIELD)
    refresh(game)
    library = game.player(seat).library
    top, second = library[-1], library[-2]
    start_scry(game, seat, seat, 2, [])
    move(game, snoop.id, Zone.GRAVEYARD, [])
    refresh(game)
    assert top not in game.objects  # rule 401.6
    new_top = library[-1]
    assert game.objects[new_top].card is not None and new_top != top
    (choice,) = game.choices
    assert choice.pool == [new_top, second]
    assert any(new_top in lk.ids for lk in game.looks) and all(top not in lk.ids
                                                              for lk in game.looks)
    d = game.pending
    assert d is not None and PlaceCard(new_top, bottom=True) in d.options
    apply(game, seat, PlaceCard(new_top, bottom=True))
    d = game.pending
    assert d is not None
    apply(game, seat, PlaceCard(second, bottom=False))
    assert library[0] == new_top and library[-1] == second
    assert all(oid in game.objects for oid in library)
