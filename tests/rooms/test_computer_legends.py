"""The computer never casts a second legendary permanent with the name of one it controls
while it has anything else to do: the legend rule (704.5j) would put one of the two into its
graveyard at once -- a new player saw it cast a second Sanctum of Stone Fangs and lose it."""

from __future__ import annotations

import random
from pathlib import Path

from server.engine.actions import CastSpell
from server.engine.state import Game
from server.rooms import computer
from server.rooms.computer import second_legends
from server.scenarios.loading import Scenario
from server.scenarios.position import Run

BARRIN = "Barrin, Tolarian Archmage"


def _position(battlefield: list[str]) -> Game:
    """Seat 0 at priority in its main phase with Barrin, Tolarian Archmage (legendary) and a
    Onakke Ogre in hand, lands for either, and ``battlefield`` besides."""
    doc = {"name": "legends", "rules": ["704.5j"], "setup": {"players": [
        {"hand": [BARRIN, "Onakke Ogre"],
         "battlefield": ["Island", "Island", "Mountain", "Mountain", *battlefield]},
        {}]}}
    return Run(Scenario("legends", ("704.5j",), Path(__file__), 0, doc)).game


def _casts(game: Game) -> dict[str, int]:
    assert game.pending is not None
    return {game.objects[o.object_id].card.name: i for i, o in enumerate(game.pending.options)
            if isinstance(o, CastSpell)}


def test_704_5j_a_second_legend_of_a_name_the_computer_controls_is_pointless() -> None:
    game = _position([BARRIN])
    casts = _casts(game)
    assert set(casts) == {BARRIN, "Onakke Ogre"}  # (both castable)
    pointless = second_legends(game, 0)
    assert pointless == [casts[BARRIN]]
    assert game.pending is not None
    picks = {computer.choose(random.Random(seed), 0, game.pending.options, (), pointless)
             for seed in range(60)}
    assert casts[BARRIN] not in picks
    assert casts["Onakke Ogre"] in picks  # (it still casts what it may)


def test_704_5j_the_first_legend_of_a_name_is_cast_as_any_spell() -> None:
    game = _position([])
    assert second_legends(game, 0) == []
    assert game.pending is not None
    casts = _casts(game)
    picks = {computer.choose(random.Random(seed), 0, game.pending.options, (),
                             second_legends(game, 0)) for seed in range(60)}
    assert casts[BARRIN] in picks
