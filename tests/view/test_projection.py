"""Property tests for projection and diff (architecture invariant 4).

Random games from random seeds; at every step, for every viewer (both seats and spectators):
the delta applied to the previous view gives exactly the next view, and no view contains an
object the rules hide from that viewer (400.2: hands and libraries are hidden zones).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine import Zone, apply
from server.view import SPECTATOR, apply_ops, diff, project
from server.view.encode import ObjectCache, encode_view, view_hash
from tests.engine.helpers import demo_game
from tests.view.helpers import hidden_from

VIEWERS = (0, 1, SPECTATOR)


@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=16, max_size=32), choices=st.integers(0, 2**32 - 1),
       steps=st.integers(50, 400))
def test_400_2_diff_then_apply_is_exact_and_hidden_objects_never_appear(
    seed: bytes, choices: int, steps: int
) -> None:
    game = demo_game(seed)
    rng = random.Random(choices)
    views = {v: project(game, v) for v in VIEWERS}
    for _ in range(steps):
        if game.result is not None:
            break
        d = game.pending
        assert d is not None
        apply(game, d.seat, rng.choice(d.options))
        for v in VIEWERS:
            nxt = project(game, v)
            assert apply_ops(views[v], diff(views[v], nxt)) == nxt
            hidden = hidden_from(game, v)
            assert hidden.isdisjoint(nxt.objects)
            for obj in nxt.objects.values():
                assert obj.zone is not Zone.LIBRARY
                assert obj.zone is not Zone.HAND or obj.owner == v
            views[v] = nxt


def test_view_hash_is_canonical_and_changes_with_the_view() -> None:
    game = demo_game()
    a = view_hash(encode_view(project(game, 0)))
    assert a == view_hash(encode_view(project(game, 0)))
    d = game.pending
    assert d is not None
    apply(game, d.seat, d.options[0])
    assert view_hash(encode_view(project(game, 0))) != a


def test_spectator_view_has_no_hand_and_counts_only() -> None:
    game = demo_game()
    view = project(game, SPECTATOR)
    assert all(key[0] is not Zone.HAND for key in view.zones)
    assert [p.hand_count for p in view.players] == [7, 7]
    assert [p.library_count for p in view.players] == [53, 53]


def test_object_cache_encodes_exactly_like_a_fresh_encoding() -> None:
    game = demo_game()
    cache = ObjectCache()
    rng = random.Random(5)
    for _ in range(300):
        if game.result is not None:
            break
        d = game.pending
        assert d is not None
        apply(game, d.seat, rng.choice(d.options))
        view = project(game, 0)
        assert encode_view(view, cache) == encode_view(view)
        cache.keep_only(view)
