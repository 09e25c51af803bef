"""The battlefield summary (server/engine/board.py): the answers it gives equal a fresh scan of
the battlefield -- a permanent entering or leaving, the layers changing what they compute and a
sticker each change the next answer -- and whole games play the same with it as without it."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from server.cards import card, demo_deck_names
from server.cards.mana import ManaCost
from server.cards.verbs import PutSticker
from server.engine import Game, Zone, blank_game, layers
from server.engine import board as board_module
from server.engine.board import Board, board
from server.engine.casting import spell_cost
from server.engine.game import lands_allowed
from server.engine.mana import as_paid_by, restricted_for
from server.engine.sba import check_state_based_actions
from server.engine.state import DecisionKind
from server.engine.stickers import put_sticker
from server.engine.zone_rules import _grants_permission
from server.engine.zones import create_object, move
from tests.engine.helpers import demo_trace, narrow


def _game() -> Game:
    return blank_game(b"board-summary-test-seed-0123456789", ["a", "b"])


def test_609_4b_a_permanent_entering_or_leaving_changes_the_next_answer() -> None:
    game = _game()
    first = board(game)
    assert board(game) is first  # the same battlefield: the summary is reused
    cost = ManaCost.parse("{1}{R}")
    assert as_paid_by(game, 0, cost) == cost
    orrery = create_object(game, card("Chromatic Orrery"), 0, Zone.BATTLEFIELD)
    assert board(game).any_color == (orrery,)
    # Rule 609.4b: its controller's mana pays {R} as though it were generic.
    assert as_paid_by(game, 0, cost) == ManaCost.parse("{2}")
    assert as_paid_by(game, 1, cost) == cost  # not the other player's
    move(game, orrery.id, Zone.GRAVEYARD, [])
    assert board(game).any_color == ()
    assert as_paid_by(game, 0, cost) == cost


def test_305_2_an_additional_land_permanent_counts_while_it_is_there() -> None:
    game = _game()
    assert lands_allowed(game, 0) == 1
    azusa = create_object(game, card("Azusa, Lost but Seeking"), 0, Zone.BATTLEFIELD)
    assert (lands_allowed(game, 0), lands_allowed(game, 1)) == (3, 1)
    move(game, azusa.id, Zone.EXILE, [])
    assert lands_allowed(game, 0) == 1


def test_601_2f_a_tax_on_noncreature_spells_follows_the_battlefield() -> None:
    game = _game()
    shock = create_object(game, card("Shock"), 0, Zone.HAND)
    assert spell_cost(game, shock.card, 0, 0, shock.id) == ManaCost.parse("{R}")
    wingmare = create_object(game, card("Vryn Wingmare"), 1, Zone.BATTLEFIELD)
    assert spell_cost(game, shock.card, 0, 0, shock.id) == ManaCost.parse("{1}{R}")
    move(game, wingmare.id, Zone.GRAVEYARD, [])
    assert spell_cost(game, shock.card, 0, 0, shock.id) == ManaCost.parse("{R}")


def test_106_6_a_source_of_mana_only_for_some_spells_is_found_for_those_spells() -> None:
    game = _game()
    assert not restricted_for(game, 0, card("Shock"))
    arcanist = create_object(game, card("Vodalian Arcanist"), 0, Zone.BATTLEFIELD)
    assert restricted_for(game, 0, card("Shock"))  # an instant
    assert not restricted_for(game, 0, card("Colossal Dreadmaw"))  # a creature spell
    assert not restricted_for(game, 1, card("Shock"))  # not theirs
    move(game, arcanist.id, Zone.GRAVEYARD, [])
    assert not restricted_for(game, 0, card("Shock"))


def test_704_5j_legendary_permanents_are_found_as_they_enter() -> None:
    game = _game()
    create_object(game, card("Azusa, Lost but Seeking"), 0, Zone.BATTLEFIELD)
    assert not check_state_based_actions(game, [])
    create_object(game, card("Azusa, Lost but Seeking"), 0, Zone.BATTLEFIELD)
    assert check_state_based_actions(game, [])
    assert game.choices[0].kind is DecisionKind.LEGEND_RULE


def test_613_restrictions_of_the_layers_change_the_summary_as_they_apply() -> None:
    """Radha's static abilities (look at and play lands from the top of your library, 401.5)
    are rules restrictions the layers give it: found after a pass of the layers, gone after
    the pass once it has left."""
    game = _game()
    layers.refresh(game)
    assert board(game).restricted == () and not _grants_permission(game, 0)
    radha = create_object(game, card("Radha, Heart of Keld"), 0, Zone.BATTLEFIELD)
    layers.refresh(game)
    assert board(game).restricted == (radha,)
    assert _grants_permission(game, 0) and not _grants_permission(game, 1)
    move(game, radha.id, Zone.GRAVEYARD, [])
    layers.refresh(game)
    assert board(game).restricted == () and not _grants_permission(game, 0)


def test_613_1f_rules_changes_and_abilities_the_layers_grant_are_found() -> None:
    """Conspicuous Snoop: the layers give it "you may cast Goblin spells from the top of your
    library" (601.3) and the activated abilities of a Goblin on top (613.1f); the summary
    lists it for both, and no longer for the abilities once the top card changes -- with
    the same battlefield."""
    game = _game()
    create_object(game, card("Forest"), 0, Zone.LIBRARY)
    taunter = create_object(game, card("Brash Taunter"), 0, Zone.LIBRARY)  # the top card
    snoop = create_object(game, card("Conspicuous Snoop"), 0, Zone.BATTLEFIELD)
    layers.refresh(game)
    assert snoop.top_casts and snoop.granted_abilities
    assert board(game).restricted == (snoop,) and board(game).activated == (snoop,)
    assert _grants_permission(game, 0) and not _grants_permission(game, 1)
    move(game, taunter.id, Zone.HAND, [])
    layers.refresh(game)
    assert not snoop.granted_abilities and board(game).activated == ()
    assert board(game).restricted == (snoop,)


def test_613_a_sticker_makes_the_layers_apply_to_an_unchanged_battlefield() -> None:
    """A pass that finds nothing to apply marks the summary, so the next one does nothing;
    a sticker put on a permanent then (123.3) still applies at the next pass (123.8)."""
    game = _game()
    corpse = create_object(game, card("Walking Corpse"), 0, Zone.BATTLEFIELD)
    layers.refresh(game)
    assert board(game).at_start and (corpse.power, corpse.toughness) == (2, 2)
    big = card("Test Big Sticker", include_test_cards=True)
    sticker = narrow(PutSticker, big.effects[0]).sticker
    assert sticker is not None and put_sticker(game, 0, corpse, sticker)
    assert not board(game).at_start
    layers.refresh(game)
    assert (corpse.power, corpse.toughness) == (4, 4)
    assert not board(game).at_start  # the layers apply: a summary they don't mark


def _rescanning(real: Callable[[Game], Board]) -> Callable[[Game], Board]:
    def fresh(game: Game) -> Board:
        game.board = None  # no summary kept: every question scans the battlefield again
        return real(game)
    return fresh


@pytest.mark.parametrize("seed", range(6))
def test_games_play_the_same_with_the_summary_as_with_a_scan_every_time(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    decks = sorted(demo_deck_names())
    pair = (decks[seed % len(decks)], decks[(seed * 3 + 1) % len(decks)])
    cached = list(demo_trace(seed, pair, 3000))
    fresh = _rescanning(board_module.board)
    users = [m for name, m in sys.modules.items()
             if name.startswith("server.engine.") and getattr(m, "board", None) is board]
    assert len(users) >= 6  # the modules that ask it
    for module in users:
        monkeypatch.setattr(module, "board", fresh)
    assert list(demo_trace(seed, pair, 3000)) == cached
