"""The omniscient view class (replays only): it shows every card in every zone, its stream is
exactly the difference of two projections, its hash is its own (viewer -2), and adding it
changed nothing for any seat or the spectators (invariant 4: visibility is a whitelist)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from client_sdk.mirror import Mirror
from protocol.v1 import messages_pb2 as mpb
from server.engine import Game, Zone, apply, looking
from server.view import SPECTATOR, project
from server.view.encode import ObjectCache, encode_view, view_hash
from server.view.omniscient import OmniscientStream
from server.view.pipeline import ViewPipeline
from server.view.project import OMNISCIENT, visible_zones
from tests.engine.helpers import demo_game
from tests.soak import depth
from tests.view.helpers import hidden_from

VIEWERS = (0, 1, SPECTATOR)


def _exile_face_down(game: Game) -> str:
    """Put the top card of seat 1's library into exile face down (as rule 406.3 does)."""
    library = game.players[1].library
    oid = library.pop()
    obj = game.objects[oid]
    obj.zone = Zone.EXILE
    obj.face_down = True
    game.exile.append(oid)
    return oid


def _every_card(game: Game) -> set[str]:
    ids = set(game.battlefield) | set(game.stack) | set(game.exile) | set(game.command)
    for p in game.players:
        ids |= set(p.library) | set(p.hand) | set(p.graveyard)
    return ids


@settings(max_examples=depth(8, soak=60), deadline=None)
@given(seed=st.binary(min_size=16, max_size=32), choices=st.integers(0, 2**32 - 1),
       steps=st.integers(20, 300))
def test_omniscient_shows_every_card_and_changes_no_other_view(
    seed: bytes, choices: int, steps: int
) -> None:
    game = demo_game(seed)
    rng = random.Random(choices)
    pipeline = ViewPipeline(game)
    omniscient = OmniscientStream.start(game)
    mirror = Mirror()
    mirror.load_snapshot(mpb.ServerMessage.FromString(omniscient.snapshot("r")).snapshot)
    encodings = ObjectCache()  # (the reference's own: an unchanged object's encoding kept)
    for _ in range(steps):
        if game.result is not None:
            break
        d = game.pending
        assert d is not None
        action = rng.choice(d.options)
        events = apply(game, d.seat, action)
        pipeline.advance(game, action, events)
        data = omniscient.advance(game, None, events)
        if data is not None:
            mirror.apply_delta(mpb.ServerMessage.FromString(data).delta)  # hash-checked
        # The full projection of the game as it is now: the one the reference stream made
        # for this very delta (:meth:`OmniscientStream.advance` projects the whole game).
        everything = omniscient.view
        assert mirror.view() == encode_view(everything, encodings)
        assert set(everything.objects) == _every_card(game)
        for p in game.players:
            assert everything.zones[(Zone.LIBRARY, p.seat)] == tuple(p.library)
            assert everything.zones[(Zone.HAND, p.seat)] == tuple(p.hand)
        for v in VIEWERS:
            seen = project(game, v)
            # Unchanged by the omniscient class: equal to the live stream, no hidden card,
            # no library, no one else's hand.
            assert seen == pipeline.streams[v].view
            assert hidden_from(game, v).isdisjoint(seen.objects)
            assert (Zone.LIBRARY, 0) not in seen.zones and (Zone.LIBRARY, 1) not in seen.zones
            assert set(visible_zones(game, v)) == set(seen.zones)
            for oid, obj in seen.objects.items():
                assert obj.zone is not Zone.LIBRARY or obj.library_position >= 0 \
                    or not looking.shows_place(game, oid)
                # What a viewer sees of a card, the omniscient view sees the same way.
                if obj.zone is not Zone.LIBRARY and not obj.face_down:
                    assert everything.objects[oid] == obj
    # The reference above is the stream's own projection: an independent one agrees with it
    # where the game ended up (one projection, not one a step).
    assert omniscient.view == project(game, OMNISCIENT)


def test_face_down_cards_show_their_faces_to_the_omniscient_view_only() -> None:
    game = demo_game(b"face down please")
    oid = _exile_face_down(game)
    name = game.objects[oid].card.name
    for v in VIEWERS:
        obj = project(game, v).objects[oid]
        assert obj.face_down and obj.name == ""
    seen = project(game, OMNISCIENT).objects[oid]
    assert seen.face_down and seen.name == name
    # For seats and spectators a face-down card is the same placeholder as ever.
    assert project(game, 0).objects[oid] == project(game, SPECTATOR).objects[oid]
    assert replace(seen, name="", mana_cost="", mana_value=0) != seen


def test_the_omniscient_view_hash_has_its_own_viewer() -> None:
    game = demo_game(b"viewer minus two")
    everything = encode_view(project(game, OMNISCIENT))
    assert everything.viewer == -2
    relabelled = encode_view(project(game, OMNISCIENT))
    relabelled.viewer = SPECTATOR
    assert view_hash(everything) != view_hash(relabelled)
    stream = OmniscientStream.start(game)
    snapshot = mpb.ServerMessage.FromString(stream.snapshot("r")).snapshot
    assert snapshot.view_hash == view_hash(everything)
    assert snapshot.view.viewer == OMNISCIENT
