"""The replays' omniscient stream (:class:`TrackedOmniscientStream`) finds its deltas as a live
room does -- what the tracker says changed, and the libraries compared id list against id
list -- instead of projecting the whole game after each action; it must send exactly what the
full projection's difference sends (:class:`OmniscientStream`, invariant 4): the same ops in
the same order, the same state ids, view hashes and snapshots, byte for byte. It holds one
view (each object's view and encoding once), never a second one or a history, and leaves no
cyclic garbage behind (:mod:`server.gctune`)."""

from __future__ import annotations

import gc
import importlib
import random
from collections.abc import Generator
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client_sdk.mirror import Mirror
from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck, demo_deck_names
from server.engine import Game, PlayerSetup, apply, new_game
from server.view import project
from server.view.encode import encode_view
from server.view.omniscient import (
    OBJECTS_PER_YIELD,
    OmniscientStream,
    TrackedOmniscientStream,
    run_steps,
)
from server.view.project import OMNISCIENT
from tests.engine.helpers import demo_game
from tests.soak import depth
from tests.view.test_cyclic_garbage import _garbage_types
from tests.view.test_omniscient import _exile_face_down

DECKS = demo_deck_names()
T = TypeVar("T")
# (server.view re-exports a function named ``project``: the module itself, by its name)
project_module = importlib.import_module("server.view.project")


def _game(seed: int, decks: list[str]) -> Game:
    return new_game(seed.to_bytes(16, "big"),
                    [PlayerSetup(f"p{i}", demo_deck(name)) for i, name in enumerate(decks)])


@settings(max_examples=depth(5, soak=100), deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       decks=st.lists(st.sampled_from(DECKS), min_size=2, max_size=4),
       steps=st.integers(50, 700))
def test_the_tracked_stream_sends_what_the_full_projections_difference_sends(
        seed: int, decks: list[str], steps: int) -> None:
    game = _game(seed, decks)
    rng = random.Random(seed)
    reference = OmniscientStream.start(game)
    tracked = TrackedOmniscientStream.start(game)
    assert tracked.snapshot("r", 5) == reference.snapshot("r", 5)
    mirror = Mirror()
    mirror.load_snapshot(mpb.ServerMessage.FromString(tracked.snapshot("r")).snapshot)
    for n in range(steps):
        if game.result is not None:
            break
        pending = game.pending
        assert pending is not None
        action = rng.choice(pending.options)
        events = apply(game, pending.seat, action)
        sent = tracked.advance(game, action, events)
        assert sent == reference.advance(game, None, events)
        if sent is not None:
            mirror.apply_delta(mpb.ServerMessage.FromString(sent).delta)  # hash-checked
        assert tracked.state_id == reference.state_id
        if n % 50 == 0:
            assert tracked.view == project(game, OMNISCIENT)
            assert mirror.view() == encode_view(reference.view)
            assert tracked.snapshot("room", n) == reference.snapshot("room", n)
    assert tracked.snapshot("room") == reference.snapshot("room")


def test_a_face_down_card_is_seen_as_the_full_projection_sees_it() -> None:
    """Exiled face down (406.3: the omniscient class sees its face, with ``face_down`` set),
    then turned face up where it is: each change sent as the full projection's difference."""
    game = demo_game(b"face down please")
    reference, tracked = OmniscientStream.start(game), TrackedOmniscientStream.start(game)
    oid = _exile_face_down(game)
    sent = tracked.advance(game)
    assert sent is not None and sent == reference.advance(game)
    assert tracked.objects[oid].face_down and tracked.objects[oid].name
    game.objects[oid].face_down = False
    sent = tracked.advance(game)
    assert sent is not None and sent == reference.advance(game)
    assert tracked.snapshot("r") == reference.snapshot("r")


def test_it_holds_one_view_and_no_history() -> None:
    """Whatever was played -- libraries shuffled (every card a new object, 400.7), cards
    drawn, cast, killed -- the stream holds one view and one encoding of each object in a
    zone, and its hash's elements are exactly the view's."""
    game = _game(7, ["golgari-grind", "dimir-mill", "simic-draw"])
    rng = random.Random(7)
    stream = TrackedOmniscientStream.start(game)
    for _ in range(1500):
        if game.result is not None:
            break
        pending = game.pending
        assert pending is not None
        action = rng.choice(pending.options)
        stream.advance(game, action, apply(game, pending.seat, action))
    in_zones = {oid for ids in stream.zones.values() for oid in ids}
    assert set(stream.objects) == in_zones == set(stream._encoded)
    assert len(stream.digest.parts) == 1 + len(game.players) + len(in_zones) + len(stream.zones)
    assert stream.view == project(game, OMNISCIENT)


def test_its_work_comes_in_pieces_of_a_few_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building the start, a shuffle of every library (the first decision: each library is a
    new set of objects, 400.7), a snapshot: in pieces, each projecting at most
    :data:`OBJECTS_PER_YIELD` objects."""
    built = [0]
    real = project_module._object_view

    def counted(*args: Any, **kwargs: Any) -> Any:
        built[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(project_module, "_object_view", counted)

    def pieces(steps: Generator[None, None, T]) -> tuple[list[int], T]:
        sizes = []
        while True:
            built[0] = 0
            try:
                next(steps)
            except StopIteration as done:
                sizes.append(built[0])
                result: T = done.value
                return sizes, result
            sizes.append(built[0])

    game = _game(3, ["azorius-fliers", "rakdos-aggro", "naya-pets", "izzet-spells"])
    every = sum(len(p.library) + len(p.hand) for p in game.players)
    stream = TrackedOmniscientStream()
    sizes, _ = pieces(stream.start_steps(game))
    assert sum(sizes) == every and max(sizes) <= OBJECTS_PER_YIELD
    pending = game.pending
    assert pending is not None
    action = pending.options[0]
    events = apply(game, pending.seat, action)  # who plays first: libraries shuffled
    sizes, sent = pieces(stream.advance_steps(game, action, events))
    assert sent is not None
    assert sum(sizes) == every and max(sizes) <= OBJECTS_PER_YIELD
    sizes, snapshot = pieces(stream.snapshot_steps("r"))
    assert sum(sizes) == 0  # (written from the encodings kept)
    monkeypatch.undo()
    reference = OmniscientStream.start(game)
    reference.state_id = stream.state_id
    assert snapshot == reference.snapshot("r")


def test_replaying_makes_no_cyclic_garbage() -> None:
    gc.collect()
    gc.disable()
    try:
        game = _game(11, ["selesnya-counters", "orzhov-lifegain"])
        stream = TrackedOmniscientStream.start(game)
        rng = random.Random(11)
        for _ in range(1500):
            if game.result is not None:
                break
            pending = game.pending
            assert pending is not None
            action = rng.choice(pending.options)
            stream.advance(game, action, apply(game, pending.seat, action))
            if rng.random() < 0.01:
                run_steps(stream.snapshot_steps("r"))
        assert _garbage_types() == {}
        assert stream.state_id > 1  # (kept alive until the collection)
    finally:
        gc.enable()
