"""Taking back a cast or an activation (``CancelCast``; 733.1-733.2 reverse what can't be
completed, the same way): in random games of the demo decks, at every decision of a cast or
activation where it is offered, a copy of the game takes it back, and the copy is the game as
it was when the cast began -- the same stack, battlefield, graveyards, exile, libraries, life
totals and hand sizes, the card back in hand under a new id (400.7), priority to the caster
-- but for what mana abilities did meanwhile (lands tapped, mana in the pool: reversing them
is optional, 733.1). The copy then plays on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.cards import demo_deck, demo_deck_names
from server.engine import Game, PlayerSetup, apply, new_game
from server.engine.actions import (
    ActivateAbility,
    ActivateManaAbility,
    CancelCast,
    CastSpell,
    PayAutomatically,
)
from server.engine.state import DecisionKind
from server.view import project
from server.view.encode import encode_decision
from tests.engine.helpers import copy_game
from tests.soak import depth

#: Take-backs checked in each game (each a copy of the game played on): the first ones, or all
#: of them soaking (tests/soak.py).
CHECKED = depth(40, soak=10**6)


def _shape(game: Game) -> dict[str, Any]:
    """What taking a cast back restores (ids of hand cards aside: a card back in hand is a
    new object, 400.7)."""
    return {
        "stack": list(game.stack), "battlefield": list(game.battlefield),
        "players": [(p.life, len(p.hand), list(p.library), list(p.graveyard))
                    for p in game.players],
        "exile": sorted(i for i, o in game.objects.items() if o.zone.name == "EXILE"),
        "turn": (game.turn, game.step, game.active),
        "untapped": sorted(i for i in game.battlefield if not game.objects[i].tapped),
        # A spell taken back was never cast: nothing may look back at it (608.2h), and a
        # player taking casts back over and over must not grow what the game keeps.
        "last_known_spells": sorted(game.last_known_spells),
    }


@pytest.mark.parametrize("seed", [3, 11])
def test_733_1_taking_a_cast_back_leaves_the_game_as_the_cast_found_it(seed: int) -> None:
    rng = random.Random(seed)
    names = demo_deck_names()
    game = new_game(bytes([seed]) * 16, [PlayerSetup(f"p{i}", demo_deck(rng.choice(names)))
                                         for i in range(2)])
    began: tuple[Game, int] | None = None  # a copy as the cast began, and the caster
    tapped: set[str] = set()  # mana sources tapped since (733.1: not reversed)
    taken = 0
    for _ in range(4000):
        if game.result is not None or taken >= CHECKED:
            break
        d = game.pending
        assert d is not None
        if any(isinstance(o, CancelCast) for o in d.options):
            assert began is not None and d.seat == began[1]
            assert d.kind is not DecisionKind.PRIORITY
            trial = copy_game(game)
            apply(trial, d.seat, CancelCast())
            taken += 1
            was, now = _shape(began[0]), _shape(trial)
            if not tapped:
                assert now == was
                assert trial.players[d.seat].mana_pool == began[0].players[d.seat].mana_pool
            else:
                assert {k: v for k, v in now.items() if k != "untapped"} == \
                    {k: v for k, v in was.items() if k != "untapped"}
                assert set(now["untapped"]) == set(was["untapped"]) - tapped
            assert trial.casting is None and trial.pending is not None
            assert trial.pending.kind is DecisionKind.PRIORITY and trial.pending.seat == d.seat
            for _ in range(30):  # it plays on
                if trial.result is not None:
                    break
                t = trial.pending
                assert t is not None and t.options
                encode_decision(t, project(trial, t.seat), "r", 1)
                apply(trial, t.seat, rng.choice(t.options))
        options = [o for o in d.options if not isinstance(o, PayAutomatically | CancelCast)]
        choice = rng.choice(options or d.options)
        if d.kind is DecisionKind.PRIORITY:
            began = (copy_game(game), d.seat) \
                if isinstance(choice, CastSpell | ActivateAbility) else None
            tapped = set()
        elif isinstance(choice, ActivateManaAbility):
            tapped.add(choice.object_id)
        apply(game, d.seat, choice)
    assert taken > 20, taken  # it really tried
