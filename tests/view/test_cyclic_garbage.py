"""Playing a game makes no cyclic garbage: neither the engine's actions nor the view
pipeline's deltas and decisions leave reference cycles behind.

A serving process relies on it (:mod:`server.gctune`): what an action leaves behind is
freed by reference counting, so the young generation is never traversed by a collection --
cyclic garbage would wait for the full collection, minutes later. Each game here is kept
alive until the collection, so only what its actions dropped can be found; the collector is
off meanwhile, so nothing is collected before.
"""

from __future__ import annotations

import gc
import random
from collections import Counter

from server.cards import demo_deck, demo_deck_names
from server.engine import Game, PlayerSetup, apply, new_game
from server.view.pipeline import ViewPipeline

#: Actions per game at most (random games end in ~1,000-3,000).
ACTIONS = 3_000


def _play(seed: int, decks: tuple[str, str], views: bool
          ) -> tuple[Game, ViewPipeline | None, int]:
    rng = random.Random(seed)
    game = new_game(seed.to_bytes(16, "big"),
                    [PlayerSetup(f"p{i}", demo_deck(d)) for i, d in enumerate(decks)])
    pipeline = ViewPipeline(game) if views else None
    actions = 0
    while game.result is None and actions < ACTIONS:
        decision = game.pending
        assert decision is not None and decision.options
        if pipeline is not None:
            pipeline.decision(game, decision.seat, "room")
        action = rng.choice(decision.options)
        events = apply(game, decision.seat, action)
        if pipeline is not None:
            pipeline.advance(game, action, events)
        actions += 1
    return game, pipeline, actions


def _garbage_types() -> Counter[str]:
    """Collect with every object found kept in ``gc.garbage``; their types."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = Counter(getattr(o, "__qualname__", type(o).__qualname__)
                        if callable(o) and not isinstance(o, type) else type(o).__qualname__
                        for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def _garbage_of_games(views: bool) -> tuple[Counter[str], int]:
    """Play a game of each demo deck against the next; the garbage types left, the actions."""
    names = demo_deck_names()
    tables = [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]
    gc.collect()
    gc.disable()
    try:
        played = [_play(seed, decks, views) for seed, decks in enumerate(tables, start=1)]
        found = _garbage_types()
    finally:
        gc.enable()
    return found, sum(n for _, _, n in played)


def test_games_of_every_demo_deck_leave_no_reference_cycles() -> None:
    """The engine's actions and the view pipeline's deltas and decisions alike. The pipeline
    only reads the game: these are the very games the engine plays alone (the same random
    choices, actions and results), so what the engine leaves is found here too; on a
    failure they are played again without the pipeline, to say whose garbage it is."""
    found, actions = _garbage_of_games(views=True)
    assert actions > 5_000, "the games played too little to tell"
    if found:
        engine, _actions = _garbage_of_games(views=False)
        whose = f"the engine's: {engine.most_common(8)}" if engine else "the view pipeline's"
        raise AssertionError(f"cyclic garbage left by {actions} actions: "
                             f"{found.most_common(8)} ({whose})")
