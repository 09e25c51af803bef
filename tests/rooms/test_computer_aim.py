"""Where the computer player aims its spells (601.2c): a spell or ability that harms its
target at its opponents' things, one that helps at its own -- picked at random, a new player
saw the computer cast Turn to Slag on its own creature with theirs in reach."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from server.engine import apply
from server.engine.actions import Action, CastSpell, ChooseTarget
from server.engine.state import DecisionKind, Game
from server.rooms import computer
from server.rooms import room as room_module
from server.rooms.computer import aimed_targets
from server.scenarios.loading import Scenario
from server.scenarios.position import Run
from tests.rooms.test_computers import computer_room, play_out


def _casting(spell: str) -> Game:
    """Seat 0 with ``spell`` in hand and lands to pay for it, a Onakke Ogre each; seat 0
    casts it and is asked for its target."""
    doc = {"name": "aim", "rules": ["601.2c"], "setup": {"players": [
        {"hand": [spell], "battlefield": ["Mountain", "Forest", "Onakke Ogre"]},
        {"battlefield": ["Onakke Ogre"]}]}}
    game = Run(Scenario("aim", ("601.2c",), Path(__file__), 0, doc)).game
    pending = game.pending
    assert pending is not None
    cast = next(a for a in pending.options if isinstance(a, CastSpell))
    apply(game, 0, cast)
    assert game.pending is not None and game.pending.kind is DecisionKind.CHOOSE_TARGET
    return game


def _whose(game: Game, option: object) -> int:
    assert isinstance(option, ChooseTarget)
    if option.player is not None:
        return option.player
    assert option.object_id is not None
    return game.objects[option.object_id].controller


def test_601_2c_a_harmful_spell_is_aimed_at_the_opponents_side() -> None:
    game = _casting("Shock")  # "Shock deals 2 damage to any target."
    assert game.pending is not None
    aimed = aimed_targets(game, 0)
    sides = {_whose(game, o) for o in game.pending.options if isinstance(o, ChooseTarget)}
    assert sides == {0, 1}  # (it could target either side)
    assert aimed and {_whose(game, game.pending.options[i]) for i in aimed} == {1}
    for seed in range(20):
        pick = computer.choose(random.Random(seed), 0, game.pending.options, aimed)
        assert _whose(game, game.pending.options[pick]) == 1


def test_601_2c_a_helpful_spell_is_aimed_at_its_own_side() -> None:
    game = _casting("Titanic Growth")  # "Target creature gets +4/+4 until end of turn."
    assert game.pending is not None
    aimed = aimed_targets(game, 0)
    assert aimed and {_whose(game, game.pending.options[i]) for i in aimed} == {0}


def test_what_counts_as_harming_the_target() -> None:
    for text in ("Shock deals 2 damage to any target.", "Destroy target creature.",
                 "Exile target nonland permanent.", "Target creature gets -3/-3 until end of turn.",
                 "Tap target creature. It doesn't untap during its controller's next untap step.",
                 "Return target creature to its owner's hand.", "Counter target spell.",
                 "Enchanted creature can't attack or block."):
        assert computer.hostile(text), text
    for text in ("Target creature gets +4/+4 until end of turn.",
                 "Target creature gets +3/+0 and gains first strike until end of turn. "
                 "(It deals combat damage before creatures without first strike.)",
                 "Put a +1/+1 counter on target creature.", "Untap target creature.",
                 "Target creature gains flying until end of turn."):
        assert not computer.hostile(text), text


def test_601_2c_a_room_aims_its_computers_targets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games against the computer: every target the computer picks with an aim in
    reach is one of its aims (the room hands them to :func:`computer.choose`)."""
    picked: list[tuple[tuple[int, ...], int]] = []
    real = computer.choose

    def recording(rng: random.Random, seat: int, options: Sequence[Action],
                  aimed: Sequence[int] = (), pointless: Sequence[int] = ()) -> int:
        index = real(rng, seat, options, aimed, pointless)
        if any(isinstance(o, ChooseTarget) for o in options) and seat == 1:
            picked.append((tuple(aimed), index))
        return index

    monkeypatch.setattr(room_module, "choose", recording)
    for seed in range(3):
        play_out(computer_room(), random.Random(seed))
    aimed = [(aims, index) for aims, index in picked if aims]
    assert aimed, "the computer never chose a target"
    assert all(index in aims for aims, index in aimed)
