"""Planechase (rule 901) and ante (rule 407) game options: deck validation and replay."""

from __future__ import annotations

import dataclasses

import pytest

from server.cards import CardDef, card, plane, plane_pool
from server.engine import PlayerSetup, apply, new_game, replay
from server.engine.ante import AnteError, ante_object
from server.engine.ante import state as ante_state
from server.engine.planar import PlanarDeckError, validate_planar_deck
from tests.engine.helpers import vanilla_deck

SEED = b"planechase-tests-seed"


def _deck() -> list[CardDef]:
    return [card("Forest")] * 40


def test_planar_deck_needs_ten_cards_rule_901_3() -> None:
    planes = list(plane_pool().values())[:9]
    with pytest.raises(PlanarDeckError, match="at least 10"):
        new_game(SEED, [PlayerSetup("a", _deck(), planar_deck=planes),
                        PlayerSetup("b", _deck(), planar_deck=planes)], planechase=True)


def test_planar_deck_names_differ_rule_901_3() -> None:
    with pytest.raises(PlanarDeckError, match="twice"):
        validate_planar_deck(0, [plane("Gavony"), plane("Gavony")], minimum=2)


def test_planes_are_not_legal_in_a_deck() -> None:
    with pytest.raises(PlanarDeckError, match="planar deck"):
        new_game(SEED, [PlayerSetup("a", [*_deck(), plane("Tazeem")]),
                        PlayerSetup("b", _deck())])


def test_planar_deck_needs_planechase() -> None:
    with pytest.raises(PlanarDeckError, match="not a Planechase game"):
        new_game(SEED, [PlayerSetup("a", _deck(), planar_deck=[plane("Tazeem")]),
                        PlayerSetup("b", _deck())])


def test_ante_cards_need_ante_rule_407_3() -> None:
    # A card carrying the rule 407.3 reminder (test data: no ante card is in the pool yet).
    ante_card = dataclasses.replace(
        card("Shock"), name="Test Ante Shock",
        rules_text="Remove Test Ante Shock from your deck before playing if you're not "
                   "playing for ante.")
    players = [PlayerSetup("a", [*_deck(), ante_card]), PlayerSetup("b", _deck())]
    with pytest.raises(AnteError, match=r"407\.3"):
        new_game(SEED, players)
    game = new_game(SEED, players, ante=True)
    assert ante_state(game) is not None


def test_only_the_owner_may_ante_rule_407_4() -> None:
    game = new_game(SEED, [PlayerSetup("a", _deck()), PlayerSetup("b", _deck())], ante=True)
    with pytest.raises(ValueError, match=r"407\.4"):
        ante_object(game, game.players[1].library[0], 0, [])


def test_ante_game_replays_identically() -> None:
    players = [PlayerSetup("a", _deck()), PlayerSetup("b", [card("Mountain")] * 40)]
    game = new_game(SEED, players, ante=True)
    assert game.pending is not None
    log = [(game.pending.seat, game.pending.options[0])]
    apply(game, *log[0])
    again = replay(SEED, players, log, ante=True)
    assert [game.objects[i].card.name for i in game.ante] == \
        [again.objects[i].card.name for i in again.ante] == ["Forest", "Mountain"]


def test_a_whole_planechase_game_starts_and_plays_with_ten_real_planes_rule_901() -> None:
    """Rules 901.3-901.5: two ten-plane planar decks of real planes; the game starts with a
    face-up plane, the die is rolled (116.2i), and random play reaches the end with no
    stuck decision."""
    import random

    from server.engine.actions import RollPlanarDie
    from server.engine.state import GamePhase

    planes = list(plane_pool().values())
    assert len(planes) >= 10
    rng = random.Random(7)
    game = new_game(SEED, [PlayerSetup("a", vanilla_deck("naya"), planar_deck=planes),
                           PlayerSetup("b", vanilla_deck("grixis"),
                                       planar_deck=list(reversed(planes)))], planechase=True)
    rolls = 0
    for _ in range(20000):
        if game.result is not None:
            break
        d = game.pending
        assert d is not None and d.options
        rolling = [a for a in d.options if isinstance(a, RollPlanarDie)]
        action = rolling[0] if rolling and rng.random() < 0.5 else rng.choice(d.options)
        rolls += isinstance(action, RollPlanarDie)
        apply(game, d.seat, action)
        if game.phase is GamePhase.PLAYING and game.result is None:
            assert len(game.command) >= 1  # a plane is face up once play begins (103.7)
    assert game.result is not None and rolls > 0
